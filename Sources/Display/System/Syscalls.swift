#if canImport(Glibc)
  import Glibc
#endif

/// The one seam for the shared-memory system calls (STYLE.md rules 2 and 3): each call goes
/// through one function here, and `errno` becomes a `DisplayError` in one place.
enum Syscalls {
  /// Runs `body` until it does not fail with `EINTR`; `-1` becomes a `DisplayError` naming `call`.
  @inline(__always)
  static func check(
    _ call: String, _ what: @autoclosure () -> String, code: DisplayError.Code = .systemCallFailed,
    _ body: () -> Int32
  ) throws(DisplayError) -> Int32 {
    while true {
      let r = body()
      if r != -1 { return r }
      let e = Glibc.errno
      if e == EINTR { continue }
      throw DisplayError(code, what(), systemCall: call, errno: e)
    }
  }

  /// `shm_open(name, flags, mode)`.
  static func shmOpen(_ name: String, flags: Int32, mode: mode_t) -> Int32 {
    shm_open(name, flags, mode)
  }

  /// `shm_unlink(name)`.
  @discardableResult
  static func shmUnlink(_ name: String) -> Int32 { shm_unlink(name) }

  /// `ftruncate(fd, size)`.
  static func truncate(_ fd: Int32, _ size: Int) -> Int32 { ftruncate(fd, off_t(size)) }

  /// `fchmod(fd, mode)`.
  static func chmod(_ fd: Int32, _ mode: mode_t) -> Int32 { fchmod(fd, mode) }

  /// `fstat(fd)`'s size and mode, or `nil` with `errno` set.
  static func stat(_ fd: Int32) -> (size: Int, mode: mode_t)? {
    var st = Glibc.stat()
    guard fstat(fd, &st) == 0 else { return nil }
    return (Int(st.st_size), st.st_mode)
  }

  /// `mmap(NULL, size, PROT_READ|PROT_WRITE, MAP_SHARED, fd, 0)`, or `nil` with `errno` set.
  static func map(_ fd: Int32, _ size: Int) -> UnsafeMutableRawPointer? {
    let p = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
    guard let p, p != MAP_FAILED else { return nil }
    return p
  }

  /// `munmap(pointer, size)`.
  static func unmap(_ pointer: UnsafeMutableRawPointer, _ size: Int) { munmap(pointer, size) }

  /// `close(fd)`.
  static func closeDescriptor(_ fd: Int32) { _ = Glibc.close(fd) }

  /// `kill(pid, 0)`: whether process `pid` exists.
  static func processExists(_ pid: pid_t) -> Bool {
    kill(pid, 0) == 0 || Glibc.errno == EPERM
  }

  /// `clock_gettime(CLOCK_MONOTONIC)` in nanoseconds.
  @inline(__always)
  static func monotonicNow() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
  }
}
