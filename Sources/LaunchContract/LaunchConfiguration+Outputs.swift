extension LaunchConfiguration {
  /// The outputs this configuration adds when `requested` are asked for: preview-only adds
  /// preview alone; the others add what was asked.
  public func outputs(from requested: [CaptureOutputKind]) -> [CaptureOutputKind] {
    self == .previewOnly ? [.preview] : requested
  }

  /// Whether the app has a photo output in this configuration, given the requested outputs.
  public func hasPhotoOutput(among requested: [CaptureOutputKind]) -> Bool {
    outputs(from: requested).contains(.photo)
  }

  /// Whether deferred start runs after the first frame: the configuration defers (deferred,
  /// manual) and there is an output besides preview to defer.
  public func runsDeferredStart(among requested: [CaptureOutputKind]) -> Bool {
    (self == .deferred || self == .manual) && outputs(from: requested).contains { $0 != .preview }
  }
}
