import Foundation
import Sampling
import Testing
@testable import Reports
@testable import RunAnalysis

@Suite struct FormatTests {
  @Test(
    "NumberFormat.fixed writes what String(format: \"%.1f\"/\"%.2f\") writes, ties and signs included (seed printed)"
  )
  func fixedMatchesPrintf() {
    let seed: UInt64 = 20_261_202
    print("NumberFormat.fixed check: seed \(seed)")
    var rng = SplitMix64(seed: seed)
    var values: [Double] = [
      0, -0.0, 0.05, -0.05, 0.125, 0.375, 2.675, -2.675, 9.995, 10.05, 0.75, 1e11, -1e11, 1e17,
    ]
    for _ in 0..<20_000 {
      let magnitude = [1.0, 10, 1000, 1e6][rng.nextIndex(below: 4)]
      values.append((rng.nextUnit() - 0.3) * magnitude)
      // Values on a grid of hundredths and thousandths: the ties and near-ties printf rounds.
      values.append(Double(Int(rng.nextIndex(below: 200_000)) - 50_000) / 1000)
    }
    for v in values {
      #expect(NumberFormat.fixed(v, decimals: 1) == String(format: "%.1f", v), "\(v)")
      #expect(NumberFormat.fixed(v, decimals: 2) == String(format: "%.2f", v), "\(v)")
      // SVGCanvas.n as it was written with the C formatter.
      let r = (v * 10).rounded() / 10
      if abs(r) < 1e15 {
        #expect(SVGCanvas.n(v) == (r == r.rounded() ? String(Int(r)) : String(format: "%.1f", r)), "\(v)")
      }
    }
  }
}
