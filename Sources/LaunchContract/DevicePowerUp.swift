/// How the camera powered up when the app opened it: the value of the app's `device.power_up`
/// event (field ``fieldName``), which the runner checks against the run's condition.
///
/// What makes a power-up cold is the device's own state, not the runner's intention:
/// - the synthetic camera: cold unless it was released (by any process, this boot) at most its
///   profile's `warm_window_ms` ago, as a sensor that powers down after some idle time;
/// - a V4L2 camera: the device's runtime power state before the open
///   (`/sys/class/video4linux/videoN/device/power/runtime_status`): `suspended` is cold,
///   `active` warm; a device without runtime power management reports nothing;
/// - a device the session kept open across a stop and restart (relock): warm, it was never
///   released.
public enum DevicePowerUp: String, Sendable, Hashable, CaseIterable {
  /// Powered up from off: released long enough ago, never, or in another boot.
  case cold
  /// Still powered: released recently, or never released.
  case warm

  /// The `device.power_up` field that carries the kind: `kind`.
  public static let fieldName = "kind"
  /// The `device.power_up` field that says where the kind came from (`state_file`,
  /// `runtime_pm`, `held_open`).
  public static let sourceFieldName = "source"
}

extension LaunchCondition {
  /// The power-up a run under this condition must show: cold for `cold` (the runner made the
  /// device cold), warm for the others (the device was released a moment ago, or held open).
  public var expectedPowerUp: DevicePowerUp { self == .cold ? .cold : .warm }
}
