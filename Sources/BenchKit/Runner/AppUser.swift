#if canImport(Glibc)
  import Glibc
#endif
import ResultsSchema
import SystemCalls

/// Who the app under test runs as (`--app-user`, issue 41 item 3). When bench is root the app
/// is not: it runs as an unprivileged user — by default the one who ran `sudo` (`SUDO_USER`,
/// `SUDO_UID`), else `nobody` — with its camera node, its display and its own scratch folders
/// granted to that user and nothing else, so that it cannot reach bench's results, journal or
/// descriptors. `--app-user root` is allowed and recorded as an app that could have reached the
/// results. When bench is not root the app runs as bench's user, as before, and that is recorded.
package struct AppUser: Sendable, Equatable {
  /// The user the app runs as, with the supplementary groups it keeps (the camera node's group
  /// when that is how the node is open to it; none else).
  package var identity: UserIdentity
  /// Whether bench runs as root and the app does not: the app is spawned as ``identity``.
  package var dropsPrivileges: Bool

  /// The user the app runs as when none is named: bench's own when bench is not root; as root,
  /// the user who ran sudo (`SUDO_USER`, else `SUDO_UID`) unless that is root, else `nobody`.
  package static func defaultName(benchIsRoot: Bool, environment: [String: String]) -> String {
    guard benchIsRoot else { return UserIdentity.current.name }
    for key in ["SUDO_USER", "SUDO_UID"] {
      if let given = environment[key], !given.isEmpty, let user = UserIdentity.lookUp(given), user.uid != 0 {
        return user.name
      }
    }
    return "nobody"
  }

  /// The app user `given` names (`--app-user`; nil: ``defaultName(benchIsRoot:environment:)``),
  /// for an app that opens `cameraNode` (nil: none). Returns the user, or one line saying why it
  /// cannot be used: no such user, another user asked for while bench is not root, or a camera
  /// node the user could not open.
  package static func resolve(
    given: String?, cameraNode: String?, benchIsRoot: Bool = geteuid() == 0,
    environment: [String: String]
  ) -> Result<AppUser, AppUserError> {
    let name = given ?? defaultName(benchIsRoot: benchIsRoot, environment: environment)
    guard var identity = UserIdentity.lookUp(name) else {
      return .failure(AppUserError("--app-user \(name): no such user"))
    }
    guard benchIsRoot else {
      let me = UserIdentity.current
      guard identity.uid == me.uid else {
        return .failure(
          AppUserError(
            "--app-user \(name): bench is not root, so the app runs as bench's user (\(me.name)); run bench as root to run the app as another user"
          ))
      }
      return .success(AppUser(identity: me, dropsPrivileges: false))
    }
    guard identity.uid != 0 else { return .success(AppUser(identity: identity, dropsPrivileges: false)) }
    if let node = cameraNode, identity.cannotReach(node, access: R_OK | W_OK) != nil {
      // The node's own group, when its mode opens it to the group: that group and no other.
      if let group = FileSystem.groupOwner(atPath: node) { identity.groups = [group] }
      if let why = identity.cannotReach(node, access: R_OK | W_OK) {
        return .failure(AppUserError("--app-user \(identity.name): the camera: \(why); use --app-user root"))
      }
    }
    return .success(AppUser(identity: identity, dropsPrivileges: true))
  }

  /// Nil when this user may run `program` (search every folder on its way, read and execute
  /// it), else one line saying what is in the way and what to do.
  package func cannotRun(_ program: String) -> String? {
    guard dropsPrivileges, let why = identity.cannotReach(program, access: R_OK | X_OK) else { return nil }
    return
      "the app user \(identity.name) cannot run \(program): \(why); make it reachable (chmod o+rx) or use --app-user root"
  }

  /// Hands `path` (a scratch folder or file of the app's own, made by bench) to this user when
  /// the app runs as another user than bench's; nothing else. Bench still takes that folder for
  /// its own (`PrivateDirectory.handOver`): it keeps the camera's power state there too.
  /// - Throws: the ``Errno`` of `lchown`.
  package func grant(_ path: String) throws(Errno) {
    guard dropsPrivileges else { return }
    try PrivateDirectory.handOver(path, uid: identity.uid, gid: identity.gid)
  }

  /// What results.json records (`settings.app_user`).
  package var record: BenchResults.AppUserRecord {
    BenchResults.AppUserRecord(
      name: identity.name, uid: Int(identity.uid), benchIsRoot: geteuid() == 0,
      reachesResults: !dropsPrivileges)
  }
}

/// Why `--app-user` cannot be used: one line.
package struct AppUserError: Error, Sendable, CustomStringConvertible {
  /// The line.
  package let description: String
  init(_ line: String) { description = line }
}
