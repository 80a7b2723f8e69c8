import Dispatch
import LaunchContract
import PhaseTrace
import SystemCalls
import TestThreads
import Testing
import TestSupport

@testable import CaptureKit

@Suite(.ownThread, Rig.timeLimit) struct DeferredStartTests {
  @Test("outputs default to Apple's deferred-start settings")
  func defaults() {
    #expect(PhotoOutput().isDeferredStartEnabled)
    #expect(MovieFileOutput().isDeferredStartEnabled)
    #expect(AnalysisOutput().isDeferredStartEnabled)
    let preview = PreviewOutput(display: RecordingDisplay())
    #expect(preview.isDeferredStartSupported && !preview.isDeferredStartEnabled)
    let data = VideoDataOutput()
    #expect(data.isDeferredStartSupported && !data.isDeferredStartEnabled)
    #expect(CaptureSession().automaticallyRunsDeferredStart)
  }

  @Test("enabling deferral on an output that does not support it throws a clear error")
  func unsupportedDeferral() {
    let output = CaptureOutput(
      kind: .videoData, isDeferredStartSupported: false, isDeferredStartEnabledByDefault: true)
    #expect(!output.isDeferredStartEnabled)
    do {
      try output.setDeferredStartEnabled(true)
      Issue.record("expected an error")
    } catch {
      #expect(error.code == .deferredStartUnsupported)
      #expect(error.message.contains("video-data"))
      #expect(error.message.contains("isDeferredStartSupported"))
    }
    #expect(!output.isDeferredStartEnabled)
    #expect(throws: Never.self) { try output.setDeferredStartEnabled(false) }
  }

  @Test("eager configuration initialises every output before startRunning returns")
  func eager() throws {
    let rig = Rig([.preview, .photo, .movie, .analysis], eager: true)
    try rig.session.startRunning()
    rig.mark("test.start_returned")
    for kind in [CaptureOutputKind.preview, .photo, .movie, .analysis] {
      #expect(rig.output(kind).isInitialized, "\(kind) initialised")
      let end = try #require(rig.first("output.init(\(kind.rawValue)):end"))
      #expect(end < rig.first("test.start_returned")!)
    }
    #expect(rig.device.calls.first == .open)
    #expect(rig.device.calls.last == .startStream)
    #expect(rig.session.isDeferredStartComplete)
    rig.device.emitFrames(1)
    rig.drain()
    #expect(rig.count("deferred_start.will") == 0)
    rig.session.stopRunning()
  }

  @Test("deferred configuration initialises photo and movie only after the first present")
  func deferredAfterFirstPresent() async throws {
    let rig = Rig([.preview, .photo, .movie])
    try await rig.session.startRunning()
    #expect(rig.preview.isInitialized)
    #expect(!rig.photo.isInitialized && !rig.movie.isInitialized)
    #expect(rig.device.initializedOutputs == [.preview])
    #expect(!rig.session.isDeferredStartComplete)
    rig.device.emitFrames(1)
    #expect(await rig.delegate.waitForDid())
    #expect(rig.photo.isInitialized && rig.movie.isInitialized)
    #expect(rig.session.isDeferredStartComplete)
    let present = try #require(rig.first("preview.first_present"))
    #expect(try #require(rig.first("output.init(photo):begin")) > present)
    #expect(try #require(rig.first("output.init(movie):begin")) > present)
    await rig.session.stopRunning()
  }

  @Test("the delegate hears will before did, both after the first present, in automatic mode")
  func delegateOrder() async throws {
    let rig = Rig([.preview, .photo, .analysis])
    try await rig.session.startRunning()
    #expect(rig.delegate.recordedCalls.isEmpty)
    rig.device.emitFrames(2)
    #expect(await rig.delegate.waitForDid())
    #expect(rig.delegate.recordedCalls == ["will", "did"])
    let present = try #require(rig.first("test.present"))
    let firstPresent = try #require(rig.first("preview.first_present"))
    let will = try #require(rig.first("deferred_start.will"))
    let did = try #require(rig.first("deferred_start.did"))
    let delegateWill = try #require(rig.first("test.delegate.will"))
    let delegateDid = try #require(rig.first("test.delegate.did"))
    #expect(present < firstPresent && firstPresent < will && will < did)
    #expect(present < delegateWill && delegateWill < delegateDid)
    #expect(rig.count("deferred_start.will") == 1)
    await rig.session.stopRunning()
  }

