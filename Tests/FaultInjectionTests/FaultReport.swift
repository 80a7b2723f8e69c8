import BenchKit
import Foundation
import Gates
import ResultsSchema
import Synchronization
import SystemCalls

/// What one case found, for the suite's figures.
struct FaultReport: Sendable {
  var name: String
  /// bench ended by a signal nobody sent it (a trap, SIGBUS, SIGSEGV), or hung past the deadline.
  var crashes = 0
  /// Counted runs bench announced as finished that are in neither results.json nor the journal
  /// (nor on stdout, where a full disk sends them).
  var runsLost = 0
  /// Processes bench started that were still alive after it ended.
  var leftovers = 0
  /// bench's peak resident memory, KiB.
  var peakKB = 0
  /// Seconds the case's bench runs took.
  var seconds = 0.0
  /// The issue whose merge closes this case, when it is known to fail today.
  var knownOpen: String?

  /// Adds what `outcome` shows: a crash unless it ended normally or by one of `sentSignals`.
  mutating func add(_ outcome: BenchProcess.Outcome, sentSignals: Set<Int32> = [], runsOnDisk: Int? = nil) {
    if outcome.hung {
      crashes += 1
    } else if case .signaled(let sig) = outcome.termination, !sentSignals.contains(sig) {
      crashes += 1
    }
    if let runsOnDisk { runsLost += max(0, outcome.announcedRuns - runsOnDisk) }
    leftovers += outcome.leftovers.count
    peakKB = max(peakKB, outcome.peakKB)
    seconds += outcome.seconds
  }

  /// Counted runs kept in a results folder: the larger of results.json's and the journal's.
  static func runsOnDisk(_ folder: String) -> Int {
    let results =
      (try? ResultsFile.load(path: folder + "/results.json", timelines: .none))?.cells
      .reduce(0) { $0 + $1.records.count } ?? 0
    let journal =
      (try? RunJournal.read(path: folder + "/" + RunJournal.fileName))?.results.cells
      .reduce(0) { $0 + $1.records.count } ?? 0
    return max(results, journal)
  }
}

extension FaultReport {
  /// The report of a case with one bench run on the results folder `out`.
  init(_ name: String, outcome: BenchProcess.Outcome, sentSignals: Set<Int32> = [], out: String) {
    self.init(name: name)
    add(outcome, sentSignals: sentSignals, runsOnDisk: Self.runsOnDisk(out))
  }
}

/// The suite's figures, printed when its last case has run.
enum FaultTally {
  static let reports = PThreadMutex<[FaultReport]>([])

  static func record(_ report: FaultReport, total: Int) {
    let all = reports.withLock { r -> [FaultReport]? in
      r.append(report)
      return r.count == total ? r : nil
    }
    let line =
      "fault case \(report.name): \(String(format: "%.1f", report.seconds)) s, crashes \(report.crashes), runs lost \(report.runsLost), left behind \(report.leftovers), peak \(report.peakKB / 1024) MiB"
      + (report.knownOpen.map { " (known open: \($0))" } ?? "")
    print(line)
    guard let all else { return }
    let counted = all.filter { $0.knownOpen == nil }
    let open = all.filter { $0.knownOpen != nil }
    print(
      """
      fault-injection suite: \(all.count) cases in \(String(format: "%.0f", all.reduce(0) { $0 + $1.seconds })) s
        bench crashes: \(counted.reduce(0) { $0 + $1.crashes }) (goal 0)
        finished runs lost: \(counted.reduce(0) { $0 + $1.runsLost }) (goal 0)
        processes left behind: \(counted.reduce(0) { $0 + $1.leftovers }) (goal 0)
        peak bench memory: \(all.map(\.peakKB).max().map { $0 / 1024 } ?? 0) MiB
        known open (not counted above): \(open.isEmpty ? "none" : open.map { "\($0.name) — \($0.knownOpen!): crashes \($0.crashes), lost \($0.runsLost), left \($0.leftovers)" }.joined(separator: "; "))
      """)
  }
}
