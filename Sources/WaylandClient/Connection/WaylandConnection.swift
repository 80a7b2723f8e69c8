#if canImport(Glibc)
  import Glibc
#endif
import SystemCalls

/// A client's connection to a Wayland compositor, speaking the wire protocol directly over the
/// compositor's Unix socket (no libwayland: `swift run bench` needs no package at build or run
/// time). Object 1 is `wl_display`; every object the client creates takes the next id and is
/// never reused. One thread dispatches (reads and runs handlers); any thread may send.
///
/// Every event is bounded by the wire's 4096-byte message limit; a compositor that sends a
/// malformed message, or a protocol error (`wl_display.error`), ends the connection with a
/// ``WaylandError`` that says which. Events for objects without a handler are dropped.
package final class WaylandConnection: @unchecked Sendable {  // mutable state behind `state`
  /// What a handler is given: the event (its arguments read in order), and the connection (to
  /// send requests or take the event's descriptors).
  package typealias Handler = @Sendable (inout WaylandEvent, WaylandConnection) throws(WaylandError) -> Void

  /// `wl_display`, the one object that exists from the start.
  package static let displayID: UInt32 = 1

  /// The socket the connection reached (an absolute path).
  package let socketPath: String
  private let fd: Int32
  private let state = PThreadMutex(State())

  private struct State {
    var nextID: UInt32 = 2
    var handlers: [UInt32: Handler] = [:]
    var inbound: [UInt8] = []
    var inboundDescriptors: [Int32] = []
    var failure: WaylandError?
    var closed = false
  }

  /// Connects to the compositor whose socket is at `socketPath` (absolute), or, when it is a
  /// bare name, in `XDG_RUNTIME_DIR` as `environment` gives it.
  /// - Throws: ``WaylandError`` `.cannotConnect`, naming the socket and the error.
  package init(socket: String, environment: [String: String] = [:]) throws(WaylandError) {
    let path = try Self.resolve(socket, environment: environment)
    do {
      fd = try UnixSocket.connect(path: path)
    } catch {
      throw WaylandError(.cannotConnect, "cannot connect to the Wayland compositor at \(path): \(error)")
    }
    socketPath = path
  }

  /// The absolute path of the socket `socket` names: itself when absolute, else
  /// `XDG_RUNTIME_DIR/socket`.
  /// - Throws: `.cannotConnect` when a bare name has no `XDG_RUNTIME_DIR` to live in.
  package static func resolve(_ socket: String, environment: [String: String]) throws(WaylandError) -> String
  {
    if socket.hasPrefix("/") { return socket }
    guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else {
      throw WaylandError(.cannotConnect, "Wayland socket \(socket) needs XDG_RUNTIME_DIR, which is not set")
    }
    return runtime + "/" + socket
  }

  deinit { close() }

  /// Closes the socket and every descriptor received but not taken. Safe to call more than once.
  package func close() {
    let leftovers: [Int32]? = state.withLock { state in
      guard !state.closed else { return nil }
      state.closed = true
      state.handlers = [:]
      defer { state.inboundDescriptors = [] }
      return state.inboundDescriptors
    }
    guard let leftovers else { return }
    leftovers.forEach(FileDescriptorIO.close)
    FileDescriptorIO.close(fd)
  }

  /// Why the connection ended (a protocol error, the compositor gone), or nil while it works.
  package var failure: WaylandError? { state.withLock { $0.failure } }

  /// A new object id, with `handler` for its events (nil: its events are dropped).
  package func newObject(_ handler: Handler? = nil) -> UInt32 {
    state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      if let handler { state.handlers[id] = handler }
      return id
    }
  }

  /// Sets (or, with nil, removes) the handler of `object`'s events.
  package func setHandler(_ object: UInt32, _ handler: Handler?) {
    state.withLock { $0.handlers[object] = handler }
  }

  /// Sends request `opcode` on `object` with `arguments` now (descriptors go with it; the
  /// caller still owns and closes them).
  /// - Throws: `.malformed` for a request over the wire's limit, `.connectionLost` when the
  ///   compositor is gone.
  package func send(_ object: UInt32, _ opcode: UInt16, _ arguments: [WaylandArgument] = [])
    throws(WaylandError)
  {
    guard let (bytes, descriptors) = WaylandMessage.encode(object: object, opcode: opcode, arguments) else {
      throw WaylandError(.malformed, "Wayland request \(opcode) on object \(object) is over 4096 bytes")
    }
    if let failure { throw failure }
    do throws(Errno) {
      let sent = bytes.withUnsafeBytes { buffer -> Result<Void, Errno> in
        do throws(Errno) {
          try UnixSocket.send(fd, buffer, descriptors: descriptors)
          return .success(())
        } catch {
          return .failure(error)
        }
      }
      try sent.get()
    } catch {
      throw fail(
        WaylandError(.connectionLost, "the Wayland compositor at \(socketPath) went away (\(error))"))
    }
  }

  /// Takes the next descriptor that came with the events being dispatched (an `fd` argument),
  /// which the caller then owns.
  /// - Throws: `.malformed` when the event's descriptor did not come.
  package func takeDescriptor() throws(WaylandError) -> Int32 {
    let fd: Int32? = state.withLock { state in
      state.inboundDescriptors.isEmpty ? nil : state.inboundDescriptors.removeFirst()
    }
    guard let fd else { throw WaylandError(.malformed, "a Wayland event's descriptor did not come with it") }
    return fd
  }

  /// Reads what the compositor sent, waiting up to `milliseconds` for the first bytes
  /// (0: not at all; negative: for ever), and runs the handlers of every complete event, in
  /// order. Returns the number of events read.
  /// - Throws: the connection's failure: a protocol error, a malformed event, the compositor gone.
  @discardableResult
  package func dispatch(waitingMilliseconds milliseconds: Int32) throws(WaylandError) -> Int {
    if let failure { throw failure }
    var count = try dispatchBuffered()
    if count > 0 { return count }
    let readable: Bool
    do {
      readable = try UnixSocket.waitReadable(fd, milliseconds: milliseconds)
    } catch {
      throw fail(WaylandError(.connectionLost, "cannot wait for the Wayland compositor: \(error)"))
    }
    guard readable else { return 0 }
    try receiveAvailable()
    count = try dispatchBuffered()
    return count
  }

  /// Waits until the compositor has handled every request sent so far (`wl_display.sync`), running
  /// handlers meanwhile, for at most `milliseconds`.
  /// - Throws: `.timedOut` when the compositor did not answer in time; the connection's failure.
  package func roundtrip(timeoutMilliseconds milliseconds: Int) throws(WaylandError) {
    let done = PThreadMutex(false)
    let callback = newObject { _, _ throws(WaylandError) in done.withLock { $0 = true } }
    try send(Self.displayID, 0, [.newID(callback)])
    let deadline = MonotonicClock.now() &+ UInt64(max(0, milliseconds)) * 1_000_000
    while !done.withLock({ $0 }) {
      let now = MonotonicClock.now()
      guard now < deadline else {
        throw WaylandError(
          .timedOut, "the Wayland compositor at \(socketPath) did not answer in \(milliseconds) ms")
      }
      try dispatch(waitingMilliseconds: Int32(clamping: (deadline - now) / 1_000_000 + 1))
    }
  }

  /// The connection's descriptor, for a caller that polls it beside others.
  package var descriptor: Int32 { fd }

  // MARK: - Reading

  private func receiveAvailable() throws(WaylandError) {
    var chunk = [UInt8](repeating: 0, count: 16_384)
    var descriptors: [Int32] = []
    let count: Int
    do throws(Errno) {
      let received = chunk.withUnsafeMutableBytes { buffer -> Result<Int, Errno> in
        do throws(Errno) {
          return .success(
            try UnixSocket.receive(fd, into: buffer, descriptors: &descriptors, blocking: false))
        } catch {
          return .failure(error)
        }
      }
      count = try received.get()
    } catch {
      if error == .wouldBlock { return }
      throw fail(
        WaylandError(.connectionLost, "the Wayland compositor at \(socketPath) went away (\(error))"))
    }
    let closed = state.withLock { state in
      state.inboundDescriptors += descriptors
      state.inbound += chunk[0..<count]
      return state.closed
    }
    if closed { descriptors.forEach(FileDescriptorIO.close) }
    if count == 0 {
      throw fail(
        WaylandError(.connectionLost, "the Wayland compositor at \(socketPath) closed the connection"))
    }
  }

  private func dispatchBuffered() throws(WaylandError) -> Int {
    var count = 0
    while let next = try nextEvent() {
      count += 1
      var event = next.0
      let handler = next.1
      if event.sender == Self.displayID {
        try handleDisplayEvent(&event)
      } else if let handler {
        do {
          try handler(&event, self)
        } catch {
          throw fail(error)
        }
      }
    }
    return count
  }

  /// The next complete event in the buffer and its handler, or nil when none is complete.
  private func nextEvent() throws(WaylandError) -> (WaylandEvent, Handler?)? {
    let (next, size): ((WaylandEvent, Handler?)?, Int) = state.withLock { state in
      guard state.inbound.count >= 8 else { return (nil, 8) }
      let (sender, word) = state.inbound.withUnsafeBytes {
        (
          $0.loadUnaligned(fromByteOffset: 0, as: UInt32.self),
          $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        )
      }
      let size = Int(word >> 16)
      guard size >= 8, size % 4 == 0, size <= WaylandMessage.maximumSize else { return (nil, size) }
      guard state.inbound.count >= size else { return (nil, 8) }
      let event = WaylandEvent(
        sender: sender, opcode: UInt16(word & 0xFFFF), body: Array(state.inbound[8..<size]))
      state.inbound.removeFirst(size)
      return ((event, state.handlers[sender]), size)
    }
    guard next == nil, size != 8 else { return next }
    throw fail(
      WaylandError(
        .malformed, "a Wayland event of \(size) bytes (not a whole number of words from 8 to 4096)"))
  }

  /// `wl_display`'s events: `error` ends the connection; `delete_id` forgets the object.
  private func handleDisplayEvent(_ event: inout WaylandEvent) throws(WaylandError) {
    switch event.opcode {
    case 0:
      let object = try event.object()
      let code = try event.uint()
      let message = try event.string() ?? ""
      throw fail(
        WaylandError(
          .protocolError, "the Wayland compositor reported error \(code) on object \(object): \(message)"))
    case 1:
      let id = try event.uint()
      state.withLock { _ = $0.handlers.removeValue(forKey: id) }
    default:
      break
    }
  }

  /// Records `error` as the connection's failure (the first one stays) and returns it.
  private func fail(_ error: WaylandError) -> WaylandError {
    state.withLock { state in
      if state.failure == nil { state.failure = error }
      return state.failure ?? error
    }
  }
}
