import Foundation
import LaunchContract
import LightBoard
import ResultsSchema
import SystemCalls
import TestSupport
import TestThreads
import Testing

/// An app that draws a light board of its own, dated after the screen showed it, end to end
/// (issue 28, item 1): ffplay showing a still image of a board dated an hour ahead. The probe
/// reads the board as forged and bench fails the run with that reason and counts it.
@Suite(
  .blocking, .serialized, .enabled(if: XvfbFixture.available, XvfbFixture.skipReason),
  .timeLimit(.minutes(TestTime.minutes(10))))
struct ForgedBoardAppTests {
  /// Writes a 640×480 grey image (PGM) of the light board dated `captureTime` (CLOCK_MONOTONIC
  /// ns) to `path`.
  static func writeBoardImage(captureTime: UInt64, to path: String) throws {
    let (width, height) = (640, 480)
    var pixels = [UInt8](repeating: 0, count: width * height)
    pixels.withUnsafeMutableBufferPointer { buffer in
      LightBoard.render(
        captureTime: captureTime, sequence: 1, width: width, height: height, bytesPerRow: width,
        into: buffer.baseAddress!)
    }
    try FileSystem.replaceAtomically(Array("P5\n\(width) \(height)\n255\n".utf8) + pixels, atPath: path)
  }

  @Test(
    "ffplay showing a light board dated an hour ahead of its scanout: the run fails as forged_board, counted",
    .enabled(if: ThirdPartyAppTests.ffplay, ThirdPartyAppTests.ffplayMissing))
  func ffplayShowsAForgedBoard() throws {
    let folder = temporaryFolder("forged-board")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let image = folder + "/board.pgm"
    try Self.writeBoardImage(captureTime: MonotonicClock.now() + 3600 * 1_000_000_000, to: image)
    let out = folder + "/out"
    let (status, results) = try ThirdPartyAppTests.bench(
      [
        "--app-config", "forger=ffplay -loglevel error -nostats -an -loop 0 \(image)", "--runs", "1",
        "--warmup", "0", "--conditions", "warm", "--run-timeout", "20", "--window-timeout", "60",
      ], out: out)
    #expect(status == 1)
    let record = try #require(results.cells.first?.records.first)
    #expect(!record.ok)
    #expect(record.error?.hasPrefix("forged light board") == true, "\(record.error ?? "no error")")
    #expect((record.counts[.forgedBoards] ?? 0) >= 1, "\(record.counts)")
    #expect(record.phases[PhaseName.firstFrameObserved] == nil)
  }
}
