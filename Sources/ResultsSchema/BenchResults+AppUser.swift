extension BenchResults {
  /// Who the app under test ran as (`settings.appUser`, `--app-user`; issue 41 item 3).
  public struct AppUserRecord: Codable, Sendable, Hashable {
    /// The user's name (`nobody`, the user who ran sudo, `root`, or bench's own user).
    public var name: String
    /// Its uid.
    public var uid: Int
    /// Whether bench ran as root.
    public var benchIsRoot: Bool
    /// Whether the app ran as bench's own user (`--app-user root` under root, or any bench that
    /// is not root): it could have reached bench's results folder and journal.
    public var reachesResults: Bool

    /// Creates the record.
    public init(name: String, uid: Int, benchIsRoot: Bool, reachesResults: Bool) {
      self.name = name
      self.uid = uid
      self.benchIsRoot = benchIsRoot
      self.reachesResults = reachesResults
    }
  }
}
