import ResultsSchema

extension ResultsTable {
  /// The notes under the table for `low-power` and `hot` cells: per cell, how the CPU was capped
  /// and in how many runs the cap was read back in force and throttled the app; how long the
  /// soak ran, and what the machine could not read (no thermal zones, no cpufreq, no PSI).
  static func conditionNotes(_ cells: [BenchResults.Cell]) -> String {
    var out = ""
    for c in cells where c.condition == "low-power" {
      let caps = c.records.compactMap(\.lowPower)
      guard let first = caps.first else { continue }
      let verified = caps.filter(\.verified).count
      var what = first.method
      if let q = first.quotaMicroseconds, let p = first.periodMicroseconds {
        what += " \(q) µs per \(p) µs, placed \(first.placement ?? "?")"
      }
      if let f = first.maxFrequencyKHz { what += " scaling_max_freq \(f) kHz" }
      let throttled = caps.filter { ($0.throttledPeriods ?? 0) > 0 }.count
      out +=
        "- low-power/\(c.config): \(what); cap read back in force in \(verified) of \(caps.count) runs"
        + (first.quotaMicroseconds != nil ? ", throttled in \(throttled)" : "") + got(caps) + "\n"
    }
    for c in cells where c.condition == "hot" {
      let soaks = c.records.compactMap(\.hot)
      guard let first = soaks.first else { continue }
      let seconds = soaks.map(\.soakSeconds).reduce(0, +) / Double(soaks.count)
      out += "- hot/\(c.config): soak of \(fmt(seconds)) s on \(first.burners) CPUs before each launch"
      if let missing = first.missing, !missing.isEmpty {
        out +=
          "; this machine has \(missing.map { $0.components(separatedBy: " (").first ?? $0 }.joined(separator: ", "))"
      }
      out += "\n"
    }
    return out
  }

  /// `; the app got P % of a CPU (median of N runs; quota Q %)`: the throughput the capped app
  /// measured in its runs (issue 41 item 4); empty when no run measured it.
  static func got(_ caps: [BenchResults.LowPowerRecord]) -> String {
    let percents = caps.compactMap(\.cpuPercent).sorted()
    guard !percents.isEmpty else { return "" }
    let median =
      percents.count % 2 == 1
      ? percents[percents.count / 2] : (percents[percents.count / 2 - 1] + percents[percents.count / 2]) / 2
    var quota = ""
    if let q = caps.first?.quotaMicroseconds, let p = caps.first?.periodMicroseconds, p > 0 {
      quota = "; quota \(fmt(Double(q) * 100 / Double(p))) %"
    }
    return "; the app got \(fmt(median)) % of a CPU (median of \(percents.count) runs\(quota))"
  }
}
