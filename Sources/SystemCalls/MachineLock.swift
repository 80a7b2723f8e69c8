#if canImport(Glibc)
  import Glibc
#endif

/// The lock on what needs the whole machine (a cpufreq cap, full-load burners, a hot soak): an
/// exclusive `flock` on one file in a machine-wide folder (`/run/firstframe/machine.lock`), held
/// by one process at a time for as long as it applies such a condition. A lock on a file holds
/// across pid namespaces wherever the folder is shared (a container that sees the host's `/run`),
/// and the kernel lets go of it when its holder ends, however it ends (SIGKILL included); the
/// descriptor is close-on-exec, so no program the holder spawns keeps it.
///
/// The holder writes `pid N` and what it holds the machine for (`use …`) into the file, so that a
/// process that finds it held can say who holds it and why. The file is never removed (removing a
/// lock file lets two processes lock two different files).
public final class MachineLock: Sendable {
  /// The machine-wide lock file: in the folder root makes for claims (`/run/firstframe`, 0755),
  /// mode 0644, so that every user can lock it (a lock needs only read access).
  public static let machinePath = "/run/firstframe/machine.lock"

  /// Where this process locks: ``machinePath`` when it exists or this process may make it; else
  /// this user's own (`$XDG_RUNTIME_DIR/firstframe-machine.lock`, else
  /// `/tmp/firstframe-machine.lock-<uid>`), which only this user's benches share.
  public static var defaultPath: String {
    if access(machinePath, R_OK) == 0 { return machinePath }
    if mkdir("/run/firstframe", 0o755) == 0 { chmod("/run/firstframe", 0o755) }
    if access("/run/firstframe", W_OK | X_OK) == 0 { return machinePath }
    return PrivateDirectory.perUserPath("firstframe-machine.lock")
  }

  /// The lock file.
  public let path: String
  /// The open lock file, locked exclusively; closed (and the lock let go) with the lock.
  private let descriptor: Int32
  /// Whether the file is open for writing (the holder's line is written and cleared); false
  /// for a user who may not write a lock file another user made: others see "another bench".
  public let writable: Bool

  private init(path: String, descriptor: Int32, writable: Bool) {
    self.path = path
    self.descriptor = descriptor
    self.writable = writable
  }

  /// Who holds a lock: the holder's pid (in its own pid namespace) and what for, as it wrote them
  /// (the failure of ``take(atPath:for:)``).
  public struct Holder: Error, Sendable, Equatable {
    /// The holder's pid, when it wrote one.
    public var pid: Int32?
    /// What the holder holds the machine for (`the cpufreq cap`), when it wrote it.
    public var use: String?

    /// A holder with `pid` and `use`.
    public init(pid: Int32?, use: String?) {
      self.pid = pid
      self.use = use
    }

    /// `another bench (pid N) holds the machine for the cpufreq cap`, what is known of it.
    public var description: String {
      "another bench" + (pid.map { " (pid \($0))" } ?? "") + " holds the machine"
        + (use.map { " for " + $0 } ?? "")
    }
  }

  /// Takes the lock on `path` for `use` without waiting: the lock, or who holds it. The file is
  /// made (mode 0644) when missing; a process that may not write it locks it read-only (and
  /// writes no holder line). The corresponding calls are `open(2)` (`O_CLOEXEC | O_NOFOLLOW`),
  /// `flock(2)` (`LOCK_EX | LOCK_NB`), and `ftruncate(2)` and `pwrite(2)` for the holder's line.
  /// - Throws: the ``Errno`` of `open` or `flock` (`EACCES`, `ENOENT`: the folder is missing).
  public static func take(atPath path: String = defaultPath, for use: String) throws(Errno) -> Result<
    MachineLock, Holder
  > {
    var writable = true
    var fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
    if fd < 0 {
      let error = Errno.current
      guard error == Errno(rawValue: EACCES) || error == Errno(rawValue: EROFS) else { throw error }
      writable = false
      fd = try SystemCall.retrying { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
    }
    let taken: Bool
    do {
      taken = try FileSystem.tryLockExclusively(fd)
    } catch {
      FileDescriptorIO.close(fd)
      throw error
    }
    guard taken else {
      FileDescriptorIO.close(fd)
      return .failure(holder(atPath: path))
    }
    if writable {
      let line = Array("pid \(getpid())\nuse \(use.escapedAsOneLine)\n".utf8)
      _ = ftruncate(fd, 0)
      _ = line.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }
    return .success(MachineLock(path: path, descriptor: fd, writable: writable))
  }

  /// Who holds the lock on `path`, as the holder wrote it (both nil when it wrote nothing).
  public static func holder(atPath path: String) -> Holder {
    let text = FileSystem.readText(atPath: path, maxBytes: 4096) ?? ""
    var holder = Holder(pid: nil, use: nil)
    for line in text.split(separator: "\n") {
      if line.hasPrefix("pid ") { holder.pid = Int32(line.dropFirst(4)) }
      if line.hasPrefix("use ") { holder.use = String(line.dropFirst(4)) }
    }
    return holder
  }

  /// Lets go of the lock: clears the holder's line, then closes the file (the lock goes with it).
  deinit {
    if writable { _ = ftruncate(descriptor, 0) }
    FileDescriptorIO.close(descriptor)
  }
}
