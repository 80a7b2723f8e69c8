import LightBoardFeed
import LaunchContract
import PhaseTrace
import RunAnalysis
import TestSupport
import Testing

/// The feeder's follows as a run sees them (their order against the app's calls is checked on
/// vivid, in LightBoardFeederVividTests).
@Suite("The feeder's format follows reach the runs they overlap", .timeLimit(.minutes(TestTime.minutes(10))))
struct FeedFollowLogTests {
  @Test("A run gets the follows that overlap its window, even partly, and no other")
  func overlap() {
    let log = FeedFollowLog()
    log.record(seenAt: 100, streamingAt: 200, format: "640x480 GREY")
    log.record(seenAt: 300, streamingAt: 400, format: "640x480 YUYV")
    log.record(seenAt: 500, streamingAt: 450, format: "640x480 GREY")  // a clock step: never ends first
    #expect(log.follows(overlapping: 150, through: 250).map(\.seenAt) == [100])
    #expect(log.follows(overlapping: 201, through: 299).isEmpty)
    #expect(log.follows(overlapping: 0, through: .max).map(\.seenAt) == [100, 300, 500])
    #expect(log.follows(overlapping: 0, through: .max).last?.streamingAt == 500)
  }

  @Test("The newest follows are kept, the oldest go first")
  func capacity() {
    let log = FeedFollowLog()
    for i in 0..<(FeedFollowLog.capacity + 10) {
      log.record(seenAt: UInt64(i * 10), streamingAt: UInt64(i * 10 + 5), format: "f")
    }
    let kept = log.follows(overlapping: 0, through: .max)
    #expect(kept.count == FeedFollowLog.capacity)
    #expect(kept.first?.seenAt == 100)
  }

  @Test("A follow is a runner's begin and end, which an app's trace cannot forge")
  func events() {
    let follow = FeedFollowLog.Follow(seenAt: 7, streamingAt: 9, format: "640x480 GREY")
    let events = FeedFollowLog.events(follow, pid: 42)
    #expect(events.map(\.kind) == [.begin, .end])
    #expect(events.map(\.ts) == [7, 9])
    #expect(events.allSatisfy { $0.name == "feed.follow" && $0.owner == .runner && $0.pid == 42 })
    #expect(events.allSatisfy { $0.fields["format"] == .string("640x480 GREY") })
    let split = TrustBoundary.split(appTrace: events)
    #expect(split.trusted.isEmpty && split.forged.count == 2)
  }
}
