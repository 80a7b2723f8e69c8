import CaptureKit
import Dispatch
import LaunchContract
import PhaseTrace
import SyntheticCamera
import V4L2Camera

extension CaptureService {
  /// Opens nothing yet: creates the camera `--camera` names (and, for the synthetic camera, its
  /// cost profile). The session opens it when it starts.
  func makeDevice() throws(AppError) -> any CaptureDevice {
    switch options.camera {
    case .synthetic:
      let profile: CostProfile
      if let path = options.profilePath {
        do {
          profile = try CostProfile.load(path: path)
        } catch {
          throw .usage("\(error)")
        }
      } else {
        profile = CostProfile.default
      }
      return SyntheticCamera(profile: profile)
    case .v4l2(let path):
      do {
        return try V4L2Camera(path: path, signposter: signposter)
      } catch {
        throw .camera("\(error)")
      }
    case .pipewire:
      throw .usage(
        "--camera \(options.camera): camera-app opens V4L2 nodes itself; a camera served through PipeWire is for apps that take it from PipeWire (bench --app-config)"
      )
    }
  }

  /// Builds the session in one configuration commit (`session.configure`): the camera input and
  /// the configuration's outputs, everything but the preview path deferred unless eager, manual
  /// deferred start in manual. On `queue`.
  func configureSession() throws {
    try signposter.interval(
      .sessionConfigure, fields: ["config": .string(options.configuration.rawValue)]
    ) {
      let device = try makeDevice()
      let session = CaptureSession(signposter: signposter)
      session.beginConfiguration()
      defer { session.commitConfiguration() }
      let input = CaptureDeviceInput(device: device)
      guard session.canAddInput(input) else {
        throw AppError.camera("cannot add the camera \(device.uniqueID)")
      }
      session.addInput(input)

      let config = options.configuration
      var photo: PhotoOutput?
      var movie: MovieFileOutput?
      for kind in config.outputs(from: options.outputs) {
        let output: CaptureOutput
        switch kind {
        case .preview, .videoData:
          if config == .manual {
            output = makeManualPreviewOutput(session: session)
          } else {
            let layer = PreviewOutput(display: preview)
            layer.setFirstPresentHandler { @Sendable [weak self] in self?.previewPresented() }
            output = layer
          }
        case .photo:
          let p = PhotoOutput()
          if p.isResponsiveCaptureSupported {
            try p.setResponsiveCaptureEnabled(options.responsiveCapture)
          }
          photo = p
          output = p
        case .movie:
          let m = MovieFileOutput()
          movie = m
          output = m
        case .analysis:
          output = makeExposureMeter()
        }
        // Defer everything preview does not need; never the preview path itself.
        let isPreviewPath = kind == .preview || kind == .videoData
        if output.isDeferredStartSupported {
          try output.setDeferredStartEnabled(config != .eager && !isPreviewPath)
        }
        guard session.canAddOutput(output) else {
          throw AppError.camera("cannot add the \(kind.rawValue) output")
        }
        session.addOutput(output)
      }
      if config == .manual {
        guard session.isManualDeferredStartSupported else {
          throw AppError.camera("this session does not support manual deferred start")
        }
        try session.setAutomaticallyRunsDeferredStart(false)
      }
      session.setDeferredStartDelegate(self, callbackQueue: queue)
      state.withLock {
        $0.session = session
        $0.device = device
        $0.photoOutput = photo
        $0.movieOutput = movie
      }
    }
  }

  /// Manual mode: the app renders preview itself from a data output, reports its own first
  /// present and then lets deferred start run.
  private func makeManualPreviewOutput(session: CaptureSession) -> CaptureOutput {
    let output = VideoDataOutput()
    let renderQueue = DispatchQueue(label: "camera-app.render", qos: .userInteractive)
    output.setFrameHandler(queue: renderQueue) { @Sendable [self] frame in
      preview.present(frame)
      let first = state.withLock { s -> Bool in
        if s.manualFirstPresentDone { return false }
        s.manualFirstPresentDone = true
        return true
      }
      if first {
        signposter.event(
          .previewFirstPresent, fields: ["capture_time_ns": .int(Int64(frame.captureTime))])
        queue.async { @Sendable in session.runDeferredStartWhenNeeded() }
        previewPresented()
      }
    }
    return output
  }

  /// The app's exposure meter: keeps the newest mean luma from the histogram.
  private func makeExposureMeter() -> CaptureOutput {
    let analysis = AnalysisOutput()
    analysis.setHistogramHandler(queue: DispatchQueue(label: "camera-app.meter", qos: .utility)) {
      @Sendable [self] histogram in
      state.withLock { $0.meteredLuma = histogram.mean }
    }
    return analysis
  }
}
