/// A process whose threads a breakdown reports apart from the app's tree — bench itself, the X
/// server — with its own `/proc` samples (its threads only, not its children), from which the
/// faults (and, for `sampled`, every figure) come.
package struct WatchedProcess: Sendable {
  /// Its pid: its threads are the thread group of this id.
  package var pid: Int
  /// Its threads' counters, read at bench's samples.
  package var samples: [ProcSample]

  /// Creates a watched process.
  package init(pid: Int, samples: [ProcSample]) {
    self.pid = pid
    self.samples = samples
  }
}
