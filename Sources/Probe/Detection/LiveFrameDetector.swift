import LaunchContract
import LightBoard
import PhaseTrace

/// Finds the first live frame in a sequence of scanouts, from pixels alone: a pure value type,
/// fed one scanout at a time, with no threads, clocks or shared memory of its own.
///
/// **Per scanout** it computes an `ImageSignature` (8×8-cell sums over the whole image) and decides:
/// - *blank*: the ranges of its column-band and row-band means are under `blankBandSpread` and
///   of its 32×32-block means under `blankBlockSpread` (a black cover, nothing presented, a
///   uniform field — whatever its brightness);
/// - *same as* another image: no 8×8 cell mean differs by more than `identicalTolerance`;
/// - *changed* vs another image: some column band, row band or 16×16 block mean differs by more
///   than `significance` standard deviations of the difference that `noiseSigma` per pixel
///   would give for that many pixels (band means average thousands of pixels, so a 12-level bar
///   moving two pixels is caught while sigma-8 noise is not).
///
/// **First live frame.** At the first scanout at or after the arm time, the detector freezes a
/// *reference*: the last non-blank image shown before it (the pre-lock content, or whatever a
/// reused surface still shows). The detector watches every scanout, armed or not, so one
/// detector serves any number of arms in a row. From the first
/// scanout at or after the arm time, the first live frame is the first scanout that is not blank
/// and either shows a light board whose capture time (whole ms, + 1 ms for rounding) is at or
/// after the arm time (method `board`), or, where no board decodes, is not the same as the
/// reference and has changed vs the previous scanout or vs the reference (method `change`).
/// Arm before spawning or unlocking, or the first frame may already be the "previous" image.
///
/// **Stale frames**: after the arm time, every non-blank scanout whose board time is before the
/// arm time, or (no board) that is the same as the reference.
///
/// **Dropped frames**: after the first live frame, when a new image (not the same as the previous
/// scanout) arrives after a gap `g`, the frames the cadence says never reached the screen:
/// `max(0, ceil((g − 1.25 R) / C) − 1)`, with R the refresh interval and C the camera frame
/// interval (given, or the median of the last 31 gaps once 7 are known; earlier gaps are judged
/// when the estimate exists). A frame latched by the next scanout arrives up to one refresh
/// late, so gaps of up to C + R are the normal cadence: with a 30 fps camera on a 60 Hz display,
/// every other scanout repeats and nothing is dropped.
public struct LiveFrameDetector: Sendable {
  /// The thresholds and rates in use.
  public let configuration: DetectorConfiguration
  /// What the detector is armed for, if anything.
  public private(set) var mode: ArmMode?
  /// The first live frame, once found.
  public private(set) var firstLiveFrame: FirstLiveFrame?
  /// Stale scanouts since the arm time.
  public private(set) var staleFrames = 0
  /// Dropped frames since the first live frame.
  public private(set) var droppedFrames = 0
  /// Scanouts observed since the arm call.
  public private(set) var scanoutsSinceArm = 0
  /// The events of this arm: `display.first_live_frame`, `display.stale_frame`, `display.dropped_frame`.
  public private(set) var events: [PhaseEvent] = []

  private var current = ImageSignature()
  private var previous = ImageSignature()
  private var hasPrevious = false
  private var previousBlank = true
  private var previousReading: LightBoardReading?
  private var lastNonBlank = ImageSignature()
  private var hasLastNonBlank = false
  private var reference = ImageSignature()
  private var hasReference = false
  private var referenceFrozen = false
  private var lastScanoutTime: UInt64?
  private var scanoutDeltas: [UInt64] = []
  private var lastNewImageTime: UInt64?
  private var gaps: [UInt64] = []
  private var unjudgedGaps: [(gap: UInt64, time: UInt64)] = []

  /// Creates a detector that is not armed.
  public init(configuration: DetectorConfiguration = DetectorConfiguration()) {
    self.configuration = configuration
  }

  /// Arms the detector: a new measurement from `mode.since` (clears the first live frame,
  /// counts and events; keeps the images seen so far as the pre-arm reference).
  public mutating func arm(_ mode: ArmMode) {
    self.mode = mode
    firstLiveFrame = nil
    staleFrames = 0
    droppedFrames = 0
    scanoutsSinceArm = 0
    events = []
    hasReference = false
    referenceFrozen = false
    lastNewImageTime = nil
    gaps = []
    unjudgedGaps = []
  }

