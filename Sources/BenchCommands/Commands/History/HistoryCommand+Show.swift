import BenchHistory
import SystemCalls
import Foundation
import HistoryAnalysis
import Reports
import Statistics

extension HistoryCommand {
  /// Prints the series `options.query` selects in `options.format`, and with `--svg` writes a trend plot per
  /// series into that folder.
  /// - Throws: `HistoryError` when the database fails or a plot cannot be written.
  static func show(_ options: Options, from store: any HistoryStore, output: inout some TextOutputStream)
    throws(HistoryError)
  {
    let series = try store.series(options.query)
    switch options.format {
    case .table: output.write(HistoryReport.table(series))
    case .csv: output.write(HistoryReport.csv(series))
    case .json: output.write(HistoryReport.json(series))
    }
    if let folder = options.svgFolder {
      try writePlots(series, options: options, folder: folder, output: &output)
    }
  }

  /// Lists the change points of the series `options.query` selects.
  /// - Throws: `HistoryError` when the database fails.
  static func detect(_ options: Options, from store: any HistoryStore, output: inout some TextOutputStream)
    throws(HistoryError)
  {
    let series = try store.series(options.query)
    let found = HistoryChangePoint.detectEach(series, detector: historyDetector(options)).flatMap { $0 }
    switch options.format {
    case .table: output.write(HistoryReport.changePointTable(found, seriesCount: series.count))
    case .csv: output.write(HistoryReport.changePointCSV(found))
    case .json: output.write(HistoryReport.changePointJSON(found))
    }
  }

  /// The detector and its options from the command line.
  static func historyDetector(_ options: Options) -> HistoryDetector {
    switch options.detector {
    case .windowed:
      return .windowed(
        WindowedChangePoints.Options(
          windowLength: options.window, maxPValue: options.maxPValue,
          minimumMagnitude: options.minimumMagnitude),
        falseDiscoveryRate: options.falseDiscoveryRate)
    case .edivisive: return .edivisive(edivisive(options))
    }
  }

  /// E-divisive's options from the command line.
  static func edivisive(_ options: Options) -> EDivisive.Options {
    EDivisive.Options(
      alpha: options.alpha, permutations: options.permutations, minimumSegment: options.minimumSegment)
  }

  /// Writes one trend plot per series into `folder` (made when missing), change points found
  /// with `detect`'s defaults marked; says how many on `output`.
  /// - Throws: `HistoryError` (`cannotWrite`) when the folder or a file cannot be written.
  static func writePlots(
    _ series: [HistorySeries], options: Options, folder: String, output: inout some TextOutputStream
  ) throws(HistoryError) {
    do {
      try FileSystem.createDirectory(atPath: folder)
      for (s, found) in zip(series, HistoryChangePoint.detectEach(series, detector: historyDetector(options)))
      {
        let svg = HistoryTrendPlot.svg(s, changePoints: found, commitURL: options.commitURL)
        try ReportWriter.write(svg, to: folder + "/" + HistoryTrendPlot.fileName(s.key))
      }
    } catch {
      throw HistoryError(.cannotWrite, "cannot write the trend plots into \(folder)", cause: "\(error)")
    }
    output.write("wrote \(series.count) trend plot\(series.count == 1 ? "" : "s") into \(folder)\n")
  }
}
