import AppBuilds
import BenchHistory
import BenchKit
import Foundation
import Gates
import HistoryAnalysis
import Subprocess
import SystemCalls
import CommandLineKit

/// `bench bisect`'s work, prepared: GOOD and BAD resolved, the range listed, the history opened,
/// the results folder made. ``run(output:errors:)`` asks ``BisectSearch`` for each commit to
/// measure, measures it against GOOD (``probe(_:errors:)``), and reports.
package final class Bisection {
  /// The command line.
  let options: BisectOptions
  /// The git repository the commits are in.
  let repository: String
  /// Builds and caches camera-app per commit; its build step counts into ``compiled``.
  let builder: RevisionBuilder
  /// The reference every probe is measured against.
  let good: Revision
  /// The end of the range.
  let bad: Revision
  /// GOOD's subject, for the report.
  let goodSubject: String
  /// The commits after GOOD up to BAD along first parents, oldest first.
  let range: [RangeCommit]
  /// Where every session's results are recorded.
  let store: any HistoryStore
  /// The folder of the sessions and `bisect.json` (absolute).
  let out: String
  /// How many times camera-app was compiled (cache misses of the builder).
  let compiled: PThreadMutex<Int>
  /// The flag one Ctrl-C sets for the session in flight and the search.
  let interrupt = InterruptFlag.install()
  /// Every probe so far, in the order measured.
  var probes: [BisectProbe] = []
  /// Sessions started so far (each probe's first and any with more runs).
  var sessions = 0
  /// When the bisect started.
  let started = ContinuousClock.now

  init(
    options: BisectOptions, repository: String, builder: RevisionBuilder, good: Revision,
    bad: Revision,
    goodSubject: String, range: [RangeCommit], store: any HistoryStore, out: String,
    compiled: PThreadMutex<Int>
  ) {
    self.compiled = compiled
    self.options = options
    self.repository = repository
    self.builder = builder
    self.good = good
    self.bad = bad
    self.goodSubject = goodSubject
    self.range = range
    self.store = store
    self.out = out
  }

  /// Resolves the revisions, lists the range, checks `bench ab`'s options on it, opens the
  /// history and makes the results folder. `build` replaces `swift build` (tests); either way
  /// each build is counted.
  /// - Throws: `UsageError` (exit 2) naming what cannot be bisected.
  package static func prepare(_ options: BisectOptions, build: RevisionBuilder.BuildStep?)
    throws(UsageError)
    -> Bisection
  {
    guard var repository = options.repo ?? CameraAppLocator.packageRoot() else {
      throw UsageError("cannot find the FirstFrame package: run bench bisect inside it, or give --repo DIR")
    }
    if !repository.hasPrefix("/") {
      do throws(Errno) {
        repository = try FileSystem.currentDirectory() + "/" + repository
      } catch {
        throw UsageError("--repo \(repository): cannot read the working directory (\(error.message))")
      }
    }
    let counter = PThreadMutex(0)
    let step = build
    let builder = RevisionBuilder(
      repository: repository,
      build: { (source, scratch, interrupted) throws(RunnerError) in
        counter.withLock { $0 += 1 }
        if let step { return try step(source, scratch, interrupted) }
        return try RevisionBuilder.swiftBuild(source, scratch, interrupted)
      }, reuseCheckout: build == nil && ABJob.reusesCheckout(repository))
    let good = try builder.resolve(options.revisions.good)
    let bad = try builder.resolve(options.revisions.bad)
    guard good.commit != bad.commit else {
      throw UsageError("GOOD and BAD are the same commit (\(good.shortCommit)): nothing to bisect")
    }
    let range = try builder.firstParentRange(from: good, to: bad)
    let out = try RunJob.prepareOutDir(options.out ?? defaultFolder(repository))
    let store: any HistoryStore
    do throws(HistoryError) {
      store = try options.database.open()
    } catch {
      throw UsageError(error.description)
    }
    return Bisection(
      options: options, repository: repository, builder: builder, good: good, bad: bad,
      goodSubject: builder.subject(of: good) ?? "", range: range, store: store, out: out, compiled: counter)
  }

  /// `Results/bisect-<UTC timestamp>` in the package.
  static func defaultFolder(_ repository: String) -> String {
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.timeZone = TimeZone(identifier: "UTC")
    f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    return (CameraAppLocator.packageRoot() ?? repository) + "/Results/bisect-" + f.string(from: Date())
  }

  /// `bench ab`'s options for one session: GOOD against `probed` (both resolved already), the
  /// bisected cell only (``BisectOptions/probe``), `runs` runs per side (sequential: at most,
  /// rounded up to whole looks), into `folder`.
  func abOptions(probed: Revision, runs: Int, folder: String) -> ABOptions {
    var run = options.probe
    run.settings.runs = runs
    run.out = folder
    let design =
      options.fixed ? nil : Gate.bisectDesign(threshold: options.threshold, maximumRuns: runs)
    if let design { run.settings.runs = design.maximumRuns }
    var ab = ABOptions(
      revisions: (good.commit, probed.commit), repo: repository, run: run, resolved: (good, probed),
      design: design)
    ab.decidedPhase = options.phase
    return ab
  }

  /// Runs the search to its end and reports it. Exit status: 0 culprit, 1 no culprit named
  /// (nothing regressed, untestable, GOOD failed), 3 a probe stayed undecided (the range it could
  /// not narrow is reported), 130 interrupted.
  package func run(output: inout some TextOutputStream, errors: inout some TextOutputStream) -> Int32 {
    var search = BisectSearch(commits: range.map(\.commit))
    if !options.quiet {
      errors.write(
        "bench bisect: \(options.condition)/\(options.config) \(options.phase), \(range.count) commit\(range.count == 1 ? "" : "s") after GOOD \(good.shortCommit) up to BAD \(bad.shortCommit) (first parents); sessions in \(out)\n"
      )
    }
    var end = BisectEnd.searching
    while case .probe(let index) = search.next {
      let result = probe(index, errors: &errors)
      switch result {
      case .measured(let found):
        probes.append(found)
        search.record(index, found.verdict)
        if found.verdict == .inconclusive { end = .inconclusive(found) }
      case .goodFailed(let why): end = .goodFailed(why)
      case .interrupted: end = .interrupted
      }
      if case .searching = end {} else { break }
      if !options.quiet, let last = probes.last {
        errors.write("bench bisect: probe \(probes.count): \(last.line)\n")
      }
    }
    if case .searching = end { end = .finished(search.outcome ?? .nothingRegressed) }
    return report(end, search: search, output: &output, errors: &errors)
  }
}

/// How a bisect ended.
enum BisectEnd {
  /// Not yet.
  case searching
  /// The search ended (a culprit, nothing regressed, only untestable commits left).
  case finished(BisectSearch.Step)
  /// This probe stayed inconclusive (undecided: neither slower nor shown not slower) with
  /// `--max-runs` runs per side: the search cannot go on without clearing or blaming it.
  case inconclusive(BisectProbe)
  /// GOOD itself could not be measured (it did not build, or its runs did not start).
  case goodFailed(String)
  /// A signal stopped it.
  case interrupted
}
