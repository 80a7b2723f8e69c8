#if canImport(Glibc)
  import Glibc
#endif

extension FileSystem {
  /// What a path names, as `lstat(2)` sees it: a symbolic link is a link, not what it points to.
  public enum EntryKind: Sendable, Equatable {
    /// A regular file.
    case file
    /// A folder.
    case directory
    /// A symbolic link (whether or not its target exists).
    case symbolicLink
    /// Anything else: a device, a FIFO, a socket.
    case other
  }

  /// What `path` names, without following a symbolic link at `path`, or nil when nothing is there
  /// (`ENOENT`, or `ENOTDIR` when a parent is not a folder). The corresponding call is `lstat(2)`.
  /// - Throws: the ``Errno`` of `lstat` for anything else (`EACCES` on a parent, `ELOOP`).
  public static func kind(atPath path: String) throws(Errno) -> EntryKind? {
    var st = stat()
    do {
      _ = try SystemCall.retrying { lstat(path, &st) }
    } catch  where error == .noSuchFile || error == Errno(rawValue: ENOTDIR) {
      return nil
    }
    switch st.st_mode & S_IFMT {
    case S_IFREG: return .file
    case S_IFDIR: return .directory
    case S_IFLNK: return .symbolicLink
    default: return .other
    }
  }

  /// Whether anything is at `path` (a dangling symbolic link counts). The corresponding call is
  /// `lstat(2)`; a path that cannot be looked at (`EACCES`) counts as absent.
  public static func exists(atPath path: String) -> Bool {
    (try? kind(atPath: path)).flatMap { $0 } != nil
  }

  /// Whether this process may execute the file at `path` (following symbolic links). The
  /// corresponding call is `access(2)` with `X_OK`.
  public static func isExecutable(atPath path: String) -> Bool {
    access(path, X_OK) == 0
  }

  /// Whether this process may write to `path` (a folder: create files in it; following symbolic
  /// links). The corresponding call is `access(2)` with `W_OK`.
  public static func isWritable(atPath path: String) -> Bool {
    access(path, W_OK) == 0
  }
}