  /// Analyses one scanout shown at `time` (`CLOCK_MONOTONIC` ns) and says what it was.
  @discardableResult
  public mutating func observe(_ image: LumaImage, at time: UInt64) -> ScanoutClass {
    current.compute(image)
    if hasPrevious && !previous.matches(width: image.width, height: image.height) {
      hasPrevious = false
      hasLastNonBlank = false
      hasReference = false
    }
    noteScanoutTime(time)
    let blank = isBlank(current)
    let sameAsPrevious = hasPrevious && isSame(current, previous)
    var reading: LightBoardReading? = sameAsPrevious ? previousReading : nil
    let result: ScanoutClass

    if let mode, time >= mode.since {
      scanoutsSinceArm += 1
      if !referenceFrozen {
        referenceFrozen = true
        if hasLastNonBlank {
          reference = lastNonBlank
          hasReference = true
        }
      }
      if blank {
        result = firstLiveFrame == nil ? .blank : .afterFirstLive
      } else {
        if reading == nil && configuration.decodesLightBoard {
          reading = LightBoard.decode(image)
        }
        result = classifyNonBlank(
          image, at: time, mode: mode, reading: reading, sameAsPrevious: sameAsPrevious)
      }
      if firstLiveFrame != nil && !sameAsPrevious && result != .firstLive {
        noteNewImage(at: time)
      }
    } else {
      result = .beforeArm
    }
    if !blank {  // the next arm's reference: the last non-blank image before its arm time
      lastNonBlank = current
      hasLastNonBlank = true
    }

    swap(&previous, &current)
    hasPrevious = true
    previousBlank = blank
    previousReading = reading
    return result
  }

  private mutating func classifyNonBlank(
    _ image: LumaImage, at time: UInt64, mode: ArmMode, reading: LightBoardReading?, sameAsPrevious: Bool
  ) -> ScanoutClass {
    if case .board(let ms, _)? = reading {
      let live = ms &* 1_000_000 &+ 1_000_000 > mode.since
      if !live {
        recordStale(at: time, reason: "board_time_before_arm", captureTimeMilliseconds: ms)
        return .stale
      }
      if firstLiveFrame == nil {
        found(FirstLiveFrame(mode: mode, scanoutTime: time, method: .board, captureTimeMilliseconds: ms))
        return .firstLive
      }
      return .afterFirstLive
    }
    let sameAsReference = hasReference && isSame(current, reference)
    if sameAsReference {
      recordStale(at: time, reason: "pre_arm_content", captureTimeMilliseconds: nil)
      return .stale
    }
    if firstLiveFrame != nil { return .afterFirstLive }
    let changed =
      !hasPrevious || (!sameAsPrevious && hasChanged(current, previous))
      || (hasReference && hasChanged(current, reference))
    guard changed else { return .waiting }
    found(FirstLiveFrame(mode: mode, scanoutTime: time, method: .change, captureTimeMilliseconds: nil))
    return .firstLive
  }

  // MARK: - Image tests

  func isBlank(_ s: ImageSignature) -> Bool {
    guard !s.isEmpty else { return true }
    let c = configuration
    if ImageSignature.range(s.columns, samples: s.columnSamples) >= c.blankBandSpread { return false }
    if ImageSignature.range(s.rows, samples: s.rowSamples) >= c.blankBandSpread { return false }
    if ImageSignature.range(s.blocks32, samples: 1024) >= c.blankBlockSpread { return false }
    return true
  }

  func isSame(_ a: ImageSignature, _ b: ImageSignature) -> Bool {
    ImageSignature.maxDifference(a.cells, b.cells, samples: 64) <= configuration.identicalTolerance
  }

  /// The threshold for a mean over `samples` pixels: `significance` × sigma × √2 / √samples,
  /// never below `floor` luma levels.
  func threshold(samples: Int, floor: Double) -> Double {
    let c = configuration
    return max(floor, c.significance * c.noiseSigma * 2.0.squareRoot() / Double(max(samples, 1)).squareRoot())
  }

  func hasChanged(_ a: ImageSignature, _ b: ImageSignature) -> Bool {
    if ImageSignature.maxDifference(a.columns, b.columns, samples: a.columnSamples)
      > threshold(samples: a.columnSamples, floor: 0.75)
    {
      return true
    }
    if ImageSignature.maxDifference(a.rows, b.rows, samples: a.rowSamples)
      > threshold(samples: a.rowSamples, floor: 0.75)
    {
      return true
    }
    return ImageSignature.maxDifference(a.blocks16, b.blocks16, samples: 256)
      > threshold(samples: 256, floor: 2)
  }

