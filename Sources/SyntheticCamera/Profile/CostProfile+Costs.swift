import CaptureKit
import LaunchContract

extension CostProfile {
  /// The cost of each step a session takes with the device, in ms.
  public struct Costs: Codable, Sendable, Hashable {
    /// `open()` when the device was not closed within the warm window.
    public var powerUpCold: Cost
    /// `open()` within the warm window of the last close.
    public var powerUpWarm: Cost
    /// `setActiveFormat(_:frameRate:)`.
    public var formatNegotiation: Cost
    /// From `startStream` to the first frame (stream-on, exposure and white-balance convergence).
    public var firstFrameLatency: Cost
    /// `initializeOutput(.preview)`.
    public var previewInit: Cost
    /// `initializeOutput(.videoData)`.
    public var videoDataInit: Cost
    /// `initializeOutput(.photo)`: the still pipeline and its full-resolution buffers.
    public var photoInit: Cost
    /// `initializeOutput(.movie)`: the encoder, its frame ring and tables.
    public var movieInit: Cost
    /// `initializeOutput(.analysis)`.
    public var analysisInit: Cost

    /// Creates a cost table.
    public init(
      powerUpCold: Cost, powerUpWarm: Cost, formatNegotiation: Cost, firstFrameLatency: Cost,
      previewInit: Cost,
      videoDataInit: Cost, photoInit: Cost, movieInit: Cost, analysisInit: Cost
    ) {
      self.powerUpCold = powerUpCold
      self.powerUpWarm = powerUpWarm
      self.formatNegotiation = formatNegotiation
      self.firstFrameLatency = firstFrameLatency
      self.previewInit = previewInit
      self.videoDataInit = videoDataInit
      self.photoInit = photoInit
      self.movieInit = movieInit
      self.analysisInit = analysisInit
    }

    /// The initialisation cost of an output of `kind`.
    public func initialization(of kind: CaptureOutputKind) -> Cost {
      switch kind {
      case .preview: previewInit
      case .videoData: videoDataInit
      case .photo: photoInit
      case .movie: movieInit
      case .analysis: analysisInit
      }
    }

    enum CodingKeys: String, CodingKey {
      case powerUpCold = "power_up_cold"
      case powerUpWarm = "power_up_warm"
      case formatNegotiation = "format_negotiation"
      case firstFrameLatency = "first_frame_latency"
      case previewInit = "preview_init"
      case videoDataInit = "video_data_init"
      case photoInit = "photo_init"
      case movieInit = "movie_init"
      case analysisInit = "analysis_init"
    }
  }

  /// One cost: how long, and whether it is a wait or real work.
  public struct Cost: Codable, Sendable, Hashable {
    /// A wait (`hardware`) or CPU and memory work (`software`).
    public var kind: CostKind
    /// Milliseconds: wall time for `hardware`, the calling thread's CPU time for `software`.
    public var ms: Double

    /// Creates a cost.
    public init(_ kind: CostKind, ms: Double) {
      self.kind = kind
      self.ms = ms
    }
  }

  /// How a cost is spent.
  public enum CostKind: String, Codable, Sendable, Hashable {
    /// A wait on `CLOCK_MONOTONIC` (`clock_nanosleep`), like a device powering up or an I²C transaction.
    case hardware
    /// Real CPU and memory work on the calling thread, measured in its CPU time.
    case software
  }
}

extension CostProfile {
  /// The nominal time from `open()` to the first frame, in ms, when `outputs` are initialised
  /// before the stream starts: power-up (warm or cold) + format + each output + first-frame latency.
  /// Plain arithmetic over the profile; what the default profile's eager/deferred ratio is designed from.
  public func nominalOpenToFirstFrameMs(initializing outputs: [CaptureOutputKind], warm: Bool) -> Double {
    (warm ? costs.powerUpWarm.ms : costs.powerUpCold.ms) + costs.formatNegotiation.ms
      + Set(outputs).reduce(0) { $0 + costs.initialization(of: $1).ms } + costs.firstFrameLatency.ms
  }
}
