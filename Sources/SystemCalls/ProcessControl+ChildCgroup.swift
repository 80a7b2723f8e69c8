extension ProcessControl {
  /// The cgroup a spawned child starts in (``spawn(path:arguments:environment:descriptors:deathSignal:user:cgroup:)``).
  public struct ChildCgroup: Sendable, Hashable {
    /// A descriptor open for writing on the group's `cgroup.procs`: the child writes itself there
    /// before it execs (cgroup v1, and v2 where the kernel cannot clone into a cgroup).
    public var processes: Int32
    /// A descriptor of the group's folder (`O_DIRECTORY`), cgroup v2 only: the child is born in
    /// the group (`clone3` with `CLONE_INTO_CGROUP`, Linux ≥ 5.7); nil on v1.
    public var directory: Int32?

    /// Creates a target from its descriptors, which the caller keeps open over the spawn and closes.
    public init(processes: Int32, directory: Int32?) {
      self.processes = processes
      self.directory = directory
    }
  }

  /// How a spawned child entered its cgroup, as results record it (`placement`).
  public enum CgroupEntry: String, Sendable, Hashable {
    /// `clone-into-cgroup`: born in the group (`clone3` with `CLONE_INTO_CGROUP`, cgroup v2).
    case clonedInto = "clone-into-cgroup"
    /// `before-exec`: the child wrote itself into the group's `cgroup.procs` before it execed.
    case beforeExec = "before-exec"
  }
}
