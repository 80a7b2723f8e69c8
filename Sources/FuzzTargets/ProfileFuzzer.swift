import Foundation
import SyntheticCamera

/// Cost profiles, as camera-app and bench read `--profile FILE`: a refused profile is one line
/// naming the file; an accepted one survives a round trip (written back as JSON, it reads as the
/// same profile).
enum ProfileFuzzer {
  static func run(_ data: [UInt8]) -> [String] {
    let profile: CostProfile
    do {
      profile = try CostProfile.decode(json: Data(data), source: "fuzz.json")
    } catch {
      return OneLine.check(error.message, naming: "fuzz.json", what: "profile error")
    }
    _ = profile.sensor.formats
    guard let json = try? JSONEncoder().encode(profile) else {
      return ["an accepted profile cannot be written back"]
    }
    guard let again = try? CostProfile.decode(json: json, source: "again.json") else {
      return ["an accepted profile, written back, is refused"]
    }
    return again == profile ? [] : ["an accepted profile, written back, reads differently"]
  }
}

/// The rule for bad input (STYLE.md rule 4): one line, naming the file.
enum OneLine {
  static func check(_ message: String, naming file: String, what: String) -> [String] {
    var problems: [String] = []
    if message.contains(where: { $0.isNewline }) {
      problems.append("a \(what) of more than one line: \(message.debugDescription)")
    }
    if !message.contains(file) {
      problems.append("a \(what) that does not name \(file): \(message.debugDescription)")
    }
    return problems
  }
}
