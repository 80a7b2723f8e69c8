import AppBuilds
import BenchKit
import ResultsSchema

/// A benchmark that ``BenchPipeline`` runs: `bench`'s one results folder, or `bench ab`'s two
/// sides. What differs between commands is here; the steps they share are the pipeline's.
package protocol BenchJob {
  /// What to run; `settings.outDir` is the results folder (`bench ab`: the folder of A/ and B/).
  var settings: RunSettings { get }
  /// What the benchmark holds open (``RunResources``), shared by its sides; the pipeline closes
  /// it at the end.
  var resources: RunResources { get }
  /// No progress output.
  var quiet: Bool { get }
  /// Write into results folders that are not empty, replacing bench's earlier files there.
  var overwrite: Bool { get }
  /// The sides, each with its own results folder, in the order they are written.
  var sides: [BenchSide] { get }
  /// The runs the progress line counts, over all sides.
  var progressTotal: Int { get }
  /// Whether the sides share one camera's power state (in a private folder the pipeline makes):
  /// sides interleaved on one device, where a warm run follows the last run of either side.
  var sharesDevice: Bool { get }
  /// What goes to stdout as each side's results are written (``RunFormat``, and whether
  /// the closing lines are quiet); nil when the job reports its sides together (``report``).
  var sideOutput: (format: RunFormat, quiet: Bool)? { get }

  /// The app each side runs, in ``sides`` order: camera-app, located or built (nil with `--app` or
  /// third-party apps only); or why there is none, the reason said on `log`.
  func apps(interrupted: InterruptFlag, log: (String) -> Void) -> BenchJobApps
  /// The source each side measured, in ``sides`` order (results.json's `tool.commit`,
  /// `tool.branch`, `tool.dirty`); nil where it is not known. Called once, before the runs.
  func checkouts() -> [SourceCheckout?]
  /// Runs the sessions (one per side, in ``sides`` order) to each side's results.
  func run(
    _ sessions: [BenchSession], runners: [BenchRunner], progress: ProgressReporter,
    interrupted: @escaping @Sendable () -> Bool, log: (String) -> Void
  ) -> [BenchResults?]
  /// After every side's results are written with exit status `status`: what the job adds on
  /// stdout and stderr, and the exit status.
  func report(
    _ results: [BenchResults?], status: Int32, output: inout some TextOutputStream,
    errors: inout some TextOutputStream
  ) -> Int32
}

/// One side of a benchmark: its name (`A`, `B`; nil for `bench`'s one side) and its results
/// folder.
package struct BenchSide: Sendable {
  /// The side's name, as its progress lines and folder show it; nil for `bench`'s one side.
  package var label: String?
  /// Its results folder: the job's own (`bench`) or one inside it (`bench ab`'s `A/`, `B/`).
  package var folder: String
}

/// The apps a job's sides run, or why there are none.
package enum BenchJobApps {
  /// Per side: camera-app's path, or nil when the side runs `--app` or third-party apps only.
  case apps([String?])
  /// Side `side`'s camera-app was not built or could not be located, for `reason`.
  case notBuilt(side: Int, reason: String)
  /// A signal stopped the job while building.
  case stopped
  /// Something else the job needs before the runs failed.
  case failed
}

extension BenchJob {
  /// Every side measured this checkout: the package root's commit, branch and state, or
  /// nothing where bench runs from outside a git checkout (``SourceCheckout/describe(_:)``).
  package func checkouts() -> [SourceCheckout?] {
    let checkout = CameraAppLocator.packageRoot().flatMap(SourceCheckout.describe)
    return sides.map { _ in checkout }
  }
}
