import HostConditions
import LaunchContract
import PhaseTrace
import ResultsSchema

/// What one run verified rather than assumed, written into its counts (`RunRecord.counts`; what
/// its condition did, a cold run's eviction among it, is ``ConditionRunState/verify(_:into:)``'s):
/// - `realtime_compositor` and `realtime_camera`: 1 granted, 0 not (the camera's absent when the
///   app did not say);
/// - `missed_deadlines`: the compositor's missed refresh deadlines during the run
///   (`DeadlineAccount`); absent on X11, where the probe has no refresh grid of its own;
/// - `power_up_cold`: the app's `device.power_up` said cold (1) or warm (0); absent when the app
///   did not say. A power-up that does not match the condition (`LaunchCondition.expectedPowerUp`)
///   fails the run, with that reason.
struct RunVerification {
  var realtimeCompositor: Bool
  /// The compositor's missed deadlines during the run; nil without a refresh grid (X11).
  var missedDeadlines: UInt64?
  /// The run's condition, whose power-up the device must show.
  var condition: LaunchCondition

  func apply(to record: inout BenchResults.RunRecord) {
    record.counts[.realtimeCompositor] = realtimeCompositor ? 1 : 0
    if let missedDeadlines { record.counts[.missedDeadlines] = Int(clamping: missedDeadlines) }
    if let failure = Self.powerUpMismatch(record.counts[.powerUpCold], condition: condition), record.ok {
      record.ok = false
      record.error = failure
    }
  }

  /// Why a run whose device powered up as `powerUpCold` says (1 cold, 0 warm, nil not
  /// reported) failed its `condition`, or nil when it matches or was not reported.
  /// `hot` checks none: a soak longer than the camera's warm window leaves the device cold (as a
  /// phone's camera is after a minute of other work), a short one warm; the count records which.
  static func powerUpMismatch(_ powerUpCold: Int?, condition: LaunchCondition) -> String? {
    guard let powerUpCold, condition != .hot else { return nil }
    let kind: DevicePowerUp = powerUpCold == 1 ? .cold : .warm
    guard kind != condition.expectedPowerUp else { return nil }
    return
      "the device powered up \(kind.rawValue) in a \(condition.rawValue) run (device.power_up); expected \(condition.expectedPowerUp.rawValue)"
  }

  /// Undoes the power-up check of a run that expects no particular power-up (a priming run: it
  /// exists to power the device up): when its only failure was the mismatch, it is ok again.
  static func acceptAnyPowerUp(_ record: inout BenchResults.RunRecord, condition: LaunchCondition) {
    guard !record.ok, let mismatch = powerUpMismatch(record.counts[.powerUpCold], condition: condition),
      record.error == mismatch
    else { return }
    record.ok = true
    record.error = nil
  }

  /// The `kind` of the app's first `device.power_up` event, if any said cold or warm.
  static func powerUp(in events: [PhaseEvent]) -> DevicePowerUp? {
    guard let event = events.first(where: { $0.name == EventName.devicePowerUp.rawValue }),
      case .string(let kind) = event.fields[DevicePowerUp.fieldName]
    else { return nil }
    return DevicePowerUp(rawValue: kind)
  }

  /// The `granted` field of the app's first `device.realtime_priority` event, if any.
  static func cameraRealtime(in events: [PhaseEvent]) -> Bool? {
    guard let event = events.first(where: { $0.name == EventName.deviceRealtimePriority.rawValue }),
      case .bool(let granted) = event.fields["granted"]
    else { return nil }
    return granted
  }

  /// Whether any run's camera thread got real-time priority; nil when no run said.
  static func anyCameraRealtime(_ cells: [BenchResults.Cell]) -> Bool? {
    let said = cells.flatMap(\.records).compactMap { $0.counts[.realtimeCamera] }
    return said.isEmpty ? nil : said.contains(1)
  }
}
