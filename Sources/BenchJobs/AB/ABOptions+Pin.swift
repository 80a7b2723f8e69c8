import AppBuilds
import BenchKit
import ResultsSchema
import SyntheticCamera
import SystemCalls
import CommandLineKit

extension ABOptions {
  /// Pins what both revisions run on: one cost profile for both sides' camera-app — `--profile
  /// FILE` when given, else REV_A's `Benchmarks/profiles/default.json`, to be written into the
  /// results folder as `profile.json` — and records it, with whether the simulated camera's
  /// sources differ between the revisions, in `s.abPin` (`settings.ab` of both results). Without
  /// it each revision's camera-app would run its own built-in default profile, and a commit that
  /// edits that profile would read as a speed-up or a regression of camera-app.
  ///
  /// Returns A's default profile's bytes when that is the pinned profile (the caller writes them
  /// to `s.profilePath` before anything runs); nil with `--profile` or a camera that is not the
  /// synthetic one (no profile, nothing simulated, nothing pinned).
  /// - Throws: `UsageError` when A has no default profile, or one that does not parse or cannot
  ///   reach a first frame within `--run-timeout`, or git cannot compare the revisions.
  func pin(
    _ s: inout RunSettings, a: Revision, b: Revision, builder: RevisionBuilder
  ) throws(UsageError) -> [UInt8]? {
    guard s.camera == .synthetic else { return nil }
    var pinned: [UInt8]?
    let source: String
    if let given = run.profile {
      source = "--profile \(given)"
    } else {
      let path = RevisionBuilder.defaultProfilePath
      let side = "A = \(a.name) (\(a.shortCommit))"
      guard let text = builder.file(path, at: a) else {
        throw UsageError(
          "\(side) has no \(path) to run both revisions on: give both one profile with --profile FILE")
      }
      let profile: CostProfile
      do {
        profile = try CostProfile.decode(json: Array(text.utf8), source: "\(a.shortCommit):\(path)")
      } catch {
        throw UsageError("\(side): \(error); give both revisions one profile with --profile FILE")
      }
      try run.checkReachable(profile, settings: s)
      pinned = Array(text.utf8)
      s.profilePath = s.outDir + "/profile.json"
      s.profileName = profile.name
      s.profileHash = ProfileFingerprint.hash(profile)
      source = "A's default profile at \(a.commit)"
    }
    guard let path = s.profilePath, let name = s.profileName, let hash = s.profileHash else { return pinned }
    s.abPin = BenchResults.ABPin(
      profileSource: source, profile: path, profileName: name, profileHash: hash, commitA: a.commit,
      commitB: b.commit, simulatedCameraSources: RevisionBuilder.simulatedCameraSources,
      simulatedCameraChanges: try builder.simulatedCameraChanges(from: a, to: b))
    return pinned
  }
}

extension ABJob {
  /// Writes A's default profile (``pinnedProfile``) to `settings.profilePath`
  /// (`OUT/profile.json`) atomically; true when there was none to write. Said on `log` when it
  /// cannot be written: then no run could load it.
  func writePinnedProfile(log: (String) -> Void) -> Bool {
    guard let pinnedProfile, let path = settings.profilePath else { return true }
    do throws(Errno) {
      try FileSystem.replaceAtomically(pinnedProfile, atPath: path)
      return true
    } catch {
      log("bench: cannot write the pinned profile \(path): \(error.message)")
      return false
    }
  }
}
