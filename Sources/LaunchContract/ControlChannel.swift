import SystemCalls

/// The app's end of the control channel: reads commands from an endpoint (a FIFO or file path,
/// or an inherited `fd:N`) on its own thread, so the main thread never waits on it. End of input
/// means the runner is gone: the app should quit, so a crashed runner leaves no app behind.
public final class ControlChannel: Sendable {
  private let fd: Int32
  /// The longest line kept; the rest of a longer line is dropped (the runner's lines are short).
  public static let maxLineBytes = 1024

  /// Opens `endpoint` for reading.
  /// - Throws: `LaunchContractError` naming `FIRSTFRAME_CONTROL` and the reason.
  public init(endpoint: Endpoint) throws(LaunchContractError) {
    do {
      fd = try endpoint.openForReading().fd
    } catch {
      switch endpoint {
      case .descriptor:
        throw LaunchContractError("FIRSTFRAME_CONTROL=\(endpoint) is not an open file descriptor")
      case .path(let p):
        throw LaunchContractError("cannot open FIRSTFRAME_CONTROL \(p): \(error.message)")
      }
    }
  }

  /// Starts the reader thread. `handle` gets each known command; `unknown` each other non-empty
  /// line (at most ``maxLineBytes`` of it); `ended` once, at end of input or a read error.
  /// - Throws: the ``Errno`` of `pthread_create`.
  public func start(
    handle: @escaping @Sendable (ControlCommand) -> Void,
    unknown: @escaping @Sendable (String) -> Void,
    ended: @escaping @Sendable () -> Void
  ) throws(Errno) {
    let fd = self.fd
    try SystemThread.start(name: "camera-app.control") {
      var pending = [UInt8]()
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = buffer.withUnsafeMutableBytes { (try? FileDescriptorIO.read(fd, into: $0)) ?? 0 }
        if n <= 0 { break }
        for byte in buffer[0..<n] {
          if byte == UInt8(ascii: "\n") {
            let line = String(decoding: pending, as: UTF8.self)
            pending.removeAll(keepingCapacity: true)
            if let command = ControlCommand(line: line) {
              handle(command)
            } else if line.contains(where: { $0 != " " && $0 != "\t" && $0 != "\r" }) {
              unknown(line)
            }
          } else if pending.count < Self.maxLineBytes {
            pending.append(byte)
          }
        }
      }
      ended()
    }
  }
}
