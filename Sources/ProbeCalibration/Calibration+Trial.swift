import Probe

extension Calibration {
  /// One trial: its place in the schedule, the scene its frames show, and what was presented in
  /// it. Trials rotate through the scenarios, through the scene kinds once per rotation, and add
  /// noise to every other trial.
  struct Trial {
    /// The trial's index, 0-based (messages say `number + 1`).
    let number: Int
    /// What happens before the arm: a launch, or one of the relocks.
    let scenario: Scenario
    /// What the frames show.
    let kind: CalibrationScene.Kind
    /// The noise sigma of the frames: 8 on every other trial, else 0.
    let noise: Int
    /// The scene the frames are rendered from.
    var scene: CalibrationScene
    /// The digest of every frame presented in the trial (`ImageDigest`, at
    /// `CalibrationSettings.digestScale`) → its sequence number; empty without a digest scale.
    var presented: [UInt64: UInt64] = [:]

    /// The sequence number of the first fresh frame (the first presented after the arm).
    var firstFreshSequence: UInt64 = 0
    /// How many fresh frames were presented.
    var freshFrames: UInt64 = 0
    /// When the first fresh frame was presented, ns (`CLOCK_MONOTONIC`).
    var firstPresent: UInt64 = 0
    /// When the last fresh frame was presented, ns (`CLOCK_MONOTONIC`).
    var lastPresent: UInt64 = 0
    /// The widest gap between two fresh frames' presents, ns.
    var widestGap: UInt64 = 0

    /// Trial `number` of a calibration at `width`×`height`, its scene's noise drawn from `seed`.
    init(number: Int, width: Int, height: Int, seed: UInt64) {
      let scenarios = Scenario.allCases.count
      self.number = number
      scenario = Scenario(rawValue: number % scenarios)!
      kind = CalibrationScene.Kind.allCases[(number / scenarios) % 3]
      noise = number % 2 == 1 ? 8 : 0
      scene = CalibrationScene(
        width: width, height: height, kind: kind, noiseSigma: Double(noise), seed: seed)
    }

    /// Counts a fresh frame presented at `presentTime` (ns, `CLOCK_MONOTONIC`).
    mutating func countFresh(presentedAt presentTime: UInt64) {
      if freshFrames == 0 {
        firstPresent = presentTime
      } else {
        widestGap = max(widestGap, presentTime &- lastPresent)
      }
      lastPresent = presentTime
      freshFrames += 1
    }
  }
}
