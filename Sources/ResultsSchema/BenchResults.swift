/// `results.json`, schema `firstframe.results/1` (docs/results.md, a contract).
///
/// Durations are milliseconds (floating point), differences of `CLOCK_MONOTONIC` readings: the
/// one clock the runner, the app and the probe stamp phase events with. The only wall-clock
/// values are `settings.startedAt` and `baseline.savedAt` (UTC, ISO 8601).
public struct BenchResults: Codable, Sendable {
  /// The schema this file follows.
  public static let schemaIdentifier = "firstframe.results/1"

  /// Always `firstframe.results/1`.
  public var schema: String = BenchResults.schemaIdentifier
  /// The tool that wrote the file.
  public var tool: ToolInfo
  /// The machine it ran on.
  public var host: HostInfo
  /// The invocation's settings.
  public var settings: BenchSettings
  /// One cell per configuration × condition (× camera).
  public var cells: [Cell]
  /// A/B comparisons between configurations within one condition.
  public var comparisons: [Comparison]
  /// Set by `bench baseline save`: where and when this file became a baseline. Absent otherwise.
  public var baseline: BaselineInfo? = nil
  /// True when the bench that ran the benchmark wrote this file as its final save (at the end, or
  /// after Ctrl-C: see `settings.interrupted`); false when it is a snapshot that bench may still
  /// add to, or was rebuilt from the run journal of a bench that died before its final save.
  /// Absent in files from before the run journal.
  public var complete: Bool? = nil

  /// Creates results.
  public init(
    tool: ToolInfo, host: HostInfo, settings: BenchSettings, cells: [Cell], comparisons: [Comparison] = []
  ) {
    self.tool = tool
    self.host = host
    self.settings = settings
    self.cells = cells
    self.comparisons = comparisons
  }
}
