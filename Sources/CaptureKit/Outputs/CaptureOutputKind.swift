/// The kinds of capture output, spelled as on the command line (`--outputs preview,photo,movie,analysis`).
public enum CaptureOutputKind: String, Sendable, Hashable, CaseIterable, Codable {
  /// The preview layer: presents frames to a display.
  case preview
  /// Frames to the app, which renders preview itself.
  case videoData = "video-data"
  /// Still photos.
  case photo
  /// A movie file.
  case movie
  /// Per-frame analysis at a reduced cadence (a luma histogram).
  case analysis
}
