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

  /// The whole content of the file at `path`, read to its end with `read(2)` (so a `/proc` file,
  /// whose size reads as 0, comes whole), or nil when it cannot be opened or read or holds more
  /// than `maxBytes` bytes. The corresponding calls are `open(2)`, `read(2)` and `close(2)`.
  public static func readFile(atPath path: String, maxBytes: Int = 64 << 20) -> [UInt8]? {
    guard let fd = try? SystemCall.retrying({ open(path, O_RDONLY | O_CLOEXEC) }) else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { buffer in try? read(fd, into: buffer) }
      guard let count else { return nil }
      if count == 0 { return bytes }
      guard bytes.count + count <= maxBytes else { return nil }
      bytes.append(contentsOf: chunk[..<count])
    }
  }

  /// Closes `fd`, ignoring errors (after `close(2)` the descriptor is gone whatever it says).
  public static func close(_ fd: Int32) { _ = Glibc.close(fd) }
}
