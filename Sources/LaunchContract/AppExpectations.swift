/// What the runner may rely on from the app it launches in one configuration: which events a
/// run waits for after the first live frame, and which phases cannot occur.
///
/// camera-app (the reference app) speaks the whole protocol; another program launched with
/// `--app` is trusted only for what every app writes.
public struct AppExpectations: Sendable, Hashable {
  /// The configuration the app runs in.
  public var configuration: LaunchConfiguration
  /// The outputs requested (`--outputs`).
  public var outputs: [CaptureOutputKind]
  /// Whether the runner presses the shutter when the first live frame appears.
  public var tap: Bool
  /// True for camera-app, false for a program given with `--app`.
  public var isReferenceApp: Bool
  /// The display path the app presents through (`--display`).
  public var display: DisplayPath

  /// Creates the expectations.
  public init(
    configuration: LaunchConfiguration, outputs: [CaptureOutputKind], tap: Bool, isReferenceApp: Bool,
    display: DisplayPath = .sharedMemory
  ) {
    self.configuration = configuration
    self.outputs = outputs
    self.tap = tap
    self.isReferenceApp = isReferenceApp
    self.display = display
  }

  /// The events a run waits for, after its first live frame, before it ends: the photo of the
  /// first tap, the secondary UI, and (when outputs were deferred) the end of deferred start.
  /// A relock run of camera-app waits for the photo and the secondary UI, which camera-app shows
  /// again once the session runs after unlock (its outputs stayed initialised across the lock);
  /// a relock run of another app waits for the photo only.
  public func awaitedEvents(in condition: LaunchCondition) -> [EventName] {
    var names: [EventName] = []
    if tap && configuration.hasPhotoOutput(among: outputs) { names.append(.photoDelivered) }
    if condition.launchesProcess {
      names.append(.uiSecondaryVisible)
      if isReferenceApp && configuration.runsDeferredStart(among: outputs) {
        names.append(.deferredStartDid)
      }
    } else if isReferenceApp {
      names.append(.uiSecondaryVisible)
    }
    return names
  }

  /// The phases that cannot occur in a cell of `condition`, each with its reason.
  public func inapplicablePhases(in condition: LaunchCondition) -> [String: String] {
    var reasons = condition.inapplicablePhases
    if isReferenceApp && !configuration.hasPhotoOutput(among: outputs) {
      reasons[PhaseName.shutterToPhoto] = "no photo output in this configuration"
    } else if !tap {
      reasons[PhaseName.shutterToPhoto] = "--no-tap: the shutter is not pressed"
    }
    if !display.server.mapsWindows {
      reasons[PhaseName.windowMapped] = "shm: the app presents into a shared-memory surface, not a window"
    } else if !condition.launchesProcess {
      reasons[PhaseName.windowMapped] = "relock: the window stays mapped across lock and unlock"
    }
    return reasons
  }
}
