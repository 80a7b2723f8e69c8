extension BenchResults {
  /// The tool's identity.
  public struct ToolInfo: Codable, Sendable, Hashable {
    /// `firstframe`.
    public var name: String
    /// The tool's version; baselines from another version are refused without `--force`.
    public var version: String
    /// The commit (40 hex digits) of the FirstFrame source whose camera-app was measured: the
    /// checkout bench ran from (`git rev-parse HEAD` in the package root), or in `bench ab`'s
    /// `A/` and `B/` results the revision that side built. `bench history record` records it
    /// when `--commit` is not given. Absent when the package root is not a git checkout.
    public var commit: String?
    /// The branch that checkout was on (`git symbolic-ref --short HEAD`); absent when detached,
    /// not a git checkout, or in `bench ab`'s sides (a revision, not a branch, was built).
    public var branch: String?
    /// Whether that checkout had uncommitted changes to what camera-app is built from
    /// (`Package.swift`, `Package.resolved`, `Sources/`): true means the commit alone does not
    /// say what was measured. Absent with `commit`.
    public var dirty: Bool?
    /// Creates the record.
    public init(
      name: String = "firstframe", version: String, commit: String? = nil, branch: String? = nil,
      dirty: Bool? = nil
    ) {
      self.name = name
      self.version = version
      self.commit = commit
      self.branch = branch
      self.dirty = dirty
    }
  }
}
