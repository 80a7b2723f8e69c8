import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// A private folder for the targets that need files (`mkdtemp`, mode 0700), made once per process
/// and removed at exit.
enum FuzzScratch {
  /// The folder's path.
  static let folder: String = {
    var template = Array("/tmp/firstframe-fuzz-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(made != nil, "mkdtemp failed: errno \(errno)")
    let path = String(cString: made!)
    atexit { FuzzScratch.removeFolder() }
    return path
  }()

  /// A path inside the folder.
  static func path(_ name: String) -> String { folder + "/" + name }

  /// Replaces the file at `path` with `bytes`.
  static func write(_ bytes: some Collection<UInt8>, to path: String, append: Bool = false) {
    let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0o600)
    precondition(fd >= 0, "cannot write \(path): errno \(errno)")
    try? FileDescriptorIO.writeAll(fd, Array(bytes))
    close(fd)
  }

  static func removeFolder() {
    guard let dir = opendir(folder) else { return }
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { unlink(path(name)) }
    }
    closedir(dir)
    rmdir(folder)
  }
}
