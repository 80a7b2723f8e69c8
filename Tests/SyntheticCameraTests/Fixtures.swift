import CaptureKit
import Foundation
@testable import SyntheticCamera

/// Paths and profiles shared by the synthetic camera tests.
enum Fixtures {
  /// The repository's `Benchmarks/profiles` folder.
  static let profilesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Benchmarks/profiles")

  static func profilePath(_ name: String) -> String { profilesDirectory.appendingPathComponent(name).path }

  static var fast: CostProfile {
    get throws { try CostProfile.load(path: profilePath("fast.json")) }
  }

  /// The default profile's JSON with the value at `path` (keys and array indices) replaced,
  /// or removed when `value` is nil.
  static func defaultJSON(setting path: [any Sendable], to value: Any?) throws -> Data {
    let object = try JSONSerialization.jsonObject(with: Data(CostProfile.defaultJSON.utf8))
    return try JSONSerialization.data(withJSONObject: edit(object, path[...], value))
  }

  private static func edit(_ node: Any, _ path: ArraySlice<any Sendable>, _ value: Any?) -> Any {
    guard let key = path.first else { return value as Any }
    if let index = key as? Int, var array = node as? [Any] {
      array[index] = edit(array[index], path.dropFirst(), value)
      return array
    }
    var dictionary = node as! [String: Any]
    let name = key as! String
    if path.count == 1 && value == nil {
      dictionary.removeValue(forKey: name)
    } else {
      dictionary[name] = edit(dictionary[name] as Any, path.dropFirst(), value)
    }
    return dictionary
  }
}
