import Foundation
import ResultsSchema
import Testing

/// `results.json` is a contract (README, "Results"): third-party tools read it. These tests hold
/// the schema module to the fixtures made by the code of earlier issues.
@Suite struct ResultsContractTests {
  /// The path of a fixture: this target's `Fixtures/NAME`, or, for the `bench` run fixtures that
  /// ContractUnchangedTests also reads, `Tests/BenchKitTests/Fixtures/NAME`.
  static func fixturePath(_ name: String) -> String {
    let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    let own = tests.appendingPathComponent("ResultsSchemaTests/Fixtures/" + name).path
    if FileManager.default.fileExists(atPath: own) { return own }
    return tests.appendingPathComponent("BenchKitTests/Fixtures/" + name).path
  }

  static func fixture(_ name: String) throws -> Data {
    try #require(FileManager.default.contents(atPath: fixturePath(name)), "missing fixture \(name)")
  }

  static func json(_ data: Data) throws -> Any { try JSONSerialization.jsonObject(with: data) }

  @Test("results.json from before the refactoring decodes and encodes back to the same fields and values")
  func roundTrip() throws {
    let before = try Self.fixture("results-before.json")
    let results = try ResultsFile.decode(before, name: "results-before.json")
    let again = try ResultsFile.encode(results)
    let a = try #require(try Self.json(before) as? NSDictionary)
    let b = try #require(try Self.json(again) as? NSDictionary)
    for key in Set(a.allKeys.map { "\($0)" }).union(b.allKeys.map { "\($0)" }) {
      #expect(a[key] as? NSObject == b[key] as? NSObject, "results.json field '\(key)' changed")
    }
  }

  @Test("every count key and the comparison's fields keep their JSON names")
  func jsonNames() throws {
    #expect(CountKey.allCases.count == Set(CountKey.allCases.map(\.rawValue)).count)
    #expect(CountKey.allCases.allSatisfy { $0.rawValue.allSatisfy { $0.isLowercase || $0 == "_" } })
    #expect(
      CountKey.staleFrames.rawValue == "stale_frames" && CountKey.feedFollows.rawValue == "feed_follows")
    let comparison = BenchResults.Comparison(
      phase: "first_frame_observed", condition: "cold", a: "deferred", b: "eager", ratioP50: 0.5,
      ci95: [0.4, 0.6],
      pValue: 0.01)
    let object = try #require(try Self.json(JSONEncoder().encode(comparison)) as? [String: Any])
    #expect(Set(object.keys) == ["phase", "condition", "a", "b", "ratio_p50", "ci95", "p_value"])
  }
}
