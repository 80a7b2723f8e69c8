#if canImport(Glibc)
  import Glibc
#endif
import SystemCalls
import WaylandClient

/// A compositor's end of one client connection, played by the test: a listening socket in a
/// private folder, the accepted connection, and the wire's messages read and written by hand.
final class FakeCompositor {
  let folder: String
  let path: String
  private let listener: Int32
  private var client: Int32 = -1
  private var pending: [UInt8] = []

  init() throws {
    var template = Array("/tmp/firstframe-wayland-test-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw Errno.current
    }
    folder = String(cString: made)
    path = folder + "/wayland-test"
    listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, listen(listener, 1) == 0 else { throw Errno.current }
  }

  deinit {
    if client >= 0 { Glibc.close(client) }
    Glibc.close(listener)
    unlink(path)
    rmdir(folder)
  }

  /// Accepts the client (which has connected already: the backlog holds it).
  func accept() {
    client = Glibc.accept(listener, nil, nil)
  }

  /// Reads the next request: its object, opcode, argument words' bytes and descriptors, waiting
  /// up to two seconds.
  func request() throws -> (object: UInt32, opcode: UInt16, body: [UInt8], descriptors: [Int32]) {
    var descriptors: [Int32] = []
    let deadline = MonotonicClock.now() + 2_000_000_000
    while pending.count < 8 || pending.count < Int(word(4) >> 16) {
      guard MonotonicClock.now() < deadline, try UnixSocket.waitReadable(client, milliseconds: 2_000) else {
        throw Errno(rawValue: ETIMEDOUT)
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let n = try chunk.withUnsafeMutableBytes {
        try UnixSocket.receive(client, into: $0, descriptors: &descriptors)
      }
      guard n > 0 else { throw Errno(rawValue: ECONNRESET) }
      pending += chunk[0..<n]
    }
    let object = word(0)
    let sizeAndOpcode = word(4)
    let size = Int(sizeAndOpcode >> 16)
    let body = Array(pending[8..<size])
    pending.removeFirst(size)
    return (object, UInt16(sizeAndOpcode & 0xFFFF), body, descriptors)
  }

  /// Sends event `opcode` from `object` with `arguments` (descriptors beside the bytes).
  func event(_ object: UInt32, _ opcode: UInt16, _ arguments: [WaylandArgument] = []) throws {
    let (bytes, descriptors) = try requireEncode(object, opcode, arguments)
    try bytes.withUnsafeBytes { try UnixSocket.send(client, $0, descriptors: descriptors) }
  }

  /// Sends raw bytes, well-formed or not.
  func raw(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try UnixSocket.send(client, $0, descriptors: []) }
  }

  /// Closes the client's connection.
  func hangUp() {
    Glibc.close(client)
    client = -1
  }

  private func word(_ offset: Int) -> UInt32 {
    pending.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
  }
}

private struct EncodeError: Error {}

private func requireEncode(_ object: UInt32, _ opcode: UInt16, _ arguments: [WaylandArgument]) throws -> (
  [UInt8], [Int32]
) {
  guard let encoded = WaylandMessage.encode(object: object, opcode: opcode, arguments) else {
    throw EncodeError()
  }
  return (encoded.bytes, encoded.descriptors)
}
