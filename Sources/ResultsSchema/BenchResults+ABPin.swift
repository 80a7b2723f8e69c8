extension BenchResults {
  /// What `bench ab` held the same for both revisions (`settings.ab`, in both `A/results.json`
  /// and `B/results.json`): the one cost profile both sides' camera-app ran with, and whether
  /// the simulated camera itself — the code that turns that profile into simulated hardware
  /// latencies — differs between the two commits. Absent outside `bench ab`, with a camera that
  /// is not the synthetic one, and in results from before the pin.
  public struct ABPin: Codable, Sendable, Hashable {
    /// Where the profile came from: `A's default profile at <commit>` (REV_A's
    /// `Benchmarks/profiles/default.json`, written into the results folder as `profile.json`)
    /// or `--profile FILE` (as given).
    public var profileSource: String
    /// The profile file both sides' camera-app was given (`--profile`), an absolute path.
    public var profile: String
    /// The profile's name, from the file.
    public var profileName: String
    /// The profile's contents hash (`fnv1a64:` and 16 hex digits), the same as `settings.profileHash`.
    public var profileHash: String
    /// REV_A's full commit hash.
    public var commitA: String
    /// REV_B's full commit hash.
    public var commitB: String
    /// The folders compared between the commits for the simulated camera: the synthetic camera
    /// and the targets it is built from that model hardware (its noise generator, the light
    /// board it images, the JSON reader of its profile).
    public var simulatedCameraSources: [String]
    /// True when a file under `simulatedCameraSources` differs between `commitA` and
    /// `commitB`: then a change in the figures may be the simulated hardware's, not camera-app's.
    public var simulatedCameraDiffers: Bool
    /// The files under `simulatedCameraSources` that differ (`git diff --name-only`), in git's
    /// order; empty when none does.
    public var simulatedCameraChanges: [String]

    /// Creates the record.
    public init(
      profileSource: String, profile: String, profileName: String, profileHash: String, commitA: String,
      commitB: String, simulatedCameraSources: [String], simulatedCameraChanges: [String]
    ) {
      self.profileSource = profileSource
      self.profile = profile
      self.profileName = profileName
      self.profileHash = profileHash
      self.commitA = commitA
      self.commitB = commitB
      self.simulatedCameraSources = simulatedCameraSources
      self.simulatedCameraDiffers = !simulatedCameraChanges.isEmpty
      self.simulatedCameraChanges = simulatedCameraChanges
    }
  }
}
