import ResultsSchema

extension ResultsTable {
  /// The table's notes on per-run verification: an app that ran as root beside a root bench
  /// (`--app-user root`), then per cell, its priming run (when primed),
  /// missed compositor deadlines (when any), runs whose device bench released (their app ended
  /// holding it), processes the app left outside its process group that bench killed (when
  /// any), cold runs whose device was not cold, other runs whose device was cold, and
  /// cells whose app never reported its power-up.
  static func verificationNotes(_ results: BenchResults) -> String {
    var out = ""
    // Bench was root and so was the app (`--app-user root`): nothing kept it from the results.
    if let user = results.settings.appUser, user.benchIsRoot && user.reachesResults {
      out +=
        "- the app ran as \(user.name) (uid \(user.uid)), bench's own user: an app that could have reached the results\n"
    }
    for c in results.cells {
      let name = "\(c.condition)/\(c.config)"
      if let priming = c.priming {
        let device = priming.counts[.powerUpCold].map {
          $0 == 1 ? "; device powered up cold" : "; device powered up warm"
        }
        out +=
          "- \(name) primed by one uncounted run before its first (--warmup 0, no earlier run of \(c.config))"
          + "\(device ?? "")\(priming.ok ? "" : "; it failed: \(priming.error ?? "unknown")")\n"
      }
      let released = c.records.filter { $0.counts[.deviceReleasedByBench] == 1 }.count
      if released > 0 {
        out +=
          "- device released by bench in \(name): \(released) of \(c.records.count) runs (the app ended holding it:"
          + " killed, crashed or timed out)\n"
      }
      let escaped = c.records.compactMap { $0.counts[.escapedProcesses] }.filter { $0 > 0 }
      if !escaped.isEmpty {
        out +=
          "- escaped processes killed by bench in \(name): \(escaped.reduce(0, +)) in \(escaped.count) of"
          + " \(c.records.count) runs (left by the app outside its process group: setsid, a double fork)\n"
      }
      let missed = c.records.compactMap { $0.counts[.missedDeadlines] }
      let total = missed.reduce(0, +)
      if total > 0 {
        out +=
          "- missed compositor deadlines in \(name): \(total) in \(missed.filter { $0 > 0 }.count) of"
          + " \(c.records.count) runs (a scanout latched half a refresh or more after its tick, or a tick skipped)\n"
      }
      let said = c.records.compactMap { $0.counts[.powerUpCold] }
      if said.isEmpty {
        if !c.records.isEmpty {
          out += "- device power-up in \(name): not reported by the app (not checked)\n"
        }
        continue
      }
      if c.condition == "hot" {
        // hot records the power-up and checks none (a long soak leaves the camera cold).
        let coldRuns = said.filter { $0 == 1 }.count
        out +=
          "- device power-up in \(name): cold in \(coldRuns) of \(said.count) runs (recorded, not checked in hot)\n"
        continue
      }
      let cold = c.condition == "cold"
      let wrong = said.filter { cold ? $0 != 1 : $0 == 1 }.count
      if wrong > 0 {
        out +=
          "- \(cold ? "cold runs not cold" : "runs whose device was cold") in \(name): \(wrong) of"
          + " \(c.records.count) (device.power_up said \(cold ? "warm" : "cold"); failed)\n"
      }
      if said.count < c.records.count {
        out +=
          "- device power-up in \(name): not reported in \(c.records.count - said.count) of \(c.records.count) runs\n"
      }
    }
    return out
  }
}
