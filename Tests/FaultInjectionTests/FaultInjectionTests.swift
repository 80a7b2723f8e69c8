import Foundation
import TestThreads
import Testing

/// The fault-injection suite (issue 10): bench against small hostile apps (shell scripts around
/// `bench --app`, or wrapping the built camera-app), interrupted and killed at random moments, on a
/// full disk and with a second bench on its folder. Each case states its expected outcome; the
/// suite prints its figures when the last case has run: cases, bench crashes, finished runs lost,
/// processes left behind (goal 0 each) and bench's peak memory. 17 cases; about 30 s of bench runs
/// (75 s with the test process on a loaded 2-core machine). `FAULT_CASES=a,b` picks cases,
/// `FAULT_SEED` replays the random signal times, `FAULT_DISK=fsize` forces the non-root disk limit.
@Suite(.blocking, .serialized, FaultCase.timeLimit) struct FaultInjectionTests {
  /// Every case, or those whose names contain one of `FAULT_CASES` (comma-separated) when set.
  static let all = (FaultCase.appFaults + FaultCase.benchFaults).filter { c in
    guard let wanted = ProcessInfo.processInfo.environment["FAULT_CASES"] else { return true }
    return wanted.split(separator: ",").contains { c.name.contains($0) }
  }

  @Test("bench under a fault", arguments: Self.all)
  func fault(_ c: FaultCase) throws {
    let ws = Workspace(c.name.replacingOccurrences(of: " ", with: "-").filter { $0.isLetter || $0 == "-" })
    defer { ws.remove() }
    let report = try c.body(ws)
    #expect(report.knownOpen != nil || (report.crashes == 0 && report.runsLost == 0 && report.leftovers == 0))
    FaultTally.record(report, total: Self.all.count)
  }
}
