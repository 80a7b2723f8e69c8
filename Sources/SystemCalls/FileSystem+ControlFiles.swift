#if canImport(Glibc)
  import Glibc
#endif

extension FileSystem {
  /// Writes `text` into an existing kernel control file (a sysfs or cgroup attribute such as
  /// `scaling_max_freq` or `cpu.cfs_quota_us`) in one `write`, the way `echo TEXT > FILE` does:
  /// the file is opened without creating it, truncated (ignored by sysfs and cgroupfs, needed by
  /// the regular files of a fake sysfs root) and written at once, so the kernel sees one value.
  /// The corresponding calls are `open(2)` with `O_WRONLY | O_TRUNC` and `write(2)`.
  /// - Throws: the ``Errno`` of the call that failed (`ENOENT` for a missing file, `EACCES` or
  ///   `EPERM` without write access, `EINVAL` for a value the kernel refuses).
  public static func writeControlFile(_ text: String, atPath path: String) throws(Errno) {
    let fd = try SystemCall.retrying { open(path, O_WRONLY | O_TRUNC | O_CLOEXEC) }
    defer { FileDescriptorIO.close(fd) }
    try FileDescriptorIO.writeAll(fd, text)
  }

  /// Writes `text` to the control file at `path` opened for appending (`O_APPEND`, never
  /// `O_TRUNC`): for a file whose opening with `O_TRUNC` clears what it holds (tracefs'
  /// `set_event_pid`, which then adds to its list rather than replacing it).
  /// - Throws: the ``Errno`` of `open` or `write`.
  public static func appendControlFile(_ text: String, atPath path: String) throws(Errno) {
    let fd = try SystemCall.retrying { open(path, O_WRONLY | O_APPEND | O_CLOEXEC) }
    defer { FileDescriptorIO.close(fd) }
    try FileDescriptorIO.writeAll(fd, text)
  }

  /// Opens the control file at `path` for writing (`O_WRONLY | O_CLOEXEC`, no truncation): a
  /// cgroup's `cgroup.procs` that a spawned child writes itself into before it execs.
  /// - Throws: the ``Errno`` of `open`.
  public static func openControlFileForWriting(atPath path: String) throws(Errno) -> Int32 {
    try SystemCall.retrying { open(path, O_WRONLY | O_CLOEXEC) }
  }

  /// Opens the folder at `path` (`O_RDONLY | O_DIRECTORY | O_CLOEXEC`): a cgroup v2 group's, which
  /// a child is cloned into (`clone3` with `CLONE_INTO_CGROUP`).
  /// - Throws: the ``Errno`` of `open`.
  public static func openDirectory(atPath path: String) throws(Errno) -> Int32 {
    try SystemCall.retrying { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
  }

  /// Removes the empty folder at `path` (a cgroup is removed this way once no task is left in
  /// it). The corresponding call is `rmdir(2)`.
  /// - Throws: the ``Errno`` of `rmdir` (`ENOENT`, `EBUSY` or `ENOTEMPTY` while tasks remain).
  public static func removeDirectory(atPath path: String) throws(Errno) {
    _ = try SystemCall.retrying { rmdir(path) }
  }
}
