import BenchCommands
import CommandLineKit
import Gates
import TestSupport
import Testing

/// `bench ab --sequential` (the default) and `--fixed` as parsed: the design and the runs a side
/// (issue 39).
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct SequentialABParsingTests {
  @Test("sequential is the default: 9 looks of 4 pairs, --runs the most a side rounded up to whole looks")
  func sequentialDefault() throws {
    let plain = try #require(try ABCommand.parse(["--repo", "/ff-no-such-repo", "A", "B"]))
    let design = try #require(plain.design)
    #expect(design.pairsPerLook == 4 && design.looks == 9 && plain.run.settings.runs == 36)
    #expect(
      design.alpha == 0.01 && design.beta == 0.05 && design.threshold == 0.05 && design.spending == .pocock)
    let capped = try #require(try ABCommand.parse(["--repo", "/ff-no-such-repo", "A", "B", "--runs", "10"]))
    #expect(capped.design?.looks == 3 && capped.run.settings.runs == 12)
    let given = try #require(
      try ABCommand.parse(["--repo", "/ff-no-such-repo", "A", "B", "--sequential", "--runs", "16"]))
    #expect(given.design?.looks == 4 && given.run.settings.runs == 16)
  }

  @Test("α is split over the run's cells: CI's step's 2 (warm × deferred, eager), 4 with warm,cold")
  func alphaSplit() throws {
    let ci = try #require(
      try ABCommand.parse([
        "--repo", "/ff-no-such-repo", "A", "B", "--conditions", "warm", "--configs", "deferred,eager",
      ]))
    #expect(ci.design?.cells == 2 && ci.design?.cellAlpha == 0.005 && ci.design?.alpha == 0.01)
    let four = try #require(
      try ABCommand.parse([
        "--repo", "/ff-no-such-repo", "A", "B", "--conditions", "warm,cold", "--configs", "deferred,eager",
      ]))
    #expect(four.design?.cells == 4 && four.design?.cellAlpha == 0.0025)
    let one = try #require(
      try ABCommand.parse([
        "--repo", "/ff-no-such-repo", "A", "B", "--conditions", "warm", "--configs", "deferred",
      ]))
    #expect(one.design?.cells == 1 && one.design?.cellAlpha == 0.01)
  }

  @Test("--fixed runs --runs a side with no design; with --sequential it is bad usage")
  func fixed() throws {
    let fixed = try #require(
      try ABCommand.parse(["--repo", "/ff-no-such-repo", "A", "B", "--fixed", "--runs", "10"]))
    #expect(fixed.design == nil && fixed.run.settings.runs == 10)
    var output = ""
    var errors = ""
    let status = ABCommand.run(["A", "B", "--fixed", "--sequential"], output: &output, errors: &errors)
    #expect(status == 2 && errors.contains("--sequential and --fixed exclude each other"), "\(errors)")
  }

  @Test("bench bisect's probes are sequential unless --fixed")
  func bisect() throws {
    let options = try #require(try BisectCommand.parse(["--repo", "/ff-no-such-repo", "GOOD", "BAD"]))
    #expect(options.fixed == false)
    let fixed = try #require(
      try BisectCommand.parse(["--repo", "/ff-no-such-repo", "GOOD", "BAD", "--fixed"]))
    #expect(fixed.fixed)
  }
}
