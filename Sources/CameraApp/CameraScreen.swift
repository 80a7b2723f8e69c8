import Dispatch
import LaunchContract
import PhaseTrace

/// What the person sees (AVCam's preview container and its gated controls): the preview surface
/// with its lock cover, and the secondary UI, which shows only once the camera runs.
final class CameraScreen: ScreenPresenting {
  /// The preview surface the capture service presents into.
  let preview: CoverableDisplay
  private let coversOnLock: Bool
  private let library: PhotoLibrary
  private let signposter: Signposter

  /// Creates the screen over `preview`; `coversOnLock` false is `--no-cover`.
  init(preview: CoverableDisplay, coversOnLock: Bool, library: PhotoLibrary, signposter: Signposter) {
    self.preview = preview
    self.coversOnLock = coversOnLock
    self.library = library
    self.signposter = signposter
  }

  func coverPreview() {
    if coversOnLock { preview.cover() }
  }

  func uncoverPreview() {
    preview.uncover()
    signposter.event(.uiReady, fields: ["after": "unlock"])
  }

  func showSecondaryUI() {
    // Decoding the thumbnail and laying out the picker happen off the main thread; showing
    // them is a main-queue hop.
    DispatchQueue.global(qos: .utility).async { @Sendable [library, signposter] in
      let built = SecondaryUI(library: library).build()
      DispatchQueue.main.async { @Sendable in
        signposter.event(
          .uiSecondaryVisible,
          fields: ["thumbnail": .bool(built.thumbnail), "picker_pixels": .int(Int64(built.pickerPixels))])
      }
    }
  }
}
