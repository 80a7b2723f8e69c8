extension ParsedOptions {
  /// The one positional argument of a command that reads one results file (`bench report`,
  /// `bench power`).
  /// - Throws: `UsageError` when there is not exactly one.
  func onlyResultsFile() throws(UsageError) -> String {
    guard positional.count == 1 else {
      throw UsageError("wants one results file (got \(positional.count) arguments)")
    }
    return positional[0]
  }
}
