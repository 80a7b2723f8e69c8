import Foundation

/// A fresh, empty temporary folder named `label-UUID`; returns its path.
public func temporaryFolder(_ label: String = "benchkit") -> String {
  let path = NSTemporaryDirectory() + "\(label)-\(UUID().uuidString)"
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}
