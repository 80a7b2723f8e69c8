import CaptureKit
import Synchronization
import SystemCalls

/// The planted-regression knob: a real slowdown in camera-app's own code, for checking that CI's
/// code-against-code step catches a uniform regression (`scripts/planted-slowdown-check`, issue 25).
///
/// It is **0 in every commit that lands**, and inert at 0: nothing is read, measured or delayed.
/// The check commits a copy of this file with ``firstFrameHoldFraction`` set to 0.10 (never in
/// the working tree) and runs `scripts/ab-gate HEAD <that commit>`, which must fail.
///
/// When the fraction is above 0, the launch's first preview frame is held back, on the camera's
/// frame thread (never the main thread, as `FIRSTFRAME_INJECT_DELAY_MS` waits on the capture
/// queue), by that fraction of the time elapsed since `main` was reached: a launch whose first
/// frame was ready T ms after `main` presents it at (1 + fraction) × T, in every configuration
/// and condition alike. Only the launch's first frame is held, not a relock's.
///
/// A second knob plants a regression only a **cold** launch pays (issue 37, item 2:
/// `PLANTED_KIND=cold scripts/planted-slowdown-check`): with ``startupAssetMegabytes`` above 0,
/// `launch` maps a start-up asset of that many MiB kept in `/var/tmp` and touches one
/// byte in every 64 KiB of it before anything else, as an app that pages in a large new library
/// or asset at start-up. On a warm launch the pages are in the page cache (a thousand minor
/// faults, about a millisecond); a cold launch (bench's `cold` evicts the app's mapped files and,
/// as root, drops all clean caches) reads them from the disk. The first launch writes the asset
/// (once, atomically, as whichever user it runs as).
enum PlantedRegression {
  /// The fraction of the time since `main` by which the launch's first frame is held back
  /// (0.10 = 10 % later); 0 disables the knob. `scripts/planted-slowdown-check` edits this line.
  static let firstFrameHoldFraction: Double = 0

  /// The size of the start-up asset read at launch, MiB; 0 disables the knob (nothing is read or
  /// written). `PLANTED_KIND=cold scripts/planted-slowdown-check` edits this line.
  static let startupAssetMegabytes: Int = 0

  /// The distance between the bytes ``readStartupAsset()`` touches: one page-in per 64 KiB.
  private static let assetStride = 64 << 10

  /// A sum of the touched bytes, kept so that the reads cannot be left out.
  private static let assetChecksum = Atomic<UInt64>(0)

  /// Where the start-up asset is kept: `/var/tmp`, world-writable and sticky, so that the app
  /// user bench runs camera-app as (nobody when bench is root) can make it once and every later
  /// launch finds it. Beside the executable, in the build cache, only root could: every launch
  /// made the whole asset in memory again and failed to keep it, a CPU cost warm launches paid too.
  static let assetFolder = "/var/tmp"

  /// The asset's path for `megabytes` MiB in `folder`.
  static func assetPath(megabytes: Int, folder: String = assetFolder) -> String {
    folder + "/firstframe-planted-startup-asset-\(megabytes)MiB.bin"
  }

  /// What ``readStartupAsset(megabytes:folder:)`` did.
  enum AssetOutcome: Equatable {
    /// The knob is 0: nothing read or written.
    case off
    /// The asset was there and was paged in.
    case read
    /// The asset was missing (or of another size): made, then paged in.
    case written
    /// The folder cannot keep it: nothing made, nothing read.
    case unwritable
  }

  /// Maps the start-up asset (``startupAssetMegabytes`` MiB at ``assetPath(megabytes:folder:)``,
  /// made first when it is missing or of another size) and touches one byte in every 64 KiB of
  /// it; returns at once when the knob is 0. A failure leaves the launch as it was: a planted
  /// regression never fails a run, and the asset is made in memory only where it can be kept.
  @discardableResult
  static func readStartupAsset(megabytes: Int = startupAssetMegabytes, folder: String = assetFolder)
    -> AssetOutcome
  {
    guard megabytes > 0 else { return .off }
    let length = megabytes << 20
    let path = assetPath(megabytes: megabytes, folder: folder)
    var outcome = AssetOutcome.read
    var fd = try? FileSystem.openForReading(atPath: path, refusingLinks: true)
    if let open = fd, FileSystem.size(of: open) != length || !FileSystem.isRegularFile(open) {
      FileDescriptorIO.close(open)
      fd = nil
    }
    if fd == nil {
      guard FileSystem.isWritable(atPath: folder) else { return .unwritable }
      // Not zeros: every byte written, so that no file system can keep it as a hole.
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) }
      guard (try? FileSystem.replaceAtomically(bytes, atPath: path)) != nil else { return .unwritable }
      fd = try? FileSystem.openForReading(atPath: path, refusingLinks: true)
      outcome = .written
    }
    guard let open = fd else { return .unwritable }
    defer { FileDescriptorIO.close(open) }
    guard let mapped = try? FileSystem.mapForLife(open, length: length) else { return .unwritable }
    var sum: UInt64 = 0
    for offset in stride(from: 0, to: length, by: assetStride) { sum &+= UInt64(mapped[offset]) }
    assetChecksum.store(sum, ordering: .relaxed)
    return outcome
  }

  /// Whether the launch's first frame has gone through ``holdFirstFrame(_:)`` (once per process).
  private static let firstFrameSeen = Atomic<Bool>(false)

  /// Holds the calling thread (the camera's frame thread) before the launch's first camera frame
  /// is presented, by ``firstFrameHoldFraction`` of the time since `main`; returns at once when
  /// the knob is 0, for the splash (`--splash`, capture time 0: not a camera frame), or once the
  /// first camera frame has gone by.
  static func holdFirstFrame(_ frame: VideoFrame) {
    guard firstFrameHoldFraction > 0, frame.captureTime > 0 else { return }
    guard !firstFrameSeen.exchange(true, ordering: .relaxed) else { return }
    let launchedAt = CameraApp.mainReachedAt.load(ordering: .relaxed)
    let now = MonotonicClock.now()
    guard launchedAt > 0, now > launchedAt else { return }
    MonotonicClock.sleep(until: now + UInt64(Double(now - launchedAt) * firstFrameHoldFraction))
  }
}
