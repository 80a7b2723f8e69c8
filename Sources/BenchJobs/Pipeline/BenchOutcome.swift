import ResultsSchema

/// What running a job came to (``BenchPipeline/run(_:interrupt:output:errors:)``): the value
/// `bench` and `bench ab` turn into their exit status and `bench bisect` reads as a probe's
/// evidence. Whatever went wrong is said on the pipeline's `errors` as well.
package enum BenchOutcome {
  /// The camera-app of side `side` (its index in ``BenchJob/sides``) was not built or could not
  /// be located: nothing ran. Exit status 1.
  case notBuilt(side: Int, reason: String)
  /// A signal stopped the job before any run (while building). Exit status 130.
  case stopped
  /// Nothing ran for another reason (the display, the camera's state folder, a journal or a
  /// runner could not be set up; the pinned profile could not be written). Exit status 1.
  case failed
  /// The runs ran: each side's results, in ``BenchJob/sides`` order (nil for a side that has
  /// none), and the exit status the job reported: 0 ok, 1 runs failed or results not written,
  /// 130 interrupted.
  case measured([BenchResults?], status: Int32)

  /// The command's exit status.
  package var exitStatus: Int32 {
    switch self {
    case .notBuilt, .failed: 1
    case .stopped: 130
    case .measured(_, let status): status
    }
  }
}
