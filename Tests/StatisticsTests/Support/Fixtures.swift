import Foundation

/// The SciPy reference values (Fixtures/stats-reference.json, made by scripts/make-stats-fixtures.py).
struct StatsReference: Decodable {
  struct MannWhitneyCase: Decodable {
    var name: String
    var x: [Double]
    var y: [Double]
    var method: String
    var u: Double
    var p: Double
  }
  struct BootstrapCase: Decodable {
    var name: String
    var a: [Double]
    var b: [Double]
    var ratio: Double
    var ci_low: Double
    var ci_high: Double
    var tolerance_low: Double
    var tolerance_high: Double
    var resamples: Int
  }
  struct SummaryCase: Decodable {
    var name: String
    var samples: [Double]
    var p50: Double
    var p90: Double
    var p99: Double
    var mean: Double
    var stddev: Double
    var outliers: Int
  }
  var mann_whitney: [MannWhitneyCase]
  var bootstrap: [BootstrapCase]
  var summaries: [SummaryCase]

  static func load() throws -> StatsReference {
    let url = fixtureURL("stats-reference.json")
    return try JSONDecoder().decode(StatsReference.self, from: Data(contentsOf: url))
  }
}

/// A file in Tests/StatisticsTests/Fixtures (from the bundle, or beside this source file).
func fixtureURL(_ name: String) -> URL {
  if let base = Bundle.module.resourceURL {
    let url = base.appendingPathComponent("Fixtures").appendingPathComponent(name)
    if FileManager.default.fileExists(atPath: url.path) { return url }
  }
  return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures").appendingPathComponent(name)
}
