import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// The one seam for the shared-memory system calls (STYLE.md rules 2 and 3): each call goes
/// through one function here; `EINTR` is retried and `-1` becomes an ``Errno`` by
/// `SystemCall.retrying`, and `check` turns that into a `DisplayError`.
enum Syscalls {
  /// Runs `body` through `SystemCall.retrying`; a failure becomes a `DisplayError` naming `call`.
  @inline(__always)
  static func check(
    _ call: String, _ what: @autoclosure () -> String, code: DisplayError.Code = .systemCallFailed,
    _ body: () throws(Errno) -> Int32
  ) throws(DisplayError) -> Int32 {
    do {
      return try body()
    } catch {
      throw DisplayError(code, what(), systemCall: call, errno: error)
    }
  }

  /// `shm_open(name, flags, mode)`.
  static func shmOpen(_ name: String, flags: Int32, mode: mode_t) throws(Errno) -> Int32 {
    try SystemCall.retrying { shm_open(name, flags, mode) }
  }

  /// `shm_unlink(name)`: 0, or -1 when there was no such name.
  @discardableResult
  static func shmUnlink(_ name: String) -> Int32 { shm_unlink(name) }

  /// `ftruncate(fd, size)`.
  static func truncate(_ fd: Int32, _ size: Int) throws(Errno) -> Int32 {
    try SystemCall.retrying { ftruncate(fd, off_t(size)) }
  }

  /// `fchmod(fd, mode)`.
  static func chmod(_ fd: Int32, _ mode: mode_t) throws(Errno) -> Int32 {
    try SystemCall.retrying { fchmod(fd, mode) }
  }

  /// `fstat(fd)`'s size and mode.
  static func stat(_ fd: Int32) throws(Errno) -> (size: Int, mode: mode_t) {
    var st = Glibc.stat()
    _ = try SystemCall.retrying { fstat(fd, &st) }
    return (Int(st.st_size), st.st_mode)
  }

  /// `mmap(NULL, size, PROT_READ|PROT_WRITE, MAP_SHARED, fd, 0)`.
  static func map(_ fd: Int32, _ size: Int) throws(Errno) -> UnsafeMutableRawPointer {
    let p = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
    guard let p, p != MAP_FAILED else { throw Errno.current }
    return p
  }

  /// A size-sealed anonymous memory file of `size` bytes (`SealedMemoryFile.create`:
  /// `memfd_create`, `ftruncate`, `fcntl(F_ADD_SEALS)`).
  static func createSealedMemory(name: String, size: Int) throws(SealedMemoryFile.Failure) -> Int32 {
    try SealedMemoryFile.create(name: name, size: size)
  }

  /// `munmap(pointer, size)`.
  static func unmap(_ pointer: UnsafeMutableRawPointer, _ size: Int) { munmap(pointer, size) }

  /// `close(fd)`.
  static func closeDescriptor(_ fd: Int32) { FileDescriptorIO.close(fd) }
}
