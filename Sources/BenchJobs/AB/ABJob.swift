#if canImport(Glibc)
  import Glibc
#endif
import Reports
import RunAnalysis
import Gates
import BenchKit
import Foundation
import LaunchContract
import SystemCalls
import AppBuilds
import ResultsSchema
import CommandLineKit

extension ABOptions {
  /// Resolves the revisions in the repository (each must have camera-app), prepares `bench`'s
  /// options as `bench` does (camera, profile, results folder) and pins the one profile both
  /// sides run (``pin(_:a:b:builder:)``).
  package func prepare() throws(UsageError) -> ABJob {
    guard var repository = repo ?? CameraAppLocator.packageRoot() else {
      throw UsageError("cannot find the FirstFrame package: run bench ab inside it, or give --repo DIR")
    }
    if !(repository as NSString).isAbsolutePath {
      repository = RunJob.currentDirectory + "/" + repository
    }
    let builder = RevisionBuilder(repository: repository)
    let (a, b): (Revision, Revision)
    if let resolved {
      (a, b) = resolved
    } else {
      a = try builder.resolve(revisions.a)
      b = try builder.resolve(revisions.b)
    }
    let prepared = try run.prepare()
    var settings = prepared.settings
    let pinnedProfile = try pin(&settings, a: a, b: b, builder: builder)
    return ABJob(
      a: a, b: b, repository: repository, settings: settings, resources: prepared.resources,
      quiet: prepared.quiet,
      overwrite: prepared.overwrite, pinnedProfile: pinnedProfile, design: design,
      decidedPhase: decidedPhase)
  }
}

extension ABJob {
  /// Whether a clean `HEAD` of `repository` may be taken from this checkout's own camera-app
  /// build: only when that is the repository being compared and bench would build it (not
  /// `FIRSTFRAME_CAMERA_APP`'s binary).
  package static func reusesCheckout(_ repository: String) -> Bool {
    let root = CameraAppLocator.packageRoot().map { FileSystem.realPath($0) ?? $0 }
    return root == (FileSystem.realPath(repository) ?? repository)
      && LaunchEnvironment.value(of: .cameraApp) == nil
  }
}

