import LightBoard

/// A compact summary of one image that the detector compares: sums of 8×8-pixel cells over the
/// whole image, and from them column bands (8 px wide, full height), row bands (8 rows, full
/// width) and 16×16 and 32×32 blocks.
///
/// Cell sums are computed eight pixels at a time in 64-bit lanes (SWAR): each row adds its eight
/// bytes into four 16-bit lanes, and after eight rows one multiply folds the lanes into the
/// cell's sum (at most 64 × 255 = 16 320, so no lane overflows).
struct ImageSignature: Sendable {
  static let cell = 8
  private(set) var width = 0
  private(set) var height = 0
  private(set) var cellsX = 0
  private(set) var cellsY = 0
  var cells: [Int32] = []
  var columns: [Int32] = []
  var rows: [Int32] = []
  var blocks16: [Int32] = []
  var blocks32: [Int32] = []
  private var lanes: [UInt64] = []

  var blocks16X: Int { cellsX / 2 }
  var blocks16Y: Int { cellsY / 2 }
  var blocks32X: Int { cellsX / 4 }
  var blocks32Y: Int { cellsY / 4 }
  var isEmpty: Bool { cellsX == 0 || cellsY == 0 }

  /// Whether this signature was computed for a `width`×`height` image.
  func matches(width: Int, height: Int) -> Bool { self.width == width && self.height == height }

  private mutating func resize(width: Int, height: Int) {
    self.width = width
    self.height = height
    cellsX = width / Self.cell
    cellsY = height / Self.cell
    cells = [Int32](repeating: 0, count: cellsX * cellsY)
    columns = [Int32](repeating: 0, count: cellsX)
    rows = [Int32](repeating: 0, count: cellsY)
    blocks16 = [Int32](repeating: 0, count: blocks16X * blocks16Y)
    blocks32 = [Int32](repeating: 0, count: blocks32X * blocks32Y)
    lanes = [UInt64](repeating: 0, count: cellsX)
  }

  /// Recomputes the signature from `image`.
  mutating func compute(_ image: LumaImage) {
    if !matches(width: image.width, height: image.height) { resize(width: image.width, height: image.height) }
    guard !isEmpty else { return }
    let cx = cellsX
    let stride = image.bytesPerRow
    let raw = UnsafeRawPointer(image.base)
    let mask: UInt64 = 0x00FF_00FF_00FF_00FF
    lanes.withUnsafeMutableBufferPointer { lanesBuffer in
      cells.withUnsafeMutableBufferPointer { cellsBuffer in
        let lane = lanesBuffer.baseAddress!
        let out = cellsBuffer.baseAddress!
        for band in 0..<cellsY {
          lane.update(repeating: 0, count: cx)
          for r in 0..<Self.cell {
            let row = raw + (band * Self.cell + r) * stride
            for i in 0..<cx {
              let v = row.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self)
              lane[i] &+= (v & mask) &+ ((v >> 8) & mask)
            }
          }
          let dst = out + band * cx
          for i in 0..<cx {
            dst[i] = Int32(truncatingIfNeeded: (lane[i] &* 0x0001_0001_0001_0001) >> 48)
          }
        }
      }
    }
    deriveBandsAndBlocks()
  }

  private mutating func deriveBandsAndBlocks() {
    let cx = cellsX
    let cy = cellsY
    let b16x = blocks16X
    let b32x = blocks32X
    let b16y = blocks16Y
    let b32y = blocks32Y
    cells.withUnsafeBufferPointer { c in
      columns.withUnsafeMutableBufferPointer { col in
        rows.withUnsafeMutableBufferPointer { row in
          col.update(repeating: 0)
          for y in 0..<cy {
            var rowSum: Int32 = 0
            let line = c.baseAddress! + y * cx
            for x in 0..<cx {
              let v = line[x]
              col[x] &+= v
              rowSum &+= v
            }
            row[y] = rowSum
          }
        }
      }
      blocks16.withUnsafeMutableBufferPointer { b in
        for by in 0..<b16y {
          for bx in 0..<b16x {
            let i = (by * 2) * cx + bx * 2
            b[by * b16x + bx] = c[i] &+ c[i + 1] &+ c[i + cx] &+ c[i + cx + 1]
          }
        }
      }
    }
    blocks16.withUnsafeBufferPointer { b in
      blocks32.withUnsafeMutableBufferPointer { b32 in
        for by in 0..<b32y {
          for bx in 0..<b32x {
            let i = (by * 2) * b16x + bx * 2
            b32[by * b32x + bx] = b[i] &+ b[i + 1] &+ b[i + b16x] &+ b[i + b16x + 1]
          }
        }
      }
    }
  }

  /// The mean luma of the image (over whole cells).
  var meanLuma: Double {
    guard !isEmpty else { return 0 }
    var total: Int64 = 0
    for v in rows { total += Int64(v) }
    return Double(total) / Double(cells.count * 64)
  }

  /// The largest |difference| between two arrays of sums, divided by `samples` (→ luma levels).
  @inline(__always)
  static func maxDifference(_ a: [Int32], _ b: [Int32], samples: Int) -> Double {
    guard a.count == b.count, !a.isEmpty, samples > 0 else { return .infinity }
    var m: Int32 = 0
    a.withUnsafeBufferPointer { pa in
      b.withUnsafeBufferPointer { pb in
        for i in 0..<pa.count {
          let d = pa[i] &- pb[i]
          let ad = d < 0 ? 0 &- d : d
          if ad > m { m = ad }
        }
      }
    }
    return Double(m) / Double(samples)
  }

  /// max − min of an array of sums, divided by `samples` (→ luma levels).
  @inline(__always)
  static func range(_ a: [Int32], samples: Int) -> Double {
    guard !a.isEmpty, samples > 0 else { return 0 }
    var lo = Int32.max
    var hi = Int32.min
    for v in a {
      lo = min(lo, v)
      hi = max(hi, v)
    }
    return Double(hi - lo) / Double(samples)
  }

  /// Samples per column band, row band, 16- and 32-pixel block.
  var columnSamples: Int { 64 * cellsY }
  var rowSamples: Int { 64 * cellsX }
}
