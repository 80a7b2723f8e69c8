#if canImport(Glibc)
  import Glibc
#endif

/// Folders that only this user can change: fresh ones with unpredictable names (`mkdtemp`), and
/// folders at a known name (in `/tmp`, where any user may have made one first) that are used
/// only after checking that this user owns them, that nobody else can write into them, and that
/// they are not symbolic links.
public enum PrivateDirectory {
  /// Creates a new folder, mode 0700, named `prefix` + six random characters, in `parent`
  /// (default: `$TMPDIR`, else `/tmp`). Returns its path. The corresponding call is `mkdtemp`.
  /// - Throws: `PrivateDirectoryError` with `mkdtemp`'s errno.
  public static func makeTemporary(prefix: String, in parent: String? = nil) throws(PrivateDirectoryError)
    -> String
  {
    let base = parent ?? temporaryRoot()
    var template = Array((base + "/" + prefix + "XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
    guard made else {
      let error = Errno.current
      throw PrivateDirectoryError(
        .systemCallFailed, path: base + "/" + prefix + "XXXXXX",
        "cannot create a private folder in \(base) (mkdtemp: \(error.message))", errno: error)
    }
    return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }

  /// `$TMPDIR` when it is an absolute path, else `/tmp`.
  public static func temporaryRoot() -> String {
    if let raw = getenv("TMPDIR"), raw.pointee == UInt8(ascii: "/") {
      let path = String(cString: raw)
      return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
    return "/tmp"
  }

  /// The per-user folder for `name`: `<runtimeDirectory>/<name>` when `runtimeDirectory`
  /// (`$XDG_RUNTIME_DIR`, which belongs to the user and is mode 0700) is an absolute path, else
  /// `/tmp/<name>-<uid>`. Use it through ``prepare(_:)``: another user can make the `/tmp` one first.
  public static func perUserPath(_ name: String, runtimeDirectory: String?) -> String {
    if let runtimeDirectory, runtimeDirectory.hasPrefix("/") {
      return (runtimeDirectory.hasSuffix("/") ? runtimeDirectory : runtimeDirectory + "/") + name
    }
    return "/tmp/\(name)-\(getuid())"
  }

  /// ``perUserPath(_:runtimeDirectory:)`` with this process's `$XDG_RUNTIME_DIR`.
  public static func perUserPath(_ name: String) -> String {
    let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
    return perUserPath(name, runtimeDirectory: runtime)
  }

  /// Makes sure `path` is a private folder: creates it (and missing parents) with mode 0700, or
  /// checks the one that is there (see ``check(_:)``). The corresponding calls are `mkdir` and `lstat`.
  /// - Throws: `PrivateDirectoryError` naming what is wrong with the folder or its parents.
  public static func prepare(_ path: String) throws(PrivateDirectoryError) {
    guard path.hasPrefix("/") else {
      throw PrivateDirectoryError(.notAbsolute, path: path, "\(path) is not an absolute path")
    }
    var prefix = ""
    for component in path.split(separator: "/") {
      prefix += "/" + component
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
        let error = Errno.current
        throw PrivateDirectoryError(
          .systemCallFailed, path: prefix, "cannot create the folder \(prefix) (mkdir: \(error.message))",
          errno: error)
      }
    }
    try check(path)
  }

  /// Checks that `path` is a folder this user may trust: not a symbolic link, owned by this user,
  /// writable by nobody else; and that every folder above it is owned by this user or root and,
  /// when others can write into it, sticky (as `/tmp` is), so nobody else can swap it.
  /// The corresponding call is `fstatat` (`lstat`, and `stat` through a parent that is a link).
  /// - Throws: `PrivateDirectoryError` naming the folder at fault and why.
  ///
  /// A folder this process made and handed to another user (``handOver(_:uid:gid:)``: the app
  /// under test's scratch, when bench is root and the app is not) passes as this user's own:
  /// that exact path only, never a folder another user made first.
  public static func check(_ path: String) throws(PrivateDirectoryError) {
    guard path.hasPrefix("/") else {
      throw PrivateDirectoryError(.notAbsolute, path: path, "\(path) is not an absolute path")
    }
    let me = geteuid()
    var prefix = ""
    let components = path.split(separator: "/")
    for (index, component) in components.enumerated() {
      prefix += "/" + component
      var st = try status(prefix, followingLinks: false)
      let isLast = index == components.count - 1
      if st.st_mode & S_IFMT == S_IFLNK {
        // A parent may be a link that root or this user made (`/var/run` → `/run`); the folder
        // itself may not.
        guard !isLast else {
          throw PrivateDirectoryError(
            .symbolicLink, path: prefix, "\(prefix) is a symbolic link, not a folder of this user's own")
        }
        guard st.st_uid == 0 || st.st_uid == me else { throw foreignOwner(prefix, st.st_uid) }
        st = try status(prefix, followingLinks: true)
      }
      guard st.st_mode & S_IFMT == S_IFDIR else {
        throw PrivateDirectoryError(.notADirectory, path: prefix, "\(prefix) is not a folder")
      }
      if isLast {
        guard st.st_uid == me || handedOver.withLock({ $0[path] == st.st_uid }) else {
          throw foreignOwner(prefix, st.st_uid)
        }
        guard st.st_mode & 0o022 == 0 else { throw writableByOthers(prefix, st.st_mode) }
      } else {
        guard st.st_uid == 0 || st.st_uid == me else { throw foreignOwner(prefix, st.st_uid) }
        guard st.st_mode & 0o022 == 0 || st.st_mode & S_ISVTX != 0 else {
          throw writableByOthers(prefix, st.st_mode)
        }
      }
    }
  }

  /// The folders this process handed to another user, by path, with that user's uid.
  private static let handedOver = PThreadMutex<[String: uid_t]>([:])

  /// Hands `path` — a folder or file this process made — to user `uid` and group `gid`, and
  /// remembers it: ``check(_:)`` still takes that folder for this user's own. The corresponding
  /// call is `lchown(path, uid, gid)`.
  public static func handOver(_ path: String, uid: uid_t, gid: gid_t) throws(Errno) {
    try FileSystem.changeOwner(atPath: path, uid: uid, gid: gid)
    handedOver.withLock { $0[path] = uid }
  }

  private static func status(_ path: String, followingLinks: Bool) throws(PrivateDirectoryError) -> stat {
    var st = Glibc.stat()
    let rc = fstatat(AT_FDCWD, path, &st, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW)
    guard rc == 0 else {
      let error = Errno.current
      throw PrivateDirectoryError(
        error == .noSuchFile ? .missing : .systemCallFailed, path: path,
        "cannot inspect \(path) (\(followingLinks ? "stat" : "lstat"): \(error.message))", errno: error)
    }
    return st
  }

  private static func foreignOwner(_ path: String, _ owner: uid_t) -> PrivateDirectoryError {
    PrivateDirectoryError(
      .foreignOwner, path: path,
      "\(path) is owned by user \(owner), not by this user (\(geteuid())): another user may have made it; remove it or choose another folder"
    )
  }

  private static func writableByOthers(_ path: String, _ mode: mode_t) -> PrivateDirectoryError {
    PrivateDirectoryError(
      .writableByOthers, path: path,
      "\(path) can be changed by other users (mode \(String(mode & 0o7777, radix: 8))); remove it or choose another folder"
    )
  }
}

/// A folder that cannot be trusted or made: what is wrong, which folder, and the errno if a call failed.
public struct PrivateDirectoryError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong.
  public enum Code: String, Sendable {
    /// The path is relative.
    case notAbsolute = "not_absolute"
    /// The folder does not exist.
    case missing
    /// Something other than a folder is there.
    case notADirectory = "not_a_directory"
    /// The folder is a symbolic link.
    case symbolicLink = "symbolic_link"
    /// Another user owns the folder (or a folder above it).
    case foreignOwner = "foreign_owner"
    /// Other users can write into the folder (or into a folder above it that is not sticky).
    case writableByOthers = "writable_by_others"
    /// A system call failed; `errno` says why.
    case systemCallFailed = "system_call_failed"
  }

  /// What is wrong.
  public var code: Code
  /// The folder at fault.
  public var path: String
  /// One sentence a person can act on.
  public var message: String
  /// The errno of the call that failed, if one did.
  public var errno: Errno?

  /// Creates an error.
  public init(_ code: Code, path: String, _ message: String, errno: Errno? = nil) {
    self.code = code
    self.path = path
    self.message = message
    self.errno = errno
  }

  /// The message.
  public var description: String { message }
}
