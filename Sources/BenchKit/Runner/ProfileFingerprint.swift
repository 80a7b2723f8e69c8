import Foundation
import ResultsSchema
import SyntheticCamera

/// A cost profile's contents as one short string, so that baselines match on what a profile
/// costs and not on its name: `fnv1a64:` and 16 hex digits of the 64-bit FNV-1a hash of the
/// profile's canonical JSON (keys sorted), the same for the built-in default and an identical file.
package enum ProfileFingerprint {
  /// The fingerprint of `profile`.
  package static func hash(_ profile: CostProfile) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let bytes = (try? encoder.encode(profile)) ?? Data(profile.name.utf8)
    return ContentHash.fnv1a64(bytes)
  }
}
