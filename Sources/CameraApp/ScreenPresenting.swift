/// The screen as the app model sees it: ``CameraScreen`` in the app, a recorder in tests.
protocol ScreenPresenting: Sendable {
  /// Covers the preview with black, on a lock (unless the app runs with `--no-cover`).
  func coverPreview()

  /// Uncovers the preview on an unlock, and says that the minimum UI is back (`ui.ready`,
  /// field `after`: `unlock`).
  func uncoverPreview()

  /// Builds the secondary UI (thumbnail well, mode picker) off the main thread and shows it
  /// (`ui.secondary_visible`); the model calls it once a run's launch has settled.
  func showSecondaryUI()
}
