import LaunchContract
import Testing

/// What a run waits for before it ends: every phase a cell reports must be measured in every
/// run, not only when the app happened to be quick.
@Suite struct AppExpectationsTests {
  static func cameraApp(_ configuration: LaunchConfiguration) -> AppExpectations {
    AppExpectations(
      configuration: configuration, outputs: CaptureOutputKind.defaultSelection, tap: true,
      isReferenceApp: true)
  }

  /// camera-app shows its secondary UI again after every unlock, once the session runs
  /// (CameraModel: `.sessionStarted` → `showSecondaryUI`), and relock cells report
  /// `secondary_ui`. A relock run that ended at the photo lost the phase whenever the UI came
  /// later (seen under AddressSanitizer: BenchEndToEndTests' relock cells had no secondary_ui).
  @Test("a relock run of camera-app waits for the secondary UI it shows again after unlock")
  func relockAwaitsSecondaryUI() {
    for configuration in LaunchConfiguration.allCases {
      let awaited = Self.cameraApp(configuration).awaitedEvents(in: .relock)
      #expect(awaited.contains(.uiSecondaryVisible), "\(configuration): \(awaited)")
      #expect(
        !awaited.contains(.deferredStartDid), "\(configuration): outputs stay initialised across a lock")
    }
  }

  /// A program given with `--app` is trusted only for what every app writes after a launch; a
  /// relock run does not wait for more than it asks.
  @Test("a relock run of another app waits for the photo only")
  func relockOfAnotherApp() {
    let other = AppExpectations(
      configuration: .deferred, outputs: CaptureOutputKind.defaultSelection, tap: true, isReferenceApp: false)
    #expect(other.awaitedEvents(in: .relock) == [.photoDelivered])
    #expect(other.awaitedEvents(in: .warm).contains(.uiSecondaryVisible))
  }
}