  // MARK: - Events and cadence

  private mutating func found(_ frame: FirstLiveFrame) {
    firstLiveFrame = frame
    lastNewImageTime = frame.scanoutTime
    var fields: [String: PhaseFieldValue] = [
      "scanout_ns": .int(Int64(bitPattern: frame.scanoutTime)),
      "method": .string(frame.method.rawValue),
      "mode": .string(frame.mode.name),
      "since_arm_ms": .double(frame.sinceArmMilliseconds),
    ]
    if let ms = frame.captureTimeMilliseconds { fields["capture_time_ms"] = .int(Int64(bitPattern: ms)) }
    if let g2g = frame.glassToGlassMilliseconds { fields["glass_to_glass_ms"] = .double(g2g) }
    append(EventName.displayFirstLiveFrame.rawValue, at: frame.scanoutTime, fields)
  }

  private mutating func recordStale(at time: UInt64, reason: String, captureTimeMilliseconds: UInt64?) {
    staleFrames += 1
    var fields: [String: PhaseFieldValue] = [
      "scanout_ns": .int(Int64(bitPattern: time)), "reason": .string(reason),
    ]
    if let ms = captureTimeMilliseconds { fields["capture_time_ms"] = .int(Int64(bitPattern: ms)) }
    append(EventName.displayStaleFrame.rawValue, at: time, fields)
  }

  private mutating func append(_ name: String, at time: UInt64, _ fields: [String: PhaseFieldValue]) {
    guard events.count < configuration.maxEvents else { return }
    events.append(PhaseEvent(ts: time, name: name, kind: .event, pid: configuration.pid, fields: fields))
  }

  private mutating func noteScanoutTime(_ time: UInt64) {
    if let last = lastScanoutTime, time > last {
      if scanoutDeltas.count == 15 { scanoutDeltas.removeFirst() }
      scanoutDeltas.append(time - last)
    }
    lastScanoutTime = time
  }

  /// The refresh interval in ns: configured, or the median of recent scanout intervals.
  public var refreshIntervalNanoseconds: UInt64? {
    configuration.refreshIntervalNanoseconds ?? Self.median(scanoutDeltas, minimumCount: 3)
  }

  /// The camera frame interval in ns: configured, or the median of recent gaps between new images.
  public var cameraFrameIntervalNanoseconds: UInt64? {
    configuration.cameraFrameIntervalNanoseconds ?? Self.median(gaps, minimumCount: 7)
  }

  private mutating func noteNewImage(at time: UInt64) {
    guard let last = lastNewImageTime, time > last else {
      lastNewImageTime = time
      return
    }
    let gap = time - last
    lastNewImageTime = time
    if gaps.count == 31 { gaps.removeFirst() }
    gaps.append(gap)
    unjudgedGaps.append((gap, time))
    guard let cadence = cameraFrameIntervalNanoseconds, let refresh = refreshIntervalNanoseconds, cadence > 0
    else {
      if unjudgedGaps.count > 64 { unjudgedGaps.removeFirst() }
      return
    }
    for (g, t) in unjudgedGaps {
      let missing = Self.droppedFrames(gap: g, cadence: cadence, refresh: refresh)
      guard missing > 0 else { continue }
      droppedFrames += missing
      append(
        EventName.displayDroppedFrame.rawValue, at: t,
        [
          "scanout_ns": .int(Int64(bitPattern: t)), "count": .int(Int64(missing)),
          "gap_ms": .double(Double(g) / 1e6), "cadence_ms": .double(Double(cadence) / 1e6),
        ])
    }
    unjudgedGaps.removeAll(keepingCapacity: true)
  }

  /// Frames missing in a gap of `gap` ns between new images: `max(0, ceil((gap − 1.25 R) / C) − 1)`.
  public static func droppedFrames(gap: UInt64, cadence: UInt64, refresh: UInt64) -> Int {
    let x = (Double(gap) - 1.25 * Double(refresh)) / Double(cadence)
    return max(0, Int(x.rounded(.up)) - 1)
  }

  private static func median(_ values: [UInt64], minimumCount: Int) -> UInt64? {
    guard values.count >= minimumCount else { return nil }
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
  }
}
