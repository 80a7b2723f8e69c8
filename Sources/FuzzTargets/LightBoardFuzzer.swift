import LightBoard
import Probe

/// The light-board decoder and the live-frame detector, as the probe reads pixels an app
/// under test put on screen. The first byte picks the mode:
/// - 0: an image of any size and stride filled with the input's bytes;
/// - 1: a board rendered for a time (whole microseconds, the board's unit: 6 input bytes, so
///   below its 2⁴⁸ µs wrap) and step from the input, with up to 8 pixels overwritten:
///   a reading, if any, must be exactly that time and step (four pixels make one block's
///   samples agree, so 8 pixels change at most 2 code bits, which the CRC-16 always catches);
/// - 2: a board with whole rectangles painted over, then decoded;
/// - 3: a sequence of small scanouts (boards and noise) through a `LiveFrameDetector`, whose
///   counts must stay within the scanouts it saw.
enum LightBoardFuzzer {
  static func run(_ data: [UInt8]) -> [String] {
    var input = FuzzInput(data)
    switch input.byte() % 4 {
    case 0: return raw(&input)
    case 1: return patched(&input, rectangles: false)
    case 2: return patched(&input, rectangles: true)
    default: return detector(&input)
    }
  }

  struct Image {
    var width: Int
    var height: Int
    var bytesPerRow: Int
    var pixels: [UInt8]

    init(_ input: inout FuzzInput, maxWidth: Int = 640, maxHeight: Int = 480) {
      width = input.int(in: 1...maxWidth)
      height = input.int(in: 1...maxHeight)
      bytesPerRow = width + input.int(in: 0...64)
      pixels = [UInt8](repeating: 0, count: bytesPerRow * height)
    }

    func decode() -> LightBoardReading {
      pixels.withUnsafeBufferPointer {
        LightBoard.decode(
          LumaImage(base: $0.baseAddress!, width: width, height: height, bytesPerRow: bytesPerRow))
      }
    }

    mutating func render(microseconds: UInt64, sequence: UInt64) {
      let (w, h, bpr) = (width, height, bytesPerRow)
      pixels.withUnsafeMutableBufferPointer {
        LightBoard.render(
          captureTime: microseconds * 1_000, sequence: sequence, width: w, height: h, bytesPerRow: bpr,
          into: $0.baseAddress!)
      }
    }
  }

  static func raw(_ input: inout FuzzInput) -> [String] {
    var image = Image(&input)
    let fill = input.rest()
    if !fill.isEmpty { for i in image.pixels.indices { image.pixels[i] = fill[i % fill.count] } }
    _ = image.decode()
    return []
  }

  static func patched(_ input: inout FuzzInput, rectangles: Bool) -> [String] {
    var image = Image(&input)
    let microseconds = input.unsigned(bytes: 6)  // < 2⁴⁸: the board carries it whole
    let sequence = UInt64(input.byte())
    image.render(microseconds: microseconds, sequence: sequence)
    let patches = rectangles ? input.int(in: 0...4) : input.int(in: 0...8)
    for _ in 0..<patches {
      let x = input.int(in: 0...(image.width - 1))
      let y = input.int(in: 0...(image.height - 1))
      let (w, h) = rectangles ? (input.int(in: 1...image.width), input.int(in: 1...image.height)) : (1, 1)
      let value = input.byte()
      for row in y..<min(y + h, image.height) {
        for column in x..<min(x + w, image.width) { image.pixels[row * image.bytesPerRow + column] = value }
      }
    }
    let reading = image.decode()
    guard !rectangles, case .board(let time, let step) = reading else { return [] }
    if time != microseconds || step != Int(sequence % UInt64(LightBoardLayout.barPeriod)) {
      return [
        "a board rendered for \(microseconds) µs, step \(sequence % 32), read as \(time) µs, step \(step)"
      ]
    }
    return []
  }

  static func detector(_ input: inout FuzzInput) -> [String] {
    var detector = LiveFrameDetector(
      configuration: DetectorConfiguration(
        cameraFrameIntervalNanoseconds: input.unsigned(bytes: 4),
        refreshIntervalNanoseconds: input.unsigned(bytes: 4)))
    var time = input.unsigned(bytes: 4)
    detector.arm(input.byte() & 1 == 0 ? .launch(since: time) : .unlock(since: time))
    var scanouts = 0
    while !input.isEmpty && scanouts < 24 {
      scanouts += 1
      var image = Image(&input, maxWidth: 320, maxHeight: 240)
      switch input.byte() % 3 {
      case 0:
        image.render(microseconds: input.unsigned(bytes: 6), sequence: UInt64(input.byte()))
      case 1: image.pixels = image.pixels.map { _ in input.byte() }
      default: break
      }
      time &+= input.unsigned(bytes: 4)
      let (w, h, bpr) = (image.width, image.height, image.bytesPerRow)
      image.pixels.withUnsafeBufferPointer {
        _ = detector.observe(
          LumaImage(base: $0.baseAddress!, width: w, height: h, bytesPerRow: bpr), at: time)
      }
    }
    if detector.staleFrames < 0 || detector.staleFrames > scanouts || detector.scanoutsSinceArm > scanouts {
      return [
        "\(scanouts) scanouts gave \(detector.staleFrames) stale, \(detector.scanoutsSinceArm) since arm"
      ]
    }
    return []
  }
}
