import BenchJobs
import TestSupport
import Testing

/// What the pipeline returns is what the commands exit with: 1 for nothing built or nothing
/// run, 130 for a signal before any run, the job's own status once the runs ran.
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct BenchOutcomeTests {
  @Test("each outcome's exit status is the one bench and bench ab exit with")
  func exitStatus() {
    #expect(BenchOutcome.notBuilt(side: 1, reason: "error: planted").exitStatus == 1)
    #expect(BenchOutcome.failed.exitStatus == 1)
    #expect(BenchOutcome.stopped.exitStatus == 130)
    #expect(BenchOutcome.measured([nil, nil], status: 0).exitStatus == 0)
    #expect(BenchOutcome.measured([nil], status: 130).exitStatus == 130)
  }

}
