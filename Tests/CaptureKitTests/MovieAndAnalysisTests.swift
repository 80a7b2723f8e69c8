import Dispatch
import Foundation
import TestThreads
import Testing
import TestSupport

@testable import CaptureKit

@Suite(.ownThread, Rig.timeLimit) struct MovieAndAnalysisTests {
  @Test("the movie output writes a valid Y4M file: header, FRAME markers, luma and neutral chroma")
  func y4m() async throws {
    let rig = Rig(
      [.preview, .movie], eager: true, formats: [CaptureFormat(width: 7, height: 5, maxFrameRate: 25)])
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ck-\(UInt64.random(in: 0...UInt64.max)).y4m"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try await rig.session.startRunning()
    try rig.movie.startRecording(toPath: path)
    #expect(rig.movie.isRecording)
    #expect(throws: CaptureError.self) { try rig.movie.startRecording(toPath: path) }
    let sequences = rig.device.emitFrames(4)
    let finished = Collector<Result<RecordedMovie, CaptureError>>()
    rig.movie.stopRecording { finished.append($0) }
    #expect(await finished.waitForCount(1))
    let movie = try finished.values[0].get()
    #expect(movie.frames == 4 && rig.movie.recordedFrames == 4)
    #expect(!rig.movie.isRecording)

    let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let header = "YUV4MPEG2 W7 H5 F25:1 Ip A1:1 C420jpeg\n"
    #expect(data.starts(with: Array(header.utf8)))
    let chroma = 4 * 3
    let frameBytes = 6 + 7 * 5 + 2 * chroma
    #expect(data.count == header.utf8.count + 4 * frameBytes)
    var offset = header.utf8.count
    for sequence in sequences {
      #expect(Array(data[offset..<(offset + 6)]) == Array("FRAME\n".utf8))
      let luma = data[(offset + 6)..<(offset + 6 + 35)]
      #expect(luma.allSatisfy { $0 == UInt8(truncatingIfNeeded: sequence) })
      let planes = data[(offset + 6 + 35)..<(offset + frameBytes)]
      #expect(planes.allSatisfy { $0 == 128 })
      offset += frameBytes
    }
    await rig.session.stopRunning()
  }

  @Test("stopping the session finishes a movie that is still recording")
  func stopFinishesMovie() async throws {
    let rig = Rig([.preview, .movie], eager: true)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ck-\(UInt64.random(in: 0...UInt64.max)).y4m"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try await rig.session.startRunning()
    try rig.movie.startRecording(toPath: path)
    rig.device.emitFrames(2)
    await rig.session.stopRunning()
    #expect(!rig.movie.isRecording)
    let finished = Collector<Result<RecordedMovie, CaptureError>>()
    rig.movie.stopRecording { finished.append($0) }
    #expect(await finished.waitForCount(1))
    #expect(try finished.values[0].get().frames == 2)
  }

  @Test("a deferred movie output records only once deferred start initialised it")
  func deferredMovie() async throws {
    let rig = Rig([.preview, .movie])
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ck-\(UInt64.random(in: 0...UInt64.max)).y4m"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try rig.session.setAutomaticallyRunsDeferredStart(false)
    try await rig.session.startRunning()
    #expect(!rig.movie.isInitialized)
    try rig.movie.startRecording(toPath: path)  // triggers deferred start
    #expect(await rig.delegate.waitForDid())
    rig.device.emitFrames(3)
    let finished = Collector<Result<RecordedMovie, CaptureError>>()
    rig.movie.stopRecording { finished.append($0) }
    #expect(await finished.waitForCount(1))
    #expect(try finished.values[0].get().frames == 3)
    await rig.session.stopRunning()
  }

  @Test("the analysis output histograms every Nth frame it receives")
  func analysisCadence() async throws {
    let rig = Rig([.preview, .analysis], eager: true, analysisInterval: 4)
    let histograms = Collector<LumaHistogram>()
    rig.analysis.setHistogramHandler(queue: DispatchQueue(label: "test.histograms")) { histograms.append($0) }
    try await rig.session.startRunning()
    let sequences = rig.device.emitFrames(20)
    #expect(await histograms.waitForCount(5))
    rig.drain()
    let received = histograms.values
    #expect(received.count == 5)
    #expect(received.map(\.sequence) == stride(from: 0, to: 20, by: 4).map { sequences[$0] })
    for histogram in received {
      #expect(histogram.bins.count == 256)
      #expect(histogram.bins[Int(histogram.sequence % 256)] == 32 * 24)
      #expect(histogram.pixelCount == 32 * 24)
      #expect(histogram.mean == Double(histogram.sequence % 256))
    }
    #expect(rig.analysis.receivedFrames == 20)
    await rig.session.stopRunning()
  }

  @Test("outputs that are not initialised receive no frames")
  func uninitialisedOutputsGetNoFrames() async throws {
    let rig = Rig([.preview, .analysis])
    try rig.session.setAutomaticallyRunsDeferredStart(false)
    try await rig.session.startRunning()
    rig.device.emitFrames(5)
    #expect(rig.analysis.receivedFrames == 0)
    rig.session.runDeferredStartWhenNeeded()
    #expect(await rig.delegate.waitForDid())
    rig.device.emitFrames(2)
    #expect(rig.analysis.receivedFrames == 2)
    #expect(rig.display.presentedSequences == [0, 1, 2, 3, 4, 5, 6])
    await rig.session.stopRunning()
  }
}
