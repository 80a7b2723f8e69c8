import Foundation
import ResultsSchema
import Testing

/// `settings.ab`, the pin of `bench ab` (issue 25): optional, so results from before it read as
/// they did; when present, it survives the file.
@Suite struct ABPinRecordTests {
  @Test("results from before settings.ab read with no pin; a pin is written and read back as it was")
  func roundTrip() throws {
    var results = try ResultsFile.load(path: OldResultsCompatibilityTests.baselinePath)
    #expect(results.settings.ab == nil)
    let pin = BenchResults.ABPin(
      profileSource: "--profile /p/fast.json", profile: "/p/fast.json", profileName: "fast",
      profileHash: "fnv1a64:00000000000000ff", commitA: String(repeating: "a", count: 40),
      commitB: String(repeating: "b", count: 40), simulatedCameraSources: ["Sources/SyntheticCamera"],
      simulatedCameraChanges: ["Sources/SyntheticCamera/Stream/FrameStream.swift"])
    #expect(pin.simulatedCameraDiffers)
    results.settings.ab = pin
    let data = try ResultsFile.encode(results)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains("\"simulatedCameraDiffers\"") && text.contains("\"profileSource\""))
    #expect(try ResultsFile.decode(data, name: "re-encoded").settings.ab == pin)
  }
}
