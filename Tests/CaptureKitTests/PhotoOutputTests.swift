import Dispatch
import PhaseTrace
import SystemCalls
import Testing
import TestSupport

@testable import CaptureKit

@Suite(Rig.timeLimit) struct PhotoOutputTests {
  typealias PhotoResult = Result<CapturedPhoto, CaptureError>

  @Test("a photo requested before deferred start triggers it in manual mode and is delivered")
  func photoTriggersDeferredStart() async throws {
    let rig = Rig([.preview, .photo, .movie])
    try rig.session.setAutomaticallyRunsDeferredStart(false)
    try await rig.session.startRunning()
    rig.device.emitFrames(1)
    rig.drain()
    #expect(!rig.photo.isInitialized)
    let results = Collector<PhotoResult>()
    let trace = rig.trace
    rig.photo.capturePhoto(with: PhotoSettings()) { result in
      trace.record(PhaseEvent(ts: MonotonicClock.now(), name: "test.photo", kind: .event, pid: 0))
      results.append(result)
    }
    #expect(await results.waitForCount(1))
    let photo = try results.values[0].get()
    #expect(photo.width == 32 && photo.height == 24)
    #expect(rig.photo.isInitialized && rig.session.isDeferredStartComplete)
    #expect(try #require(rig.first("deferred_start.will")) < rig.first("output.init(photo):end")!)
    #expect(try #require(rig.first("output.init(photo):end")) < rig.first("test.photo")!)
    #expect(await rig.delegate.waitForDid())
    await rig.session.stopRunning()
  }

  @Test(
    "a tap on the first frame, before startRunning has returned, is accepted and delivered",
    .timeLimit(.minutes(TestTime.minutes(10))))
  func tapBeforeStartRunningReturns() async throws {
    let rig = Rig([.preview, .photo])
    let streamStart = rig.device.gate(.startStream)
    let started = Task { try await rig.session.startRunning() }
    #expect(await streamStart.waitUntilReached())
    // The camera delivers its first frame while startStream has not returned (a real stream
    // thread can), preview shows it, and the person taps at once.
    rig.device.emitFrames(1)
    let results = Collector<PhotoResult>()
    rig.photo.capturePhoto(with: PhotoSettings()) { results.append($0) }
    streamStart.open()
    try await started.value
    #expect(await results.waitForCount(1))
    #expect(throws: Never.self) { try results.values[0].get() }
    await rig.session.stopRunning()
  }

  @Test("with responsive capture, N taps before initialisation are all accepted and delivered in order")
  func responsiveQueue() async throws {
    let rig = Rig([.preview, .photo])
    try rig.session.setAutomaticallyRunsDeferredStart(false)
    let photoInit = rig.device.gate(.initializeOutput(.photo))
    try await rig.session.startRunning()
    #expect(rig.photo.isResponsiveCaptureSupported && rig.photo.isResponsiveCaptureEnabled)

    let results = Collector<PhotoResult>()
    var ids: [Int64] = []
    var moments: [UInt64] = []
    for tap in 0..<5 {
      moments += rig.device.emitFrames(1)
      #expect(rig.photo.captureReadiness == .ready)
      let settings = PhotoSettings(metadata: ["tap": String(tap)])
      ids.append(settings.uniqueID)
      rig.photo.capturePhoto(with: settings) { results.append($0) }
    }
    #expect(await photoInit.waitUntilReached())
    #expect(results.count == 0, "nothing is delivered before the photo output is initialised")
    photoInit.open()
    #expect(await results.waitForCount(5))
    let photos = try results.values.map { try $0.get() }
    #expect(photos.map(\.settingsID) == ids)
    #expect(photos.map(\.metadata["tap"]) == ["0", "1", "2", "3", "4"])
    #expect(photos.allSatisfy { $0.wasResponsiveCapture })
    #expect(
      photos.map { $0.metadata["sequence"] } == moments.map { String($0) },
      "each moment is the frame at its tap")
    #expect(photos.map { $0.pixels.first } == moments.map { UInt8(truncatingIfNeeded: $0) })
    #expect(zip(photos, photos.dropFirst()).allSatisfy { $0.captureTime <= $1.captureTime })
    #expect(photos.allSatisfy { $0.captureTime <= $0.requestedAt && $0.requestedAt <= $0.deliveredAt })
    #expect(rig.device.count(of: .captureStill) == 0)
    await rig.session.stopRunning()
  }

  @Test("without responsive capture a tap waits, shows not-ready, and is delivered after initialisation")
  func nonResponsiveWaits() async throws {
    let rig = Rig([.preview, .photo])
    try rig.photo.setResponsiveCaptureEnabled(false)
    let photoInit = rig.device.gate(.initializeOutput(.photo))
    #expect(rig.photo.captureReadiness == .sessionNotRunning)
    try await rig.session.startRunning()
    #expect(rig.photo.captureReadiness == .notReadyWaitingForInitialization)
    let results = Collector<PhotoResult>()
    rig.photo.capturePhoto(with: PhotoSettings()) { results.append($0) }
    rig.photo.capturePhoto(with: PhotoSettings()) { results.append($0) }
    #expect(await photoInit.waitUntilReached())
    #expect(results.count == 0)
    #expect(rig.photo.captureReadiness == .notReadyWaitingForInitialization)
    photoInit.open()
    #expect(await results.waitForCount(2))
    let photos = try results.values.map { try $0.get() }
    #expect(photos.allSatisfy { !$0.wasResponsiveCapture && $0.metadata["source"] == "still" })
    #expect(rig.photo.captureReadiness == .ready)
    let calls = rig.device.calls
    let initIndex = try #require(calls.firstIndex(of: .initializeOutput(.photo)))
    let stillIndex = try #require(calls.firstIndex(of: .captureStill))
    #expect(initIndex < stillIndex)
    #expect(rig.device.count(of: .captureStill) == 2)
    await rig.session.stopRunning()
  }

  @Test("a photo request while the session is not running fails with a clear error")
  func notRunning() async throws {
    let rig = Rig([.preview, .photo])
    let results = Collector<PhotoResult>()
    rig.photo.capturePhoto(with: PhotoSettings()) { results.append($0) }
    #expect(await results.waitForCount(1))
    guard case .failure(let error) = results.values[0] else {
      Issue.record("expected a failure")
      return
    }
    #expect(error.code == .sessionNotRunning)
    #expect(error.message.contains("start"))
  }

  @Test("prepared settings pre-allocate buffers that captures then use")
  func preparedSettings() async throws {
    let rig = Rig([.preview, .photo], eager: true)
    rig.photo.setPreparedPhotoSettings([PhotoSettings(), PhotoSettings()])
    rig.drain()
    #expect(rig.photo.preparedBufferCount == 2)
    try await rig.session.startRunning()
    rig.device.emitFrames(1)
    let results = Collector<PhotoResult>()
    rig.photo.capturePhoto(with: PhotoSettings()) { results.append($0) }
    #expect(await results.waitForCount(1))
    let photo = try results.values[0].get()
    #expect(photo.metadata["prepared"] == "true")
    #expect(photo.pixels.count == 32 * 24)
    rig.drain()
    #expect(rig.photo.preparedBufferCount == 2, "the pool is topped up again")
    await rig.session.stopRunning()
  }
}
