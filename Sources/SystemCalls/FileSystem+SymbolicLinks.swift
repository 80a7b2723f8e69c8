#if canImport(Glibc)
  import Glibc
#endif

extension FileSystem {
  /// The path the symbolic link at `path` holds, as it was written (relative or absolute, not
  /// resolved further); `/proc/self/exe` gives this executable. The corresponding call is
  /// `readlink(2)`.
  /// - Throws: the ``Errno`` of `readlink` (`ENOENT`, `EINVAL` when `path` is not a link).
  public static func symbolicLinkDestination(atPath path: String) throws(Errno) -> String {
    var capacity = 256
    while true {
      var buffer = [CChar](repeating: 0, count: capacity)
      let count = try SystemCall.retrying { readlink(path, &buffer, capacity) }
      if count < capacity {
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      }
      capacity *= 4
    }
  }
}
