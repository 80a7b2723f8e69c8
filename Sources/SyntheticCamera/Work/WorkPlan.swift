import CaptureKit
import LaunchContract

/// What a software cost allocates before it hashes: buffer pools sized from the sensor.
///
/// | step | pool |
/// |---|---|
/// | preview | 4 luma frames (display ring) |
/// | video-data | 4 luma frames (delivery ring) |
/// | photo | 3 full-resolution YUV 4:2:0 stills |
/// | movie | 8-frame YUV 4:2:0 encoder ring + a motion-vector field (¼ frame) |
/// | analysis | 2 quarter-size frames |
/// | power-up, format, first frame (if a profile makes them software) | 1 luma frame |
struct WorkPlan: Sendable, Hashable {
  /// Buffer sizes in bytes, allocated in order, one per chunk.
  var buffers: [Int]

  static func forOutput(_ kind: CaptureOutputKind, width: Int, height: Int) -> WorkPlan {
    let luma = width * height
    let yuv = luma * 3 / 2
    switch kind {
    case .preview, .videoData: return WorkPlan(buffers: Array(repeating: luma, count: 4))
    case .photo: return WorkPlan(buffers: Array(repeating: yuv, count: 3))
    case .movie: return WorkPlan(buffers: Array(repeating: yuv, count: 8) + [luma / 4])
    case .analysis: return WorkPlan(buffers: Array(repeating: luma / 4, count: 2))
    }
  }

  static func device(width: Int, height: Int) -> WorkPlan { WorkPlan(buffers: [width * height]) }
}
