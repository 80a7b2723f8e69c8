#if canImport(Glibc)
  import Glibc
#endif
import SystemCalls

/// Folders that another user made first, for tests of code that must not trust them.
package enum ForeignFolder {
  /// The user id of `nobody` on Debian and Ubuntu.
  package static let nobody: uid_t = 65534
  /// What a planted folder holds: one file, so that a test can see whether it was deleted.
  package static let plantedFile = "planted-by-another-user"

  /// Whether the tests may hand a folder to another user (`chown` needs root).
  package static var canPlant: Bool { geteuid() == 0 }

  /// Makes `path` a folder that `nobody` owns, writable by everyone (mode 0777), holding
  /// ``plantedFile``: what another user could leave at a predictable name in `/tmp`. An existing
  /// folder there is replaced only if it is empty. Returns false when that is not possible.
  /// The corresponding calls are `mkdir`, `chmod`, `open` and `chown`.
  @discardableResult
  package static func plant(at path: String) -> Bool {
    rmdir(path)
    guard (try? FileSystem.createDirectory(atPath: path, mode: 0o777)) != nil, chmod(path, 0o777) == 0 else {
      return false
    }
    let file = path + "/" + plantedFile
    let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
    guard fd >= 0 else { return false }
    close(fd)
    return chown(file, nobody, nobody) == 0 && chown(path, nobody, nobody) == 0
  }

  /// Whether the planted file is still in the folder at `path`.
  package static func stillPlanted(at path: String) -> Bool {
    access(path + "/" + plantedFile, F_OK) == 0
  }

  /// Removes a folder made by ``plant(at:)`` (the planted file, then the folder). Other files
  /// the code under test left there are removed too, one level deep.
  package static func remove(_ path: String) {
    if let dir = opendir(path) {
      while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if name != "." && name != ".." { unlink(path + "/" + name) }
      }
      closedir(dir)
    }
    rmdir(path)
  }
}
