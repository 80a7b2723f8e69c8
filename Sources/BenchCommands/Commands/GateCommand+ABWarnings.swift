import ResultsSchema

extension GateCommand {
  /// The warnings for a baseline and results from one `bench ab` (`OUT/A/results.json`,
  /// `OUT/B/results.json`): one when either records (`settings.ab`) that the simulated camera's
  /// sources differ between the revisions — both ran the same pinned profile, but not the same
  /// simulated hardware, so a verdict on a first_frame phase may be the simulator's change, not
  /// camera-app's. Empty otherwise (and for results from plain `bench`).
  static func abWarnings(baseline: BenchResults, results: BenchResults) -> [String] {
    guard let note = (baseline.settings.ab ?? results.settings.ab)?.simulatedCameraNote else { return [] }
    return ["bench ab: \(note)"]
  }
}
