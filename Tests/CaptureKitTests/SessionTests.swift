import Dispatch
import PhaseTrace
import TestThreads
import Testing
import TestSupport

@testable import CaptureKit

@Suite(.ownThread, Rig.timeLimit) struct SessionTests {
  @Test("begin/commit applies staged inputs and outputs once, at the commit")
  func stagedConfiguration() {
    let device = FakeCaptureDevice()
    let session = CaptureSession()
    let before = session.commitCount
    session.beginConfiguration()
    session.beginConfiguration()
    session.addInput(CaptureDeviceInput(device: device))
    session.addOutput(PhotoOutput())
    session.commitConfiguration()
    #expect(session.outputs.isEmpty && session.inputs.isEmpty, "inner commit applies nothing")
    #expect(session.hardwareCost == 0)
    session.addOutput(MovieFileOutput())
    session.commitConfiguration()
    #expect(session.commitCount == before + 1)
    #expect(session.inputs.count == 1)
    #expect(session.outputs.map(\.kind) == [.photo, .movie])
    #expect(session.hardwareCost > 0)
    #expect(device.calls.isEmpty, "committing while stopped does no device work")
  }

  @Test("format and frame-rate changes in one configuration block reach a running device once")
  func reconfigureOnce() async throws {
    let small = CaptureFormat(width: 32, height: 24, maxFrameRate: 30)
    let medium = CaptureFormat(width: 48, height: 32, maxFrameRate: 60)
    let large = CaptureFormat(width: 64, height: 48, maxFrameRate: 30)
    let device = FakeCaptureDevice(formats: [small, medium, large])
    let input = CaptureDeviceInput(device: device)
    let session = CaptureSession()
    session.addInput(input)
    try await session.startRunning()
    #expect(device.count(of: .setActiveFormat) == 1)

    session.beginConfiguration()
    input.activeFormat = medium
    input.frameRateOverride = 24
    input.activeFormat = large
    session.drainSessionQueue()
    #expect(device.count(of: .setActiveFormat) == 1, "nothing applied before the commit")
    session.commitConfiguration()
    session.drainSessionQueue()
    #expect(device.count(of: .setActiveFormat) == 2)
    #expect(
      device.calls.last(where: { $0.step == .setActiveFormat }) == .setActiveFormat(large, frameRate: 24))
    #expect(device.isStreaming)
    #expect(session.hardwareCost == Double(64 * 48 * 24) / 1e9)
    await session.stopRunning()
  }

  @Test("hardwareCost sums cameras and accounts for binning and frame-rate overrides")
  func hardwareCost() {
    let full = CaptureFormat(width: 1000, height: 1000, maxFrameRate: 30)
    let binned = CaptureFormat(width: 1000, height: 1000, maxFrameRate: 30, isBinned: true)
    let budget = 1000.0 * 1000 * 30 * 2
    let a = FakeCaptureDevice(uniqueID: "fake:a", formats: [full, binned], pixelBudget: budget)
    let b = FakeCaptureDevice(uniqueID: "fake:b", formats: [full], pixelBudget: budget)
    let session = CaptureSession()
    let inputA = CaptureDeviceInput(device: a)
    session.addInput(inputA)
    #expect(session.hardwareCost == 0.5)

    session.beginConfiguration()
    inputA.activeFormat = binned
    session.commitConfiguration()
    #expect(session.hardwareCost == 0.125)

    session.beginConfiguration()
    inputA.activeFormat = full
    inputA.frameRateOverride = 15
    session.commitConfiguration()
    #expect(session.hardwareCost == 0.25)

    let inputB = CaptureDeviceInput(device: b)
    #expect(session.canAddInput(inputB))
    #expect(!session.canAddInput(CaptureDeviceInput(device: a)), "one input per device")
    session.addInput(inputB)
    #expect(session.hardwareCost == 0.75)
  }

  @Test("startRunning refuses a hardware cost above 1 and says why")
  func hardwareCostExceeded() throws {
    let format = CaptureFormat(width: 4000, height: 3000, maxFrameRate: 60)
    let device = FakeCaptureDevice(formats: [format], pixelBudget: 4000.0 * 3000 * 30)
    let session = CaptureSession()
    session.addInput(CaptureDeviceInput(device: device))
    #expect(session.hardwareCost == 2)
    do {
      try session.startRunning()
      Issue.record("expected an error")
    } catch {
      #expect(error.code == .hardwareCostExceeded)
      for fragment in [
        "hardware cost 2", "4000x3000", "60 fps", "not binned", "1 camera", "360 Mpx/s budget",
      ] {
        #expect(error.message.contains(fragment), "message mentions \(fragment): \(error.message)")
      }
    }
    #expect(!session.isRunning)
    #expect(device.calls.isEmpty, "the device is not touched")
  }

  @Test("startRunning without an input fails with a clear error")
  func noInput() {
    let session = CaptureSession()
    #expect(throws: CaptureError.self) { try session.startRunning() }
  }

  @Test("a device error in startRunning surfaces with its cause")
  func deviceOpenFails() {
    let rig = Rig([.preview])
    rig.device.failNext(.open)
    do {
      try rig.session.startRunning()
      Issue.record("expected an error")
    } catch {
      #expect(error.code == .deviceOpenFailed)
      #expect(error.underlying is FakeCaptureDevice.InjectedFailure)
    }
    #expect(!rig.session.isRunning)
  }

  @Test("a restart emits preview.first_present again and keeps deferred outputs initialised")
  func restart() async throws {
    let rig = Rig([.preview, .photo, .movie])
    let states = Collector<Bool>()
    let observer = Task {
      for await running in rig.session.runningStates() {
        states.append(running)
        if states.count == 5 { break }
      }
    }
    #expect(await states.waitForCount(1))
    try await rig.session.startRunning()
    rig.device.emitFrames(2)
    #expect(await rig.delegate.waitForDid())
    await rig.session.stopRunning()
    #expect(!rig.device.isStreaming)

    try await rig.session.startRunning()
    #expect(rig.session.isDeferredStartComplete, "deferred outputs stay initialised across stop/start")
    rig.device.emitFrames(2)
    rig.drain()
    await rig.session.stopRunning()

    #expect(rig.count("preview.first_present") == 2)
    let presents = rig.timeline.indices.filter { rig.timeline[$0] == "preview.first_present" }
    let restartStream = try #require(rig.timeline.lastIndex(of: "fake.startStream"))
    #expect(presents[1] > restartStream)
    #expect(rig.device.count(of: .initializeOutput(.photo)) == 1)
    #expect(rig.device.count(of: .open) == 1, "the device stays open across stop/start")
    #expect(rig.count("deferred_start.will") == 1, "nothing left to defer on restart")
    #expect(await states.waitForCount(5))
    #expect(states.values == [false, true, false, true, false])
    observer.cancel()
  }

  @Test("blocking startRunning and stopRunning work when called on the session queue")
  func blockingOnSessionQueue() async throws {
    let rig = Rig([.preview])
    let outcome = Collector<String>()
    let session = rig.session
    session.enqueue {
      do {
        try session.startRunning()
        outcome.append("started:\(session.isRunning)")
        session.stopRunning()
        outcome.append("stopped:\(session.isRunning)")
      } catch {
        outcome.append("error")
      }
    }
    #expect(await outcome.waitForCount(2))
    #expect(outcome.values == ["started:true", "stopped:false"])
  }

  @Test("an output can be in one session only, and a session has one output per kind")
  func addOutputRules() {
    let session = CaptureSession()
    let photo = PhotoOutput()
    #expect(session.canAddOutput(photo))
    session.addOutput(photo)
    #expect(!session.canAddOutput(photo))
    #expect(!session.canAddOutput(PhotoOutput()))
    #expect(!CaptureSession().canAddOutput(photo))
  }

  @Test("a video data output drops frames that arrive while its handler is busy")
  func dropsLateFrames() async throws {
    let rig = Rig([.videoData], eager: true)
    let release = FakeGate()
    let handled = Collector<UInt64>()
    rig.videoData.setFrameHandler(queue: DispatchQueue(label: "test.slow-handler")) { frame in
      handled.append(frame.sequence)
      release.pass()
    }
    try await rig.session.startRunning()
    rig.device.emitFrames(1)
    #expect(await handled.waitForCount(1))
    rig.device.emitFrames(3)
    release.open()
    #expect(await waitUntil { rig.videoData.deliveredFrames == 1 })
    #expect(rig.videoData.droppedFrames == 3)
    rig.device.emitFrames(1)
    #expect(await handled.waitForCount(2))
    #expect(handled.values == [0, 4])
    await rig.session.stopRunning()
  }
}
