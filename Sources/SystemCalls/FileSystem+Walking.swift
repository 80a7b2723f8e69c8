#if canImport(Glibc)
  import Glibc
#endif

extension FileSystem {
  /// Every entry under the folder at `path`, as paths relative to it (`a`, `a/b.swift`), a folder
  /// before what it holds; the names of one folder in no particular order. A symbolic link is
  /// listed, never followed. The corresponding calls are `opendir(3)`, `readdir(3)` and
  /// `lstat(2)`.
  /// - Throws: the ``Errno`` of the first call that failed (`ENOENT`, `ENOTDIR`, `EACCES`); an
  ///   entry that vanishes while the tree is read is left out.
  public static func walk(atPath path: String) throws(Errno) -> [String] {
    var found: [String] = []
    var pending = [""]
    while let relative = pending.popLast() {
      let folder = relative.isEmpty ? path : path + "/" + relative
      for name in try contentsOfDirectory(atPath: folder) {
        let entry = relative.isEmpty ? name : relative + "/" + name
        found.append(entry)
        if try kind(atPath: path + "/" + entry) == .directory { pending.append(entry) }
      }
    }
    return found
  }
}
