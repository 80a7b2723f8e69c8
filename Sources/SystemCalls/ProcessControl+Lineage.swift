#if canImport(Glibc)
  import Glibc
#endif

extension ProcessControl {
  /// The parent pid and state (`R`, `S`, `Z` for a zombie, …) of process `pid`, from
  /// `/proc/<pid>/stat` (its fourth and third fields), or nil when there is no such process.
  public static func parentAndState(of pid: pid_t) -> (parent: pid_t, state: Character)? {
    guard let stat = FileSystem.readText(atPath: "/proc/\(pid)/stat", maxBytes: 4096),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 1, let parent = pid_t(fields[1]), let state = fields[0].first else { return nil }
    return (parent, state)
  }

  /// The process group of process `pid`, from `/proc/<pid>/stat` (its fifth field), or nil when
  /// there is no such process.
  public static func processGroup(of pid: pid_t) -> pid_t? {
    guard let stat = FileSystem.readText(atPath: "/proc/\(pid)/stat", maxBytes: 4096),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return fields.count > 2 ? pid_t(fields[2]) : nil
  }

  /// Whether process `pid` is `ancestor` or one it started, however deep: its chain of parents
  /// (``parentAndState(of:)``) reaches `ancestor` before init. A process whose parent ended was
  /// re-parented (to init or a subreaper) and no longer descends from it.
  public static func isProcess(_ pid: pid_t, selfOrDescendantOf ancestor: pid_t) -> Bool {
    var current = pid
    // A chain deeper than 256 is not followed (pid_max allows loops only through a race).
    for _ in 0..<256 {
      if current == ancestor { return true }
      guard current > 1, let parent = parentAndState(of: current)?.parent else { return false }
      current = parent
    }
    return false
  }
}
