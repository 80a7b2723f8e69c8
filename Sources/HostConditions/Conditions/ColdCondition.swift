import LaunchContract
import ResultsSchema

/// The `cold` condition: before each run, the app's own state is marked cold and the files its
/// launch reads are evicted from the page cache (``CacheEvictor``); the run's record says what
/// was evicted, and how many files the app mapped by its first frame that were not.
package final class ColdCondition: LaunchConditionControl {
  package var condition: LaunchCondition { .cold }

  /// The control of `cold`.
  package init() {}

  /// Nothing for the whole condition: every run evicts.
  package func prepare() -> ConditionPreparation { ConditionPreparation() }

  /// Marks the app's state cold and evicts the run's files (`context.evictionFiles()`).
  package func beginRun(_ context: ConditionRunContext, interrupted: @Sendable () -> Bool)
    -> (any ConditionRunState)?
  {
    let files = context.evictionFiles()
    context.markCold()
    return ColdRun(files: files, eviction: CacheEvictor(files: files).evict())
  }

  /// Nothing to restore: the page cache refills as the machine goes on.
  package func restore() {}
}

/// One cold run: what it evicted.
package struct ColdRun: ConditionRunState {
  /// The files evicted before the spawn.
  package var files: Set<String>
  /// What the eviction did.
  package var eviction: CacheEvictor.Outcome

  /// Writes `evicted_files`, `evicted_bytes`, `drop_caches` (1 done, 0 not) and
  /// `mapped_not_evicted` (the app's mapped files outside the evicted set).
  package func verify(_ observed: ConditionRunObservation, into record: inout BenchResults.RunRecord) {
    record.counts[.evictedFiles] = eviction.filesEvicted
    record.counts[.evictedBytes] = Int(clamping: eviction.bytesEvicted)
    record.counts[.dropCaches] = eviction.droppedCaches ? 1 : 0
    record.counts[.mappedNotEvicted] = observed.mappedFiles.subtracting(files).count
  }
}