  @Test("without a preview output, the first frame handed to a data output triggers deferred start")
  func dataOutputTrigger() async throws {
    let rig = Rig([.videoData, .photo])
    let trace = rig.trace
    rig.videoData.setFrameHandler(queue: DispatchQueue(label: "test.frames")) { frame in
      trace.record(PhaseEvent(ts: MonotonicClock.now(), name: "test.frame_handled", kind: .event, pid: 0))
    }
    try await rig.session.startRunning()
    #expect(!rig.photo.isInitialized)
    rig.device.emitFrames(1)
    #expect(await rig.delegate.waitForDid())
    #expect(try #require(rig.first("test.frame_handled")) < rig.first("deferred_start.will")!)
    #expect(rig.photo.isInitialized)
    await rig.session.stopRunning()
  }

  @Test("in manual mode nothing deferred runs until runDeferredStartWhenNeeded, which is idempotent")
  func manualMode() async throws {
    let rig = Rig([.preview, .photo, .movie])
    #expect(rig.session.isManualDeferredStartSupported)
    try rig.session.setAutomaticallyRunsDeferredStart(false)
    try await rig.session.startRunning()
    rig.device.emitFrames(3)
    rig.drain()
    rig.drain()
    #expect(rig.count("preview.first_present") == 1)
    #expect(!rig.photo.isInitialized && !rig.movie.isInitialized)
    #expect(rig.delegate.recordedCalls.isEmpty)
    #expect(rig.count("deferred_start.will") == 0)

    rig.session.runDeferredStartWhenNeeded()
    rig.session.runDeferredStartWhenNeeded()
    #expect(await rig.delegate.waitForDid())
    rig.session.runDeferredStartWhenNeeded()
    rig.drain()
    #expect(rig.photo.isInitialized && rig.movie.isInitialized)
    #expect(rig.device.count(of: .initializeOutput(.photo)) == 1)
    #expect(rig.count("deferred_start.will") == 1)
    await rig.session.stopRunning()
  }

  @Test("runDeferredStartWhenNeeded before starting runs deferred start as soon as the session runs")
  func manualRequestBeforeStart() async throws {
    let rig = Rig([.preview, .photo])
    try rig.session.setAutomaticallyRunsDeferredStart(false)
    rig.session.runDeferredStartWhenNeeded()
    try await rig.session.startRunning()
    #expect(await rig.delegate.waitForDid())
    #expect(rig.photo.isInitialized)
    await rig.session.stopRunning()
  }

  @Test("manual mode cannot be chosen while the session runs")
  func manualModeGuard() async throws {
    let rig = Rig([.preview, .photo])
    try await rig.session.startRunning()
    #expect(!rig.session.isManualDeferredStartSupported)
    do {
      try rig.session.setAutomaticallyRunsDeferredStart(false)
      Issue.record("expected an error")
    } catch {
      #expect(error.code == .manualDeferredStartUnsupported)
      #expect(error.message.contains("running"))
    }
    #expect(rig.session.automaticallyRunsDeferredStart)
    await rig.session.stopRunning()
    #expect(rig.session.isManualDeferredStartSupported)
    try rig.session.setAutomaticallyRunsDeferredStart(false)
    #expect(!rig.session.automaticallyRunsDeferredStart)
  }

  @Test("choosing automatic mode after the first present runs deferred start at once")
  func switchBackToAutomatic() async throws {
    let rig = Rig([.preview, .photo])
    try rig.session.setAutomaticallyRunsDeferredStart(false)
    try await rig.session.startRunning()
    rig.device.emitFrames(1)
    rig.drain()
    #expect(!rig.photo.isInitialized)
    try rig.session.setAutomaticallyRunsDeferredStart(true)
    #expect(await rig.delegate.waitForDid())
    #expect(rig.photo.isInitialized)
    await rig.session.stopRunning()
  }
}
