import AppBuilds
import Gates
import Reports
import ResultsSchema

extension ABJob {
  /// What is marked beside each `first_frame` row of the comparison when the simulated camera's
  /// sources differ between A and B.
  static let simulatedCameraMark = "[simulated camera differs]"

  /// The comparison B vs A as `comparison.txt` holds it: headed by what A and B are, then the
  /// table (``ComparisonTable``) and the gate command for the results in `folder`. When the
  /// results record (`settings.ab`) that the simulated camera's sources differ between the
  /// revisions, a `warning:` line right under the heading says so, and every `first_frame` row
  /// is marked ``simulatedCameraMark``: its change may be the simulated hardware's.
  package static func comparison(
    a: Revision, b: Revision, resultsA: BenchResults, resultsB: BenchResults, folder dir: String
  ) -> String {
    var text = "A = \(a.name) (\(a.shortCommit))   B = \(b.name) (\(b.shortCommit))\n"
    var table = ComparisonTable.text(
      Comparator.compare(resultsA, resultsB), a: dir + "/A/results.json", b: dir + "/B/results.json",
      options: .init(),
      runTimeoutSeconds: [resultsA.settings.runTimeoutSeconds, resultsB.settings.runTimeoutSeconds])
    if let note = (resultsA.settings.ab ?? resultsB.settings.ab)?.simulatedCameraNote {
      text += "warning: \(note)\n"
      table = table.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.hasPrefix("first_frame") ? "\($0)  \(simulatedCameraMark)" : String($0)
      }.joined(separator: "\n")
    }
    text += table
    text += "gate: bench gate --baseline \(dir)/A/results.json \(dir)/B/results.json\n"
    return text
  }
}

extension BenchResults.ABPin {
  /// One sentence saying that the simulated camera's sources differ between the revisions and
  /// which files, when they do; nil when the simulated camera is the same code on both sides.
  package var simulatedCameraNote: String? {
    guard simulatedCameraDiffers else { return nil }
    let shown = simulatedCameraChanges.prefix(3).joined(separator: ", ")
    let more = simulatedCameraChanges.count > 3 ? ", and \(simulatedCameraChanges.count - 3) more" : ""
    return
      "the simulated camera differs between A (\(commitA.prefix(12))) and B (\(commitB.prefix(12))): \(shown)\(more); a change in first_frame may be the simulated hardware's, not camera-app's"
  }
}
