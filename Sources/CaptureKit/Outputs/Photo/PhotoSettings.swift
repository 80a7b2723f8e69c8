import Synchronization

/// The settings of one photo request. Each value has a unique ID; `CapturedPhoto.settingsID` names it.
public struct PhotoSettings: Sendable, Hashable {
  private static let nextID = Atomic<Int64>(1)

  /// Unique among the settings created in this process (unless given explicitly).
  public var uniqueID: Int64
  /// Free-form key-value pairs copied into the photo's metadata, for example `["tap": "3"]`.
  public var metadata: [String: String]

  /// Creates settings with a fresh unique ID (or `uniqueID`, if given).
  public init(uniqueID: Int64? = nil, metadata: [String: String] = [:]) {
    self.uniqueID = uniqueID ?? PhotoSettings.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    self.metadata = metadata
  }
}
