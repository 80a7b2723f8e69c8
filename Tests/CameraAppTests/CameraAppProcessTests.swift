import Foundation
import PhaseTrace
import TestSupport
import TestThreads
import Testing

/// Runs the real camera-app executable, as the runner does, and checks what it writes.
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct CameraAppProcessTests {
  struct Run {
    var status: Int32
    var stderr: String
    var events: [PhaseEvent]
    var malformed: Int
  }

  static var binary: String { BuiltProducts.path("camera-app") }

  /// Runs camera-app (each wait bounded: a hung app fails the test instead of hanging it). With
  /// `until`, the app's control channel is a pipe on its standard input (`fd:0`) and it runs,
  /// without `--duration`, until its trace holds every event named there — however slowly a
  /// loaded machine gets there — then gets `quit`.
  static func run(
    _ args: [String], environment extra: [String: String] = [:], until awaited: Set<String> = []
  )
    throws -> Run
  {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "camera-app-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let trace = dir.appendingPathComponent("t.jsonl").path
    var env = ProcessInfo.processInfo.environment
    env["FIRSTFRAME_TRACE"] = trace
    env["FIRSTFRAME_SYNTHETIC_STATE"] = dir.path
    env["FIRSTFRAME_APP_STATE"] = dir.appendingPathComponent("app").path
    env.removeValue(forKey: "FIRSTFRAME_DISPLAY")
    env.removeValue(forKey: "FIRSTFRAME_CONTROL")
    let control = awaited.isEmpty ? nil : Pipe()
    if control != nil { env["FIRSTFRAME_CONTROL"] = "fd:0" }
    for (k, v) in extra { env[k] = v }
    let p = TestProcess(executable: binary, arguments: args, environment: env, input: control)
    try p.run()
    if let control {
      let seen = blockUntil(timeout: .seconds(60), every: .milliseconds(20)) {
        awaited.isSubset(of: Set(TraceReader().read(path: trace).events.map(\.name))) || !p.isRunning
      }
      #expect(seen, "camera-app did not write \(awaited.sorted()) within 60 s")
      try? control.fileHandleForWriting.write(contentsOf: Data("quit\n".utf8))
      try? control.fileHandleForWriting.close()
    }
    #expect(p.waitUntilExit(timeout: .seconds(60)), "camera-app \(args) did not exit within 60 s")
    let read = TraceReader().read(path: trace)
    return Run(
      status: p.terminationStatus, stderr: p.standardErrorText, events: read.events,
      malformed: read.malformedLines)
  }

  static func ts(
    _ events: [PhaseEvent], _ name: String, _ kind: PhaseEventKind = .event, output: String? = nil
  )
    -> UInt64?
  {
    events.first {
      $0.name == name && $0.kind == kind && (output == nil || $0.fields["output"]?.stringValue == output)
    }?.ts
  }

  @Test(
    "deferred: only preview initialises before the first present; photo and movie after it; the secondary UI and the pressure poll after it too"
  )
  func deferredOrdering() throws {
    let r = try Self.run(
      ["--config", "deferred", "--outputs", "preview,photo,movie"],
      until: [
        "preview.first_present", "output.init", "deferred_start.did", "ui.secondary_visible",
        "pressure.level",
      ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.malformed == 0)
    let e = r.events
    let main = try #require(Self.ts(e, "app.main"))
    let ui = try #require(Self.ts(e, "ui.ready"))
    let configure = try #require(Self.ts(e, "session.configure", .begin))
    let started = try #require(Self.ts(e, "session.start_running", .end))
    let present = try #require(Self.ts(e, "preview.first_present"))
    let previewInit = try #require(Self.ts(e, "output.init", .end, output: "preview"))
    let photoInit = try #require(Self.ts(e, "output.init", .begin, output: "photo"))
    let movieInit = try #require(Self.ts(e, "output.init", .begin, output: "movie"))
    let will = try #require(Self.ts(e, "deferred_start.will"))
    let did = try #require(Self.ts(e, "deferred_start.did"))
    let secondary = try #require(Self.ts(e, "ui.secondary_visible"))
    #expect(main <= ui && ui <= configure)
    #expect(previewInit < present)
    #expect(present < will && will < photoInit && will < movieInit)
    #expect(photoInit < did && movieInit < did)
    #expect(started < secondary)
    // The secondary UI's work (thumbnail decode, picker layout) waits for the first preview
    // frame: it must not compete with the camera for the CPU before that frame is up.
    #expect(present < secondary)
    // So does the system-pressure poll: its first reading must not compete with the first frame.
    let pressure = try #require(Self.ts(e, "pressure.level"))
    #expect(present < pressure)
    // Both wait for the deferred outputs too (the seeds' order: preview, the shutter, deferred
    // outputs, then secondary UI): the first tap's photo waits for the photo output.
    #expect(did < secondary && did < pressure)
    #expect(Set(e.map(\.pid)).count == 1)
  }

  @Test(
    "eager: every output initialises before startRunning returns; the secondary UI shows after the first present"
  )
  func eagerOrdering() throws {
    let r = try Self.run(
      ["--config", "eager", "--outputs", "preview,photo,movie"],
      until: ["preview.first_present", "output.init", "ui.secondary_visible"])
    #expect(r.status == 0, "\(r.stderr)")
    let e = r.events
    let started = try #require(Self.ts(e, "session.start_running", .end))
    let present = try #require(Self.ts(e, "preview.first_present"))
    let secondary = try #require(Self.ts(e, "ui.secondary_visible"))
    #expect(present < secondary)
    for output in ["preview", "photo", "movie"] {
      let end = try #require(Self.ts(e, "output.init", .end, output: output), "output.init end for \(output)")
      #expect(end < started)
      #expect(end < present)
    }
  }

  @Test("control: a second lock, a second unlock and the quit at end of input change nothing")
  func controlCommands() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "camera-app-control-\(UUID().uuidString)")
    // All commands are there at once: the lock may come before the launch's start has finished,
    // but the capture queue runs the starts and stops in the order the commands came.
    try Data("lock\nlock\nunlock\nunlock\nbogus\nquit\n".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let r = try Self.run(
      ["--config", "deferred", "--outputs", "preview,photo"], environment: ["FIRSTFRAME_CONTROL": file.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr == "camera-app: ignoring unknown command 'bogus'\n")
    let sessionIntervals = r.events.filter {
      $0.name.hasPrefix("session.start_running") || $0.name.hasPrefix("session.stop_running")
    }.map { "\($0.name):\($0.kind)" }
    #expect(
      sessionIntervals == [
        "session.start_running:begin", "session.start_running:end",
        "session.stop_running:begin", "session.stop_running:end",
        "session.start_running:begin", "session.start_running:end",
        "session.stop_running:begin", "session.stop_running:end",
      ])
    #expect(
      r.events.filter { $0.name == "ui.ready" && $0.fields["after"]?.stringValue == "unlock" }.count == 1)
  }

  @Test("bad input: one line on stderr and exit status 2")
  func badInput() throws {
    for args in [
      ["--bogus"], ["--config", "turbo"], ["--outputs", "preview,x"], ["--duration", "1e12"],
      ["--camera", "usb"],
      ["extra"],
    ] {
      let r = try Self.run(args)
      #expect(r.status == 2)
      #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
      #expect(r.stderr.hasPrefix("camera-app: "), "\(r.stderr)")
    }
  }

  @Test("a missing or invalid profile names the file or the field, exit status 2")
  func badProfile() throws {
    let missing = try Self.run(["--profile", "/nonexistent/profile.json", "--duration", "1"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("/nonexistent/profile.json"))
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bad-profile-\(UUID().uuidString).json")
    try Data(#"{"name": "broken"}"#.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let invalid = try Self.run(["--profile", file.path, "--duration", "1"])
    #expect(invalid.status == 2)
    #expect(invalid.stderr.split(separator: "\n").count == 1, "\(invalid.stderr)")
    #expect(invalid.stderr.contains("field"), "\(invalid.stderr)")
  }
}
