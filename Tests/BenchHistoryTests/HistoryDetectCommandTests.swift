import BenchCommands
import BenchHistory
import Foundation
import HistoryAnalysis
import Sampling
import Statistics
import TestSupport
import Testing

@Suite(
  .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: SQLiteLibrary.isAvailable, HistoryFixtures.skipReason))
struct HistoryDetectCommandTests {
  /// 24 nightly benchmarks of warm/deferred, 5 runs each: medians near 100 ms until commit11,
  /// then 10 % slower from commit12 on. Returns the database URL.
  func slowedAtTwelve() throws -> String {
    let path = HistoryFixtures.databasePath()
    let store = try SQLiteHistoryStore(path: path)
    var rng = SplitMix64(seed: 26)
    for night in 0..<24 {
      let level = night < 12 ? 100.0 : 110.0
      let frames: [Double?] = (0..<5).map { _ in level * (1 + 0.004 * rng.nextGaussian()) }
      let day = String(format: "2026-11-%02dT02:00:00Z", night + 1)
      let results = HistoryFixtures.results(frames, startedAt: day, seed: UInt64(night + 1))
      _ = try store.record(HistoryBenchmark(results: results, commit: "commit\(night)"))
    }
    return "sqlite:" + path
  }

  @Test("detect names the commit range of a 10 % slowdown, its shift with an interval, and its p-value")
  func detectsSlowdown() throws {
    let db = try slowedAtTwelve()
    let (status, output, errors) = HistoryFixtures.run([
      "detect", "--db", db, "--phase", "first_frame_observed", "--format", "json",
    ])
    #expect(status == 0, "\(errors)")
    struct Found: Decodable {
      var change_points: [HistoryChangePoint]
    }
    let found = try JSONDecoder().decode(Found.self, from: Data(output.utf8)).change_points
    let change = try #require(found.first)
    #expect(found.count == 1)
    #expect(change.commitBefore == "commit11" && change.commitAfter == "commit12")
    #expect(change.cell == "warm/deferred" && change.phase == "first_frame_observed")
    #expect(abs(change.shift - 0.10) < 0.02)
    #expect(change.shiftInterval[0] > 0.05 && change.shiftInterval[1] < 0.15)
    #expect(change.pValue <= 0.05)
  }

  @Test("--detector edivisive still runs E-divisive's permutation test; an unknown detector is refused")
  func edivisiveSelectable() throws {
    let db = try slowedAtTwelve()
    let (status, output, errors) = HistoryFixtures.run([
      "detect", "--db", db, "--phase", "first_frame_observed", "--detector", "edivisive", "--format", "json",
    ])
    #expect(status == 0, "\(errors)")
    struct Found: Decodable {
      var change_points: [HistoryChangePoint]
    }
    let found = try JSONDecoder().decode(Found.self, from: Data(output.utf8)).change_points
    #expect(found.map { "\($0.commitBefore)..\($0.commitAfter)" } == ["commit11..commit12"])
    // The permutation test's p counts shuffles over 501: a multiple of 1/501.
    let p = try #require(found.first?.pValue)
    #expect(abs(p * 501 - (p * 501).rounded()) < 1e-9)
    #expect(HistoryFixtures.run(["detect", "--db", db, "--detector", "otava"]).status == 2)
  }

  @Test("detect's table says how many change points in how many series, one line each")
  func detectTable() throws {
    let db = try slowedAtTwelve()
    let (status, output, _) = HistoryFixtures.run([
      "detect", "--db", db, "--cell", "warm/deferred", "--phase", "first_frame_observed",
    ])
    #expect(status == 0)
    let lines = output.split(separator: "\n")
    #expect(lines.first?.hasPrefix("1 change point in ") == true)
    #expect(lines.count == 2)
    #expect(lines.last?.contains("commit11..commit12") == true)
  }

  @Test("show --svg writes a plot per series, each dot linked to its commit, the change point marked")
  func svg() throws {
    let db = try slowedAtTwelve()
    let folder = temporaryFolder("history") + "/plots"
    let (status, output, errors) = HistoryFixtures.run([
      "show", "--db", db, "--svg", folder, "--commit-url", "https://example.org/c/{commit}",
    ])
    #expect(status == 0, "\(errors)")
    #expect(output.hasSuffix("wrote 1 trend plot into \(folder)\n"))
    let files = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(files.count == 1)
    let name = try #require(files.first)
    #expect(name.hasPrefix("bench-1-") && name.hasSuffix("-synthetic-warm-deferred-first_frame_observed.svg"))
    let svg = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
    #expect(svg.hasPrefix("<?xml") && svg.hasSuffix("</svg>\n"))
    for night in 0..<24 { #expect(svg.contains("<a href=\"https://example.org/c/commit\(night)\">")) }
    #expect(svg.components(separatedBy: "stroke-dasharray").count - 1 == 1)
    #expect(svg.contains("+10."))
  }
}
