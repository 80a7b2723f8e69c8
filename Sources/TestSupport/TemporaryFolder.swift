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
