import SystemCalls

/// The `FIRSTFRAME_*` variables that are not part of an app's launch: read by bench's own test
/// harness and tools, never set for or read by an app under test. Spelled here so that every
/// `FIRSTFRAME_*` name lives in this module (`scripts/check-contract-names` keeps it so).
package enum HarnessVariable: String, Sendable, CaseIterable {
  /// `FIRSTFRAME_TEST_SEED`: replays a test's seeded randomness (a whole number).
  case testSeed = "FIRSTFRAME_TEST_SEED"
  /// `FIRSTFRAME_TEST_TIME_SCALE`: stretches the tests' safety-net deadlines (1…100; sanitizers).
  case testTimeScale = "FIRSTFRAME_TEST_TIME_SCALE"
  /// `FIRSTFRAME_POSTGRESQL_BIN`: the folder of the PostgreSQL server the history tests start.
  case postgresqlBin = "FIRSTFRAME_POSTGRESQL_BIN"
  /// `FIRSTFRAME_KEEP_SCHED_TRACE`: a folder where bench keeps each traced run's raw sched trace
  /// (for a person looking into a thread-states breakdown); a folder that is not there is a
  /// usage error.
  case keepSchedTrace = "FIRSTFRAME_KEEP_SCHED_TRACE"

  /// The variable's value in this process's environment, or nil when unset or empty.
  package var value: String? { ProcessControl.environmentValue(rawValue) }
}
