import BenchJobs
import BenchKit
import ResultsSchema
import TestSupport
import Testing

/// results.json records a `--quit-grace` other than the default, so that a baseline can refuse
/// results whose apps had another time to quit (issue 37 item 4); at the default it records
/// nothing, as before.
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct QuitGraceRecordTests {
  @Test("a quit grace other than the default 3 s is recorded; the default is not")
  func recordedOnlyWhenNotDefault() {
    var settings = RunSettings()
    var recorded = SyntheticResults.make(seed: 1).settings
    BenchPipeline.record(apps: settings, in: &recorded)
    #expect(recorded.quitGraceSeconds == nil)
    settings.quitGraceSeconds = 7.5
    BenchPipeline.record(apps: settings, in: &recorded)
    #expect(recorded.quitGraceSeconds == 7.5)
  }
}
