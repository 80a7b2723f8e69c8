import BenchCommands
import BenchHistory
import Foundation
import HistoryAnalysis
import ResultsSchema
import TestSupport
import Testing

/// A series is one thing (issue 38, item 1): benchmarks that measured something else — another
/// cost profile, display, app command, set of outputs or thread-states method — are another
/// series, which `show` and `detect` tell apart; an injected delay stays in the series; results
/// of a benchmark that did not finish are not recorded.
@Suite(
  .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: SQLiteLibrary.isAvailable, HistoryFixtures.skipReason))
struct HistorySeriesSetupTests {
  /// What one test changes between the first two benchmarks and the last two.
  enum Change: String, CaseIterable, Sendable {
    case profile, display, app, outputs, threadStates, tap

    /// `settings` changed in this way.
    func apply(_ settings: inout BenchResults.BenchSettings) {
      switch self {
      case .profile:
        settings.profileName = "fast"
        settings.profileHash = "fnv1a64:00000000000000ff"
      case .display: settings.display = "x11"
      case .app: settings.app = "/usr/bin/other-camera --fast"
      case .outputs: settings.outputs = ["preview", "photo"]
      case .threadStates: settings.threadStates = "tracefs"
      case .tap: settings.tap = false
      }
    }

    /// The field `show` names.
    var field: String {
      switch self {
      case .profile: "profile"
      case .display: "display"
      case .app: "app"
      case .outputs: "outputs"
      case .threadStates: "thread-states"
      case .tap: "tap"
      }
    }
  }

  /// Records four benchmarks (346 ms twice, then 125 ms twice), `change` applied to the last two's
  /// settings; returns the database.
  func recordFour(_ change: (inout BenchResults.BenchSettings) -> Void) throws -> String {
    let folder = temporaryFolder("history")
    let db = "sqlite:" + folder + "/h.sqlite"
    for i in 0..<4 {
      var results = HistoryFixtures.results(
        i < 2 ? [346, 347, 348] : [125, 126, 127], startedAt: "2026-12-0\(i + 1)T10:00:00Z")
      results.settings.profileName = "default"
      results.settings.profileHash = "fnv1a64:0000000000000001"
      results.settings.threadStates = "sampled"
      results.settings.tap = true
      if i >= 2 { change(&results.settings) }
      let path = try HistoryFixtures.write(results, named: "r\(i).json", in: folder)
      let recorded = HistoryFixtures.run(["record", path, "--commit", "commit\(i)", "--db", db])
      #expect(recorded.status == 0, "\(recorded.errors)")
    }
    return db
  }

  @Test(
    "another profile, display, app, set of outputs or thread-states method is another series, named",
    arguments: Change.allCases)
  func split(change: Change) throws {
    let db = try recordFour { change.apply(&$0) }
    let shown = HistoryFixtures.run(["show", "--db", db])
    #expect(shown.status == 0, "\(shown.errors)")
    let headings = shown.output.split(separator: "\n").filter { $0.contains("warm/deferred") }
    #expect(headings.count == 2, "\(shown.output)")
    #expect(headings.allSatisfy { $0.contains(change.field + " ") }, "\(headings)")
    #expect(Set(headings).count == 2)
    let json = HistoryFixtures.run(["show", "--db", db, "--format", "json"])
    #expect(json.output.components(separatedBy: "\"setup\"").count - 1 == 2, "\(json.output)")
  }

  @Test("an injected delay stays in the series: one block, no setup named")
  func injectedDelayStays() throws {
    let db = try recordFour { $0.injectDelayMs = 300 }
    let shown = HistoryFixtures.run(["show", "--db", db])
    let headings = shown.output.split(separator: "\n").filter { $0.contains("warm/deferred") }
    #expect(headings.count == 1 && !headings[0].contains("profile "), "\(shown.output)")
  }

  @Test(
    "the setup of stored settings: profile hash, display, app (its configuration's command first), outputs, thread states; - where not recorded"
  )
  func setupFields() {
    let setup = HistorySetup(
      settings:
        #"{"profileHash":"fnv1a64:1","profileName":"x","outputs":["preview"],"appConfigs":{"cheese":"cheese -d"},"app":"/bin/a","threadStates":"off"}"#,
      condition: "warm", config: "cheese")
    #expect(
      setup.description
        == "profile fnv1a64:1, display shm, app cheese -d, outputs preview, thread-states off, tap -"
    )
    #expect(
      HistorySetup(settings: "{}", condition: "warm", config: "deferred")
        == HistorySetup(settings: "not json", condition: "warm", config: "deferred"))
    #expect(
      HistorySetup(settings: #"{"profileName":"fast"}"#, condition: "warm", config: "deferred").description
        == "profile name:fast, display shm, app camera-app, outputs -, thread-states -, tap -")
  }

  @Test(
    "a condition's own settings are in its cells' setup only: the load of loaded, the cap of low-power, the soak of hot"
  )
  func conditionFields() {
    let settings =
      #"{"tap":true,"load":{"kind":"cpu","burners":2,"cpus":[0,1]},"lowPower":"cpufreq at 0.5 of cpuinfo_max_freq","soakSeconds":30}"#
    func setup(_ condition: String) -> String {
      HistorySetup(settings: settings, condition: condition, config: "deferred").description
    }
    #expect(setup("warm").hasSuffix("thread-states -, tap on"))
    #expect(setup("loaded").hasSuffix("tap on, load cpu × 2"), "\(setup("loaded"))")
    #expect(setup("low-power").hasSuffix("tap on, low-power cpufreq at 0.5 of cpuinfo_max_freq"))
    #expect(setup("hot").hasSuffix("tap on, soak 30 s"), "\(setup("hot"))")
  }

  @Test(
    "results of a benchmark that did not finish (complete false, interrupted) are refused in one line, exit status 2, nothing recorded"
  )
  func refusesIncomplete() throws {
    let folder = temporaryFolder("history")
    var snapshot = HistoryFixtures.results([100, 101])
    snapshot.complete = false
    var interrupted = HistoryFixtures.results([100, 101])
    interrupted.settings.interrupted = true
    for (name, results) in [("snapshot", snapshot), ("interrupted", interrupted)] {
      let path = try HistoryFixtures.write(results, named: name + ".json", in: folder)
      let (status, _, errors) = HistoryFixtures.run([
        "record", path, "--commit", "c", "--db", folder + "/h.sqlite",
      ])
      #expect(status == 2, "\(errors)")
      #expect(
        errors.contains(path) && errors.contains(name == "snapshot" ? "complete" : "interrupted"), "\(errors)"
      )
      #expect(errors.filter { $0 == "\n" }.count == 1)
      #expect(!FileManager.default.fileExists(atPath: folder + "/h.sqlite"))
    }
  }
}
