import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh, empty temporary folder named `label-XXXXXX` (made by `mkdtemp`, so unique even
/// across processes, then given mode 0755 as a folder made the plain way); returns its path. The
/// tests' one temporary-folder helper: remove the folder with
/// `FileManager.default.removeItem(atPath:)` when done.
package func temporaryFolder(_ label: String = "benchkit") -> String {
  var template = Array((NSTemporaryDirectory() + "\(label)-XXXXXX").utf8CString)
  if template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil {
    let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    chmod(path, 0o755)
    return path
  }
  // mkdtemp failed (a label with a slash to a missing folder): a unique name made the plain way.
  let path = NSTemporaryDirectory() + "\(label)-\(UUID().uuidString)"
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// `name` inside this test process's own scratch folder (`firstframe-tests-XXXXXX`, made by
/// ``temporaryFolder(_:)`` at first use, removed with everything in it when the process exits):
/// for an `--out` or other folder tests of one process share. Never a fixed path in the
/// temporary folder, which a run by another user (or another run at once) would own or remove.
package func scratchFolder(_ name: String) -> String {
  let path = ScratchRoot.path + "/" + name
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// The process's scratch folder, removed at exit.
private enum ScratchRoot {
  static let path: String = {
    let root = temporaryFolder("firstframe-tests")
    atexit { try? FileManager.default.removeItem(atPath: ScratchRoot.path) }
    return root
  }()
}
