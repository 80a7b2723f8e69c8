#if canImport(Glibc)
  import Glibc
#endif

extension FileSystem {
  /// Removes what is at `path`: a file or a symbolic link (never what the link points to), or a
  /// folder with everything under it, depth first. Links inside the tree are removed as links,
  /// never followed. The corresponding calls are `lstat(2)`, `unlink(2)` and `rmdir(2)`.
  /// - Parameter absentIsFine: when true, nothing at `path` is not an error; an entry under a
  ///   folder that vanishes meanwhile never is.
  /// - Throws: the ``Errno`` of the call that failed (`ENOENT` for nothing at `path` unless
  ///   `absentIsFine`, `EACCES`, `EBUSY`); what was removed before stays removed.
  public static func remove(atPath path: String, absentIsFine: Bool = false) throws(Errno) {
    guard let kind = try kind(atPath: path) else {
      if absentIsFine { return }
      throw Errno.noSuchFile
    }
    do {
      if kind == .directory {
        for name in try contentsOfDirectory(atPath: path) {
          try remove(atPath: path + "/" + name, absentIsFine: true)
        }
        _ = try SystemCall.retrying { rmdir(path) }
      } else {
        _ = try SystemCall.retrying { unlink(path) }
      }
    } catch  where error == .noSuchFile && absentIsFine {
      return
    }
  }
}
