extension BenchResults {
  /// The tool's identity.
  public struct ToolInfo: Codable, Sendable, Hashable {
    /// `firstframe`.
    public var name: String
    /// The tool's version; baselines from another version are refused without `--force`.
    public var version: String
    /// Creates the record.
    public init(name: String = "firstframe", version: String) {
      self.name = name
      self.version = version
    }
  }
}
