#if canImport(Glibc)
  import Glibc
#endif
import SystemCalls
import TestSupport
import Testing
import WaylandClient

@Suite("The Wayland wire protocol, against a fake compositor", .timeLimit(.minutes(TestTime.minutes(10))))
struct WaylandWireTests {
  @Test("a request is its object, its size and opcode, and its arguments padded to words")
  func encodesRequests() throws {
    let encoded = try #require(
      WaylandMessage.encode(object: 2, opcode: 0, [.uint(7), .string("wl_shm"), .uint(1), .newID(3)]))
    #expect(encoded.descriptors.isEmpty)
    let words = encoded.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
    // Header, name, string length 7 ("wl_shm\0") in two words, version, id: 8 words, 32 bytes.
    #expect(words.count == 8)
    #expect(words[0] == 2)
    #expect(words[1] == 32 << 16 | 0)
    #expect(words[2] == 7)
    #expect(words[3] == 7)
    #expect(Array(encoded.bytes[16..<23]) == Array("wl_shm\0".utf8))
    #expect(words[6] == 1)
    #expect(words[7] == 3)
    let withFD = try #require(WaylandMessage.encode(object: 4, opcode: 0, [.newID(5), .fd(9), .int(-1)]))
    #expect(withFD.descriptors == [9])
    #expect(withFD.bytes.count == 16)
    #expect(WaylandMessage.encode(object: 1, opcode: 0, [.array([UInt8](repeating: 1, count: 5000))]) == nil)
  }

  @Test("an event's arguments read in order; one that runs past the message is malformed, not read")
  func readsEvents() throws {
    let encoded = try #require(
      WaylandMessage.encode(
        object: 9, opcode: 2, [.int(-5), .string("héllo"), .array([1, 2, 3]), .fixed(1.5)]))
    var event = WaylandEvent(sender: 9, opcode: 2, body: Array(encoded.bytes[8...]))
    #expect(try event.int() == -5)
    #expect(try event.string() == "héllo")
    #expect(try event.array() == [1, 2, 3])
    #expect(try event.fixed() == 1.5)
    #expect(event.atEnd)
    #expect(throws: WaylandError.self) { try event.uint() }
    // A string whose length says 100 bytes in a 12-byte body.
    var long = WaylandEvent(sender: 9, opcode: 0, body: [100, 0, 0, 0, 65, 66, 67, 0, 0, 0, 0, 0])
    #expect(throws: WaylandError.self) { try long.string() }
    // A string without its NUL.
    var unterminated = WaylandEvent(sender: 9, opcode: 0, body: [4, 0, 0, 0, 65, 66, 67, 68])
    #expect(throws: WaylandError.self) { try unterminated.string() }
  }

  @Test("the registry lists the compositor's globals after one round trip, and bind names the interface")
  func registryAndBind() throws {
    let compositor = try FakeCompositor()
    let connection = try WaylandConnection(socket: compositor.path)
    defer { connection.close() }
    compositor.accept()
    // Ids are handed out in order from 2: the registry is 2, the round trip's callback 3. The
    // compositor's answers are already waiting when the client asks (it reads only in dispatch).
    try compositor.event(2, 0, [.uint(1), .string("wl_shm"), .uint(1)])
    try compositor.event(2, 0, [.uint(2), .string("zwlr_screencopy_manager_v1"), .uint(3)])
    try compositor.event(2, 0, [.uint(3), .string("wl_output"), .uint(4)])
    try compositor.event(2, 1, [.uint(3)])
    try compositor.event(3, 0, [.uint(0)])
    try compositor.event(1, 1, [.uint(3)])
    let registry = try WaylandRegistry(connection: connection)
    #expect(registry.globals.map(\.interface) == ["wl_shm", "zwlr_screencopy_manager_v1"])
    let bound = try registry.bind("zwlr_screencopy_manager_v1", version: 5, minimumVersion: 2)
    #expect(bound.version == 3)
    #expect(throws: WaylandError.self) { try registry.bind("wl_output", version: 1) }
    #expect(throws: WaylandError.self) { try registry.bind("wl_shm", version: 1, minimumVersion: 2) }
    let getRegistry = try compositor.request()
    #expect(getRegistry.object == 1 && getRegistry.opcode == 1 && getRegistry.body == [2, 0, 0, 0])
    let sync = try compositor.request()
    #expect(sync.object == 1 && sync.opcode == 0 && sync.body == [3, 0, 0, 0])
    let bind = try compositor.request()
    #expect(bind.object == registry.id && bind.opcode == 0)
    var arguments = WaylandEvent(sender: bind.object, opcode: 0, body: bind.body)
    #expect(try arguments.uint() == 2)
    #expect(try arguments.string() == "zwlr_screencopy_manager_v1")
    #expect(try arguments.uint() == 3)
    #expect(try arguments.uint() == bound.id)
  }

  @Test("a descriptor sent with an event reaches the handler that takes it, and works")
  func descriptorsArrive() throws {
    let compositor = try FakeCompositor()
    let connection = try WaylandConnection(socket: compositor.path)
    defer { connection.close() }
    compositor.accept()
    var pipeEnds: [Int32] = [0, 0]
    #expect(pipe(&pipeEnds) == 0)
    defer { Glibc.close(pipeEnds[0]) }
    let received = PThreadMutex<Int32?>(nil)
    let object = connection.newObject { event, connection throws(WaylandError) in
      _ = try event.uint()
      let fd = try connection.takeDescriptor()
      received.withLock { $0 = fd }
    }
    try compositor.event(object, 0, [.uint(42), .fd(pipeEnds[1])])
    Glibc.close(pipeEnds[1])
    try waitForEvents(connection) { received.withLock { $0 } != nil }
    let fd = try #require(received.withLock { $0 })
    defer { Glibc.close(fd) }
    #expect(write(fd, "x", 1) == 1)
    var byte: UInt8 = 0
    #expect(read(pipeEnds[0], &byte, 1) == 1 && byte == UInt8(ascii: "x"))
  }

  @Test(
    "a protocol error, a malformed message and a compositor that hangs up each end the connection with a line"
  )
  func failures() throws {
    for fault in ["protocol error", "malformed", "hang up"] {
      let compositor = try FakeCompositor()
      let connection = try WaylandConnection(socket: compositor.path)
      defer { connection.close() }
      compositor.accept()
      switch fault {
      case "protocol error": try compositor.event(1, 0, [.object(3), .uint(2), .string("invalid buffer")])
      case "malformed": try compositor.raw([5, 0, 0, 0, 0, 0, 4, 0])  // a message of 4 bytes
      default: compositor.hangUp()
      }
      let error = try #require(throws: WaylandError.self) {
        try waitForEvents(connection) { false }
      }
      switch fault {
      case "protocol error":
        #expect(error.kind == .protocolError)
        #expect(error.message.contains("invalid buffer"))
      case "malformed": #expect(error.kind == .malformed)
      default: #expect(error.kind == .connectionLost)
      }
      #expect(connection.failure == error)
      #expect(throws: WaylandError.self) { try connection.send(1, 0, [.newID(99)]) }
    }
  }

  @Test("a bare socket name lives in XDG_RUNTIME_DIR; without it, one line")
  func resolvesNames() throws {
    #expect(
      try WaylandConnection.resolve("wayland-1", environment: ["XDG_RUNTIME_DIR": "/run/user/7"])
        == "/run/user/7/wayland-1")
    #expect(try WaylandConnection.resolve("/tmp/x/wayland-0", environment: [:]) == "/tmp/x/wayland-0")
    #expect(throws: WaylandError.self) { try WaylandConnection.resolve("wayland-1", environment: [:]) }
    #expect(throws: WaylandError.self) { try WaylandConnection(socket: "/nonexistent-firstframe/wayland-0") }
  }
}

/// Dispatches `connection` until `done` holds, for at most two seconds.
func waitForEvents(_ connection: WaylandConnection, until done: () -> Bool) throws {
  let deadline = MonotonicClock.now() + 2_000_000_000
  while !done() {
    guard MonotonicClock.now() < deadline else { throw Errno(rawValue: ETIMEDOUT) }
    try connection.dispatch(waitingMilliseconds: 100)
  }
}
