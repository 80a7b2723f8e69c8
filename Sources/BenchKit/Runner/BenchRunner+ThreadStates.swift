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

  /// The run's `thread_states`: `recorder`'s record for the phases `events` give (the same
  /// events and rules as the run's phase durations), with the probe's first live frame as the
  /// moment whose running thread is named.
  func threadStates(
    _ recorder: ThreadStatesRecorder, events: [PhaseEvent], start: UInt64, relock: Bool, deviceSource: String?
  ) -> BenchResults.ThreadStatesRecord? {
    let intervals = PhaseExtractor.intervals(
      from: events, start: start, relock: relock, deviceSource: deviceSource)
    let firstFrame = events.first { $0.name == EventName.displayFirstLiveFrame.rawValue }?.ts
    return recorder.record(
      phases: intervals.mapValues { PhaseInterval(start: $0.start, end: $0.end) }, firstFrame: firstFrame)
  }
}
