import CaptureKit
import Foundation
import LaunchContract
import PhaseTrace
import SystemCalls
import Testing
import TestSupport

@testable import V4L2Camera

/// Runs against a real V4L2 device (vivid in the VM: `scripts/vivid-integration`) only when
/// `FIRSTFRAME_V4L2_DEVICE` names one, e.g. `/dev/video0`.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct V4L2DeviceIntegrationTests {
  static let device = ProcessInfo.processInfo.environment["FIRSTFRAME_V4L2_DEVICE"].flatMap {
    $0.isEmpty ? nil : $0
  }

  @Test(
    "a real device negotiates 640x480, streams a moving pattern, takes a still and reports its phases",
    .enabled(if: device != nil, "set FIRSTFRAME_V4L2_DEVICE=/dev/videoN to run"))
  func realDevice() throws {
    let path = try #require(Self.device)
    try V4L2Camera.validate(path: path)
    let trace = InMemoryTrace()
    let camera = try V4L2Camera(path: path, signposter: Signposter(sink: trace))
    try camera.open()
    defer { camera.close() }
    if let movement = try camera.control(named: "Horizontal Movement") {
      try camera.setValue(Int32(movement.maximum - 1), ofControl: movement.id)  // vivid: "Move Right"
    }
    try camera.setActiveFormat(CaptureFormat(width: 640, height: 480, maxFrameRate: 30), frameRate: 30)
    #expect(camera.activeFormatDescription?.hasPrefix("640x480@") == true)
    try camera.initializeOutput(.preview)
    try camera.initializeOutput(.photo)

    let collector = Collector<VideoFrame>()
    try camera.startStream(collector.append)
    #expect(collector.blockUntilCount(30, timeout: .seconds(60)), "30 frames within 60 s")
    let still = try camera.captureStill()
    let resumed = collector.count
    #expect(
      collector.blockUntilCount(resumed + 5, timeout: .seconds(30)), "streaming resumes after the still")
    camera.stopStream()

    let frames = collector.values
    #expect(frames.allSatisfy { $0.width == 640 && $0.height == 480 })
    let distinct = Set(frames.prefix(30).map(\.pixels)).count
    #expect(distinct >= 20, "the pattern moves: \(distinct) distinct images among the first 30")
    let stillSize = try #require(camera.stillSize)
    #expect(still.width == stillSize.width && still.height == stillSize.height)
    #expect(Set(still.pixels).count >= 4, "the still has picture content (vivid: 8 colour bars)")

    let events = trace.events
    func duration(_ name: String) -> Double? {
      guard let b = events.first(where: { $0.name == name && $0.kind == .begin }),
        let e = events.first(where: { $0.name == name && $0.kind == .end && $0.ts >= b.ts })
      else { return nil }
      return MonotonicClock.milliseconds(from: b.ts, to: e.ts)
    }
    let streamOnEnd = events.first { $0.name == EventName.deviceStreamOn.rawValue && $0.kind == .end }
    let firstBuffer = events.first { $0.name == EventName.deviceFirstBuffer.rawValue }
    let phases: [(String, Double?)] = [
      ("open", duration(EventName.deviceOpen.rawValue)),
      ("format", duration(EventName.deviceFormat.rawValue)),
      ("buffers", duration(EventName.deviceBuffers.rawValue)),
      ("stream_on", duration(EventName.deviceStreamOn.rawValue)),
      (
        "first_buffer (after stream_on)",
        streamOnEnd.flatMap { s in firstBuffer.map { MonotonicClock.milliseconds(from: s.ts, to: $0.ts) } }
      ),
    ]
    for (name, ms) in phases { #expect(ms != nil, "phase \(name) recorded") }
    let line = phases.map { "\($0.0)=\($0.1.map { String(format: "%.2f", $0) } ?? "?") ms" }.joined(
      separator: " ")
    print(
      "V4L2 device phases on \(path) [\(camera.localizedName)]: \(line); still \(still.width)x\(still.height)"
    )
  }
}
