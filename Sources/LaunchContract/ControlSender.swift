import SystemCalls

/// The runner's end of the control channel: writes one command per line to the app.
public struct ControlSender: Sendable {
  /// The descriptor of the channel's write end.
  public let fd: Int32

  /// Wraps the write end `fd` (the runner owns and closes it).
  public init(fd: Int32) { self.fd = fd }

  /// Sends `command`. Returns false when it could not be written (the app closed its end).
  @discardableResult
  public func send(_ command: ControlCommand) -> Bool {
    do {
      try FileDescriptorIO.writeAll(fd, command.line)
      return true
    } catch {
      return false
    }
  }
}
