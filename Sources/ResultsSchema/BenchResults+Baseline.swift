extension BenchResults {
  /// What `bench baseline save` records about a baseline.
  public struct BaselineInfo: Codable, Sendable, Hashable {
    /// When it was saved: wall clock, UTC, ISO 8601 to the second (`2026-12-01T10:06:53Z`).
    public var savedAt: String
    /// The path of the results file it was saved from, as given to `bench baseline save`.
    public var source: String
    /// The tool version that measured it.
    public var toolVersion: String
    /// The camera it was measured with.
    public var camera: String
    /// The cost profile's name, when any.
    public var profileName: String?
    /// Creates the record.
    public init(savedAt: String, source: String, toolVersion: String, camera: String, profileName: String?) {
      self.savedAt = savedAt
      self.source = source
      self.toolVersion = toolVersion
      self.camera = camera
      self.profileName = profileName
    }
  }
}
