#if canImport(Glibc)
  import Glibc
#endif

extension FileDescriptorIO {
  /// Writes what fits of `bytes` to the non-blocking `fd` (a pipe) without waiting. Returns how
  /// many bytes were written: fewer than `bytes.count`, or 0, when the pipe is full. The
  /// corresponding call is `write(2)`, `EINTR` retried.
  /// - Throws: the ``Errno`` of `write` other than `EAGAIN` (`EPIPE`: nobody reads; `EBADF`).
  public static func writeAvailable(_ fd: Int32, _ bytes: ArraySlice<UInt8>) throws(Errno) -> Int {
    var written = 0
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { raw -> Result<Int, Errno> in
        do throws(Errno) {
          return .success(
            try SystemCall.retrying { write(fd, raw.baseAddress! + written, raw.count - written) })
        } catch {
          return .failure(error)
        }
      }
      switch result {
      case .success(let n): written += n
      case .failure(let error) where error == .wouldBlock: return written
      case .failure(let error): throw error
      }
    }
    return written
  }

  /// Waits until `fd` can take a write (a pipe with room), at most `milliseconds`. Returns true
  /// when it can (or its reader is gone: the write says so). The corresponding call is `poll(2)`
  /// with `POLLOUT`, `EINTR` retried.
  /// - Throws: the ``Errno`` of `poll` (`EBADF`, `ENOMEM`).
  public static func waitUntilWritable(_ fd: Int32, milliseconds: Int32) throws(Errno) -> Bool {
    var request = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    return try SystemCall.retrying { poll(&request, 1, milliseconds) } > 0
  }
}
