import Subprocess
import SystemCalls

/// A scratch folder of the apps' own that outlives no bench (issue 41 item 1): the apps' state
/// (``BenchRunner/stateDirectory``), the camera's state the sides of `bench ab` share, the state
/// of `bench launch-floor`'s camera-app. The folder is bench's, named with bench's claim token
/// (`<prefix><token>-XXXXXX` in `$TMPDIR`, `mkdtemp`, mode 0711 when the app runs as another
/// user, else 0700); the apps write in ``scratch`` inside it (`app/`), handed to the app user
/// when the app runs as another user than bench's. So the next bench knows a folder a bench
/// killed with SIGKILL left (and its guard could not remove) as a bench's own, whoever the app
/// user was, and removes it when its claim is free (``removeAbandoned(in:folders:)``), as it
/// removes the private trace folders.
package struct AppScratchFolder: Sendable {
  /// The names' starts, each followed by the claim token and `-`.
  package static let prefixes = ["firstframe-bench-", "firstframe-device-", "firstframe-launch-floor-"]

  /// The folder, bench's; removing it removes the scratch.
  package let folder: String
  /// Where the apps write: `app/` in ``folder``, the app user's.
  package var scratch: String { folder + "/app" }

  /// Makes the folder (`prefix`, one of ``prefixes``, then `token`) in `root` and the scratch in
  /// it, handed to `user` when it is not bench's.
  /// - Throws: `RunnerError` (`stateFolder`) naming what could not be made or handed over.
  package init(
    prefix: String, user: AppUser?, in root: String? = nil, token: String = MachineClaim.currentToken
  ) throws(RunnerError) {
    do {
      folder = try PrivateDirectory.makeTemporary(prefix: prefix + token + "-", in: root)
    } catch {
      throw RunnerError(
        .stateFolder, "cannot make the apps' state folder: \(error.message)", errno: error.errno)
    }
    let handed = user?.dropsPrivileges == true ? user : nil
    do throws(Errno) {
      if handed != nil { try FileSystem.setMode(atPath: folder, 0o711) }
      try FileSystem.createDirectory(atPath: folder + "/app", mode: 0o700)
      try handed?.grant(folder + "/app")
    } catch {
      try? FileSystem.remove(atPath: folder, absentIsFine: true)
      throw RunnerError(
        .stateFolder, "cannot hand the apps' state folder to the app user: \(error.message)", errno: error)
    }
  }

  /// Removes the folder and all in it.
  package func remove() { try? FileSystem.remove(atPath: folder, absentIsFine: true) }

  /// Removes the folders in `root` whose bench (the claim token in their name, ``MachineClaim``,
  /// looked up in `folders`) is gone: what a bench and its guard killed with SIGKILL left. Only
  /// folders of this user's own are removed (not links: `PrivateDirectory.check`); the scratch
  /// inside may be another user's. One whose bench still runs, in whatever pid namespace, or
  /// whose name holds no token, is left alone. Returns the names removed.
  @discardableResult
  package static func removeAbandoned(in root: String, folders: [String] = MachineClaim.searchFolders)
    -> [String]
  {
    let names = (try? FileSystem.contentsOfDirectory(atPath: root)) ?? []
    return prefixes.flatMap { prefix in
      MachineClaim.removeLeftovers(names, prefix: prefix, folders: folders) { name in
        let path = root + "/" + name
        guard (try? PrivateDirectory.check(path)) != nil else { return false }
        try? FileSystem.remove(atPath: path, absentIsFine: true)
        return true
      }
    }
  }
}
