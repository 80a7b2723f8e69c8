/// FirstFrame's version, recorded in results; baselines from another version are refused.
package enum FirstFrameVersion {
  /// The version string.
  package static let current = "0.1.0"
}
