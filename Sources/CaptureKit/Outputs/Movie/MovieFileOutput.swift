import Dispatch
import Synchronization
import SystemCalls

/// A movie file: YUV4MPEG2 (`.y4m`, `C420jpeg`, neutral chroma) that ffmpeg and mpv can play.
///
/// Deferred start is supported and enabled by default. Frames are written only while recording and
/// once the output is initialised; `startRecording(toPath:)` on a running session whose movie
/// output is still deferred triggers deferred start. All file work happens on the output's own serial
/// queue; when that queue falls more than `maxPendingFrames` behind, frames are dropped and counted.
/// `stopRunning()` on the session finishes the file; a later `stopRecording(completion:)` reports it.
public final class MovieFileOutput: CaptureOutput, @unchecked Sendable {
  // @unchecked Sendable: state is behind the base class's `base` mutex and this class's own mutexes.

  /// Frames that may wait for the file queue before newer ones are dropped.
  public static let maxPendingFrames = 8

  private struct State {
    var isRecording = false
    var path = ""
    var generation = 0
    var format = CaptureFormat(width: 640, height: 480, maxFrameRate: 30)
    var frameRate = 30.0
    var recordedFrames = 0
    var droppedFrames = 0
    var pendingWrites = 0
    var lastResult: Result<RecordedMovie, CaptureError>?
  }

  private struct FileState {
    var writer: Y4MWriter?
    var error: CaptureError?
  }

  private let movie = PThreadMutex(State())
  // Touched only on `fileQueue`; the mutex makes that checkable.
  private let file = PThreadMutex(FileState())
  private let fileQueue = DispatchQueue(label: "firstframe.capture.movie-file", qos: .utility)

  /// Creates a movie output (deferred start enabled).
  public init() {
    super.init(kind: .movie, isDeferredStartSupported: true, isDeferredStartEnabledByDefault: true)
  }

  /// Whether a recording is in progress.
  public var isRecording: Bool { movie.withLock { $0.isRecording } }

  /// Frames written to the current (or last) recording.
  public var recordedFrames: Int { movie.withLock { $0.recordedFrames } }

  /// Frames dropped from the current (or last) recording because the file queue fell behind.
  public var droppedFrames: Int { movie.withLock { $0.droppedFrames } }

  /// Starts writing frames to `path` (created or truncated on the file queue when the first frame
  /// arrives, or at the end if none does).
  ///
  /// - Throws: `alreadyRecording` if a recording is in progress.
  public func startRecording(toPath path: String) throws(CaptureError) {
    let started = movie.withLock { state -> Bool in
      guard !state.isRecording else { return false }
      state.isRecording = true
      state.path = path
      state.generation += 1
      state.recordedFrames = 0
      state.droppedFrames = 0
      state.lastResult = nil
      return true
    }
    guard started else {
      throw CaptureError(
        .alreadyRecording, "a recording is already in progress; stop it before starting another")
    }
    if let session, session.isRunning, !isInitialized {
      session.requestDeferredStartForPendingCapture()
    }
  }

  /// Finishes the recording. `completion` runs on the file queue with the finished movie, or with
  /// `notRecording` when there was none; if the session's `stopRunning()` already finished the file,
  /// it gets that file.
  public func stopRecording(
    completion: @escaping @Sendable (Result<RecordedMovie, CaptureError>) -> Void = { _ in }
  ) {
    let finishing = movie.withLock { state -> Bool in
      guard state.isRecording else { return false }
      state.isRecording = false
      return true
    }
    if finishing {
      finish(completion)
    } else {
      fileQueue.async { [self] in
        let result =
          movie.withLock { $0.lastResult }
          ?? .failure(
            CaptureError(.notRecording, "no recording is in progress; call startRecording(toPath:) first"))
        completion(result)
      }
    }
  }

  override func sessionWillStartStreaming(format: CaptureFormat, frameRate: Double) {
    movie.withLock {
      $0.format = format
      $0.frameRate = frameRate
    }
  }

  override func sessionDidStopRunning() {
    let finishing = movie.withLock { state -> Bool in
      guard state.isRecording else { return false }
      state.isRecording = false
      return true
    }
    if finishing { finish { _ in } }
  }

  override func receive(_ frame: VideoFrame) {
    let job = movie.withLock { state -> (path: String, rate: Double, generation: Int)? in
      guard state.isRecording else { return nil }
      guard state.pendingWrites < MovieFileOutput.maxPendingFrames else {
        state.droppedFrames += 1
        return nil
      }
      state.pendingWrites += 1
      return (state.path, state.frameRate, state.generation)
    }
    guard let job else { return }
    fileQueue.async { [self] in
      let written = file.withLock { file -> Bool in
        guard file.error == nil else { return false }
        do throws(CaptureError) {
          if file.writer == nil {
            file.writer = try Y4MWriter(
              path: job.path, width: frame.width, height: frame.height, frameRate: job.rate)
          }
          try file.writer?.append(frame)
          return true
        } catch {
          file.error = error
          return false
        }
      }
      movie.withLock { state in
        state.pendingWrites -= 1
        if written && state.generation == job.generation { state.recordedFrames += 1 }
      }
    }
  }

  /// Closes the file on the file queue (after every queued frame) and reports it.
  private func finish(_ completion: @escaping @Sendable (Result<RecordedMovie, CaptureError>) -> Void) {
    let (path, format, rate) = movie.withLock { ($0.path, $0.format, $0.frameRate) }
    fileQueue.async { [self] in
      let result = file.withLock { file -> Result<RecordedMovie, CaptureError> in
        defer { file = FileState() }
        if let error = file.error { return .failure(error) }
        do throws(CaptureError) {
          if file.writer == nil {
            file.writer = try Y4MWriter(
              path: path, width: format.width, height: format.height, frameRate: rate)
          }
          guard let writer = file.writer else { throw CaptureError(.fileWriteFailed, "no movie file") }
          try writer.close()
          let dropped = movie.withLock { $0.droppedFrames }
          return .success(
            RecordedMovie(
              path: path, frames: writer.frames, droppedFrames: dropped, width: writer.width,
              height: writer.height, frameRate: rate))
        } catch {
          return .failure(error)
        }
      }
      movie.withLock { $0.lastResult = result }
      completion(result)
    }
  }
}
