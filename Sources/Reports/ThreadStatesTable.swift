import ResultsSchema
import RunAnalysis
import Statistics

/// `bench report --states`: the terminal table's companion for `thread_states` (issue 27). Per
/// cell and method (`ThreadStatesSummary`: exact and sampled runs never pooled), per phase, the
/// main thread's running/runnable/io/sleeping and the process tree's figures as `p50 (p90)` over
/// the finished, complete runs, and the thread most often running at the first frame; notes say
/// which runs were set aside and why.
public enum ThreadStatesTable {
  /// The line `bench report --states` prints when no run of the results has thread states.
  public static let noThreadStates =
    "no thread states in these results: their runs were made with --thread-states off or by a bench"
    + " before issue 27; run bench again with --thread-states on (exact with tracefs as root, else"
    + " sampled from /proc)"

  /// The table text; `noThreadStates` (one line) when no run has thread states.
  public static func text(_ results: BenchResults) -> String {
    guard ThreadStatesSummary.hasThreadStates(results) else { return noThreadStates + "\n" }
    let summary = ThreadStatesSummary(results: results)
    var out = "Thread states per phase: p50 (p90) over each cell's finished, complete runs\n"
    if summary.groups.isEmpty { out += "\nno finished run has thread states\n" }
    for g in summary.groups {
      out += "\n\(g.cell) · \(g.method) · "
      guard g.runs > 0 else {
        out += "no complete run\n"
        continue
      }
      out += "\(g.runs) run\(g.runs == 1 ? "" : "s") · \(cost(g))\n"
      let mainPhases = g.phases.filter { g.main[$0] != nil }
      if !mainPhases.isEmpty {
        out += ResultsTable.columns(
          [["main thread (ms)"] + ThreadStatesSummary.mainStates]
            + mainPhases.map { p in
              [p] + ThreadStatesSummary.mainStates.map { cell(g.main[p]?[$0], ms: true) }
            })
      }
      for (title, figures) in [
        ("process tree", g.tree), ("bench's threads", g.bench),
        ("display server" + (summary.displayServerName.map { " (\($0))" } ?? ""), g.displayServer),
      ] {
        let phases = g.phases.filter { figures[$0] != nil }
        guard !phases.isEmpty else { continue }
        if !mainPhases.isEmpty || title != "process tree" { out += "\n" }
        out += block(title, figures, phases: phases)
      }
      if let t = g.runningAtFirstFrame {
        out += "running at first frame: \(t.thread) in \(t.runs) of \(t.of) runs\n"
      }
    }
    out += notes(summary)
    return out
  }

  /// A block of tree figures (`treeFields`) per phase: the app's tree, bench's threads or the
  /// display server's (`display server (sway)`).
  static func block(_ title: String, _ figures: [String: [String: [Double]]], phases: [String]) -> String {
    ResultsTable.columns(
      [[title] + ThreadStatesSummary.treeFields]
        + phases.map { p in
          [p] + ThreadStatesSummary.treeFields.map { cell(figures[p]?[$0], ms: $0.hasSuffix("_ms")) }
        })
  }

  /// The notes under the blocks: incomplete runs set aside, cells shown as two blocks, and what
  /// a sampled figure's error bound is.
  static func notes(_ summary: ThreadStatesSummary) -> String {
    var out = ""
    for g in summary.groups where g.incomplete > 0 {
      out +=
        "- \(g.cell): \(g.incomplete) \(g.method) run\(g.incomplete == 1 ? "" : "s") incomplete"
        + " (\(g.lostEvents) event\(g.lostEvents == 1 ? "" : "s") lost, or a trace that started late or ended"
        + " early), set aside: not in the figures\n"
    }
    for cell in summary.mixedCells {
      out += "- \(cell) has tracefs and sampled runs: shown as two blocks, never pooled\n"
    }
    let unseen = summary.groups.filter { !$0.unseenMs.isEmpty && ($0.unseenMs.last ?? 0) >= 1 }
    if !unseen.isEmpty {
      let figures = unseen.map { g in
        "\(g.cell) \(NumberFormat.ms(Statistics.percentile(sorted: g.unseenMs, 0.5))) ms p50,"
          + " \(NumberFormat.ms(g.unseenMs.last ?? 0)) ms max"
      }
      out +=
        "- tracefs: switches into the app's threads the kernel left out of the trace, not placed from"
        + " sched_stat_runtime (its buffer full, or a kernel without it);"
        + " the time before them counts as runnable or sleeping though part of it ran (unseen_ms:"
        + " \(figures.joined(separator: "; "))); read running/runnable there with"
        + " --thread-states sampled (docs/thread-states.md, Limits)\n"
    }
    let sampled = summary.groups.filter { $0.method == "sampled" && $0.runs > 0 }
    if !sampled.isEmpty {
      let bounds = sampled.map { g in
        "\(g.cell) \(g.errorBoundMs.map { NumberFormat.ms($0) + " ms" } ?? "unknown")"
      }
      out +=
        "- sampled: totals read from /proc at spawn, at each event bench received and at the end; a"
        + " figure may be off by up to its run's error_bound_ms (largest: \(bounds.joined(separator: ", ")))\n"
    }
    return out
  }

  /// What recording cost per run, p50: `4210 events, 310 KB of trace` (`samples` for sampled runs).
  static func cost(_ g: ThreadStatesSummary.Group) -> String {
    var out =
      "\(countText(Statistics.percentile(sorted: g.events, 0.5))) \(g.method == "sampled" ? "samples" : "events")"
    if !g.traceBytes.isEmpty {
      out +=
        ", \(countText((Statistics.percentile(sorted: g.traceBytes, 0.5) / 1024).rounded())) KiB of trace"
    }
    return out + " per run (p50)"
  }

  /// `p50 (p90)` of sorted `values`: ms as the results table writes them, counts whole when whole.
  static func cell(_ values: [Double]?, ms: Bool) -> String {
    guard let values, !values.isEmpty else { return "-" }
    let q = [0.5, 0.9].map { Statistics.percentile(sorted: values, $0) }
    let f: (Double) -> String = { ms ? ResultsTable.fmt($0) : countText($0) }
    return "\(f(q[0])) (\(f(q[1])))"
  }

  /// A count's percentile: `12`, or `12.5` between two runs' counts.
  static func countText(_ v: Double) -> String {
    v == v.rounded() ? String(Int(v)) : NumberFormat.fixed(v, decimals: 1)
  }
}
