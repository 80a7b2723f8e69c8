/// How a `low-power` run's app entered its cgroup (`RunRecord.lowPower.placement`).
package struct CgroupPlacement: Sendable, Hashable {
  /// `clone-into-cgroup`: the child was born in the group (`clone3` with `CLONE_INTO_CGROUP`,
  /// cgroup v2); `before-exec`: the spawned child wrote itself into the group before it execed
  /// (v1, and v2 where the kernel cannot clone into a cgroup); `after-spawn`, the pid moved in
  /// after the spawn, is what earlier benches recorded on v2.
  package var how: String
  /// `after-spawn`: from the spawn's return to the pid's write, µs; nil for the others.
  package var delayMicroseconds: Int?
  /// Why the app could not be put into the group; nil when it was.
  package var failure: String?

  /// Creates a placement.
  package init(how: String, delayMicroseconds: Int?, failure: String?) {
    self.how = how
    self.delayMicroseconds = delayMicroseconds
    self.failure = failure
  }
}
