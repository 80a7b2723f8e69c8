import BenchAnalysis
import LaunchContract
import PhaseTrace

/// What one run verified rather than assumed, written into its counts (`RunRecord.counts`):
/// `realtime_compositor` and `realtime_camera` (1 granted, 0 not; the camera's absent when the
/// app did not say), and for a cold run `evicted_files` and `drop_caches` (1 done, 0 not).
struct RunVerification {
  /// The count key: whether the compositor thread ran with SCHED_FIFO.
  static let realtimeCompositor = "realtime_compositor"
  /// The count key: whether the app's camera frame thread got real-time priority.
  static let realtimeCamera = "realtime_camera"
  /// The count key: files the cold eviction advised out of the page cache.
  static let evictedFiles = "evicted_files"
  /// The count key: whether the cold eviction dropped all clean caches.
  static let dropCaches = "drop_caches"

  var realtimeCompositor: Bool
  var eviction: CacheEvictor.Outcome?

  func apply(to record: inout BenchResults.RunRecord) {
    record.counts[Self.realtimeCompositor] = realtimeCompositor ? 1 : 0
    if let eviction {
      record.counts[Self.evictedFiles] = eviction.filesEvicted
      record.counts[Self.dropCaches] = eviction.droppedCaches ? 1 : 0
    }
  }

  /// The `granted` field of the app's first `device.realtime_priority` event, if any.
  static func cameraRealtime(in events: [PhaseEvent]) -> Bool? {
    guard let event = events.first(where: { $0.name == EventName.deviceRealtimePriority.rawValue }),
      case .bool(let granted) = event.fields["granted"]
    else { return nil }
    return granted
  }

  /// Whether any run's camera thread got real-time priority; nil when no run said.
  static func anyCameraRealtime(_ cells: [BenchResults.Cell]) -> Bool? {
    let said = cells.flatMap(\.records).compactMap { $0.counts[realtimeCamera] }
    return said.isEmpty ? nil : said.contains(1)
  }
}
