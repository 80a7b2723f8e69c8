import SystemCalls

/// Why a Wayland connection failed: one line, what went wrong and where.
public struct WaylandError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kind of failure.
  public enum Kind: Sendable, Equatable {
    /// The compositor's socket could not be reached.
    case cannotConnect
    /// The connection broke (the compositor went away, a send or receive failed).
    case connectionLost
    /// The compositor sent bytes that are not a well-formed message.
    case malformed
    /// The compositor reported a protocol error (`wl_display.error`) and closed the connection.
    case protocolError
    /// A global the client needs is not offered.
    case missingGlobal
    /// A reply did not come in time.
    case timedOut
    /// Shared memory for buffers could not be made.
    case sharedMemory
  }

  /// The kind of failure.
  public var kind: Kind
  /// The line.
  public var message: String

  /// Creates the error.
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// The line.
  public var description: String { message }
}
