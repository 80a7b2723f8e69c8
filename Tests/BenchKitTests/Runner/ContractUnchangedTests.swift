import AppBuilds
import Foundation
import LaunchContract
import ResultsSchema
import TestSupport
import TestThreads
import Testing

/// Issue 9 was a refactoring with behaviour unchanged: results.json, samples.csv and the trace
/// protocol must not change. These tests hold today's output against fixtures made by the code
/// before the refactoring (`Fixtures/*-before.*`: a `bench --runs 2` over every condition and
/// configuration with the fast profile, trimmed to a few samples per field). Later issues may add
/// fields and events, never remove or retype them: each addition is listed in
/// `Fixtures/results-fields-added.txt` or `Fixtures/trace-vocabulary-added.json`.
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct ContractUnchangedTests {
  static func fixture(_ name: String) throws -> Data {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/" + name).path
    return try #require(FileManager.default.contents(atPath: path), "missing fixture \(name)")
  }

  static func json(_ data: Data) throws -> Any { try JSONSerialization.jsonObject(with: data) }

  /// Every path of a JSON value with the kind of value found there (`cells[].runs: number`).
  /// Array elements collapse to `[]`; the keys of a timeline event's free-form `fields` collapse
  /// to `*`, since which fields an event carries is the trace's business, not the schema's; so do
  /// the phase names keying a run's `thread_states.main`, `.tree`, `.bench` and `.display_server` (the
  /// phases are the schema's `phases`, listed once there), and the phases and sources keying a
  /// run's `device_phases.sources` and `.by_source`.
  static func signature(_ value: Any, path: String = "", into out: inout Set<String>) {
    switch value {
    case let dict as [String: Any]:
      out.insert(path + ": object")
      for (key, child) in dict {
        let isFreeForm =
          path.hasSuffix("timeline[].fields") || path.hasSuffix("thread_states.main")
          || path.hasSuffix("thread_states.tree") || path.hasSuffix("thread_states.bench")
          || path.hasSuffix("thread_states.display_server") || path.hasSuffix("device_phases.sources")
          || path.hasSuffix("device_phases.by_source") || path.hasSuffix("device_phases.by_source.*")
        signature(child, path: path + "." + (isFreeForm ? "*" : key), into: &out)
      }
    case let array as [Any]:
      out.insert(path + ": array")
      for child in array { signature(child, path: path + "[]", into: &out) }
    case is String: out.insert(path + ": string")
    case let n as NSNumber:
      out.insert(path + (String(cString: n.objCType) == "c" ? ": bool" : ": number"))
    case is NSNull: out.insert(path + ": null")
    default: out.insert(path + ": ?")
    }
  }

  // results.json from before decoding and encoding back unchanged: ResultsSchemaTests'
  // ResultsContractTests, beside the schema (it reads Fixtures/results-before.json here).

  @Test(
    "a run today writes results.json and samples.csv with the same fields, and traces in the same vocabulary")
  func freshRunHasTheSameFields() throws {
    let out = temporaryFolder("contract-unchanged")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let conditions = ["warm", "relock", "loaded"]
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    let bench = try BenchInvocation.start(
      [
        "--runs", "1", "--warmup", "0", "--conditions", conditions.joined(separator: ","),
        "--configs", "deferred,eager,manual,preview-only", "--outputs", "preview,photo,movie,analysis",
        "--lock-seconds", "0.3", "--profile", "Benchmarks/profiles/fast.json", "--out", out, "--quiet",
        "--run-timeout", "60",  // a loaded machine or a sanitizer build must not fail a slow run
      ], in: packageRoot)
    #expect(bench.waitUntilExit(timeout: .seconds(150)), "bench did not finish")
    // 1 when a run failed (on a loaded machine a run can time out): the fields are what is checked.
    #expect([0, 1].contains(bench.terminationStatus))

    // results.json: the same paths with the same kinds of value, over the same conditions.
    var before = try #require(try Self.json(Self.fixture("results-before.json")) as? [String: Any])
    before["cells"] = (before["cells"] as? [[String: Any]])?.filter {
      conditions.contains($0["condition"] as? String ?? "")
    }
    let now = try Self.json(try #require(FileManager.default.contents(atPath: out + "/results.json")))
    var expected = Set<String>()
    var actual = Set<String>()
    Self.signature(before, into: &expected)
    Self.signature(now, into: &actual)
    // Stage two adds fields (never removes or retypes one): each addition is listed, with the
    // issue that added it, in Fixtures/results-fields-added.txt.
    let added = Set(
      String(decoding: try Self.fixture("results-fields-added.txt"), as: UTF8.self).split(separator: "\n")
        .map { $0.split(separator: "#").first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? "" }
        .filter { !$0.isEmpty })
    #expect(expected.subtracting(actual).sorted() == [], "fields results.json no longer has")
    #expect(
      actual.subtracting(expected).subtracting(added).sorted() == [],
      "fields results.json did not have before (list additions in Fixtures/results-fields-added.txt)")

    // tool.commit: the checkout bench ran from, where the package is a git checkout.
    let head = SourceCheckout.describe(packageRoot)
    let recorded = try ResultsFile.load(path: out + "/results.json", timelines: .none)
    #expect(recorded.tool.commit == head?.commit && recorded.tool.branch == head?.branch)

    // samples.csv: the same header.
    let header = try String(contentsOfFile: out + "/samples.csv", encoding: .utf8).split(separator: "\n")
      .first
    let headerBefore = String(decoding: try Self.fixture("samples-header-before.csv"), as: UTF8.self)
    #expect(header.map(String.init) == headerBefore.trimmingCharacters(in: .newlines))

    // Traces: every line in the protocol's exact shape, every (name, kind, field keys) one the
    // app wrote before.
    struct Word: Codable, Hashable {
      var name: String
      var kind: String
      var fields: [String]
    }
    let wordsBefore = Set(
      try JSONDecoder().decode([Word].self, from: Self.fixture("trace-vocabulary-before.json")))
    let vocabulary = wordsBefore.union(
      try JSONDecoder().decode([Word].self, from: Self.fixture("trace-vocabulary-added.json")))
    let shape = try Regex(
      #"^\{"ts":\d+,"name":"[^"]+","kind":"(begin|end|event)","pid":\d+,"fields":\{.*\}\}$"#)
    var seen = Set<String>()
    for file in try FileManager.default.contentsOfDirectory(atPath: out + "/traces")
    where file.hasSuffix(".jsonl") {
      let text = try String(contentsOfFile: out + "/traces/" + file, encoding: .utf8)
      for line in text.split(separator: "\n") {
        #expect(line.wholeMatch(of: shape) != nil, "\(file): line not in the protocol's shape: \(line)")
        let object = try #require(try Self.json(Data(line.utf8)) as? [String: Any])
        let word = Word(
          name: object["name"] as? String ?? "", kind: object["kind"] as? String ?? "",
          fields: ((object["fields"] as? [String: Any]) ?? [:]).keys.sorted())
        #expect(
          vocabulary.contains(word),
          "\(file): an event the app did not write before (list additions in Fixtures/trace-vocabulary-added.json): \(word)"
        )
        seen.insert(word.name)
      }
    }
    for name in EventName.allCases
    where name.owner == .app && wordsBefore.contains(where: { $0.name == name.rawValue }) {
      if [.pressureLevel, .deviceRealtimePriority].contains(name) { continue }  // timing-dependent
      #expect(seen.contains(name.rawValue), "no run wrote \(name.rawValue)")
    }
  }
}
