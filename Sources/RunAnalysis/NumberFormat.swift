import Foundation
import Statistics

/// Number formatting shared by the gates' messages, the history's text and the text, Markdown,
/// SVG and JUnit writers.
package enum NumberFormat {
  /// `12.3` (ms with one decimal; more for small values); `≥ timeout` for +∞ (a value among
  /// failed runs, which rank after every finished one: see `timeoutNote`), `–` for NaN.
  package static func ms(_ v: Double) -> String {
    if v == .infinity { return timeout }
    guard v.isFinite else { return "–" }
    return abs(v) < 10 ? fixed(v, decimals: 2) : fixed(v, decimals: 1)
  }

  /// `String(format: "%.Nf", v)` for N = 1 or 2, the same text without the C formatter when `v`
  /// is not within 0.01 of a tie: a report of 8000 runs formats ~100,000 numbers, and
  /// `String(format:)` was most of its time. Near a tie (where printf rounds the exact binary
  /// value) and for huge values it calls the C formatter.
  package static func fixed(_ v: Double, decimals: Int) -> String {
    let scale = decimals == 1 ? 10.0 : 100.0
    let scaled = v * scale
    let rounded = scaled.rounded()
    guard decimals == 1 || decimals == 2, abs(scaled) < 1e12, abs(scaled - rounded) < 0.49 else {
      return String(format: "%.\(decimals)f", v)
    }
    let t = Int(rounded)
    let a = t.magnitude
    let unit = UInt(scale)
    let fraction = String(a % unit)
    let padded = decimals == 2 && fraction.count == 1 ? "0" + fraction : fraction
    // printf keeps the sign of a negative value that rounds to zero ("-0.0").
    let sign = t < 0 || (t == 0 && v.sign == .minus) ? "-" : ""
    return sign + String(a / unit) + "." + padded
  }

  /// `1.234`; `∞` for +∞ (a median beyond the run timeout over a finished one), `–` for NaN.
  package static func ratio(_ v: Double) -> String {
    v.isFinite ? String(format: "%.3f", v) : (v == .infinity ? "∞" : "–")
  }

  /// What a table shows for a percentile among failed runs.
  package static let timeout = "≥ timeout"

  /// `5 s`, `2.5 s`.
  package static func seconds(_ v: Double) -> String {
    v.rounded() == v && abs(v) < 1e15 ? "\(Int(v)) s" : "\(v) s"
  }

  /// The footnote a table with `≥ timeout` carries: what it means and the run timeout, named
  /// once: `run timeout 5 s`; for two results files with different timeouts, each labelled
  /// (`run timeout 10 s (A), 5 s (B)`).
  package static func timeoutNote(runTimeoutSeconds: [Double], labels: [String] = ["A", "B"]) -> String {
    let note = "\(timeout): a failed run ranks after every finished run"
    let distinct = Array(Set(runTimeoutSeconds))
    switch distinct.count {
    case 0: return note
    case 1: return note + "; run timeout \(seconds(distinct[0]))"
    default:
      let each = zip(runTimeoutSeconds, labels).map { "\(seconds($0)) (\($1))" }
      return note + "; run timeout " + each.joined(separator: ", ")
    }
  }

  /// `2.1` for a "2.1×" factor.
  package static func factor(_ v: Double) -> String {
    v.isFinite ? String(format: v < 10 ? "%.1f" : "%.0f", v) : "–"
  }

  /// How much sooner (or faster) the quicker of two medians is, from `factor` = slower / quicker
  /// (≥ 1): `2.1×` from 1.5 up, below that the time saved as a share of the slower median
  /// (`4 %` for 1.042, `0.4 %` under 1 %), so that no difference reads "1.0×".
  package static func sooner(factor: Double) -> String {
    guard factor.isFinite, factor >= 1 else { return "–" }
    if factor >= 1.5 { return "\(self.factor(factor))×" }
    let saved = (1 - 1 / factor) * 100
    return String(format: saved >= 1 ? "%.0f %%" : "%.1f %%", saved)
  }

  /// `+4.2 %` from a ratio 1.042; `median ≥ timeout` for +∞ (the new median run did not finish
  /// within the run timeout), `–` for NaN.
  package static func change(_ ratio: Double) -> String {
    if ratio == .infinity { return "median \(timeout)" }
    guard ratio.isFinite else { return "–" }
    return String(format: "%+.1f %%", (ratio - 1) * 100)
  }

  /// A rate as a percentage: one decimal below 10 % unless whole (`0.4 %`, `2 %`, `97 %`); `–`
  /// for nil or not finite.
  package static func rate(_ fraction: Double?) -> String {
    guard let fraction, fraction.isFinite else { return "–" }
    let v = (fraction * 1000).rounded() / 10  // one decimal, so 0.07 × 100 = 7.000…01 reads 7 %
    return v < 10 && v.rounded() != v ? String(format: "%.1f %%", v) : String(format: "%.0f %%", v)
  }

  /// `5 %` from 0.05.
  package static func percent(_ fraction: Double) -> String {
    let v = fraction * 100
    return v.rounded() == v ? String(format: "%.0f %%", v) : String(format: "%.1f %%", v)
  }

  /// `p = 0.0123`, `p < 1e-6`.
  package static func p(_ v: Double) -> String {
    guard v.isFinite else { return "p = –" }
    if v < 1e-6 { return "p < 1e-6" }
    if v < 0.001 { return String(format: "p = %.1e", v) }
    return String(format: "p = %.4f", v)
  }

  /// `[0.95, 1.02]`; with dropped bootstrap resamples `[0.95, 1.02] (3 of 4000 resamples
  /// dropped)`, and `refused (120 of 4000 resamples dropped)` when the bootstrap refused.
  package static func ci(_ c: ConfidenceInterval) -> String {
    let dropped = c.droppedResamples ?? 0
    let count = "\(dropped) of \(c.resamples ?? 0) resamples dropped"
    if c.isRefused { return "refused (\(count))" }
    let interval = "[\(ratio(c.lower)), \(ratio(c.upper))]"
    return dropped > 0 ? "\(interval) (\(count))" : interval
  }

  /// A JSON-safe number (NaN and infinities become nil).
  package static func json(_ v: Double) -> Double? { v.isFinite ? v : nil }
}
