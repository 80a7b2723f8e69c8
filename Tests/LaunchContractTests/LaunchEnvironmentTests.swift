import LaunchContract
import Testing

/// The app's side of the contract: the `FIRSTFRAME_*` variables the runner sets for a launch.
@Suite struct LaunchEnvironmentTests {
  @Test("what the runner writes, the app reads back unchanged")
  func roundTrips() throws {
    var written = LaunchEnvironment()
    written.trace = .descriptor(5)
    written.display = .x11(display: ":99")
    written.control = .path("/tmp/control")
    written.runID = "cold-deferred-3"
    written.configuration = "deferred"
    written.syntheticState = "/tmp/state"
    written.appState = "/tmp/app"
    written.injectDelayMilliseconds = 40
    let read = try LaunchEnvironment(written.applied(to: ["PATH": "/usr/bin"]))
    #expect(read.trace == .descriptor(5))
    #expect(read.display == .x11(display: ":99"))
    #expect(read.control == .path("/tmp/control"))
    #expect(read.runID == "cold-deferred-3")
    #expect(read.configuration == "deferred")
    #expect(read.syntheticState == "/tmp/state")
    #expect(read.appState == "/tmp/app")
    #expect(read.injectDelayMilliseconds == 40)
  }

  @Test("every variable of the contract is spelled FIRSTFRAME_…, and a launch sets only its own keys")
  func keysAreTheContracts() {
    for key in LaunchEnvironment.Key.allCases {
      #expect(key.rawValue.hasPrefix("FIRSTFRAME_"), "\(key)")
    }
    var everything = LaunchEnvironment()
    everything.trace = .descriptor(3)
    everything.display = .sharedMemory(name: "/firstframe-1-surface")
    everything.control = .descriptor(4)
    everything.runID = "r"
    everything.configuration = "eager"
    everything.syntheticState = "s"
    everything.appState = "a"
    everything.injectDelayMilliseconds = 1
    let launchKeys = Set(LaunchEnvironment.launchKeys.map(\.rawValue))
    #expect(Set(everything.variables.keys) == launchKeys)
  }

  @Test("an empty variable is unset; a delay that is not a positive number is no delay")
  func emptyAndNonsense() throws {
    let read = try LaunchEnvironment([
      "FIRSTFRAME_TRACE": "", "FIRSTFRAME_RUN": "", "FIRSTFRAME_INJECT_DELAY_MS": "-5",
    ])
    #expect(read.trace == nil)
    #expect(read.runID == nil)
    #expect(read.injectDelayMilliseconds == nil)
    #expect(try LaunchEnvironment(["FIRSTFRAME_INJECT_DELAY_MS": "soon"]).injectDelayMilliseconds == nil)
  }

  @Test("a variable that does not parse is named in the error")
  func namesTheBadVariable() {
    do {
      _ = try LaunchEnvironment(["FIRSTFRAME_CONTROL": "fd:nope"])
      Issue.record("fd:nope parsed")
    } catch {
      #expect(error.message.hasPrefix("FIRSTFRAME_CONTROL: "))
    }
    do {
      _ = try LaunchEnvironment(["FIRSTFRAME_DISPLAY": "x11:"])
      Issue.record("x11: parsed")
    } catch {
      #expect(error.message.hasPrefix("FIRSTFRAME_DISPLAY: "))
    }
  }
}
