#if canImport(Glibc)
  import Glibc
#endif
import Foundation

/// A command the runner sends on `FIRSTFRAME_CONTROL`, one per line.
public enum ControlCommand: String, Sendable {
  /// Press the shutter.
  case tap
  /// Lock the device: cover the preview and stop the session.
  case lock
  /// Unlock: uncover and restart the session.
  case unlock
  /// Quit cleanly.
  case quit
}

/// Reads commands from a path (a FIFO or file) or an inherited descriptor (`fd:N`) on its own
/// thread, so the main thread never waits on it. End of input means the runner is gone: the
/// app quits, so a crashed runner leaves no app behind.
public final class ControlChannel: Sendable {
  private let fd: Int32

  /// The environment variable that names the channel.
  public static let environmentKey = "FIRSTFRAME_CONTROL"

  /// Opens `source` (`fd:N` or a path).
  public init(source: String) throws(AppError) {
    if source.hasPrefix("fd:") {
      guard let n = Int32(source.dropFirst(3)), n >= 0, fcntl(n, F_GETFD) != -1 else {
        throw AppError.usage("FIRSTFRAME_CONTROL=\(source) is not an open file descriptor")
      }
      fd = n
    } else {
      let opened = open(source, O_RDONLY | O_CLOEXEC)
      guard opened >= 0 else {
        throw AppError.usage("cannot open FIRSTFRAME_CONTROL \(source): \(String(cString: strerror(errno)))")
      }
      fd = opened
    }
  }

  /// Starts the reader thread. `handle` gets each known command; `unknown` each other line;
  /// `ended` once, at end of input or a read error.
  public func start(
    handle: @escaping @Sendable (ControlCommand) -> Void,
    unknown: @escaping @Sendable (String) -> Void,
    ended: @escaping @Sendable () -> Void
  ) {
    let fd = self.fd
    let thread = Thread {
      var pending = [UInt8]()
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        for byte in buffer[0..<n] {
          if byte == UInt8(ascii: "\n") {
            let line = String(decoding: pending, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            pending.removeAll(keepingCapacity: true)
            if line.isEmpty { continue }
            if let command = ControlCommand(rawValue: line) { handle(command) } else { unknown(line) }
          } else if pending.count < 1024 {
            pending.append(byte)
          }
        }
      }
      ended()
    }
    thread.name = "camera-app.control"
    thread.start()
  }
}
