import CaptureKit

/// Format negotiation as pure functions, so tests can check the choices without a device.
///
/// - pixel format: the device's own luma-bearing formats first (``LumaLayout/preference``), then
///   formats libv4l2 converts to (emulated);
/// - size: the offered size nearest the request (smallest `|Δwidth| + |Δheight|`; on a tie the
///   larger one);
/// - frame interval: the slowest rate that still meets the requested rate, else the fastest rate.
enum FormatNegotiator {
  /// The pixel format to stream from `formats`, or `nil` when none carries luma.
  static func lumaFormat(from formats: [V4L2PixelFormat]) -> V4L2PixelFormat? {
    for emulated in [false, true] {
      for fourCC in LumaLayout.preference {
        if let f = formats.first(where: { $0.fourCC == fourCC && $0.isEmulated == emulated }) { return f }
      }
    }
    return nil
  }

  /// The size in `sizes` nearest `width × height`.
  static func closestSize(to width: Int, _ height: Int, in sizes: [V4L2FrameSize]) -> V4L2FrameSize? {
    sizes.min { a, b in
      let da = abs(a.width - width) + abs(a.height - height)
      let db = abs(b.width - width) + abs(b.height - height)
      return da != db ? da < db : a.width * a.height > b.width * b.height
    }
  }

  /// The interval for `framesPerSecond` among `intervals`: the slowest rate ≥ the request
  /// (0.5 % tolerance, so 29.97 takes 30), else the fastest offered; `nil` when none is offered.
  static func interval(for framesPerSecond: Double, in intervals: [V4L2FrameInterval]) -> V4L2FrameInterval? {
    let meeting = intervals.filter { $0.framesPerSecond >= framesPerSecond * 0.995 }
    if let slowest = meeting.min(by: { $0.framesPerSecond < $1.framesPerSecond }) { return slowest }
    return intervals.max { $0.framesPerSecond < $1.framesPerSecond }
  }

  /// The slowest rate that still makes a live preview, frames per second: film's 24 (PAL's 25
  /// qualifies).
  static let liveFrameRate = 24.0

  /// The `CaptureFormat`s of the streaming pixel format, best first: the sizes whose fastest rate
  /// makes a live preview (``liveFrameRate``, 0.5 % tolerance), largest first; then the sizes
  /// whose rates the driver does not enumerate, nearest 640×480 first; then the slower sizes,
  /// largest first. The first is what a session streams by default, so a webcam's 3840×2160 mode
  /// at 2 fps (vivid's) is not the default: its buffers are 27 times those of 640×480 and its
  /// first frame comes half a second or more after stream-on; nor is the largest size of a
  /// device that lists no rates (vivid's HDMI input, whose scaler offers up to 3840×2160 and
  /// beyond): nothing says it keeps a live rate.
  static func captureFormats(of format: V4L2PixelFormat) -> [CaptureFormat] {
    format.sizes
      .sorted { a, b in
        let (rankA, rankB) = (rank(a), rank(b))
        if rankA != rankB { return rankA < rankB }
        if rankA == .unknownRate {
          let (distanceA, distanceB) = (distanceFromDefault(a), distanceFromDefault(b))
          if distanceA != distanceB { return distanceA < distanceB }
        }
        return (a.width * a.height, a.maxFrameRate) > (b.width * b.height, b.maxFrameRate)
      }
      .map {
        CaptureFormat(
          width: $0.width, height: $0.height, maxFrameRate: $0.maxFrameRate, fourCC: format.fourCC)
      }
  }

  /// How far `size` is from 640×480, the size a device that lists no frame rates streams by
  /// default (the offered one nearest it, as ``closestSize(to:_:in:)`` measures).
  static func distanceFromDefault(_ size: V4L2FrameSize) -> Int {
    abs(size.width - 640) + abs(size.height - 480)
  }

  /// How a size ranks for the default format, best first.
  enum SizeRank: Int, Comparable {
    case live, unknownRate, slow
    static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  }

  /// Where `size` ranks: its rates unknown when the driver enumerated none.
  static func rank(_ size: V4L2FrameSize) -> SizeRank {
    if size.intervals.isEmpty { return .unknownRate }
    return isLive(size.maxFrameRate) ? .live : .slow
  }

  /// Whether `framesPerSecond` makes a live preview (``liveFrameRate``, 0.5 % tolerance).
  static func isLive(_ framesPerSecond: Double) -> Bool { framesPerSecond >= liveFrameRate * 0.995 }

  /// The pixel budget (pixels per second): the largest `width × height × maxFrameRate` of any
  /// format — what the device's hardware was shown to sustain.
  static func pixelBudget(of formats: [CaptureFormat]) -> Double {
    formats.map { Double($0.width * $0.height) * $0.maxFrameRate }.max() ?? 0
  }
}
