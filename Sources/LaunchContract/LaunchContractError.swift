/// A value of the launch contract that does not parse: one line a person can act on.
public struct LaunchContractError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The line, without a program name: "unknown camera 'usb' (use synthetic or v4l2:/dev/videoN)".
  public var message: String

  /// Creates the error.
  public init(_ message: String) { self.message = message }

  /// The line.
  public var description: String { message }
}
