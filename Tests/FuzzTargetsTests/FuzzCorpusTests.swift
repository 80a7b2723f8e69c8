import Foundation
import FuzzTargets
import TestSupport
import Testing

/// Replays every committed fuzz input (`Fuzz/Corpus/<target>/`: the seeds and every input that
/// once crashed or failed a check) through its target: the regression tests of the fuzzers.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct FuzzCorpusTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

  static func inputs(of target: FuzzTarget) -> [URL] {
    let folder = corpus.appendingPathComponent(target.rawValue)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
  }

  @Test("every committed input of every target is handled as documented", arguments: FuzzTarget.allCases)
  func replay(_ target: FuzzTarget) throws {
    let inputs = Self.inputs(of: target)
    #expect(!inputs.isEmpty, "Fuzz/Corpus/\(target.rawValue) has no seeds")
    for url in inputs {
      let data = try Data(contentsOf: url)
      let problems = target.run([UInt8](data))
      #expect(problems.isEmpty, "\(target.rawValue)/\(url.lastPathComponent): \(problems)")
    }
  }
}
