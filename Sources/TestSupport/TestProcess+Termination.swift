import SystemCalls

extension TestProcess {
  /// How a program ended: `exit(status)`, or a signal (one nobody caught, or SIGKILL).
  package enum Termination: Sendable, Equatable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// This signal ended it.
    case signaled(Int32)

    /// "exited with status N" or "killed by signal SIGNAME".
    package var description: String {
      switch self {
      case .exited(let status): return "exited with status \(status)"
      case .signaled(let signal): return "killed by signal \(ProcessControl.signalName(signal))"
      }
    }
  }
}
