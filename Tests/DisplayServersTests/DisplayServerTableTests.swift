import LaunchContract
import TestSupport
import Testing

@testable import DisplayServers

/// The bench side of the display-server seam: every kind a `--display` path can name has exactly
/// one server in `BenchDisplay.servers`, and it is the one a path of that kind gets.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct DisplayServerTableTests {
  @Test("each display-server kind has exactly one implementation, and serverType finds it")
  func oneServerPerKind() {
    for kind in DisplayServerKind.allCases {
      let matching = BenchDisplay.servers.filter { $0.kind == kind }
      #expect(matching.count == 1, "\(kind): \(matching.count) servers")
      #expect(BenchDisplay.serverType(kind).kind == kind)
    }
    #expect(BenchDisplay.servers.count == DisplayServerKind.allCases.count)
  }

  @Test("the shared-memory display needs nothing started: no name, pid, server record or failure")
  func sharedMemoryIsNothingToStart() throws {
    let display = BenchDisplay.sharedMemory
    #expect(display.path.server == .sharedMemory)
    #expect(display.server.name == nil && display.server.pid == nil && display.server.info == nil)
    #expect(display.server.failure == nil)
    #expect(display.server.clientEnvironment(["A": "1"]) == ["A": "1"])
  }
}
