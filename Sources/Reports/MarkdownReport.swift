import Foundation
import Gates
import LaunchContract
import ResultsSchema
import RunAnalysis

/// Markdown for people and CI job summaries (`$GITHUB_STEP_SUMMARY`).
public enum MarkdownReport {
  /// A summary of `results`: headline, per-cell table of key phases, within-run comparisons, and
  /// (when given) the gate's verdicts and power advice.
  public static func summary(results: BenchResults, gate: GateReport? = nil) -> String {
    var s = "# FirstFrame launch benchmark\n\n"
    s += "\(results.settings.runs) runs per cell · camera `\(results.settings.camera)`"
    if let p = results.settings.profileName { s += " · profile `\(p)`" }
    s +=
      " · \(results.tool.name) \(results.tool.version) · host `\(results.host.hostname)` (\(results.host.cpus) CPUs)"
    s += " · started \(results.settings.startedAt)\n"
    if results.settings.interrupted {
      s += "\n> **Interrupted:** only the runs that finished are included.\n"
    }
    let headlines = Comparator.headlines(results)
    if !headlines.isEmpty {
      s += "\n## Headline\n\n" + headlines.map { "- \($0)" }.joined(separator: "\n") + "\n"
    }
    for note in results.detectionNotes { s += "\n> **Note:** \(escape(note))\n" }
    if let gate { s += "\n" + gateSection(gate) }
    s += "\n## First frame observed (ms)\n\n"
    s += "| cell | n | failed | min | p50 | p90 | max | mean ± sd | outliers |\n"
    s += "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    for cell in results.orderedCells {
      // min, p50, p90 and max rank a failed run after every finished one (`≥ timeout`); n,
      // mean ± sd and outliers are over the finished runs (results.json's summary).
      let ranked = cell.rankedPercentiles(for: PhaseName.firstFrameObserved, [0, 0.5, 0.9, 1])
      guard let p = cell.phases[PhaseName.firstFrameObserved], let q = ranked else {
        let all = cell.showsRanked ? ranked : nil
        let shown = all.map { $0.map(NumberFormat.ms) } ?? ["–", "–", "–", "–"]
        s +=
          "| \(CellKey(cell).name) | 0 | \(cell.failed) of \(cell.runs) | \(shown.joined(separator: " | ")) | – | – |\n"
        continue
      }
      s +=
        "| \(CellKey(cell).name) | \(p.n) | \(cell.failed) of \(cell.runs) | \(NumberFormat.ms(q[0])) | **\(NumberFormat.ms(q[1]))** | \(NumberFormat.ms(q[2]))"
      s +=
        " | \(NumberFormat.ms(q[3])) | \(NumberFormat.ms(p.mean)) ± \(NumberFormat.ms(p.stddev)) | \(p.outliers) |\n"
    }
    if results.cells.contains(where: { $0.failed > 0 }) {
      s +=
        "\n\(NumberFormat.timeoutNote(runTimeoutSeconds: [results.settings.runTimeoutSeconds])) (min, p50, p90, max);"
        + " n, mean ± sd and outliers are over the finished runs.\n"
    }
    s += "\n## All phases, median ms (p90)\n\n"
    let phases = PhaseName.all.filter { phase in results.cells.contains { $0.phases[phase] != nil } }
    if !phases.isEmpty {
      s += "| cell | " + phases.joined(separator: " | ") + " |\n"
      s += "|---|" + phases.map { _ in "---:" }.joined(separator: "|") + "|\n"
      for cell in results.orderedCells {
        s += "| \(CellKey(cell).name) | "
        s += phases.map { ph in
          guard cell.phases[ph] != nil || cell.showsRanked,
            let q = cell.rankedPercentiles(for: ph, [0.5, 0.9])
          else { return "–" }
          return "\(NumberFormat.ms(q[0])) (\(NumberFormat.ms(q[1])))"
        }
        .joined(separator: " | ")
        s += " |\n"
      }
    }
    let comparisons = results.comparisons.filter { $0.phase == PhaseName.firstFrameObserved }
    if !comparisons.isEmpty {
      s += "\n## Configurations compared (first_frame_observed; ratio = median(a)/median(b))\n\n"
      s += "| condition | a | b | ratio | 95% CI | p | verdict (a vs b) |\n|---|---|---|---:|---:|---:|---|\n"
      for c in comparisons {
        let ci =
          c.ci95.count == 2 ? "[\(NumberFormat.ratio(c.ci95[0])), \(NumberFormat.ratio(c.ci95[1]))]" : "–"
        s +=
          "| \(c.condition) | \(c.a) | \(c.b) | \(NumberFormat.ratio(c.ratioP50)) | \(ci) | \(NumberFormat.p(c.pValue)) | \(c.verdict ?? "–") |\n"
      }
    }
    let failures = results.cells.flatMap { cell in
      cell.records.filter { !$0.ok }.map { "\(CellKey(cell).name) run \($0.run): \($0.error ?? "failed")" }
    }
    if !failures.isEmpty {
      s += "\n## Failed runs\n\n" + failures.prefix(20).map { "- \($0)" }.joined(separator: "\n") + "\n"
      if failures.count > 20 { s += "- … and \(failures.count - 20) more\n" }
    }
    return s
  }

  /// The gate's section: a verdict line, a table of checks, warnings and power advice. An
  /// inconclusive check that fails the gate (the report's policy is `fail`) is counted among the
  /// failed checks and marked ❌ in the table; under `pass` it is marked ⚠️.
  public static func gateSection(_ gate: GateReport) -> String {
    let failed = gate.failures.count
    var s =
      "## Gate: " + (gate.passed ? "✅ passed" : "❌ \(failed) failed check\(failed == 1 ? "" : "s")") + "\n\n"
    if !gate.outcomes.isEmpty {
      s += "| status | check | details |\n|---|---|---|\n"
      for outcome in gate.outcomes {
        let icon =
          gate.fails(outcome)
          ? "❌" : ["pass": "✅", "inconclusive": "⚠️", "skipped": "⏭️"][outcome.status.rawValue] ?? ""
        s += "| \(icon) \(outcome.status.rawValue) | \(escape(outcome.name)) | \(escape(outcome.message)) |\n"
      }
    }
    if !gate.warnings.isEmpty {
      s += "\n**Warnings**\n\n" + gate.warnings.map { "- \(escape($0))" }.joined(separator: "\n") + "\n"
    }
    if let measured = gate.measuredPower {
      s += "\n**The gate's false alarms and power**: \(escape(measured))\n"
    }
    if !gate.advice.isEmpty {
      s += "\n**Power** (smallest regression caught with 80 % probability at these run counts)\n\n"
      s += gate.advice.map { "- \(escape($0.summary))" }.joined(separator: "\n") + "\n"
    }
    return s
  }

  static func escape(_ s: String) -> String {
    s.replacingOccurrences(of: "|", with: "\\|")
  }
}
