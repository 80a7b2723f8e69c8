#if canImport(Glibc)
  import Glibc
#endif

/// Reading and writing whole buffers on a raw file descriptor, with `EINTR` retried in one place.
public enum FileDescriptorIO {
  /// Writes every byte of `bytes` to `fd`, continuing after short writes and `EINTR`.
  /// The corresponding call is `write(2)`.
  /// - Throws: the ``Errno`` of the first write that fails (`EPIPE`, `ENOSPC`, `EAGAIN` on a
  ///   non-blocking descriptor); bytes before it were written.
  public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
    guard var base = bytes.baseAddress else { return }
    var left = bytes.count
    while left > 0 {
      let n = try SystemCall.retrying { write(fd, base, left) }
      left -= n
      base += n
    }
  }

  /// Writes every byte of `bytes` to `fd`; see ``writeAll(_:_:)-(_,UnsafeRawBufferPointer)``.
  public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(Errno) {
    let failure = bytes.withUnsafeBytes { raw -> Errno? in
      do throws(Errno) {
        try writeAll(fd, raw)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  /// Writes the UTF-8 bytes of `text` to `fd`; see ``writeAll(_:_:)-(_,UnsafeRawBufferPointer)``.
  public static func writeAll(_ fd: Int32, _ text: String) throws(Errno) {
    var text = text
    let failure = text.withUTF8 { buffer -> Errno? in
      do throws(Errno) {
        try writeAll(fd, UnsafeRawBufferPointer(buffer))
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  /// Reads up to `buffer.count` bytes from `fd`, retrying `EINTR`. Returns how many were read
  /// (0 at end of input). The corresponding call is `read(2)`.
  public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    try SystemCall.retrying { Glibc.read(fd, buffer.baseAddress, buffer.count) }
  }

  /// Closes `fd`, ignoring errors (after `close(2)` the descriptor is gone whatever it says).
  public static func close(_ fd: Int32) { _ = Glibc.close(fd) }
}
