import Foundation
import LaunchContract
import ResultsSchema
import TestSupport
import TestThreads
import Testing

/// A run with no live frame says what the probe watched (issue 40 item 5): the app's window, its
/// size and owner, and what it read there — so that an app that never drew is told from a probe
/// that looked in the wrong place.
@Suite(
  .blocking, .serialized, .enabled(if: XvfbFixture.available, XvfbFixture.skipReason),
  .enabled(if: ThirdPartyAppTests.gstreamer, ThirdPartyAppTests.gstreamerMissing),
  .timeLimit(.minutes(TestTime.minutes(10))))
struct NoLiveFrameWatchTests {
  @Test(
    "a window that stays black: the run fails naming the window, its size, its owner and that every image read was blank"
  )
  func blankWindow() throws {
    let out = temporaryFolder("bench-blank-window")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let (_, results) = try ThirdPartyAppTests.bench(
      [
        "--app-config", "black=gst-launch-1.0 videotestsrc pattern=black ! ximagesink", "--runs", "1",
        "--warmup", "0", "--conditions", "warm", "--run-timeout", "4", "--window-timeout", "30",
      ], out: out)
    let record = try #require(results.cells.first?.records.first)
    let error = try #require(record.error)
    #expect(error.hasPrefix("no live frame within 4"), "\(error)")
    #expect(error.contains("the probe watched window 0x"), "\(error)")
    #expect(error.contains("(320×240, owned by pid "), "\(error)")
    #expect(error.contains("all blank, none changed from the one before"), "\(error)")
    #expect(error.hasSuffix("it stayed blank: nothing was drawn there)"), "\(error)")
  }

  @Test("a still picture: the run fails saying the window changed once or twice and then held still")
  func stillPicture() throws {
    let out = temporaryFolder("bench-still-window")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let (_, results) = try ThirdPartyAppTests.bench(
      [
        "--app-config",
        "still=gst-launch-1.0 videotestsrc num-buffers=1 pattern=smpte ! imagefreeze ! ximagesink",
        "--runs", "1", "--warmup", "0", "--conditions", "warm", "--run-timeout", "4", "--window-timeout",
        "30",
      ], out: out)
    let error = try #require(results.cells.first?.records.first?.error)
    #expect(error.contains("the probe watched window 0x"), "\(error)")
    #expect(error.contains("changed from the one before, the last "), "\(error)")
    #expect(error.contains("a still picture after"), "\(error)")
  }
}

/// An app that maps a small window before the one it shows video in (guvcview's SDL maps a 16×16
/// window first): the probe moves to the larger window of the app and finds the first frame there.
@Suite(
  .blocking, .serialized, .enabled(if: XvfbFixture.available, XvfbFixture.skipReason),
  .enabled(if: ThirdPartyAppTests.gstreamer, ThirdPartyAppTests.gstreamerMissing),
  .enabled(
    if: Prerequisites.onPath("xwininfo") != nil, "xwininfo is not installed (apt-get install x11-utils)"),
  .timeLimit(.minutes(TestTime.minutes(10))))
struct LargerWindowTests {
  @Test(
    "a 16×16 black window first, then a 320×240 one with frames: the probe moves to the larger window (display.probe_region) and the run finds its first frame"
  )
  func movesToTheLargerWindow() throws {
    let out = temporaryFolder("bench-larger-window")
    defer { try? FileManager.default.removeItem(atPath: out) }
    // The second pipeline starts once the first one's 16×16 window is on the screen, so the
    // small window is always mapped first.
    let app =
      "sh -c 'gst-launch-1.0 videotestsrc pattern=black ! video/x-raw,width=16,height=16 ! ximagesink & "
      + "until xwininfo -root -tree | grep -q \" 16x16+\"; "
      + "do sleep 0.05; done; "  // not a timing assertion: the app's own wait for its window
      + "exec gst-launch-1.0 videotestsrc ! ximagesink'"
    let (status, results) = try ThirdPartyAppTests.bench(
      [
        "--app-config", "two=\(app)", "--runs", "1", "--warmup", "0", "--conditions", "warm",
      ] + ThirdPartyAppTests.patientLimits, out: out)
    let record = try #require(results.cells.first?.records.first)
    #expect(status == 0, "\(record.error ?? "")")
    #expect(record.phases[PhaseName.firstFrameObserved] != nil, "\(record.error ?? "")")
    let timeline = record.timeline ?? []
    let mapped = try #require(timeline.first { $0.name == EventName.displayWindowMapped.rawValue })
    #expect(mapped.fields?["width"] == "16")
    let moved = try #require(timeline.first { $0.name == EventName.displayProbeRegion.rawValue })
    #expect(moved.fields?["width"] == "320" && moved.fields?["height"] == "240")
  }

  @Test(
    "a 16×16 black window that ends, then the app's next window (a new client given the same window id): the probe watches the new one and finds the first frame"
  )
  func followsTheNextWindowAfterTheFirstEnds() throws {
    let out = temporaryFolder("bench-next-window")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let app =
      "sh -c 'gst-launch-1.0 videotestsrc num-buffers=30 pattern=black "
      + "! video/x-raw,width=16,height=16,framerate=30/1 ! ximagesink; exec gst-launch-1.0 videotestsrc ! ximagesink'"
    let (status, results) = try ThirdPartyAppTests.bench(
      ["--app-config", "next=\(app)", "--runs", "1", "--warmup", "0", "--conditions", "warm"]
        + ThirdPartyAppTests.patientLimits, out: out)
    let record = try #require(results.cells.first?.records.first)
    #expect(status == 0, "\(record.error ?? "")")
    #expect(record.phases[PhaseName.firstFrameObserved] != nil, "\(record.error ?? "")")
    let moved = try #require(
      (record.timeline ?? []).first { $0.name == EventName.displayProbeRegion.rawValue })
    #expect(moved.fields?["width"] == "320")
  }
}
