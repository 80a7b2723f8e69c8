import LaunchContract
import ResultsSchema
/// JUnit XML, which CI systems show as tests: each gate check is a test case.
public enum JUnitReport {
  /// A `<testsuites>` document with one suite per gate kind; failures carry the numbers,
  /// skipped and inconclusive checks are `<skipped>` with the reason.
  public static func xml(gate report: GateReport, suiteName: String = "bench gate") -> String {
    var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    let failures = report.outcomes.filter { $0.status == .fail }.count
    let skipped = report.outcomes.filter { $0.status == .skipped || $0.status == .inconclusive }.count
    s +=
      "<testsuites name=\"\(XMLText.escape(suiteName))\" tests=\"\(report.outcomes.count)\" failures=\"\(failures)\" skipped=\"\(skipped)\">\n"
    let kinds = Array(Set(report.outcomes.map(\.kind))).sorted()
    for kind in kinds {
      let cases = report.outcomes.filter { $0.kind == kind }
      s += "  <testsuite name=\"\(XMLText.escape("\(suiteName).\(kind)"))\" tests=\"\(cases.count)\""
      s += " failures=\"\(cases.filter { $0.status == .fail }.count)\""
      s += " skipped=\"\(cases.filter { $0.status == .skipped || $0.status == .inconclusive }.count)\">\n"
      for c in cases {
        s +=
          "    <testcase classname=\"\(XMLText.escape("gate.\(kind)"))\" name=\"\(XMLText.escape(c.name))\""
        switch c.status {
        case .pass:
          s += ">\n      <system-out>\(XMLText.escape(c.message))</system-out>\n    </testcase>\n"
        case .fail:
          s +=
            ">\n      <failure message=\"\(XMLText.escape(c.message))\" type=\"regression\">\(XMLText.escape(c.line))</failure>\n    </testcase>\n"
        case .skipped, .inconclusive:
          s +=
            ">\n      <skipped message=\"\(XMLText.escape(c.status.rawValue + ": " + c.message))\"/>\n    </testcase>\n"
        }
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
        ffo.map { "first_frame_observed p50 \(Fmt.ms($0.p50)) ms, p90 \(Fmt.ms($0.p90)) ms, n = \($0.n)" }
        ?? "no first_frame_observed"
      return GateOutcome(
        kind: "runs", name: key.name, status: cell.failed > 0 ? .fail : .pass,
        message: "\(cell.runs - cell.failed) of \(cell.runs) runs ok; \(detail)",
        phase: PhaseName.firstFrameObserved)
    }
    return xml(gate: GateReport(outcomes: outcomes), suiteName: "bench runs")
  }
}
