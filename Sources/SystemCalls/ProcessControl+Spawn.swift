#if canImport(Glibc)
  import Glibc
#endif
import CPlatformShims

extension ProcessControl {
  /// What one of a new child's descriptors is when it starts (its stdin is always `/dev/null`).
  public enum ChildDescriptor: Sendable, Hashable {
    /// The file at the path, opened for appending and created (mode 0644) when missing: a log.
    case appending(toPath: String)
    /// Another of the child's descriptors, once set (stderr with stdout: `.sameAs(1)`).
    case sameAs(Int32)
    /// A descriptor of this process, duplicated onto the child's (a pipe's writing end).
    case inherited(Int32)
  }

  /// Starts `path` with `arguments` (argv[0] first) and `environment` — the one spawn of the
  /// project. The child runs in a process group of its own, with stdin from `/dev/null`, an empty
  /// signal mask, and `descriptors` (child descriptor → what it is) set in this order: the
  /// `.appending` opens, then the `.sameAs` copies, then the `.inherited` ones, each group by
  /// ascending child descriptor. A parent descriptor numbered like another one's target is copied
  /// above every target first, so that no `dup2` replaces another's source.
  ///
  /// Without `deathSignal` the child gets the default action for SIGINT, SIGTERM, SIGHUP,
  /// SIGPIPE, SIGQUIT and SIGXFSZ; the corresponding call is `posix_spawn` (what a benchmarked
  /// launch goes through). With `deathSignal`, the kernel sends it to the child when the calling
  /// *thread* exits (`PR_SET_PDEATHSIG`): call it from a thread that lives as long as the child
  /// should — a server then never outlives its owner, even when the owner is killed with SIGKILL;
  /// the child gets the default action for SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT and SIGCHLD,
  /// and the corresponding calls are `fork`, `prctl(PR_SET_PDEATHSIG)` and `execve`.
  /// - Returns: the child's pid (and process group id).
  /// - Throws: the ``Errno`` of the call that failed: `posix_spawn` or `execve` (`ENOENT` when
  ///   `path` does not exist, `EACCES`), `fork`, `open` of a log, `fcntl` of a descriptor copy.
  ///
  /// With `user` (no `deathSignal`), the child runs as that user, group and supplementary
  /// groups only, and holds no descriptor of this process but `descriptors`; the corresponding
  /// calls are `vfork`, `setgroups`, `setresgid`, `setresuid`, `close_range` and `execve`
  /// (`EPERM` when this process may not become that user).
  ///
  /// With `cgroup` (no `deathSignal`), the child starts in that cgroup (``ChildCgroup``): it and
  /// all it forks run in the cgroup from their first instruction. On cgroup v2 (its `directory`)
  /// the child is born there — `clone3` with `CLONE_INTO_CGROUP` — else, and where the kernel has
  /// no `clone3` or no `CLONE_INTO_CGROUP`, it writes `0`, itself, into the group's
  /// `cgroup.procs` before anything else it does, then execs (`vfork` and `write`). The kernel's
  /// `EACCES`, `EBUSY` or `EOPNOTSUPP` when the cgroup refuses it.
  /// ``spawnReportingEntry(path:arguments:environment:descriptors:user:cgroup:)`` says which way
  /// it went.
  ///
  /// The child is listed among this process's own children (``ownChildren``) before any other
  /// thread can see it: a scan for escaped processes never takes it for one.
  public static func spawn(
    path: String, arguments: [String], environment: [String: String],
    descriptors: [Int32: ChildDescriptor] = [:], deathSignal: Int32? = nil, user: UserIdentity? = nil,
    cgroup: ChildCgroup? = nil
  ) throws(Errno) -> pid_t {
    try ownChildren.withLock { (children) throws(Errno) -> pid_t in
      let (pid, _) = try spawnUnlisted(
        path: path, arguments: arguments, environment: environment, descriptors: descriptors,
        deathSignal: deathSignal, user: user, cgroup: cgroup)
      children.insert(pid)
      return pid
    }
  }

  /// ``spawn(path:arguments:environment:descriptors:deathSignal:user:cgroup:)`` into `cgroup`
  /// (no death signal), saying how the child entered it.
  /// - Returns: the child's pid, and how it entered the cgroup.
  public static func spawnReportingEntry(
    path: String, arguments: [String], environment: [String: String],
    descriptors: [Int32: ChildDescriptor] = [:], user: UserIdentity? = nil, cgroup: ChildCgroup
  ) throws(Errno) -> (pid: pid_t, entry: CgroupEntry) {
    try ownChildren.withLock { (children) throws(Errno) -> (pid: pid_t, entry: CgroupEntry) in
      let (pid, entry) = try spawnUnlisted(
        path: path, arguments: arguments, environment: environment, descriptors: descriptors,
        deathSignal: nil, user: user, cgroup: cgroup)
      children.insert(pid)
      return (pid, entry ?? .beforeExec)
    }
  }

