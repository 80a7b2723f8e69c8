import AppBuilds
import BenchCommands
import BenchKit
import Foundation
import Glibc
import LaunchContract
import ResultsSchema
import TestSupport
import Testing

/// `bench ab` runs both revisions on one pinned cost profile (A's default, or `--profile`),
/// records the pin in both results, and says so when the simulated camera itself differs.
@Suite(
  .blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: ScratchRepository.gitAvailable, ScratchRepository.noGit))
struct ABPinTests {
  /// The scratch repository (``ScratchRepository/make()``) with a fourth commit that changes
  /// camera-app and the default profile (named `b-default`): A = `HEAD~2` has the default named
  /// `fast`, B = `HEAD` one named `b-default`.
  static func twoDefaults() throws -> ScratchRepository {
    let repo = try ScratchRepository.make()
    try repo.write(RevisionBuilder.defaultProfilePath, try ScratchRepository.fastProfile(named: "b-default"))
    try repo.write("Sources/camera-app/main.swift", "print(4)\n")
    try repo.git("commit", "--quiet", "-am", "B's default profile")
    return repo
  }

  /// Runs `bench ab A B` on `repo` as a user does (1 warm deferred run per side after a priming
  /// one), each commit's camera-app a script that notes its arguments in `OUT/args-<rev>` and
  /// runs this package's camera-app. Returns the results folder and each side's argument lines.
  func runAB(_ repo: ScratchRepository, _ a: String, _ b: String, extra: [String] = []) throws
    -> (out: String, args: [[String]])
  {
    let out = temporaryFolder("ab-pin")
    // The app runs as nobody when the tests run as root (--app-user): it writes here.
    chmod(out, 0o777)
    let app = BuiltProducts.path("camera-app")
    for (index, revision) in [a, b].enumerated() {
      let folder =
        (RevisionBuilder(repository: repo.path).cachedBinary(try repo.git("rev-parse", revision)) as NSString)
        .deletingLastPathComponent
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      makeScript(
        folder + "/camera-app", "#!/bin/sh\necho \"$*\" >> '\(out)/args-\(index)'\nexec '\(app)' \"$@\"\n")
    }
    let run = try #require(
      try BenchInvocation.run(
        [
          "ab", "--repo", repo.path, a, b, "--runs", "1", "--warmup", "0", "--conditions", "warm",
          "--configs", "deferred", "--run-timeout", "\(10 * TestTime.scale)", "--quiet", "--out", out,
        ] + extra,
        environment: [LaunchEnvironment.Key.cameraApp.rawValue: nil], timeout: .seconds(180)))
    #expect(run.status == 0, "\(run.output)")
    let args = try (0..<2).map {
      try String(contentsOfFile: "\(out)/args-\($0)", encoding: .utf8).split(separator: "\n").map(String.init)
    }
    return (out, args)
  }

  @Test("without --profile, both sides' camera-app run A's default profile, written into the folder")
  func pinsADefault() throws {
    let repo = try Self.twoDefaults()
    let (out, args) = try runAB(repo, "HEAD~2", "HEAD")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let pinned = out + "/profile.json"
    let aDefault = try repo.git("show", "HEAD~2:" + RevisionBuilder.defaultProfilePath)
    #expect(
      (try String(contentsOfFile: pinned, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)
        == aDefault)
    for side in args {
      #expect(!side.isEmpty && side.allSatisfy { $0.hasSuffix("--profile \(pinned)") }, "\(side)")
    }
    let results = try ["A", "B"].map { try ResultsFile.load(path: "\(out)/\($0)/results.json") }
    let commits = (a: try repo.git("rev-parse", "HEAD~2"), b: try repo.git("rev-parse", "HEAD"))
    for r in results {
      #expect(r.settings.profile == pinned && r.settings.profileName == "fast")
      #expect(r.settings.profileHash == results[0].settings.profileHash && r.settings.profileHash != nil)
      let pin = try #require(r.settings.ab)
      #expect(pin.profileSource == "A's default profile at \(commits.a)")
      #expect(pin.profile == pinned && pin.profileName == "fast" && pin.profileHash == r.settings.profileHash)
      #expect(pin.commitA == commits.a && pin.commitB == commits.b)
      #expect(!pin.simulatedCameraDiffers && pin.simulatedCameraChanges.isEmpty)
    }
    // The pin survives a round trip through the file, and a file without it still reads.
    #expect(results[0].settings.ab == results[1].settings.ab)
  }

  @Test("with --profile FILE, both sides run that file, not A's default")
  func pinsGivenProfile() throws {
    let repo = try Self.twoDefaults()
    let given = temporaryFolder("ab-pin-profile") + "/given.json"
    try ScratchRepository.fastProfile(named: "given").write(toFile: given, atomically: true, encoding: .utf8)
    let prepared = try #require(
      try ABCommand.parse([
        "--repo", repo.path, "HEAD~2", "HEAD", "--profile", given, "--out", temporaryFolder("ab-pin-out"),
      ])?.prepare())
    #expect(prepared.settings.profilePath == given && prepared.settings.profileName == "given")
    #expect(prepared.pinnedProfile == nil)
    let pin = try #require(prepared.settings.abPin)
    #expect(pin.profileSource == "--profile \(given)" && pin.profile == given && pin.profileName == "given")
    #expect(pin.profileHash == prepared.settings.profileHash)

    let (out, args) = try runAB(repo, "HEAD~2", "HEAD", extra: ["--profile", given])
    defer { try? FileManager.default.removeItem(atPath: out) }
    #expect(access(out + "/profile.json", F_OK) != 0)
    for side in args {
      #expect(!side.isEmpty && side.allSatisfy { $0.hasSuffix("--profile \(given)") }, "\(side)")
    }
    for side in ["A", "B"] {
      let results = try ResultsFile.load(path: "\(out)/\(side)/results.json")
      #expect(results.settings.ab?.profileSource == "--profile \(given)" && results.settings.profile == given)
    }
  }

  @Test("A without a default profile, or with one that does not parse, is one line and exit 2")
  func aWithoutDefault() throws {
    let repo = try ScratchRepository.make()
    let out = temporaryFolder("ab-pin-out")
    try repo.git("rm", "--quiet", RevisionBuilder.defaultProfilePath)
    try repo.git("commit", "--quiet", "-m", "no default profile")
    try repo.write(RevisionBuilder.defaultProfilePath, "{ not json\n")
    try repo.git("add", "-A")
    try repo.git("commit", "--quiet", "-m", "a broken default profile")
    for (a, expected) in [
      ("HEAD~1", "has no Benchmarks/profiles/default.json"),
      ("HEAD", "Benchmarks/profiles/default.json"),
    ] {
      var output = ""
      var errors = ""
      let status = ABCommand.run(
        ["--repo", repo.path, a, "HEAD~2", "--out", out], output: &output, errors: &errors)
      #expect(status == 2, "\(a): \(errors)")
      #expect(
        errors.hasPrefix("bench ab: ") && errors.contains(expected) && errors.contains("--profile"),
        "\(errors)")
      #expect(errors.split(separator: "\n").count == 1, "\(errors)")
    }
    // B's lack of a default does not matter: A's is the one pinned.
    #expect(throws: Never.self) {
      try ABCommand.parse(["--repo", repo.path, "HEAD~2", "HEAD", "--out", out])?.prepare()
    }
  }

  @Test("a commit that changes the simulated camera is flagged; one that changes only camera-app is not")
  func sourcesDiffer() throws {
    let repo = try ScratchRepository.make()
    let out = temporaryFolder("ab-pin-out")
    try repo.write("Sources/CameraApp/CaptureService.swift", "// the app under test\n")
    try repo.git("add", "-A")
    try repo.git("commit", "--quiet", "-m", "camera-app only")
    try repo.write("Sources/SyntheticCamera/Device/SyntheticCamera.swift", "// the simulated sensor\n")
    try repo.git("add", "-A")
    try repo.git("commit", "--quiet", "-m", "the simulated camera")
    func pin(_ a: String, _ b: String) throws -> BenchResults.ABPin? {
      try ABCommand.parse(["--repo", repo.path, a, b, "--out", out])?.prepare().settings.abPin
    }
    let appOnly = try #require(try pin("HEAD~2", "HEAD~1"))
    #expect(!appOnly.simulatedCameraDiffers && appOnly.simulatedCameraChanges.isEmpty)
    for (a, b) in [("HEAD~1", "HEAD"), ("HEAD~2", "HEAD"), ("HEAD", "HEAD~2")] {
      let camera = try #require(try pin(a, b))
      #expect(camera.simulatedCameraDiffers, "\(a) \(b)")
      #expect(camera.simulatedCameraChanges == ["Sources/SyntheticCamera/Device/SyntheticCamera.swift"])
    }
  }

  /// A pin whose simulated camera differs when `changes` is not empty.
  static func pin(changes: [String]) -> BenchResults.ABPin {
    BenchResults.ABPin(
      profileSource: "A's default profile at \(String(repeating: "a", count: 40))",
      profile: "/out/profile.json",
      profileName: "fast", profileHash: "fnv1a64:0000000000000001",
      commitA: String(repeating: "a", count: 40),
      commitB: String(repeating: "b", count: 40),
      simulatedCameraSources: RevisionBuilder.simulatedCameraSources,
      simulatedCameraChanges: changes)
  }

  @Test(
    "when the simulated camera differs, the comparison says so under its heading and beside first_frame rows")
  func comparisonSaysSo() {
    let a = Revision(name: "HEAD~1", commit: String(repeating: "a", count: 40))
    let b = Revision(name: "HEAD", commit: String(repeating: "b", count: 40))
    var resultsA = SyntheticResults.make(runs: 8)
    var resultsB = SyntheticResults.make(seed: 2, runs: 8)
    for changes in [[], ["Sources/SyntheticCamera/Device/SyntheticCamera.swift"]] {
      resultsA.settings.ab = Self.pin(changes: changes)
      resultsB.settings.ab = Self.pin(changes: changes)
      let text = ABJob.comparison(a: a, b: b, resultsA: resultsA, resultsB: resultsB, folder: "/out")
      let lines = text.split(separator: "\n").map(String.init)
      let firstFrame = lines.filter { $0.hasPrefix("first_frame") }
      #expect(lines[0].hasPrefix("A = HEAD~1") && !firstFrame.isEmpty)
      if changes.isEmpty {
        #expect(!text.contains("simulated camera"), "\(text)")
      } else {
        #expect(lines[1].hasPrefix("warning: the simulated camera differs") && lines[1].contains(changes[0]))
        #expect(firstFrame.allSatisfy { $0.hasSuffix("[simulated camera differs]") }, "\(text)")
      }
    }
  }

  @Test("bench gate --baseline A B warns when the results record that the simulated camera differs")
  func gateWarns() throws {
    let folder = temporaryFolder("ab-pin-gate")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for changes in [[], ["Sources/Sampling/SplitMix64.swift"]] {
      var resultsA = SyntheticResults.make(runs: 8)
      var resultsB = SyntheticResults.make(seed: 2, runs: 8)
      resultsA.settings.ab = Self.pin(changes: changes)
      resultsB.settings.ab = Self.pin(changes: changes)
      try ResultsFile.save(resultsA, to: folder + "/A.json")
      try ResultsFile.save(resultsB, to: folder + "/B.json")
      var output = ""
      var errors = ""
      _ = GateCommand.run(
        ["--baseline", folder + "/A.json", folder + "/B.json"], output: &output, errors: &errors)
      let warnings = output.split(separator: "\n").filter {
        $0.hasPrefix("warning: ") && $0.contains("simulated camera")
      }
      #expect(warnings.count == (changes.isEmpty ? 0 : 1), "\(output)")
      if !changes.isEmpty { #expect(warnings[0].contains(changes[0]), "\(output)") }
    }
  }
}
