extension CostProfile {
  /// The default profile, byte for byte `Benchmarks/profiles/default.json` (a test keeps the
  /// two identical), embedded so it works from any working directory.
  public static let defaultJSON = """
    {
      "name": "default",
      "description": "A 720p30 phone-class camera module. Deferring photo and movie start halves the time to the first frame (eager/deferred ≈ 2.1 cold, 2.4 warm, open to first frame).",
      "sensor": {
        "width": 1280,
        "height": 720,
        "max_frame_rate": 30,
        "binned": [
          { "width": 640, "height": 360, "max_frame_rate": 60 }
        ],
        "pixel_budget": 40000000
      },
      "noise_sigma": 3,
      "frame_interval_ms": 33.333,
      "warm_window_ms": 10000,
      "costs": {
        "power_up_cold": { "kind": "hardware", "ms": 120 },
        "power_up_warm": { "kind": "hardware", "ms": 60 },
        "format_negotiation": { "kind": "hardware", "ms": 25 },
        "first_frame_latency": { "kind": "hardware", "ms": 175 },
        "preview_init": { "kind": "software", "ms": 40 },
        "video_data_init": { "kind": "software", "ms": 20 },
        "photo_init": { "kind": "software", "ms": 250 },
        "movie_init": { "kind": "software", "ms": 170 },
        "analysis_init": { "kind": "software", "ms": 60 }
      }
    }
    """

  /// The default profile: a 720p30 camera module whose eager start (preview, photo and movie
  /// initialised before the stream) takes about twice as long to the first frame as deferred
  /// start (preview only). See `Benchmarks/profiles/README.md`.
  public static let `default`: CostProfile = {
    do {
      return try CostProfile.decode(json: defaultJSON.utf8, source: "default.json")
    } catch {
      fatalError("the embedded default profile is invalid: \(error)")
    }
  }()
}
