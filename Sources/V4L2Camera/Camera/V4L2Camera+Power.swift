import CaptureKit
import Glibc
import LaunchContract
import SystemCalls

/// A V4L2 camera's power state before `open()`, from the kernel's runtime power management.
///
/// The node's device (`/sys/class/video4linux/videoN/device`, a USB interface for UVC) says in
/// `power/runtime_status` whether the kernel had powered it down: `suspended` means the open
/// powers it up from off (cold), `active` (or `resuming`) that it is still powered, for example
/// released a moment ago and not yet autosuspended (warm). `unsupported`, `suspending`, an
/// unreadable file or a node that is not under `/sys/class/video4linux` tell nothing, and the
/// camera then reports no power-up at all.
enum V4L2RuntimePower {
  /// The `runtime_status` file of the device behind `node` (symbolic links resolved), or nil.
  static func statusPath(forNode node: String) -> String? {
    guard let real = realpath(node, nil) else { return nil }
    defer { free(real) }
    let resolved = String(String(cString: real).split(separator: "/").last ?? "")
    guard resolved.hasPrefix("video") || resolved.hasPrefix("v4l-") else { return nil }
    return "/sys/class/video4linux/\(resolved)/device/power/runtime_status"
  }

  /// Cold or warm from the text of `runtime_status`; nil when it tells nothing.
  static func powerUp(runtimeStatus: String?) -> DevicePowerUp? {
    switch runtimeStatus?.trimmingWhitespace() {
    case "suspended": return .cold
    case "active", "resuming": return .warm
    default: return nil
    }
  }

  /// What the device behind `node` would power up as, now.
  static func current(node: String) -> DevicePowerUp? {
    guard let path = statusPath(forNode: node) else { return nil }
    return powerUp(runtimeStatus: FileSystem.readText(atPath: path, maxBytes: 256))
  }
}

extension V4L2Camera {
  /// How the last `open()` powered the device up (source `runtime_pm`, read just before the
  /// open); nil when the kernel does not manage the device's runtime power (vivid, for one).
  public var lastPowerUp: (kind: DevicePowerUp, source: String)? {
    state.withLock { $0.powerUp }.map { ($0, "runtime_pm") }
  }
}
