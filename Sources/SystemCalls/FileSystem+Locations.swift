#if canImport(Glibc)
  import Glibc
#endif

extension FileSystem {
  /// The working directory of this process. The corresponding call is `getcwd(3)`.
  /// - Throws: the ``Errno`` of `getcwd` (`ENOENT` when the folder was removed, `EACCES`).
  public static func currentDirectory() throws(Errno) -> String {
    guard let path = getcwd(nil, 0) else { throw Errno.current }
    defer { free(path) }
    return String(cString: path)
  }

  /// The folder for temporary files: `$TMPDIR` when set and not empty, else `/tmp`, without a
  /// trailing slash. The corresponding call is `getenv(3)`.
  public static var temporaryDirectory: String {
    temporaryDirectory(tmpdir: getenv("TMPDIR").map { String(cString: $0) })
  }

  /// The folder for temporary files when `$TMPDIR` is `tmpdir` (nil when unset): see
  /// ``temporaryDirectory``.
  package static func temporaryDirectory(tmpdir: String?) -> String {
    guard let tmpdir, !tmpdir.isEmpty else { return "/tmp" }
    var folder = Substring(tmpdir)
    while folder.count > 1 && folder.hasSuffix("/") { folder = folder.dropLast() }
    return String(folder)
  }
}
