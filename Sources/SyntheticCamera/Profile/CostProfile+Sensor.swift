import CaptureKit

extension CostProfile {
  /// The simulated sensor.
  public struct Sensor: Codable, Sendable, Hashable {
    /// Full-resolution width in pixels (at least 160, the light board's minimum).
    public var width: Int
    /// Full-resolution height in pixels (at least 120).
    public var height: Int
    /// The full-resolution format's highest frame rate, frames per second.
    public var maxFrameRate: Double
    /// Binned formats the sensor also streams (optional in JSON; empty when absent).
    public var binned: [BinnedFormat]
    /// The pixel throughput the sensor sustains, pixels per second (`hardwareCost` divides by it).
    public var pixelBudget: Double

    /// Creates a sensor description.
    public init(
      width: Int, height: Int, maxFrameRate: Double, binned: [BinnedFormat] = [], pixelBudget: Double
    ) {
      self.width = width
      self.height = height
      self.maxFrameRate = maxFrameRate
      self.binned = binned
      self.pixelBudget = pixelBudget
    }

    /// Decodes a sensor; `binned` may be absent.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      width = try c.decodeWholeNumber(forKey: .width)
      height = try c.decodeWholeNumber(forKey: .height)
      maxFrameRate = try c.decode(Double.self, forKey: .maxFrameRate)
      binned = try c.decodeIfPresent([BinnedFormat].self, forKey: .binned) ?? []
      pixelBudget = try c.decode(Double.self, forKey: .pixelBudget)
    }

    /// The formats the sensor streams: full resolution first, then the binned ones (`GREY`).
    public var formats: [CaptureFormat] {
      [CaptureFormat(width: width, height: height, maxFrameRate: maxFrameRate)]
        + binned.map {
          CaptureFormat(width: $0.width, height: $0.height, maxFrameRate: $0.maxFrameRate, isBinned: true)
        }
    }

    enum CodingKeys: String, CodingKey {
      case width, height, binned
      case maxFrameRate = "max_frame_rate"
      case pixelBudget = "pixel_budget"
    }
  }

  /// A binned sensor format.
  public struct BinnedFormat: Codable, Sendable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Highest frame rate, frames per second.
    public var maxFrameRate: Double

    /// Creates a binned format.
    public init(width: Int, height: Int, maxFrameRate: Double) {
      self.width = width
      self.height = height
      self.maxFrameRate = maxFrameRate
    }

    /// Decodes a binned format.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      width = try c.decodeWholeNumber(forKey: .width)
      height = try c.decodeWholeNumber(forKey: .height)
      maxFrameRate = try c.decode(Double.self, forKey: .maxFrameRate)
    }

    enum CodingKeys: String, CodingKey {
      case width, height
      case maxFrameRate = "max_frame_rate"
    }
  }
}

extension KeyedDecodingContainer {
  /// An integer field, read as a number first: Foundation's decoder reports `64.5` for an `Int`
  /// as invalid JSON without the field's name, this reports a type mismatch at the field.
  func decodeWholeNumber(forKey key: Key) throws -> Int {
    let value = try decode(Double.self, forKey: key)
    guard value.isFinite, value.rounded() == value, abs(value) < 1e15 else {
      throw DecodingError.typeMismatch(
        Int.self, .init(codingPath: codingPath + [key], debugDescription: "\(value) is not a whole number"))
    }
    return Int(value)
  }
}
