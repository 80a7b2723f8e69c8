import PhaseTrace
import RunAnalysis
import Testing

@Suite struct PhaseExtractorTests {
  func ev(
    _ ms: Double, _ name: String, _ kind: PhaseEventKind = .event, _ fields: [String: PhaseFieldValue] = [:]
  )
    -> PhaseEvent
  {
    PhaseEvent(ts: 1_000_000_000 + UInt64(ms * 1e6), name: name, kind: kind, pid: 7, fields: fields)
  }

  @Test("a launch's phases are measured between the documented events")
  func launch() {
    let events = [
      ev(0, "launch.spawn"), ev(3, "app.main"), ev(4, "ui.ready"), ev(5, "session.configure", .begin),
      ev(25, "session.configure", .end), ev(26, "session.start_running", .begin),
      ev(200, "preview.first_present"),
      ev(190, "session.start_running", .end), ev(210, "display.first_live_frame"), ev(212, "shutter.tap"),
      ev(215, "deferred_start.will"), ev(400, "deferred_start.did"), ev(420, "photo.delivered"),
      ev(300, "ui.secondary_visible"), ev(230, "display.dropped_frame"),
    ]
    let p = PhaseExtractor.phases(from: events.shuffled(), start: events[0].ts, relock: false)
    func near(_ phase: String, _ ms: Double) -> Bool { abs((p[phase] ?? -1) - ms) < 1e-6 }
    #expect(near("process_launch", 3))
    #expect(near("ui_ready", 1))
    #expect(near("session_configure", 20))
    #expect(near("start_running", 164))
    #expect(near("first_frame_presented", 200))
    #expect(near("first_frame_observed", 210))
    #expect(near("deferred_start", 185))
    #expect(near("first_frame_to_deferred_done", 190))
    #expect(near("shutter_to_photo", 208))
    #expect(near("secondary_ui", 300))
    #expect(PhaseExtractor.counts(from: events, start: events[0].ts)["dropped_frames"] == 1)
  }

  @Test(
    "window_mapped is start → the probe's display.window_mapped; absent without one, and before the start")
  func windowMapped() {
    let launch = [ev(0, "launch.spawn"), ev(3, "app.main"), ev(9.5, "display.window_mapped")]
    #expect(PhaseExtractor.phases(from: launch, start: launch[0].ts, relock: false)["window_mapped"] == 9.5)
    #expect(
      PhaseExtractor.phases(from: Array(launch.prefix(2)), start: 0, relock: false)["window_mapped"] == nil)
    let relock = [ev(0, "display.window_mapped"), ev(500, "relock.unlock")]
    #expect(PhaseExtractor.phases(from: relock, start: relock[1].ts, relock: true)["window_mapped"] == nil)
  }

  @Test("relock is measured from unlock and ignores what happened before it")
  func relock() {
    let events = [
      ev(0, "preview.first_present"), ev(1, "display.first_live_frame"), ev(100, "relock.unlock"),
      ev(101, "ui.ready"), ev(102, "session.start_running", .begin), ev(150, "session.start_running", .end),
      ev(170, "preview.first_present"), ev(180, "display.first_live_frame"),
    ]
    let p = PhaseExtractor.phases(from: events, start: events[2].ts, relock: true)
    #expect(p["process_launch"] == nil)
    #expect(abs(p["first_frame_observed"]! - 80) < 1e-6)
    #expect(abs(p["ui_ready"]! - 1) < 1e-6)
  }

  @Test("when nothing was deferred, deferred start took no time")
  func eager() {
    let events = [
      ev(0, "launch.spawn"), ev(50, "output.init", .end, ["output": "photo"]),
      ev(120, "preview.first_present"),
      ev(130, "display.first_live_frame"),
    ]
    let p = PhaseExtractor.phases(from: events, start: events[0].ts, relock: false)
    #expect(p["deferred_start"] == 0)
    #expect(p["first_frame_to_deferred_done"] == 0)
  }

  @Test("a missing end event leaves the phase out instead of inventing it")
  func missing() {
    let events = [ev(0, "launch.spawn"), ev(2, "session.configure", .begin)]
    let p = PhaseExtractor.phases(from: events, start: events[0].ts, relock: false)
    #expect(p["session_configure"] == nil)
    #expect(p["first_frame_observed"] == nil)
  }
}
