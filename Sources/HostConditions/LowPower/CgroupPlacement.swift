/// How a `low-power` run's app entered its cgroup (`RunRecord.lowPower.placement`).
package struct CgroupPlacement: Sendable, Hashable {
  /// `before-exec` (cgroup v1: the spawning thread was in the group) or `after-spawn` (v2: the
  /// pid moved in right after `posix_spawn`).
  package var how: String
  /// `after-spawn`: from `posix_spawn`'s return to the pid's write, µs; nil for `before-exec`.
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
