import Synchronization
import SystemCalls

/// The runner's end of the control channel: writes one command per line to the app.
///
/// The write end is non-blocking: an app that never reads its end (or closed it) cannot make the
/// runner wait. A command that does not fit in the pipe, or whose reader is gone, is dropped and
/// counted (``droppedCommands``) for the run's record. A command line is far shorter than
/// `PIPE_BUF`, so it is written whole or not at all.
public final class ControlSender: Sendable {
  /// The descriptor of the channel's write end.
  public let fd: Int32
  private let dropped = Atomic<Int>(0)

  /// Wraps the write end `fd` (the runner owns and closes it) and makes it non-blocking. The
  /// corresponding call is `fcntl(fd, F_SETFL, O_NONBLOCK)`.
  public init(fd: Int32) {
    self.fd = fd
    FileDescriptorIO.setNonBlocking(fd)
  }

  /// Sends `command`. Returns false, and counts the command as dropped, when it could not be
  /// written: the pipe is full (the app does not read) or the app closed its end.
  @discardableResult
  public func send(_ command: ControlCommand) -> Bool {
    do {
      try FileDescriptorIO.writeAll(fd, command.line)
      return true
    } catch {
      dropped.add(1, ordering: .relaxed)
      return false
    }
  }

  /// How many commands were dropped so far.
  public var droppedCommands: Int { dropped.load(ordering: .relaxed) }
}
