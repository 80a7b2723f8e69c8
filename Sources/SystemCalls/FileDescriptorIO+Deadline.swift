#if canImport(Glibc)
  import Glibc
#endif

extension FileDescriptorIO {
  /// Reads up to `buffer.count` bytes from `fd` (a pipe), waiting until it has some or until
  /// `deadline` (`CLOCK_MONOTONIC`, ns) passes. Returns how many were read, 0 at end of input
  /// (the writer closed it), nil at the deadline. The corresponding calls are `poll(2)` (in slices
  /// of at most 1 s) and `read(2)`, `EINTR` retried.
  /// - Throws: the ``Errno`` of `poll` or `read` (`EBADF`).
  public static func read(
    _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, until deadline: UInt64
  ) throws(Errno) -> Int? {
    while true {
      let ready = try SystemCall.retrying { () -> Int32 in
        let now = MonotonicClock.now()
        guard now < deadline else { return 0 }
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, Int32(min(1000, (deadline - now) / 1_000_000 + 1)))
      }
      if ready > 0 { return try read(fd, into: buffer) }
      if MonotonicClock.now() >= deadline { return nil }
    }
  }
}