/// `bench ab`'s benchmark, prepared: camera-app built at both revisions, both run on one
/// camera, interleaved run by run (``ABSession``), into `A/` and `B/`; then the comparison.
package struct ABJob: BenchJob, Sendable {
  /// The reference revision.
  package var a: Revision
  /// The new revision.
  package var b: Revision
  /// The git repository the revisions are in.
  package var repository: String
  /// What to run (`outDir` is the folder that gets `A/` and `B/`).
  package var settings: RunSettings
  /// What the benchmark holds open, shared by both sides.
  package var resources: RunResources
  /// No progress output.
  package var quiet: Bool
  /// Write into `A/` and `B/` folders that are not empty, replacing bench's earlier files there.
  package var overwrite = false
  /// The pinned profile's contents when it is A's default (written to `settings.profilePath`,
  /// `OUT/profile.json`, before anything runs); nil with `--profile FILE` or no synthetic camera.
  package var pinnedProfile: [UInt8]? = nil
  /// The builder of both revisions' camera-app; nil makes one for ``repository`` as `bench ab`
  /// does (`bench bisect` passes its own, which counts what it compiles).
  package var builder: RevisionBuilder? = nil
  /// The sequential design each cell stops by (`--sequential`, the default: issue 39); nil with
  /// `--fixed`, when every cell runs `settings.runs` a side. `settings.runs` is its maximum.
  package var design: SequentialDesign? = nil
  /// The phase the ``design`` decides on: `first_frame_observed` (`bench bisect --phase` another).
  package var decidedPhase = PhaseName.firstFrameObserved

  package var sides: [BenchSide] {
    ABSide.allCases.map { BenchSide(label: $0.rawValue, folder: settings.outDir + "/" + $0.rawValue) }
  }
  /// Both revisions run on the one camera, interleaved: its power state is shared, so a warm
  /// run follows the last run of either side, as on a real device.
  package var sharesDevice: Bool { true }
  /// The sides report together: the comparison, not each side's table.
  package var sideOutput: (format: RunFormat, quiet: Bool)? { nil }

  package var progressTotal: Int {
    let rounds = settings.warmup + settings.runs
    return 2 * (settings.conditions.count * settings.configs.count * rounds + settings.primedCells.count)
  }

  /// camera-app at both revisions, A's then B's; first the pinned profile, written into the
  /// results folder (claimed by now).
  package func apps(interrupted: InterruptFlag, log: (String) -> Void) -> BenchJobApps {
    guard writePinnedProfile(log: log) else { return .failed }
    return build(interrupted: interrupted, log: log)
  }

  /// Each side measured its revision: A's commit, then B's (no branch: a revision was built,
  /// and `resolve` refused a `HEAD` with uncommitted changes).
  package func checkouts() -> [SourceCheckout?] {
    [a, b].map { SourceCheckout(commit: $0.commit, branch: nil, dirty: false) }
  }

  /// Writes `revisions.json`, then runs both sides interleaved (``ABSession``); with a
  /// ``design``, each cell stops at the look that decides it, and both sides' results record
  /// the design and where each cell stopped (`settings.sequential`).
  package func run(
    _ sessions: [BenchSession], runners: [BenchRunner], progress: ProgressReporter,
    interrupted: @escaping @Sendable () -> Bool, log: (String) -> Void
  ) -> [BenchResults?] {
    try? FileSystem.replaceAtomically(revisionsJSON, atPath: settings.outDir + "/revisions.json")
    let bySide = Dictionary(uniqueKeysWithValues: zip(ABSide.allCases, sessions))
    let log = PThreadMutex<[BenchResults.SequentialAB.Cell]>([])
    let results = ABSession(
      settings: settings, sides: bySide, progress: progress, interrupted: interrupted, looks: looks(into: log)
    )
    .run()
    let record = sequentialRecord(log.withLock { $0 })
    return ABSide.allCases.map { side in
      results[side].map {
        var sideResults = $0
        sideResults.settings.sequential = record
        return sideResults
      }
    }
  }

  /// The comparison B vs A, in `comparison.txt` and on stdout, then with a ``design`` each
  /// cell's sequential verdict; the exit status is 1 when one is SLOWER.
  package func report(
    _ results: [BenchResults?], status: Int32, output: inout some TextOutputStream,
    errors: inout some TextOutputStream
  ) -> Int32 {
    guard results.count == 2, let resultsA = results[0], let resultsB = results[1] else { return 1 }
    var table = comparison(a: resultsA, b: resultsB)
    let sequential = resultsB.settings.sequential
    if let sequential { table += ABJob.sequentialText(sequential) }
    try? FileSystem.replaceAtomically(table, atPath: settings.outDir + "/comparison.txt")
    output.write(table)
    if !quiet {
      errors.write(
        "bench: results in \(settings.outDir) (A/results.json, B/results.json, comparison.txt)\n")
    }
    return ABJob.sequentialStatus(sequential, status: status)
  }

  /// camera-app at both revisions (``RevisionBuilder``), A's then B's; or the side whose build
  /// failed, or `stopped` when interrupted (said on `log`).
  func build(interrupted: InterruptFlag, log: (String) -> Void) -> BenchJobApps {
    let builder =
      self.builder
      ?? RevisionBuilder(repository: repository, reuseCheckout: ABJob.reusesCheckout(repository))
    var binaries: [String?] = []
    for (index, (side, revision)) in [(ABSide.a, a), (.b, b)].enumerated() {
      do {
        binaries.append(
          try builder.binary(for: revision, interrupted: { interrupted.isSet }) { line in
            if !quiet { log("bench: \(side.rawValue): \(line)") }
          })
      } catch {
        if error.code == .interrupted || interrupted.isSet {
          log("bench: interrupted while building; nothing was measured")
          return .stopped
        }
        log("bench: \(side.rawValue) = \(revision.name): \(error.message)")
        return .notBuilt(side: index, reason: error.message)
      }
    }
    return .apps(binaries)
  }

  /// The comparison B vs A (``ABJob/comparison(a:b:resultsA:resultsB:folder:)``).
  func comparison(a resultsA: BenchResults, b resultsB: BenchResults) -> String {
    ABJob.comparison(a: a, b: b, resultsA: resultsA, resultsB: resultsB, folder: settings.outDir)
  }

  /// `revisions.json`: what A and B are.
  var revisionsJSON: String {
    let object: [String: [String: String]] = [
      "A": ["revision": a.name, "commit": a.commit],
      "B": ["revision": b.name, "commit": b.commit],
    ]
    let data =
      (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]))
      ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
