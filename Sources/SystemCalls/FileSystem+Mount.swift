#if canImport(Glibc)
  import Glibc
#endif

extension FileSystem {
  /// Mounts a pseudo file system of type `type` (`tracefs`) with no device (`nodev`) at the
  /// existing folder `path`, as `mount -t TYPE nodev PATH` does. The corresponding call is
  /// `mount(2)`.
  /// - Throws: the ``Errno`` of `mount` (`EPERM` without `CAP_SYS_ADMIN`, `ENODEV` when the
  ///   kernel has no such file system, `EBUSY` when something is already mounted there).
  public static func mountPseudoFileSystem(type: String, atPath path: String) throws(Errno) {
    _ = try SystemCall.retrying { mount("nodev", path, type, 0, nil) }
  }
}
