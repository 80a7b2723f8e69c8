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

  /// Checks every range (costs ≥ 0, sizes ≥ the board's minimum, rates > 0).
  func validate(source: String) throws(ProfileError) {
    func check(_ ok: Bool, _ field: String) throws(ProfileError) {
      guard ok else {
        throw ProfileError(
          code: .outOfRange, source: source, field: field,
          message: "profile \(source): field \(field) \(Self.requirement(forField: field))")
      }
    }
    func finite(_ v: Double) -> Bool { v.isFinite }
    try check(!name.isEmpty, "name")
    try check(sensor.width >= 160, "sensor.width")
    try check(sensor.height >= 120, "sensor.height")
    try check(finite(sensor.maxFrameRate) && sensor.maxFrameRate > 0, "sensor.max_frame_rate")
    try check(finite(sensor.pixelBudget) && sensor.pixelBudget > 0, "sensor.pixel_budget")
    for (i, format) in sensor.binned.enumerated() {
      try check(format.width >= 160, "sensor.binned[\(i)].width")
      try check(format.height >= 120, "sensor.binned[\(i)].height")
      try check(finite(format.maxFrameRate) && format.maxFrameRate > 0, "sensor.binned[\(i)].max_frame_rate")
    }
    try check(finite(noiseSigma) && noiseSigma >= 0 && noiseSigma <= 64, "noise_sigma")
    try check(finite(frameIntervalMs) && frameIntervalMs > 0, "frame_interval_ms")
    try check(finite(warmWindowMs) && warmWindowMs >= 0, "warm_window_ms")
    let all: [(String, Cost)] = [
      ("power_up_cold", costs.powerUpCold), ("power_up_warm", costs.powerUpWarm),
      ("format_negotiation", costs.formatNegotiation), ("first_frame_latency", costs.firstFrameLatency),
      ("preview_init", costs.previewInit), ("video_data_init", costs.videoDataInit),
      ("photo_init", costs.photoInit), ("movie_init", costs.movieInit), ("analysis_init", costs.analysisInit),
    ]
    for (key, cost) in all { try check(finite(cost.ms) && cost.ms >= 0, "costs.\(key).ms") }
  }

  /// What a field must be, as the end of an error sentence ("must be a number ≥ 0").
  static func requirement(forField field: String) -> String {
    let last = field.split(separator: ".").last.map(String.init) ?? field
    switch last {
    case "ms", "warm_window_ms": return "must be a number ≥ 0"
    case "noise_sigma": return "must be a number from 0 to 64"
    case "frame_interval_ms", "max_frame_rate", "pixel_budget": return "must be a number > 0"
    case "width": return "must be a whole number ≥ 160"
    case "height": return "must be a whole number ≥ 120"
    case "kind": return "must be \"hardware\" or \"software\""
    case "name": return "must be a non-empty string"
    case "description": return "must be a string"
    case "binned": return "must be a list of {width, height, max_frame_rate}"
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
