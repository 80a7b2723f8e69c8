import Foundation
import RunAnalysis

/// A minimal SVG writer (internal): shapes and text appended in drawing order.
struct SVGCanvas {
  var width: Double
  var height: Double
  private var body = ""

  init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// `v` to one decimal, without a trailing `.0`.
  static func n(_ v: Double) -> String {
    let r = (v * 10).rounded() / 10
    return r == r.rounded() ? String(Int(r)) : NumberFormat.fixed(r, decimals: 1)
  }

  mutating func rect(
    x: Double, y: Double, w: Double, h: Double, fill: String, stroke: String? = nil, opacity: Double = 1,
    rx: Double = 0, title: String? = nil
  ) {
    body +=
      "<rect x=\"\(Self.n(x))\" y=\"\(Self.n(y))\" width=\"\(Self.n(Swift.max(0, w)))\" height=\"\(Self.n(Swift.max(0, h)))\" fill=\"\(fill)\""
    if let stroke { body += " stroke=\"\(stroke)\"" }
    if opacity < 1 {
      body +=
        " fill-opacity=\"\(Self.n(opacity * 100) == "0" ? "0" : NumberFormat.fixed(opacity, decimals: 2))\""
    }
    if rx > 0 { body += " rx=\"\(Self.n(rx))\"" }
    if let title { body += "><title>\(XMLText.escape(title))</title></rect>\n" } else { body += "/>\n" }
  }

  mutating func line(
    x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1, dash: String? = nil
  ) {
    body +=
      "<line x1=\"\(Self.n(x1))\" y1=\"\(Self.n(y1))\" x2=\"\(Self.n(x2))\" y2=\"\(Self.n(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(Self.n(width))\""
    if let dash { body += " stroke-dasharray=\"\(dash)\"" }
    body += "/>\n"
  }

  mutating func circle(
    cx: Double, cy: Double, r: Double, fill: String, opacity: Double = 1, title: String? = nil
  ) {
    body +=
      "<circle cx=\"\(Self.n(cx))\" cy=\"\(Self.n(cy))\" r=\"\(Self.n(r))\" fill=\"\(fill)\" fill-opacity=\"\(NumberFormat.fixed(opacity, decimals: 2))\""
    if let title { body += "><title>\(XMLText.escape(title))</title></circle>\n" } else { body += "/>\n" }
  }

  /// Opens a link: what is drawn until `endLink()` links to `href` (`<a href="…">`).
  mutating func beginLink(_ href: String) { body += "<a href=\"\(XMLText.escape(href))\">\n" }

  /// Closes the link `beginLink` opened.
  mutating func endLink() { body += "</a>\n" }

  enum Anchor: String { case start, middle, end }

  mutating func text(
    _ s: String, x: Double, y: Double, size: Double = 12, anchor: Anchor = .start, weight: String = "normal",
    fill: String = "#222"
  ) {
    body +=
      "<text x=\"\(Self.n(x))\" y=\"\(Self.n(y))\" font-size=\"\(Self.n(size))\" text-anchor=\"\(anchor.rawValue)\""
    if weight != "normal" { body += " font-weight=\"\(weight)\"" }
    body += " fill=\"\(fill)\">\(XMLText.escape(s))</text>\n"
  }

  var svg: String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.n(width))\" height=\"\(Self.n(height))\" viewBox=\"0 0 \(Self.n(width)) \(Self.n(height))\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
      + "<rect x=\"0\" y=\"0\" width=\"\(Self.n(width))\" height=\"\(Self.n(height))\" fill=\"#ffffff\"/>\n"
      + body + "</svg>\n"
  }

  /// Round tick positions from 0 to at least `maximum`: steps of 1, 2 or 5 × 10ᵏ, about `count` of them.
  static func ticks(maximum: Double, count: Int = 6) -> [Double] {
    guard maximum > 0, maximum.isFinite else { return [0, 1] }
    let raw = maximum / Double(count)
    let magnitude = pow(10, (log10(raw)).rounded(.down))
    let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
    var out: [Double] = []
    var v = 0.0
    while v < maximum + step * 0.999 {
      out.append(v)
      v += step
    }
    return out
  }
}
