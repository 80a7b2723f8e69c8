import Synchronization
import SystemCalls

/// A camera as a session input: the device plus the format and frame rate the session will ask for.
///
/// `activeFormat` and `frameRateOverride` are staged: the session reads them at
/// `commitConfiguration()` (or when the input is added outside a configuration block), so several
/// changes inside one `beginConfiguration()`/`commitConfiguration()` pair reach the device once.
public final class CaptureDeviceInput: Sendable {
  /// The camera.
  public let device: any CaptureDevice
  private let settings: PThreadMutex<Settings>

  private struct Settings {
    var activeFormat: CaptureFormat
    var frameRateOverride: Double?
  }

  /// Creates an input for `device`; its active format is the device's first (best) format.
  /// A device without formats gets a 640x480@30 placeholder that `setActiveFormat` will reject.
  public init(device: any CaptureDevice) {
    self.device = device
    let format = device.formats.first ?? CaptureFormat(width: 640, height: 480, maxFrameRate: 30)
    self.settings = PThreadMutex(Settings(activeFormat: format, frameRateOverride: nil))
  }

  /// The format the session streams, applied at the next commit. Defaults to `device.formats.first`.
  public var activeFormat: CaptureFormat {
    get { settings.withLock { $0.activeFormat } }
    set { settings.withLock { $0.activeFormat = newValue } }
  }

  /// A frame rate below the format's maximum, frames per second, or `nil` for `activeFormat.maxFrameRate`.
  /// Applied at the next commit; it lowers `hardwareCost`.
  public var frameRateOverride: Double? {
    get { settings.withLock { $0.frameRateOverride } }
    set { settings.withLock { $0.frameRateOverride = newValue } }
  }

  /// The frame rate the session will ask for: the override, or the format's maximum (frames per second).
  public var effectiveFrameRate: Double {
    settings.withLock { $0.frameRateOverride ?? $0.activeFormat.maxFrameRate }
  }

  /// A consistent copy of the staged format and frame rate.
  func snapshot() -> (format: CaptureFormat, frameRate: Double) {
    settings.withLock { ($0.activeFormat, $0.frameRateOverride ?? $0.activeFormat.maxFrameRate) }
  }
}
