import CaptureKit
import Foundation
import LaunchContract
import PhaseTrace
import Testing
import TestSupport

@testable import SyntheticCamera

/// `device.power_up`: the session says how its camera powered up, the kind decided by the device.
@Suite(.serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct PowerUpEventTests {
  static func powerUps(_ trace: InMemoryTrace) -> [String] {
    trace.events.filter { $0.name == EventName.devicePowerUp.rawValue }.map { event in
      "\(event.fields[DevicePowerUp.fieldName]?.description ?? "?")/\(event.fields[DevicePowerUp.sourceFieldName]?.description ?? "?")"
    }
  }

  /// Opens a camera in `directory` in a session, starts and stops the session `starts` times,
  /// closes the camera; returns the session's `device.power_up` events as `kind/source`.
  static func session(in directory: String, starts: Int) throws -> [String] {
    let trace = InMemoryTrace()
    let camera = SyntheticCamera(profile: try Fixtures.fast, stateDirectory: directory)
    let session = CaptureSession(signposter: Signposter(sink: trace))
    session.beginConfiguration()
    session.addInput(CaptureDeviceInput(device: camera))
    session.addOutput(PreviewOutput(display: RecordingDisplay(trace: InMemoryTrace())))
    session.commitConfiguration()
    for _ in 0..<starts {
      try session.startRunning()
      session.stopRunning()
    }
    camera.close()
    return powerUps(trace)
  }

  @Test(
    "cold from the state file, warm when restarted while held open, warm when reopened soon after a close")
  func sessionReportsPowerUp() throws {
    let directory = temporaryFolder("state")
    #expect(try Self.session(in: directory, starts: 2) == ["cold/state_file", "warm/held_open"])
    #expect(try Self.session(in: directory, starts: 1) == ["warm/state_file"])
  }
}
