import HostConditions
import SystemCalls

/// `low-power` with cpufreq: what was applied for the condition (or why it could not be), shared
/// by every runner of one benchmark (`bench ab`'s two sides cap the machine once, not twice: a
/// second `apply` would save the capped values as the originals). Held in ``RunSettings``.
package final class FrequencyCapHold: Sendable {
  /// The cap applied, or its failure; nil while none is held. Guarded by its own lock.
  let state = PThreadMutex<Result<CPUFrequencyCap.Applied, CPUCapError>?>(nil)

  /// Creates an empty hold.
  package init() {}
}
