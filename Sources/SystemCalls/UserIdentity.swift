#if canImport(Glibc)
  import Glibc
#endif
import CPlatformShims

/// A user a child runs as (``ProcessControl/spawn(path:arguments:environment:descriptors:deathSignal:user:)``):
/// its name, user and group ids, and the supplementary groups it keeps (none unless given).
public struct UserIdentity: Sendable, Hashable {
  /// The login name (or the uid as text when the password database has no entry).
  public var name: String
  /// The user id.
  public var uid: uid_t
  /// The primary group id.
  public var gid: gid_t
  /// The supplementary groups, at most 64.
  public var groups: [gid_t]

  /// Creates an identity.
  public init(name: String, uid: uid_t, gid: gid_t, groups: [gid_t] = []) {
    self.name = name
    self.uid = uid
    self.gid = gid
    self.groups = Array(groups.prefix(64))
  }

  /// The user named `name` (or numbered, `"1000"`) in the password database, with its primary
  /// group and no supplementary one; nil when there is none. The corresponding call is
  /// `getpwnam_r` (`getpwuid_r` for a number).
  public static func lookUp(_ name: String) -> UserIdentity? {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 4096)
    if let uid = uid_t(name) {
      _ = getpwuid_r(uid, &entry, &buffer, buffer.count, &result)
    } else {
      _ = getpwnam_r(name, &entry, &buffer, buffer.count, &result)
    }
    guard let found = result?.pointee else { return nil }
    return UserIdentity(name: String(cString: found.pw_name), uid: found.pw_uid, gid: found.pw_gid)
  }

  /// The user this process runs as (its effective ids), named from the password database.
  public static var current: UserIdentity {
    let uid = geteuid()
    var me = lookUp(String(uid)) ?? UserIdentity(name: String(uid), uid: uid, gid: getegid())
    me.gid = getegid()
    return me
  }

  /// Whether this user, with its groups, may search every folder on `path`'s way and do `access`
  /// (`R_OK`, `W_OK`, `X_OK`, or'ed) to `path` itself, judged from the mode bits (ACLs are not
  /// read). Returns nil when it may, else the first path it may not reach and why, one line.
  public func cannotReach(_ path: String, access: Int32) -> String? {
    guard uid != 0 else { return nil }
    var prefix = ""
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    for (i, part) in parts.enumerated() {
      prefix += "/" + part
      var st = stat()
      guard stat(prefix, &st) == 0 else { return "\(prefix): \(Errno.current.message)" }
      let wanted = i == parts.count - 1 ? access : X_OK
      if !allows(st, wanted) {
        let mode = String(st.st_mode & 0o7777, radix: 8)
        return "\(prefix) (mode 0\(mode), owner \(st.st_uid), group \(st.st_gid)) is not "
          + (wanted == X_OK && i < parts.count - 1 ? "traversable" : "open") + " to user \(name) (uid \(uid))"
      }
    }
    return nil
  }

  /// Whether `st`'s mode bits give this user every bit of `access`.
  private func allows(_ st: stat, _ access: Int32) -> Bool {
    let shift: mode_t =
      st.st_uid == uid ? 6 : (st.st_gid == gid || groups.contains(st.st_gid)) ? 3 : 0
    let bits = (st.st_mode >> shift) & 0o7
    return bits & mode_t(access) == mode_t(access)
  }
}

extension ProcessControl {
  /// Makes this process not dumpable: its `/proc/<pid>` files (its descriptors under `fd/`)
  /// become root's and closed to ptrace, so that a process of the same user — the app under
  /// test — cannot reach what it holds open. The corresponding call is `prctl(PR_SET_DUMPABLE, 0)`.
  public static func becomeNotDumpable() throws(Errno) {
    _ = try SystemCall.retrying { CPlatformShims_setNotDumpable() }
  }
}

extension FileSystem {
  /// Hands `path` (not a link it may be: `lchown`) to user `uid` and group `gid`. The
  /// corresponding call is `lchown(path, uid, gid)`.
  public static func changeOwner(atPath path: String, uid: uid_t, gid: gid_t) throws(Errno) {
    _ = try SystemCall.retrying { lchown(path, uid, gid) }
  }
}

extension FileSystem {
  /// The group that owns `path` (following links), or nil when it cannot be read. The
  /// corresponding call is `stat`.
  public static func groupOwner(atPath path: String) -> gid_t? {
    var st = stat()
    return stat(path, &st) == 0 ? st.st_gid : nil
  }
}

extension FileSystem {
  /// Sets `path`'s permission bits to `mode`. The corresponding call is `chmod(path, mode)`.
  public static func setMode(atPath path: String, _ mode: mode_t) throws(Errno) {
    _ = try SystemCall.retrying { chmod(path, mode) }
  }
}
