extension LaunchCondition {
  /// The phases that cannot occur in this condition, each with the reason (results list them
  /// under `not_applicable`): in relock the app is neither relaunched nor reconfigured.
  public var inapplicablePhases: [String: String] {
    guard self == .relock else { return [:] }
    return [
      PhaseName.processLaunch: "relock: the app is not relaunched; runs are measured from unlock",
      PhaseName.sessionConfigure: "relock: the session keeps its configuration across lock and unlock",
    ]
  }
}
