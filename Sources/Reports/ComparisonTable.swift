import Foundation
import Gates
import RunAnalysis
import Statistics

/// `bench compare` output: a table for terminals, Markdown, or JSON.
public enum ComparisonTable {
  /// The column titles.
  static let header = [
    "phase", "cell", "A median ms", "B median ms", "B/A", "95% CI", "p", "verdict (B vs A)",
  ]

  static func rows(_ comparisons: [PhaseComparison]) -> [[String]] {
    comparisons.map { c in
      let r = c.result
      return [
        c.phase, c.cellName, NumberFormat.ms(r.referenceMedian), NumberFormat.ms(r.newMedian),
        NumberFormat.ratio(r.ratio),
        NumberFormat.ci(r.ci95),
        r.pValue < 1e-6 ? "<1e-6" : String(format: r.pValue < 0.001 ? "%.1e" : "%.4f", r.pValue),
        r.verdict == .noSignificantDifference || r.verdict == .notEnoughData
          ? r.verdict.rawValue : "B \(r.verdict.rawValue) (\(NumberFormat.change(r.ratio)))",
      ]
    }
  }

  /// A fixed-width table with an explanation line on top, and a footnote when a median is among
  /// failed runs (`≥ timeout`) naming the run timeouts (`runTimeoutSeconds`: A's and B's).
  public static func text(
    _ comparisons: [PhaseComparison], a: String, b: String, options: ComparisonOptions,
    runTimeoutSeconds: [Double] = []
  ) -> String {
    var s = legend(a: a, b: b, options: options) + "\n\n"
    let all = [header] + rows(comparisons)
    let widths = header.indices.map { i in all.map { $0[i].count }.max() ?? 0 }
    for (n, row) in all.enumerated() {
      let cells = row.enumerated().map { i, v in
        (2...6).contains(i)
          ? String(repeating: " ", count: widths[i] - v.count) + v
          : v + String(repeating: " ", count: widths[i] - v.count)
      }
      s += cells.joined(separator: "  ").trailingSpacesRemoved + "\n"
      if n == 0 { s += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n" }
    }
    if comparisons.isEmpty { s += "(no phase and cell is present in both files)\n" }
    return s + timeoutFootnote(comparisons, runTimeoutSeconds: runTimeoutSeconds)
  }

  /// A Markdown table with the same legend and footnote.
  public static func markdown(
    _ comparisons: [PhaseComparison], a: String, b: String, options: ComparisonOptions,
    runTimeoutSeconds: [Double] = []
  ) -> String {
    var s = legend(a: a, b: b, options: options) + "\n\n"
    s += "| " + header.joined(separator: " | ") + " |\n"
    s += "|" + header.indices.map { (2...6).contains($0) ? "---:" : "---" }.joined(separator: "|") + "|\n"
    for row in rows(comparisons) { s += "| " + row.joined(separator: " | ") + " |\n" }
    let note = timeoutFootnote(comparisons, runTimeoutSeconds: runTimeoutSeconds)
    return note.isEmpty ? s : s + "\n" + note
  }

  /// JSON: `{ "a": path, "b": path, "ratio": "B/A", "threshold": 0.02, "alpha": 0.05, "comparisons": [...] }`.
  public static func json(_ comparisons: [PhaseComparison], a: String, b: String, options: ComparisonOptions)
    -> String
  {
    let items: [[String: Any]] = comparisons.map { c in
      let r = c.result
      return [
        "phase": c.phase, "config": c.config, "condition": c.condition, "camera": c.camera,
        "a_median_ms": NumberFormat.json(r.referenceMedian) as Any,
        "b_median_ms": NumberFormat.json(r.newMedian) as Any,
        "a_n": r.referenceCount, "b_n": r.newCount, "ratio_b_over_a": NumberFormat.json(r.ratio) as Any,
        "ci95": [NumberFormat.json(r.ci95.lower) as Any, NumberFormat.json(r.ci95.upper) as Any],
        "bootstrap_dropped": r.ci95.droppedResamples ?? 0,
        "p_value": NumberFormat.json(r.pValue) as Any, "u": NumberFormat.json(r.u) as Any,
        "test": r.method.rawValue,
        "cliffs_delta": NumberFormat.json(r.cliffsDelta) as Any,
        "hodges_lehmann_shift_ms": NumberFormat.json(r.shiftMs) as Any,
        "verdict": r.verdict.rawValue,
      ]
    }
    let doc: [String: Any] = [
      "a": a, "b": b, "ratio": "median(B) / median(A)", "threshold": options.threshold,
      "alpha": options.alpha,
      "comparisons": items,
    ]
    let data =
      (try? JSONSerialization.data(
        withJSONObject: doc, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  /// The `≥ timeout` footnote, when a median of some comparison is among failed runs; else empty.
  /// `runTimeoutSeconds`: A's and B's `--run-timeout`.
  static func timeoutFootnote(_ comparisons: [PhaseComparison], runTimeoutSeconds: [Double]) -> String {
    let beyond = comparisons.contains {
      $0.result.referenceMedian == .infinity || $0.result.newMedian == .infinity
    }
    return beyond ? NumberFormat.timeoutNote(runTimeoutSeconds: runTimeoutSeconds) + "\n" : ""
  }

  static func legend(a: String, b: String, options: ComparisonOptions) -> String {
    "B vs A — A = \(a), B = \(b). B/A = median(B)/median(A): below 1 means B is faster."
      + " Verdict needs Mann–Whitney p < \(PowerAdvice.formatAlpha(options.alpha)) and a change beyond"
      + " ±\(NumberFormat.percent(options.threshold)); CI: percentile bootstrap, \(options.resamples) resamples."
  }
}

extension String {
  var trailingSpacesRemoved: String {
    var s = Substring(self)
    while s.last == " " { s.removeLast() }
    return String(s)
  }
}
