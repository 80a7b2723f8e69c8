import LaunchContract
import PhaseTrace
import Synchronization

/// The light-board feeder's format follows, kept for the runs' timelines: a follow reconfigures
/// vivid's looped output while an app is setting up its capture on the same device (vivid runs
/// both nodes' ioctls under one lock), so a run that overlaps one says so (`feed.follow` begin and
/// end in its timeline, and `counts.feed_follows`). The newest ``capacity`` follows are kept.
package final class FeedFollowLog: Sendable {
  /// One follow: when the feeder saw the capture node's new format, when its output streamed it
  /// (CLOCK_MONOTONIC ns), and the format (`640x480 GREY`).
  package struct Follow: Sendable, Hashable {
    /// Creates a follow.
    package init(seenAt: UInt64, streamingAt: UInt64, format: String) {
      self.seenAt = seenAt
      self.streamingAt = streamingAt
      self.format = format
    }
    /// When the feeder saw the new capture format (CLOCK_MONOTONIC ns).
    package var seenAt: UInt64
    /// When the output streamed it (ns; never before `seenAt`).
    package var streamingAt: UInt64
    /// The format, `640x480 GREY`.
    package var format: String
  }

  /// How many follows are kept (the oldest go first): far more than one run overlaps.
  package static let capacity = 256
  private let follows = Mutex<[Follow]>([])

  /// An empty log.
  package init() {}

  /// Records one follow (from the feeder's thread).
  package func record(seenAt: UInt64, streamingAt: UInt64, format: String) {
    follows.withLock {
      if $0.count >= Self.capacity { $0.removeFirst($0.count - Self.capacity + 1) }
      $0.append(Follow(seenAt: seenAt, streamingAt: max(seenAt, streamingAt), format: format))
    }
  }

  /// The follows that overlapped `from ... through`, oldest first.
  package func follows(overlapping from: UInt64, through: UInt64) -> [Follow] {
    follows.withLock { $0.filter { $0.streamingAt >= from && $0.seenAt <= through } }
  }

  /// A follow as the runner's timeline events (`feed.follow` begin and end, from bench's `pid`).
  package static func events(_ follow: Follow, pid: Int32) -> [PhaseEvent] {
    let fields: [String: PhaseFieldValue] = ["format": .string(follow.format)]
    return [
      PhaseEvent(
        ts: follow.seenAt, name: EventName.feedFollow.rawValue, kind: .begin, pid: pid, fields: fields),
      PhaseEvent(
        ts: follow.streamingAt, name: EventName.feedFollow.rawValue, kind: .end, pid: pid, fields: fields),
    ]
  }
}
