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
/// - *same as* another image (a repeat): no 8×8 cell mean differs by more than `identicalTolerance`;
/// - *changed* vs another image: some column band, row band or 16×16 block mean differs by more
///   than `significance` standard deviations of the difference that `noiseSigma` per pixel
///   would give for that many pixels (band means average thousands of pixels, so a 12-level bar
///   moving two pixels is caught while sigma-8 noise is not); *similar* is not changed.
///
/// **Pre-arm reference.** The detector watches every scanout, armed or not, and keeps the last
/// `referenceImages` distinct non-blank images. At the first scanout at or after the arm time it
/// freezes them as the arm's reference: the pre-lock frames and a non-black cover in a relock,
/// whatever a reused surface still shows. One detector serves any number of arms in a row. Arm
/// before spawning or unlocking, or the first frame may already be part of the reference.
///
/// **First live frame** (from the first scanout at or after the arm time), by one of two methods:
/// - `board`: the first non-blank scanout whose light board reads a capture time at or after the
///   arm time, confirmed by a second board at the camera's cadence and never after its own
///   scanout (forged otherwise: `LiveFrameDetector+Board.swift`). The board carries whole microseconds (truncated), so "read time × 1000 ≥ arm time"
///   means the frame was captured at or after the arm; a frame captured before it — even in the
///   same millisecond — is stale (one captured in the arm's own microsecond, after it, is stale too);
/// - `change`, where no board decodes: the first scanout of a **run of changing scanouts
///   consistent with the camera's cadence** — `changeRunLength` (3) scanouts that each show a new
///   image (not the same as the scanout before), are not blank and not similar to any reference
///   image, each within reach of the one before (two camera frame intervals, or
///   `slowestFrameIntervalNanoseconds` when the cadence is unknown, plus one refresh, plus the
///   cadence tolerance, by default half a refresh). With the camera's frame interval known
///   (`DetectorConfiguration.cameraFrameIntervalNanoseconds`) that reach is the whole cadence
///   test, for the first gap as for the others; without it the first gap must also be at most
///   twice the run's longest later gap plus one refresh. On X11 a read can be late
///   (`observe(_:at:seenLate:)`): the change came while the probe was busy with the previous
///   image, so the gap before it is the probe's busy time; such a gap beyond the reach does not
///   break a run already two images long, but never vouches for a run's first gap, nor counts as
///   the cadence the first gap is judged by. A splash screen or a non-black cover is
///   a still image, not a run; one garbage buffer, or a frame in flight from before an unlock,
///   stands alone and is followed by a gap; the frozen pre-lock image is similar to the
///   reference. The run is confirmed on its last scanout (that is when `observe`
///   returns `.firstLive` and the event is made), but the first live frame is its first scanout.
///   A static image shown for less than the reach right before the live frames cannot be told
///   from a first frame followed by a slow camera, and a still scene after a relock cannot be told
///   from the frozen pre-lock image: results say when a headline rests on change detection.
///
/// **Stale frames**: after the arm time, every non-blank scanout whose board time is before the
/// arm time, or (no board) that is similar to the reference — the same as it, once the first live
/// frame was found.
///
/// **Dropped frames**: after the first live frame, when a new image (not the same as the previous
/// scanout) arrives after a gap `g`, the frames the cadence says never reached the screen:
/// `max(0, ceil((g − 1.25 R) / C) − 1)`, with R the refresh interval and C the camera frame
/// interval (given, or the median of the last 31 gaps once 7 are known; earlier gaps are judged
/// when the estimate exists; a run that ends with fewer has them judged by the median of at least
/// 3 when its report is taken: `judgePendingGaps`). A frame latched by the next scanout arrives up to one refresh
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
  /// Light boards dated more than 1 ms after their scanout since the arm time (distinct images;
  /// see `LiveFrameDetector+Board.swift`).
  public internal(set) var forgedBoards = 0
  /// The first live board, waiting for a second board at the camera's cadence to confirm it.
  public internal(set) var unconfirmedBoard: FirstLiveFrame?
  /// Scanouts observed since the arm call.
  public private(set) var scanoutsSinceArm = 0
  /// What was read since the arm call (`ProbeWatch`: what a run with no live frame reports).
  public private(set) var watch = ProbeWatch()
  /// The events of this arm: `display.first_live_frame`, `display.stale_frame`, `display.dropped_frame`.
  public private(set) var events: [PhaseEvent] = []

  private var current = ImageSignature()
  private var previous = ImageSignature()
  private var hasPrevious = false
  private var previousReading: LightBoardReading?
  /// The last distinct non-blank images seen, oldest first: the next arm's reference.
  private var recent: [ImageSignature] = []
  /// This arm's pre-arm reference, frozen at its first scanout at or after the arm time.
  private var reference: [ImageSignature] = []
  private var referenceFrozen = false
  /// The new images of the change run under way: scanout times, and whether each was read late.
  private var run: [(time: UInt64, late: Bool)] = []
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
  /// counts and events; keeps the images seen so far for the pre-arm reference).
  public mutating func arm(_ mode: ArmMode) {
    self.mode = mode
    firstLiveFrame = nil
    staleFrames = 0
    droppedFrames = 0
    forgedBoards = 0
    unconfirmedBoard = nil
    scanoutsSinceArm = 0
    watch = ProbeWatch()
    events = []
    reference = []
    referenceFrozen = false
    run = []
    lastNewImageTime = nil
    gaps = []
    unjudgedGaps = []
  }

  /// Analyses one scanout shown at `time` (`CLOCK_MONOTONIC` ns) and says what it was.
  /// `seenLate`: the probe read it late, its change having arrived while it was busy with the
  /// previous image (`ProbeFrame.seenLate`, X11 only).
  @discardableResult
  public mutating func observe(_ image: LumaImage, at time: UInt64, seenLate: Bool = false) -> ScanoutClass {
    current.compute(image)
    // An image of another size (the window resized, or the Wayland probe now reads the app's
    // window instead of the whole output) is compared with nothing: a baseline, never a change.
    let resized = hasPrevious && !previous.matches(width: image.width, height: image.height)
    if resized {
      hasPrevious = false
      recent = []
      reference = []
      run = []
    }
    noteScanoutTime(time)
    let blank = isBlank(current)
    let sameAsPrevious = hasPrevious && isSame(current, previous)
    var reading: LightBoardReading? = sameAsPrevious ? previousReading : nil
    let result: ScanoutClass

    if let mode, time >= mode.since {
      scanoutsSinceArm += 1
      watch.note(
        blank: blank, changed: hasPrevious && !sameAsPrevious, at: time, width: image.width,
        height: image.height)
      if !referenceFrozen {
        referenceFrozen = true
        reference = recent
      }
      if blank {
        run = []
        result = firstLiveFrame == nil ? .blank : .afterFirstLive
      } else {
        if reading == nil && configuration.decodesLightBoard {
          reading = LightBoard.decode(image)
        }
        result = classifyNonBlank(
          at: time, mode: mode, reading: reading, sameAsPrevious: sameAsPrevious, resized: resized,
          seenLate: seenLate)
      }
      if firstLiveFrame != nil && !sameAsPrevious && !resized && result != .firstLive {
        noteNewImage(at: time)
      }
    } else {
      result = .beforeArm
    }
    if !blank && (recent.isEmpty || !isSame(current, recent[recent.count - 1])) {
      if recent.count >= max(1, configuration.referenceImages) { recent.removeFirst() }
      recent.append(current)
    }

    swap(&previous, &current)
    hasPrevious = true
    previousReading = reading
    return result
  }

  /// Whether a board time (whole microseconds, truncated, modulo 2⁴⁸) is at or after `since`
  /// (ns): the read time is at or after the arm time rounded up to a whole microsecond, compared
  /// as a signed 48-bit difference so a board time that wrapped (after 2⁴⁸ µs ≈ 8.9 years of
  /// `CLOCK_MONOTONIC`) is still ordered right.
  static func captured(microseconds us: UInt64, atOrAfter since: UInt64) -> Bool {
    let width: UInt64 = 48
    let mask: UInt64 = (1 << width) - 1
    let sinceUs = since / 1_000 + (since % 1_000 == 0 ? 0 : 1)
    let difference = (us &- sinceUs) & mask
    return difference >> (width - 1) == 0  // the 48-bit difference is not negative
  }

  private mutating func classifyNonBlank(
    at time: UInt64, mode: ArmMode, reading: LightBoardReading?, sameAsPrevious: Bool, resized: Bool,
    seenLate: Bool
  ) -> ScanoutClass {
    if case .board(let us, _)? = reading {
      run = []
      return classifyBoard(microseconds: us, at: time, mode: mode, sameAsPrevious: sameAsPrevious)
    }
    if firstLiveFrame != nil {
      if reference.contains(where: { isSame(current, $0) }) {
        recordStale(at: time, reason: "pre_arm_content", captureTimeMicroseconds: nil)
        return .stale
      }
      return .afterFirstLive
    }
    // Change detection: pre-arm content is stale; live is a run of new images at the cadence.
    if reference.contains(where: { !hasChanged(current, $0) }) {
      run = []
      recordStale(at: time, reason: "pre_arm_content", captureTimeMicroseconds: nil)
      return .stale
    }
    // A gap beyond the reach breaks the run, unless it ends in a late read: then it is the
    // probe's busy time, which says nothing about the camera, and the run goes on (its first gap
    // must still be seen within the reach: `trimUnvouchedStart`).
    if let last = run.last, time &- last.time > runReachNanoseconds, !(seenLate && run.count >= 2) {
      run = []
    }
    // A repeat, or the first image of a new size, neither starts nor extends a run.
    guard !sameAsPrevious && !resized else { return .waiting }
    run.append((time, seenLate))
    let judged = trimUnvouchedStart()
    guard judged, run.count >= max(1, configuration.changeRunLength) else { return .waiting }
    let later = run.dropFirst()
    found(
      FirstLiveFrame(
        mode: mode, scanoutTime: run[0].time, method: .change, captureTimeMicroseconds: nil, confirmedAt: time
      ),
      changes: run.count)
    run = []
    for image in later { noteNewImage(at: image.time) }
    return .firstLive
  }

  /// How far apart two new images of one change run may be, ns: two camera frame intervals (one
  /// frame may be dropped), or `slowestFrameIntervalNanoseconds` when the cadence is not
  /// configured, plus one refresh (a frame is latched up to one refresh late), plus the cadence
  /// tolerance (scanouts fall on the refresh grid, give or take the compositor's jitter).
  public var runReachNanoseconds: UInt64 {
    let refresh = refreshIntervalNanoseconds ?? Self.defaultRefreshNanoseconds
    let tolerance = configuration.cadenceToleranceNanoseconds ?? refresh / 2
    if let cadence = configuration.cameraFrameIntervalNanoseconds {
      return 2 &* cadence &+ refresh &+ tolerance
    }
    return configuration.slowestFrameIntervalNanoseconds &+ refresh &+ tolerance
  }

  /// 60 Hz, until scanout intervals give the real one.
  static let defaultRefreshNanoseconds: UInt64 = 16_666_667

  /// Drops the run's first images while their place in the camera's cadence is not shown, and
  /// says whether the run's start is judged (it may be confirmed):
  /// - a first gap beyond the reach is never vouched for: it can only be a late read's gap
  ///   (X11: the probe was busy, so it cannot say when the change came), kept as a later gap
  ///   before the images ahead of it were dropped;
  /// - without a known camera frame interval, the first image goes while its gap to the second is
  ///   more than twice the run's longest later gap plus one refresh, so a still image (a splash
  ///   screen) shown just before the live frames is not part of their cadence. Late reads' gaps
  ///   are not the cadence and are left out; until a later gap was seen on time the start is not
  ///   judged.
  ///
  /// With a known interval the first gap is judged like every other, against the cadence's
  /// reach (`runReachNanoseconds`), never against the later gaps: those are what a starved
  /// presenter makes short when it catches up after a late second frame, and judging the first
  /// gap by them moved the first live frame to the second (`bench calibrate` measured lags of
  /// 60–90 ms that way).
  private mutating func trimUnvouchedStart() -> Bool {
    let reach = runReachNanoseconds
    let refresh = refreshIntervalNanoseconds ?? Self.defaultRefreshNanoseconds
    while true {
      while run.count >= 2 && run[1].time &- run[0].time > reach { run.removeFirst() }
      guard configuration.cameraFrameIntervalNanoseconds == nil, run.count >= 3 else { return true }
      var longestLater: UInt64?
      for i in 2..<run.count where !run[i].late {
        longestLater = max(longestLater ?? 0, run[i].time &- run[i - 1].time)
      }
      guard let longestLater else { return false }
      guard run[1].time &- run[0].time > 2 &* longestLater &+ refresh else { return true }
      run.removeFirst()
    }
  }

  // MARK: - Events and cadence

  mutating func found(_ frame: FirstLiveFrame, changes: Int? = nil) {
    firstLiveFrame = frame
    lastNewImageTime = frame.scanoutTime
    var fields: [String: PhaseFieldValue] = [
      "scanout_ns": .int(Int64(bitPattern: frame.scanoutTime)),
      "method": .string(frame.method.rawValue),
      "mode": .string(frame.mode.name),
      "since_arm_ms": .double(frame.sinceArmMilliseconds),
    ]
    if let changes { fields["changes"] = .int(Int64(changes)) }
    if let confirmed = frame.confirmedAt { fields["confirmed_ns"] = .int(Int64(bitPattern: confirmed)) }
    if let us = frame.captureTimeMicroseconds { fields["capture_time_us"] = .int(Int64(bitPattern: us)) }
    if let g2g = frame.glassToGlassMilliseconds { fields["glass_to_glass_ms"] = .double(g2g) }
    append(EventName.displayFirstLiveFrame.rawValue, at: frame.scanoutTime, fields)
  }

  mutating func recordStale(at time: UInt64, reason: String, captureTimeMicroseconds: UInt64?) {
    staleFrames += 1
    var fields: [String: PhaseFieldValue] = [
      "scanout_ns": .int(Int64(bitPattern: time)), "reason": .string(reason),
    ]
    if let us = captureTimeMicroseconds { fields["capture_time_us"] = .int(Int64(bitPattern: us)) }
    append(EventName.displayStaleFrame.rawValue, at: time, fields)
  }

  mutating func append(_ name: String, at time: UInt64, _ fields: [String: PhaseFieldValue]) {
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

  mutating func noteNewImage(at time: UInt64) {
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
    judgeUnjudgedGaps(cadence: cadence, refresh: refresh)
  }

  /// The fewest gaps whose median stands for the camera's frame interval at the end of a run that
  /// did not see the seven the estimate takes (`judgePendingGaps`).
  static let fewestGapsAtEnd = 3

  /// Judges the gaps that still wait for the camera's frame interval (it is not given, and fewer
  /// than seven gaps were seen), with the median of the gaps seen as the interval when there are
  /// at least `fewestGapsAtEnd`. For the end of a run: an eager launch's run ends four or five
  /// frames after its first live frame, and without this no gap of it was ever judged, so its
  /// dropped frames were 0 whatever the screen showed (`DisplayMonitor.snapshot()` judges a copy).
  public mutating func judgePendingGaps() {
    guard !unjudgedGaps.isEmpty, let refresh = refreshIntervalNanoseconds,
      let cadence = cameraFrameIntervalNanoseconds ?? Self.median(gaps, minimumCount: Self.fewestGapsAtEnd),
      cadence > 0
    else { return }
    judgeUnjudgedGaps(cadence: cadence, refresh: refresh)
  }

  private mutating func judgeUnjudgedGaps(cadence: UInt64, refresh: UInt64) {
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
