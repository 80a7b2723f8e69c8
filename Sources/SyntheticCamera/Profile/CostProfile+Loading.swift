import JSONDecoding
import SystemCalls

extension CostProfile {
  /// The largest profile file read, in bytes.
  static let maxFileBytes = 1 << 20

  /// Reads and validates the profile at `path` (JSON; unknown fields are ignored).
  public static func load(path: String) throws(ProfileError) -> CostProfile {
    let bytes: [UInt8]
    do {
      bytes = try FileSystem.contents(atPath: path, maxBytes: maxFileBytes)
    } catch {
      throw ProfileError(
        code: .unreadable, source: path, field: nil,
        message: "profile \(path): cannot read the file (\(error.message))",
        cause: String(describing: error))
    }
    return try decode(json: bytes, source: path)
  }

  /// Decodes and validates a profile from JSON bytes (UTF-8); `source` names it in errors.
  public static func decode(json: some Sequence<UInt8>, source: String) throws(ProfileError) -> CostProfile {
    let profile: CostProfile
    do {
      profile = try JSONValueDecoder().decode(CostProfile.self, from: json)
    } catch let error as DecodingError {
      throw ProfileError(decoding: error, source: source)
    } catch {
      throw ProfileError(
        code: .invalidJSON, source: source, field: nil, message: "profile \(source): not valid JSON",
        cause: String(describing: error))
    }
    try profile.validate(source: source)
    return profile
  }

  /// Checks every range (see ``Limits``): what the camera can carry out without overflowing its
  /// clock, dividing by zero or allocating gigabytes, and a full-resolution format its own pixel
  /// budget can stream (the app streams it at its highest rate; above the budget every start fails).
  func validate(source: String) throws(ProfileError) {
    func check(_ ok: Bool, _ field: String) throws(ProfileError) {
      guard ok else {
        throw ProfileError(
          code: .outOfRange, source: source, field: field,
          message: "profile \(source): field \(field) \(Self.requirement(forField: field))")
      }
    }
    func within(_ v: Double, _ range: ClosedRange<Double>) -> Bool { v.isFinite && range.contains(v) }
    try check(!name.isEmpty, "name")
    try check(Limits.width.contains(sensor.width), "sensor.width")
    try check(Limits.height.contains(sensor.height), "sensor.height")
    try check(within(sensor.maxFrameRate, Limits.frameRate), "sensor.max_frame_rate")
    try check(within(sensor.pixelBudget, Limits.pixelBudget), "sensor.pixel_budget")
    try check(sensor.binned.count <= Limits.binnedFormats, "sensor.binned")
    for (i, format) in sensor.binned.enumerated() {
      try check(Limits.width.contains(format.width), "sensor.binned[\(i)].width")
      try check(Limits.height.contains(format.height), "sensor.binned[\(i)].height")
      try check(within(format.maxFrameRate, Limits.frameRate), "sensor.binned[\(i)].max_frame_rate")
    }
    try check(within(noiseSigma, Limits.noiseSigma), "noise_sigma")
    try check(within(frameIntervalMs, Limits.frameIntervalMs), "frame_interval_ms")
    try check(within(warmWindowMs, Limits.warmWindowMs), "warm_window_ms")
    let all: [(String, Cost)] = [
      ("power_up_cold", costs.powerUpCold), ("power_up_warm", costs.powerUpWarm),
      ("format_negotiation", costs.formatNegotiation), ("first_frame_latency", costs.firstFrameLatency),
      ("preview_init", costs.previewInit), ("video_data_init", costs.videoDataInit),
      ("photo_init", costs.photoInit), ("movie_init", costs.movieInit), ("analysis_init", costs.analysisInit),
    ]
    for (key, cost) in all { try check(within(cost.ms, Limits.costMs), "costs.\(key).ms") }
    for (i, size) in ([(sensor.width, sensor.height)] + sensor.binned.map { ($0.width, $0.height) })
      .enumerated()
    where size.0 * size.1 > Limits.pixels {
      let field = i == 0 ? "sensor" : "sensor.binned[\(i - 1)]"
      throw ProfileError(
        code: .outOfRange, source: source, field: field,
        message:
          "profile \(source): field \(field) is \(size.0)×\(size.1) = \(size.0 * size.1) pixels; at most \(Limits.pixels) (8192×4320) a frame"
      )
    }
    let needed = Double(sensor.width) * Double(sensor.height) * sensor.maxFrameRate
    guard needed <= sensor.pixelBudget else {
      throw ProfileError(
        code: .outOfRange, source: source, field: "sensor.pixel_budget",
        message:
          "profile \(source): field sensor.pixel_budget (\(Self.plain(sensor.pixelBudget)) px/s) cannot stream the full-resolution format, \(sensor.width)×\(sensor.height) at \(Self.plain(sensor.maxFrameRate)) fps (\(Self.plain(needed)) px/s): every start would fail (hardware cost above 1); raise the budget or lower the format's rate"
      )
    }
  }