  /// ``spawn(path:arguments:environment:descriptors:deathSignal:user:cgroup:)`` without the listing.
  private static func spawnUnlisted(
    path: String, arguments: [String], environment: [String: String],
    descriptors: [Int32: ChildDescriptor], deathSignal: Int32?, user: UserIdentity?, cgroup: ChildCgroup?
  ) throws(Errno) -> (pid_t, CgroupEntry?) {
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    var opened: [Int32] = []
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
      opened.forEach { FileDescriptorIO.close($0) }
    }
    let order = descriptors.sorted { (rank($0.value), $0.key) < (rank($1.value), $1.key) }
    // The parent descriptors that would be replaced by a `dup2` before their own, copied first.
    let targets = Set(descriptors.keys)
    var sources: [Int32: Int32] = [:]
    for case (let child, .inherited(let parent)) in order where parent != child && targets.contains(parent) {
      let copy = try SystemCall.retrying { fcntl(parent, F_DUPFD_CLOEXEC, (targets.max() ?? 0) + 1) }
      opened.append(copy)
      sources[child] = copy
    }
    if deathSignal == nil && user == nil && cgroup == nil {
      return (try posixSpawn(path: path, argv: argv, envp: envp, order: order, sources: sources), nil)
    }
    // The forked child cannot open files safely in every case: logs are opened here.
    var pairs: [(source: Int32, target: Int32)] = []
    for (child, descriptor) in order {
      switch descriptor {
      case .appending(let log):
        let fd = try SystemCall.retrying { open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644) }
        opened.append(fd)
        pairs.append((fd, child))
      case .sameAs(let other): pairs.append((other, child))
      case .inherited(let parent): pairs.append((sources[child] ?? parent, child))
      }
    }
    let pid: Int32
    var cloned: Int32 = 0
    if let deathSignal {
      pid = CPlatformShims_spawnTiedToThread(
        path, argv, envp, pairs.map(\.source), pairs.map(\.target), Int32(pairs.count), deathSignal)
    } else {
      pid = CPlatformShims_spawnAsUser(
        path, argv, envp, pairs.map(\.source), pairs.map(\.target), Int32(pairs.count), user?.uid ?? 0,
        user?.gid ?? 0, user?.groups ?? [], Int32(user?.groups.count ?? 0), user == nil ? 0 : 1,
        cgroup?.processes ?? -1, cgroup?.directory ?? -1, &cloned)
    }
    guard pid > 0 else { throw Errno.current }
    return (pid, cgroup == nil ? nil : cloned != 0 ? .clonedInto : .beforeExec)
  }

  /// The order in which a kind of descriptor is set: opens, copies, inherited ones.
  private static func rank(_ descriptor: ChildDescriptor) -> Int {
    switch descriptor {
    case .appending: return 0
    case .sameAs: return 1
    case .inherited: return 2
    }
  }

  /// ``spawn(path:arguments:environment:descriptors:deathSignal:)`` without a death signal.
  private static func posixSpawn(
    path: String, argv: [UnsafeMutablePointer<CChar>?], envp: [UnsafeMutablePointer<CChar>?],
    order: [(key: Int32, value: ChildDescriptor)], sources: [Int32: Int32]
  ) throws(Errno) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    for (child, descriptor) in order {
      switch descriptor {
      case .appending(let log):
        posix_spawn_file_actions_addopen(&actions, child, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
      case .sameAs(let other): posix_spawn_file_actions_adddup2(&actions, other, child)
      case .inherited(let parent): posix_spawn_file_actions_adddup2(&actions, sources[child] ?? parent, child)
      }
    }
    var attr = posix_spawnattr_t()
    posix_spawnattr_init(&attr)
    defer { posix_spawnattr_destroy(&attr) }
    posix_spawnattr_setpgroup(&attr, 0)
    // A caller may ignore SIGINT/SIGTERM/SIGPIPE/SIGXFSZ for its own handling; children get defaults.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for sig in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGXFSZ] { sigaddset(&defaults, sig) }
    posix_spawnattr_setsigdefault(&attr, &defaults)
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attr, &empty)
    posix_spawnattr_setflags(
      &attr, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    var pid: pid_t = 0
    try SystemCall.retryingReturnedError { posix_spawn(&pid, path, &actions, &attr, argv, envp) }
    return pid
  }
}
