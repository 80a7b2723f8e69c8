/// Scales an 8-bit luma image to another size: an area average when shrinking in both
/// directions, nearest neighbour otherwise. Reuses its scratch buffers between calls.
package struct FrameScaler {
  private var columnSums: [UInt32] = []
  private var xStarts: [Int32] = []
  private var xEnds: [Int32] = []
  private var key: (Int, Int) = (0, 0)

  /// A scaler with no scratch buffers yet.
  package init() {}

  /// Scales `source` (`sw`×`sh`, stride `sbpr`) into `dest` (`dw`×`dh`, stride `dbpr`).
  package mutating func scale(
    source: UnsafePointer<UInt8>, width sw: Int, height sh: Int, bytesPerRow sbpr: Int,
    into dest: UnsafeMutablePointer<UInt8>, width dw: Int, height dh: Int, bytesPerRow dbpr: Int
  ) {
    if sw == dw && sh == dh {
      for y in 0..<dh { (dest + y * dbpr).update(from: source + y * sbpr, count: dw) }
      return
    }
    prepareColumns(sw: sw, dw: dw)
    if sw >= dw && sh >= dh {
      areaAverage(source: source, sw: sw, sh: sh, sbpr: sbpr, dest: dest, dw: dw, dh: dh, dbpr: dbpr)
    } else {
      nearest(source: source, sw: sw, sh: sh, sbpr: sbpr, dest: dest, dw: dw, dh: dh, dbpr: dbpr)
    }
  }

  private mutating func prepareColumns(sw: Int, dw: Int) {
    guard key != (sw, dw) else { return }
    key = (sw, dw)
    columnSums = [UInt32](repeating: 0, count: sw)
    xStarts = (0..<dw).map { Int32($0 * sw / dw) }
    xEnds = (0..<dw).map { x in Int32(max(x * sw / dw + 1, (x + 1) * sw / dw)) }
  }

  private mutating func areaAverage(
    source: UnsafePointer<UInt8>, sw: Int, sh: Int, sbpr: Int,
    dest: UnsafeMutablePointer<UInt8>, dw: Int, dh: Int, dbpr: Int
  ) {
    columnSums.withUnsafeMutableBufferPointer { sums in
      xStarts.withUnsafeBufferPointer { starts in
        xEnds.withUnsafeBufferPointer { ends in
          let sums = sums.baseAddress!
          for y in 0..<dh {
            let y0 = y * sh / dh
            let y1 = max(y0 + 1, (y + 1) * sh / dh)
            sums.update(repeating: 0, count: sw)
            for sy in y0..<y1 {
              let row = source + sy * sbpr
              for x in 0..<sw { sums[x] &+= UInt32(row[x]) }
            }
            let rows = UInt32(y1 - y0)
            let out = dest + y * dbpr
            for x in 0..<dw {
              let a = Int(starts[x])
              let b = Int(ends[x])
              var total: UInt32 = 0
              for i in a..<b { total &+= sums[i] }
              let n = rows &* UInt32(b - a)
              out[x] = UInt8(truncatingIfNeeded: (total &+ n / 2) / n)
            }
          }
        }
      }
    }
  }

  private func nearest(
    source: UnsafePointer<UInt8>, sw: Int, sh: Int, sbpr: Int,
    dest: UnsafeMutablePointer<UInt8>, dw: Int, dh: Int, dbpr: Int
  ) {
    xStarts.withUnsafeBufferPointer { starts in
      for y in 0..<dh {
        let row = source + (y * sh / dh) * sbpr
        let out = dest + y * dbpr
        for x in 0..<dw { out[x] = row[Int(starts[x])] }
      }
    }
  }
}
