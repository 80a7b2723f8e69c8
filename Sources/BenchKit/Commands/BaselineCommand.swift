import BenchAnalysis
import Foundation
import LaunchContract

/// `bench baseline save RESULTS.json BASE.json`: validates a results file and stores it as a baseline.
public enum BaselineCommand: BenchSubcommand {
  /// The option table (parser and `--help`).
  public static let spec = CommandLineSpec(
    command: "bench baseline", synopsis: "save RESULTS.json BASE.json [--force]",
    summary: """
      Copies a results file to a baseline (e.g. Results/baselines/synthetic.json) after validating
      it, recording when it was saved, from where, and the tool version, camera and profile it was
      measured with (bench gate refuses a baseline that differs in those). Refuses results that were
      interrupted or have a cell without successful first_frame_observed runs, unless --force.
      """,
    options: [.flag("--force", "save even interrupted or partly failed results")],
    epilogue: "exit status: 0 saved, 2 bad usage, unreadable or unsuitable results")

  public static func execute(_ o: ParsedOptions, output: inout some TextOutputStream) throws(UsageError)
    -> Int32
  {
    guard o.positional.first == "save" else {
      throw UsageError("the only action is 'save': bench baseline save RESULTS.json BASE.json")
    }
    guard o.positional.count == 3 else {
      throw UsageError("wants a results file and a baseline path: bench baseline save RESULTS.json BASE.json")
    }
    let source = o.positional[1]
    let destination = o.positional[2]
    var results = try ResultsFile.load(path: source)
    guard !results.cells.isEmpty else {
      throw UsageError("\(source) has no cells; nothing to keep as a baseline")
    }
    if !o.has("--force") {
      if results.settings.interrupted {
        throw UsageError(
          "\(source) was interrupted; a baseline should be a complete run (--force to save anyway)")
      }
      let empty = results.orderedCells.filter { $0.samples(for: PhaseName.firstFrameObserved).isEmpty }
      if !empty.isEmpty {
        throw UsageError(
          "\(source) has no successful first_frame_observed runs in \(empty.map { CellKey($0).name }.joined(separator: ", ")) (--force to save anyway)"
        )
      }
    }
    results.baseline = BenchResults.BaselineInfo(
      savedAt: ISO8601DateFormatter().string(from: Date()), source: source, toolVersion: results.tool.version,
      camera: results.settings.camera, profileName: results.settings.profileName)
    do {
      try ResultsFile.save(results, to: destination)
    } catch {
      throw UsageError("cannot write \(destination): \(error)")
    }
    let runs = Set(results.cells.map(\.runs)).sorted().map(String.init).joined(separator: "/")
    output.write(
      "saved baseline \(destination) from \(source): camera \(results.settings.camera), profile \(results.settings.profileName ?? "(none)"), \(results.tool.name) \(results.tool.version), \(results.cells.count) cells × \(runs) runs\n"
    )
    return 0
  }
}
