import Gates
import LaunchContract
import ResultsSchema
import RunAnalysis
/// JUnit XML, which CI systems show as tests: each gate check is a test case.
public enum JUnitReport {
  /// A `<testsuites>` document with one suite per gate kind. A check that fails the gate under
  /// the report's policy is a `<failure>` carrying the numbers (an inconclusive one says
  /// "inconclusive" in its message and has type `inconclusive`); skipped checks, and inconclusive
  /// ones under `--inconclusive pass`, are `<skipped>` with the reason.
  public static func xml(gate report: GateReport, suiteName: String = "bench gate") -> String {
    var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    func counts(_ cases: [GateOutcome]) -> String {
      let failures = cases.filter(report.fails).count
      let skipped = cases.filter {
        !report.fails($0) && ($0.status == .skipped || $0.status == .inconclusive)
      }
      return "tests=\"\(cases.count)\" failures=\"\(failures)\" skipped=\"\(skipped.count)\""
    }
    s += "<testsuites name=\"\(XMLText.escape(suiteName))\" \(counts(report.outcomes))>\n"
    // The suites in the order of their names, as when `kind` was a string.
    let kinds = Array(Set(report.outcomes.map(\.kind))).sorted { $0.rawValue < $1.rawValue }
    for kind in kinds.map(\.rawValue) {
      let cases = report.outcomes.filter { $0.kind.rawValue == kind }
      s += "  <testsuite name=\"\(XMLText.escape("\(suiteName).\(kind)"))\" \(counts(cases))>\n"
      for c in cases {
        s +=
          "    <testcase classname=\"\(XMLText.escape("gate.\(kind)"))\" name=\"\(XMLText.escape(c.name))\">\n"
        if c.status == .pass {
          s += "      <system-out>\(XMLText.escape(c.message))</system-out>\n"
        } else if report.fails(c) {
          let inconclusive = c.status == .inconclusive
          let message = inconclusive ? "inconclusive: " + c.message : c.message
          s +=
            "      <failure message=\"\(XMLText.escape(message))\" type=\"\(inconclusive ? "inconclusive" : "regression")\">"
            + "\(XMLText.escape(c.line))</failure>\n"
        } else {
          s += "      <skipped message=\"\(XMLText.escape(c.status.rawValue + ": " + c.message))\"/>\n"
        }
        s += "    </testcase>\n"
      }
      s += "  </testsuite>\n"
    }
    s += "</testsuites>\n"
    return s
  }

  /// A document for a results file without gates: one test case per cell, failing when runs failed.
  public static func xml(results: BenchResults) -> String {
    let outcomes = results.orderedCells.map { cell -> GateOutcome in
      let key = CellKey(cell)
      let ffo = cell.phases[PhaseName.firstFrameObserved]
      let detail =
        ffo.map {
          "first_frame_observed p50 \(NumberFormat.ms($0.p50)) ms, p90 \(NumberFormat.ms($0.p90)) ms, n = \($0.n)"
        }
        ?? "no first_frame_observed"
      return GateOutcome(
        kind: .runs, name: key.name, status: cell.failed > 0 ? .fail : .pass,
        message: "\(cell.runs - cell.failed) of \(cell.runs) runs ok; \(detail)",
        phase: PhaseName.firstFrameObserved)
    }
    return xml(gate: GateReport(outcomes: outcomes), suiteName: "bench runs")
  }
}
