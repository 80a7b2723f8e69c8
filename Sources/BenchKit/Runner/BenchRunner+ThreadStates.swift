import LaunchContract
import PhaseTrace
import ResultsSchema
import RunAnalysis
import ThreadStates
import ThreadTracing

extension BenchRunner {
  /// One run's thread-states recorder (nil with `--thread-states off`), watching bench's own
  /// threads and the display server's when bench knows its pid (the X server on the X11 paths,
  /// the private compositor on `wayland` and `wayland-cage`).
  func statesRecorder() -> ThreadStatesRecorder? {
    ThreadStatesRecorder(method: resources.threadStates, displayServer: display.serverPID)
  }

  /// The run's `thread_states`: `recorder`'s record for the phases' `intervals` (the run's
  /// phase durations, each device phase from its source), with the probe's first live frame as
  /// the moment whose running thread is named.
  func threadStates(
    _ recorder: ThreadStatesRecorder, events: [PhaseEvent], intervals: [String: (start: UInt64, end: UInt64)]
  ) -> BenchResults.ThreadStatesRecord? {
    let firstFrame = events.first { $0.name == EventName.displayFirstLiveFrame.rawValue }?.ts
    return recorder.record(
      phases: intervals.mapValues { PhaseInterval(start: $0.start, end: $0.end) }, firstFrame: firstFrame)
  }
}
