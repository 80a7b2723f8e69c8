#if canImport(Glibc)
  import Glibc
#endif

extension FileSystem {
  /// Maps the first `length` bytes of the file open as `fd` into memory, read-only and private,
  /// for the life of the process (never unmapped): the mapping shows in `/proc/self/maps`, and a
  /// page is read from the file (or the page cache) only when it is first touched. The
  /// corresponding call is `mmap(2)` with `PROT_READ` and `MAP_PRIVATE`.
  /// - Throws: the ``Errno`` of `mmap` (`EACCES`, `ENODEV`, `ENOMEM`; `EINVAL` for a length of 0).
  public static func mapForLife(_ fd: Int32, length: Int) throws(Errno) -> UnsafeRawBufferPointer {
    guard length > 0 else { throw Errno(rawValue: EINVAL) }
    guard let base = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
      throw Errno.current
    }
    return UnsafeRawBufferPointer(start: base, count: length)
  }
}
