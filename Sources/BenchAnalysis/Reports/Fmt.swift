import Foundation

/// Number formatting shared by the text, Markdown, SVG and JUnit writers (internal).
enum Fmt {
  /// `12.3` (ms with one decimal; more for small values).
  static func ms(_ v: Double) -> String {
    guard v.isFinite else { return "–" }
    return abs(v) < 10 ? fixed(v, decimals: 2) : fixed(v, decimals: 1)
  }

  /// `String(format: "%.Nf", v)` for N = 1 or 2, the same text without the C formatter when `v`
  /// is not within 0.01 of a tie: a report of 8000 runs formats ~100,000 numbers, and
  /// `String(format:)` was most of its time. Near a tie (where printf rounds the exact binary
  /// value) and for huge values it calls the C formatter.
  static func fixed(_ v: Double, decimals: Int) -> String {
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

  /// `1.234`.
  static func ratio(_ v: Double) -> String { v.isFinite ? String(format: "%.3f", v) : "–" }

  /// `2.1` for a "2.1×" factor.
  static func factor(_ v: Double) -> String { v.isFinite ? String(format: v < 10 ? "%.1f" : "%.0f", v) : "–" }

  /// `+4.2 %` from a ratio 1.042.
  static func change(_ ratio: Double) -> String {
    guard ratio.isFinite else { return "–" }
    return String(format: "%+.1f %%", (ratio - 1) * 100)
  }

  /// `5 %` from 0.05.
  static func percent(_ fraction: Double) -> String {
    let v = fraction * 100
    return v.rounded() == v ? String(format: "%.0f %%", v) : String(format: "%.1f %%", v)
  }

  /// `p = 0.0123`, `p < 1e-6`.
  static func p(_ v: Double) -> String {
    guard v.isFinite else { return "p = –" }
    if v < 1e-6 { return "p < 1e-6" }
    if v < 0.001 { return String(format: "p = %.1e", v) }
    return String(format: "p = %.4f", v)
  }

  /// `[0.95, 1.02]`.
  static func ci(_ c: ConfidenceInterval) -> String {
    "[\(ratio(c.lower)), \(ratio(c.upper))]"
  }

  /// A JSON-safe number (NaN and infinities become nil).
  static func json(_ v: Double) -> Double? { v.isFinite ? v : nil }
}
