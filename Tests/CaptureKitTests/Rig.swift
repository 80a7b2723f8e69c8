import Dispatch
import LaunchContract
import PhaseTrace
import SystemCalls
import TestSupport
import Testing

@testable import CaptureKit

/// A session wired to a fake camera, with every event (session, device, display, delegate) in one trace.
struct Rig {
  /// The time limit of every suite that builds a rig: its fake device runs threads and its
  /// session a queue, and a hung one must fail the suite, not hang CI.
  static let timeLimit: TimeLimitTrait = .timeLimit(.minutes(TestTime.minutes(10)))

  let trace = InMemoryTrace()
  let device: FakeCaptureDevice
  let session: CaptureSession
  let display: RecordingDisplay
  let delegate: RecordingDeferredStartDelegate
  let delegateQueue = DispatchQueue(label: "test.deferred-start-delegate")
  let preview: PreviewOutput
  let photo = PhotoOutput()
  let movie = MovieFileOutput()
  let analysis: AnalysisOutput
  let videoData = VideoDataOutput()

  /// `outputs` are added in this order; `eager` disables deferral on all of them.
  init(
    _ outputs: [CaptureOutputKind] = [.preview, .photo, .movie], eager: Bool = false,
    formats: [CaptureFormat] = [CaptureFormat(width: 32, height: 24, maxFrameRate: 30)],
    analysisInterval: Int = 4
  ) {
    device = FakeCaptureDevice(formats: formats, trace: trace)
    session = CaptureSession(signposter: Signposter(sink: trace))
    display = RecordingDisplay(trace: trace)
    delegate = RecordingDeferredStartDelegate(trace: trace)
    preview = PreviewOutput(display: display)
    analysis = AnalysisOutput(frameInterval: analysisInterval)
    session.setDeferredStartDelegate(delegate, callbackQueue: delegateQueue)
    session.beginConfiguration()
    session.addInput(CaptureDeviceInput(device: device))
    for kind in outputs {
      let output = self.output(kind)
      if eager { try? output.setDeferredStartEnabled(false) }
      session.addOutput(output)
    }
    session.commitConfiguration()
  }

  func output(_ kind: CaptureOutputKind) -> CaptureOutput {
    switch kind {
    case .preview: preview
    case .photo: photo
    case .movie: movie
    case .analysis: analysis
    case .videoData: videoData
    }
  }

  /// Marks a moment from the test's point of view.
  func mark(_ name: String) {
    trace.record(PhaseEvent(ts: MonotonicClock.now(), name: name, kind: .event, pid: 0))
  }

  var timeline: [String] { trace.timeline }

  /// The position of the first timeline entry equal to `name`, or nil.
  func first(_ name: String) -> Int? { timeline.firstIndex(of: name) }

  /// How many timeline entries equal `name`.
  func count(_ name: String) -> Int { timeline.filter { $0 == name }.count }

  /// Waits until the session queue has run everything queued so far.
  func drain() { session.drainSessionQueue() }
}
