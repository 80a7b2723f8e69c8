import BenchKit
extension ParsedOptions {
  /// The one positional argument of a command that reads one results file (`bench report`,
  /// `bench power`).
  /// - Throws: `UsageError` when there is not exactly one, or it is empty.
  func onlyResultsFile() throws(UsageError) -> String {
    guard positional.count == 1 else {
      throw UsageError("wants one results file (got \(positional.count) arguments)")
    }
    guard !positional[0].isEmpty else { throw UsageError("wants one results file, not an empty name") }
    return positional[0]
  }
}
