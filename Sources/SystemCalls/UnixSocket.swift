#if canImport(Glibc)
  import Glibc
#endif

/// A connected Unix stream socket's plumbing, with descriptors passed beside the bytes
/// (`SCM_RIGHTS`): what a Wayland client and sway's IPC speak over. The socket is a plain
/// descriptor the caller owns and closes (`FileDescriptorIO.close`).
public enum UnixSocket {
  /// The most descriptors one message carries in either direction (libwayland's own limit is 28).
  public static let maximumDescriptors = 28

  /// Connects a close-on-exec stream socket to the socket file at `path`. The corresponding
  /// calls are `socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC)` and `connect(2)`.
  /// - Throws: `ENAMETOOLONG` for a path longer than `sun_path` holds; else the call's ``Errno``
  ///   (`ENOENT` no such socket, `ECONNREFUSED` nobody listening).
  public static func connect(path: String) throws(Errno) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard !bytes.isEmpty, bytes.count < capacity else { throw Errno(rawValue: ENAMETOOLONG) }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let fd = try SystemCall.retrying {
      socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
    do {
      _ = try SystemCall.retrying {
        withUnsafePointer(to: &address) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
      }
    } catch {
      FileDescriptorIO.close(fd)
      throw error
    }
    return fd
  }

  /// Sends `bytes` (at least one byte when there are descriptors: a stream socket carries them
  /// with data) on `fd` with `descriptors` attached to the first byte, continuing after a short
  /// send (the descriptors go once). A closed peer is `EPIPE`, never `SIGPIPE`. The
  /// corresponding call is `sendmsg(2)` with `MSG_NOSIGNAL` and an `SCM_RIGHTS` control message.
  /// - Throws: the ``Errno`` of the send; `EINVAL` for more than ``maximumDescriptors``.
  public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, descriptors: [Int32]) throws(Errno) {
    guard descriptors.count <= maximumDescriptors else { throw Errno(rawValue: EINVAL) }
    var sent = 0
    var pending = descriptors
    while sent < bytes.count {
      sent += try sendOnce(fd, UnsafeRawBufferPointer(rebasing: bytes[sent...]), descriptors: pending)
      pending = []
    }
  }

  private static func sendOnce(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, descriptors: [Int32])
    throws(Errno)
    -> Int
  {
    let controlLength = descriptors.isEmpty ? 0 : controlSpace(descriptors.count)
    var control = [UInt8](repeating: 0, count: max(controlLength, 1))
    var vector = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
    let result = control.withUnsafeMutableBytes { controlBuffer -> Result<Int, Errno> in
      var message = msghdr()
      if !descriptors.isEmpty {
        fillRights(controlBuffer, descriptors)
        message.msg_control = controlBuffer.baseAddress
        message.msg_controllen = controlLength
      }
      return withUnsafeMutablePointer(to: &vector) { vectorPointer in
        message.msg_iov = vectorPointer
        message.msg_iovlen = 1
        return Result { () throws(Errno) in
          try SystemCall.retrying { sendmsg(fd, &message, Int32(MSG_NOSIGNAL)) }
        }
      }
    }
    return try result.get()
  }

  /// Receives up to `buffer.count` bytes from `fd` into `buffer`, appending any descriptors that
  /// came with them to `descriptors` (close-on-exec). Returns the byte count, 0 when the peer
  /// closed the socket. The corresponding call is `recvmsg(2)` with `MSG_CMSG_CLOEXEC`;
  /// `MSG_DONTWAIT` when `blocking` is false.
  /// - Throws: the call's ``Errno`` (`EAGAIN` when not blocking and nothing is there).
  public static func receive(
    _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, descriptors: inout [Int32], blocking: Bool = true
  ) throws(Errno) -> Int {
    let controlLength = controlSpace(maximumDescriptors)
    var control = [UInt8](repeating: 0, count: controlLength)
    var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
    let flags = Int32(MSG_CMSG_CLOEXEC) | (blocking ? 0 : Int32(MSG_DONTWAIT))
    let result = control.withUnsafeMutableBytes { controlBuffer -> Result<(Int, [Int32]), Errno> in
      var message = msghdr()
      message.msg_control = controlBuffer.baseAddress
      message.msg_controllen = controlLength
      let received = withUnsafeMutablePointer(to: &vector) { vectorPointer in
        message.msg_iov = vectorPointer
        message.msg_iovlen = 1
        return Result { () throws(Errno) in try SystemCall.retrying { recvmsg(fd, &message, flags) } }
      }
      return received.map { ($0, rights(in: controlBuffer, length: Int(message.msg_controllen))) }
    }
    let (count, received) = try result.get()
    descriptors += received
    return count
  }

  /// Waits until `fd` is readable or `milliseconds` pass (negative: for ever). Returns whether
  /// it is readable (or hung up: the next receive says which). The corresponding call is `poll(2)`.
  /// - Throws: the ``Errno`` of `poll`.
  public static func waitReadable(_ fd: Int32, milliseconds: Int32) throws(Errno) -> Bool {
    var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return try SystemCall.retrying { poll(&request, 1, milliseconds) } > 0
  }

  /// The bytes a control message holding `count` descriptors takes (`CMSG_SPACE`).
  private static func controlSpace(_ count: Int) -> Int {
    align(MemoryLayout<cmsghdr>.size) + align(count * MemoryLayout<Int32>.size)
  }

  /// The header's length field for `count` descriptors (`CMSG_LEN`).
  private static func controlLength(_ count: Int) -> Int {
    align(MemoryLayout<cmsghdr>.size) + count * MemoryLayout<Int32>.size
  }

  private static func align(_ length: Int) -> Int {
    let word = MemoryLayout<Int>.size
    return (length + word - 1) & ~(word - 1)
  }

  /// Writes one `SCM_RIGHTS` control message holding `descriptors` into `buffer`.
  private static func fillRights(_ buffer: UnsafeMutableRawBufferPointer, _ descriptors: [Int32]) {
    var header = cmsghdr()
    header.cmsg_len = controlLength(descriptors.count)
    header.cmsg_level = SOL_SOCKET
    header.cmsg_type = Int32(SCM_RIGHTS)
    withUnsafeBytes(of: header) { buffer.copyMemory(from: $0) }
    var offset = align(MemoryLayout<cmsghdr>.size)
    for fd in descriptors {
      buffer.storeBytes(of: fd, toByteOffset: offset, as: Int32.self)
      offset += MemoryLayout<Int32>.size
    }
  }

  /// The descriptors in every `SCM_RIGHTS` control message of the first `length` bytes of `buffer`.
  private static func rights(in buffer: UnsafeMutableRawBufferPointer, length: Int) -> [Int32] {
    var found: [Int32] = []
    var offset = 0
    let headerSize = align(MemoryLayout<cmsghdr>.size)
    while offset + headerSize <= length {
      let header = buffer.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
      let messageLength = Int(header.cmsg_len)
      guard messageLength >= headerSize, offset + messageLength <= length else { break }
      if header.cmsg_level == SOL_SOCKET, header.cmsg_type == Int32(SCM_RIGHTS) {
        let count = (messageLength - headerSize) / MemoryLayout<Int32>.size
        for i in 0..<count {
          found.append(
            buffer.loadUnaligned(
              fromByteOffset: offset + headerSize + i * MemoryLayout<Int32>.size, as: Int32.self))
        }
      }
      offset += align(messageLength)
    }
    return found
  }
}
