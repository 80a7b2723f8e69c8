import ResultsSchema

/// What a `low-power` run records: what was applied and whether it took effect.
extension LowPowerCondition {
  /// The run's record. For a quota, read from the run's group once the app has ended (the quota
  /// read back, the app found in the group, the group's bandwidth periods) with `usage`, the CPU
  /// the app got measured before it was stopped, then the group is removed. For cpufreq, every CPU's `scaling_max_freq` (and governor) read back against what
  /// was written. Nil without a plan.
  package func record(
    group: RunCgroup?, placement: CgroupPlacement?, usage: CgroupCPUUsage? = nil
  ) -> BenchResults.LowPowerRecord? {
    guard case .success(let plan) = plan else { return nil }
    switch plan {
    case .quota(_, let asked):
      guard let group else { return nil }
      defer { group.remove() }
      var record = BenchResults.LowPowerRecord(method: plan.methodName, verified: false)
      record.cgroup = group.path
      let quota = group.readQuota()
      record.quotaMicroseconds = quota?.quotaMicroseconds
      record.periodMicroseconds = quota?.periodMicroseconds
      record.placement = placement?.how
      record.placementDelayMicroseconds = placement?.delayMicroseconds
      let stat = group.throttling()
      record.periods = stat?.periods
      record.throttledPeriods = stat?.throttledPeriods
      record.throttledMs = stat.map { Double($0.throttledNanoseconds) / 1e6 }
      record.cpuMs = usage.map { Double($0.cpuNanoseconds) / 1e6 }
      record.cpuPercent = usage.map { ($0.percentOfOneCPU * 10).rounded() / 10 }
      record.cpuSource = usage?.source
      record.reason = Self.quotaFailure(
        asked: asked, readBack: quota, placement: placement, stat: stat, usage: usage)
      record.verified = record.reason == nil
      return record
    case .cpufreq(let cap, _):
      return frequencyRecord(cap)
    }
  }

  /// Why a quota did not take effect, or nil when it did: the quota read back must be the one
  /// written, the app must have been in the group after the spawn (`placement`), and the kernel
  /// must have enforced the group's bandwidth (`nr_periods` > 0: the app ran under the quota's
  /// accounting), and the CPU the app got (`usage`, when measured) must be within what the quota
  /// allows in the periods it ran (``CgroupCPUUsage/budgetNanoseconds(_:)``).
  package static func quotaFailure(
    asked: CPUQuota, readBack: CPUQuota?, placement: CgroupPlacement?, stat: CPUThrottling?,
    usage: CgroupCPUUsage? = nil
  ) -> String? {
    if let failure = placement?.failure { return "low-power cap not in effect: \(failure)" }
    guard readBack == asked else {
      return
        "low-power cap not in effect: the cgroup's quota reads \(readBack?.text ?? "unlimited"), not \(asked.text)"
    }
    guard let stat, stat.periods > 0 else {
      return "low-power cap not in effect: cpu.stat shows no bandwidth period for the app's cgroup"
    }
    if let usage, usage.cpuNanoseconds > usage.budgetNanoseconds(asked) {
      let percent = Int((usage.percentOfOneCPU).rounded())
      let quotaPercent = Int(
        (Double(asked.quotaMicroseconds) * 100 / Double(asked.periodMicroseconds)).rounded())
      return
        "low-power cap not in effect: the app got \(usage.cpuNanoseconds / 1_000_000) ms of CPU in \(usage.periods) periods (\(percent) % of a CPU over \(usage.wallNanoseconds / 1_000_000) ms, \(usage.source)), more than the quota of \(quotaPercent) % allows (\(usage.budgetNanoseconds(asked) / 1_000_000) ms)"
    }
    return nil
  }

  /// cpufreq: the condition's cap read back from every CPU.
  func frequencyRecord(_ cap: CPUFrequencyCap) -> BenchResults.LowPowerRecord {
    var record = BenchResults.LowPowerRecord(method: "cpufreq", verified: false)
    switch capHeld.withLock({ $0 }) {
    case .none:
      record.reason = "low-power cap not in effect: cpufreq was not capped for this condition"
    case .failure(let error):
      record.reason = "low-power cap not in effect: \(error.description)"
    case .success(let applied):
      record.maxFrequencyKHz = applied.maxFrequencyKHz
      record.governor = applied.governor
      record.energyPerformancePreference = applied.energyPerformancePreference
      let now = cap.readBack()
      record.frequenciesKHz = now.compactMapValues(\.currentKHz)
      let off = now.filter {
        $0.value.maxKHz != applied.maxFrequencyKHz
          || (applied.governor != nil && $0.value.governor != applied.governor)
      }
      if let cpu = off.keys.sorted().first, let found = off[cpu] {
        record.reason =
          "low-power cap not in effect: \(cpu) reads scaling_max_freq \(found.maxKHz.map(String.init) ?? "?") kHz, governor \(found.governor ?? "?"), not \(applied.maxFrequencyKHz) kHz"
      }
    }
    record.verified = record.reason == nil
    return record
  }
}
