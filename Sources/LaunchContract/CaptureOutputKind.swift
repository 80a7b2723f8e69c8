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

  /// The outputs `--outputs` accepts (video-data is the manual configuration's preview path,
  /// chosen by the configuration, not listed).
  public static let selectable: [CaptureOutputKind] = [.preview, .photo, .movie, .analysis]

  /// The default outputs: preview, photo and movie.
  public static let defaultSelection: [CaptureOutputKind] = [.preview, .photo, .movie]
}
