import LightBoard
import Probe
import Sampling
import Synchronization
import SystemCalls

/// Known frames for calibration and tests: the light board, or a board-less moving pattern
/// (a vertical bar moving sideways, a horizontal bar moving down, and a row of 16×16 blocks
/// showing the frame number in binary, like vivid's on-screen counter), with optional noise.
struct CalibrationScene: Sendable {
  /// What the frames show.
  enum Kind: String, Sendable, CaseIterable {
    /// `LightBoard.render`; when the board does not decode (placeholder), the pattern is drawn over it.
    case board
    /// The moving pattern at contrast 60.
    case pattern
    /// The moving pattern at contrast 12.
    case lowContrast
  }

  let width: Int
  let height: Int
  let kind: Kind
  let noiseSigma: Double
  private var noise: [Int8] = []
  private var rng: SplitMix64

  /// Whether `LightBoard.decode` reads back what `LightBoard.render` drew (false for the placeholder).
  static let boardDecodes: Bool = {
    let w = 320
    let h = 240
    var px = [UInt8](repeating: 0, count: w * h)
    let t: UInt64 = 123_456_789_000_000
    let reading = px.withUnsafeMutableBufferPointer { p -> LightBoardReading in
      LightBoard.render(
        captureTime: t, sequence: 7, width: w, height: h, bytesPerRow: w, into: p.baseAddress!)
      return LightBoard.decode(
        LumaImage(base: UnsafePointer(p.baseAddress!), width: w, height: h, bytesPerRow: w))
    }
    if case .board(let us, _) = reading { return us == t / 1_000 }
    return false
  }()

  init(width: Int, height: Int, kind: Kind, noiseSigma: Double = 0, seed: UInt64 = 1) {
    self.width = width
    self.height = height
    self.kind = kind
    self.noiseSigma = noiseSigma
    self.rng = SplitMix64(seed: seed)
    if noiseSigma > 0 {
      noise = Self.noiseField(count: 2 * width * height, sigma: noiseSigma)
    }
  }

  /// Noise fields already made, by size and sigma: one is made once per process, so that a
  /// calibration's trials (and a debug build) do not spend their time drawing random numbers.
  private static let noiseFields = PThreadMutex<[String: [Int8]]>([:])

  /// A noise field of `count` values (twice the image; each frame adds it from a random offset):
  /// the sum of three uniform values in −1…1 times `sigma`, from a fixed seed.
  static func noiseField(count: Int, sigma: Double) -> [Int8] {
    let key = "\(count)/\(sigma)"
    if let field = noiseFields.withLock({ $0[key] }) { return field }
    var rng = SplitMix64(seed: 0x4E01_5E)
    let field = (0..<count).map { _ in
      var s = 0.0
      for _ in 0..<3 { s += Double.random(in: -1...1, using: &rng) }
      return Int8(clamping: Int((s * sigma).rounded()))
    }
    noiseFields.withLock { $0[key] = field }
    return field
  }

  /// Draws the frame captured at `captureTime` (ns) with number `sequence` into `pixels`
  /// (`width × height`, rows packed).
  mutating func render(captureTime: UInt64, sequence: UInt64, into pixels: UnsafeMutablePointer<UInt8>) {
    switch kind {
    case .board:
      LightBoard.render(
        captureTime: captureTime, sequence: sequence, width: width, height: height, bytesPerRow: width,
        into: pixels)
      if !Self.boardDecodes {
        drawPattern(captureTime: captureTime, sequence: sequence, contrast: 60, background: nil, into: pixels)
      }
    case .pattern:
      drawPattern(captureTime: captureTime, sequence: sequence, contrast: 60, background: 100, into: pixels)
    case .lowContrast:
      drawPattern(captureTime: captureTime, sequence: sequence, contrast: 12, background: 110, into: pixels)
    }
    if noiseSigma > 0 {
      let n = width * height
      let offset = Int.random(in: 0..<n, using: &rng)
      // Clamped by hand: the generic `UInt8(clamping:)` made this loop cost ~32 ms per 640×480
      // frame in a debug build (2.5 ms so), more than a 30 fps camera interval — and the presenter
      // that draws these frames runs at real-time priority.
      noise.withUnsafeBufferPointer { field in
        let add = field.baseAddress! + offset
        for i in 0..<n {
          let sum = Int16(pixels[i]) &+ Int16(add[i])
          pixels[i] = sum < 0 ? 0 : sum > 255 ? 255 : UInt8(truncatingIfNeeded: sum)
        }
      }
    }
  }

  private func drawPattern(
    captureTime: UInt64, sequence: UInt64, contrast: Int, background: UInt8?,
    into pixels: UnsafeMutablePointer<UInt8>
  ) {
    let ms = Double(captureTime / 1000) / 1000
    let barW = max(8, width / 13)
    let barH = max(8, height / 15)
    let x0 = Int((ms * Double(width) / 1000).truncatingRemainder(dividingBy: Double(width + barW))) - barW
    let y0 = Int((ms * Double(height) / 1400).truncatingRemainder(dividingBy: Double(height + barH))) - barH
    for y in 0..<height {
      let row = pixels + y * width
      if let background { row.update(repeating: background, count: width) }
      let inH = y >= y0 && y < y0 + barH
      for x in 0..<width where inH || (x >= x0 && x < x0 + barW) {
        row[x] = UInt8(clamping: Int(row[x]) + contrast)
      }
    }
    // The frame counter: 16 bits as 16×16 blocks on the 16-pixel grid, bright for 1.
    let bits = min(16, width / 16)
    guard height >= 32 else { return }
    for b in 0..<bits where (sequence >> UInt64(b)) & 1 == 1 {
      for y in 16..<32 {
        let row = pixels + y * width + b * 16
        for x in 0..<16 { row[x] = UInt8(clamping: Int(row[x]) + contrast) }
      }
    }
  }
}
