import BenchKit
import Foundation
import LaunchContract
import ResultsSchema
import RunAnalysis

/// `bench baseline save RESULTS.json BASE.json`: validates a results file and stores it as a baseline.
package enum BaselineCommand: Command {
  /// The command line, checked.
  package struct Options: Sendable {
    /// The results file to keep.
    package var source: String
    /// Where the baseline goes.
    package var destination: String
    /// Save even interrupted or partly failed results.
    package var force: Bool
  }

  static let force = Flag("--force", "save even interrupted or partly failed results")

  /// The option table (parser and `--help`).
  package static let spec = CommandLineSpec(
    command: "bench baseline", synopsis: "save RESULTS.json BASE.json [--force]",
    summary: """
      Copies a results file to a baseline (e.g. Results/baselines/synthetic.json) after validating
      it, recording when it was saved, from where, and the tool version, camera and profile it was
      measured with (bench gate refuses a baseline that differs in those). Refuses results that were
      interrupted or have a cell without successful first_frame_observed runs, unless --force.
      """,
    options: [force],
    epilogue: "exit status: 0 saved, 2 bad usage, unreadable or unsuitable results")

  /// Checks the command line: `save`, a results file and a baseline path.
  package static func options(from parsed: ParsedOptions) throws(UsageError) -> Options {
    guard parsed.positional.first == "save" else {
      throw UsageError("the only action is 'save': bench baseline save RESULTS.json BASE.json")
    }
    guard parsed.positional.count == 3 else {
      throw UsageError("wants a results file and a baseline path: bench baseline save RESULTS.json BASE.json")
    }
    guard !parsed.positional[1].isEmpty else {
      throw UsageError("wants a results file to save, not an empty name")
    }
    guard !parsed.positional[2].isEmpty else {
      throw UsageError("wants a file name to save to, not an empty one")
    }
    return Options(
      source: parsed.positional[1], destination: parsed.positional[2], force: parsed.isSet(force))
  }

  /// Validates the results and saves them as the baseline; says what it saved on `output`.
  /// - Throws: `UsageError` for unreadable or unsuitable results, or a baseline that cannot be written.
  package static func execute(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    let (source, destination) = (options.source, options.destination)
    let data = try UsageError.reading { () throws(ResultsFileError) in try ResultsFile.read(path: source) }
    // Validated without the runs' timelines; the baseline is the file's own bytes plus the
    // baseline record (the timelines are copied, never decoded and encoded again).
    var results = try UsageError.reading { () throws(ResultsFileError) in
      try ResultsFile.decode(data, name: source, timelines: .none)
    }
    guard !results.cells.isEmpty else {
      throw UsageError("\(source) has no cells; nothing to keep as a baseline")
    }
    if !options.force {
      if results.settings.interrupted {
        throw UsageError(
          "\(source) was interrupted; a baseline should be a complete run (--force to save anyway)")
      }
      if results.complete == false {
        throw UsageError(
          "\(source) is not a bench's final results (\"complete\": false); a baseline should be (--force to save anyway)"
        )
      }
      let empty = results.orderedCells.filter { $0.samples(for: PhaseName.firstFrameObserved).isEmpty }
      if !empty.isEmpty {
        throw UsageError(
          "\(source) has no successful first_frame_observed runs in \(empty.map { CellKey($0).name }.joined(separator: ", ")) (--force to save anyway)"
        )
      }
    }
    let copyBytes = results.baseline == nil
    results.baseline = BenchResults.BaselineInfo(
      savedAt: ISO8601DateFormatter().string(from: Date()), source: source, toolVersion: results.tool.version,
      camera: results.settings.camera, profileName: results.settings.profileName)
    do {
      if copyBytes, let info = results.baseline, let spliced = ResultsFile.adding(baseline: info, to: data) {
        try ResultsFile.replaceAtomically(spliced, to: destination)
      } else {
        var full = try ResultsFile.decode(data, name: source)
        full.baseline = results.baseline
        try ResultsFile.save(full, to: destination)
      }
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