  /// `value` without a fraction when it is whole (`27648000`, not `27648000.0`).
  static func plain(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }

  /// What a field must be, as the end of an error sentence ("must be a number from 0 to 3600000").
  static func requirement(forField field: String) -> String {
    let last = field.split(separator: ".").last.map(String.init) ?? field
    func number(_ range: ClosedRange<Double>) -> String {
      "must be a number from \(plain(range.lowerBound)) to \(range.upperBound >= 1e12 ? "1e12" : plain(range.upperBound))"
    }
    switch last {
    case "ms": return number(Limits.costMs)
    case "warm_window_ms": return number(Limits.warmWindowMs)
    case "noise_sigma": return number(Limits.noiseSigma)
    case "frame_interval_ms": return number(Limits.frameIntervalMs)
    case "max_frame_rate": return number(Limits.frameRate)
    case "pixel_budget": return number(Limits.pixelBudget)
    case "width":
      return "must be a whole number from \(Limits.width.lowerBound) to \(Limits.width.upperBound)"
    case "height":
      return "must be a whole number from \(Limits.height.lowerBound) to \(Limits.height.upperBound)"
    case "kind": return "must be \"hardware\" or \"software\""
    case "name": return "must be a non-empty string"
    case "description": return "must be a string"
    case "binned":
      return "must be a list of at most \(Limits.binnedFormats) {width, height, max_frame_rate}"
    case "sensor": return "must be an object {width, height, max_frame_rate, pixel_budget, binned}"
    case "costs": return "must be an object of costs"
    default:
      if field.hasPrefix("costs.") {
        return "must be an object {\"kind\": \"hardware\"|\"software\", \"ms\": number}"
      }
      if field.hasPrefix("sensor.binned[") { return "must be an object {width, height, max_frame_rate}" }
      return "has the wrong type"
    }
  }
}

extension ProfileError {
  /// Turns a decoder error into one line naming the field.
  init(decoding error: DecodingError, source: String) {
    func dotted(_ path: [any CodingKey]) -> String {
      var out = ""
      for key in path {
        if let index = key.intValue {
          out += "[\(index)]"
        } else {
          out += (out.isEmpty ? "" : ".") + key.stringValue
        }
      }
      return out
    }
    switch error {
    case .keyNotFound(let key, let context):
      let field = dotted(context.codingPath + [key])
      self.init(
        code: .missingField, source: source, field: field,
        message: "profile \(source): field \(field) is missing",
        cause: context.debugDescription)
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      let field = dotted(context.codingPath)
      self.init(
        code: .wrongType, source: source, field: field,
        message: "profile \(source): field \(field) \(CostProfile.requirement(forField: field))",
        cause: context.debugDescription)
    case .dataCorrupted(let context) where !context.codingPath.isEmpty:
      let field = dotted(context.codingPath)
      self.init(
        code: .wrongType, source: source, field: field,
        message: "profile \(source): field \(field) \(CostProfile.requirement(forField: field))",
        cause: context.debugDescription)
    case .dataCorrupted(let context):
      let detail = context.underlyingError.map { String(describing: $0) } ?? context.debugDescription
      self.init(
        code: .invalidJSON, source: source, field: nil, message: "profile \(source): not valid JSON",
        cause: detail)
    @unknown default:
      self.init(
        code: .invalidJSON, source: source, field: nil, message: "profile \(source): cannot be decoded",
        cause: String(describing: error))
    }
  }
}
