import Foundation
import SystemCalls

extension RunJournal {
  /// What a journal holds.
  public struct Contents: Sendable {
    /// The results rebuilt from the journal's runs (from `RunJournal.read`: summaries and
    /// comparisons computed again; from ``readRecords(path:)``: the runs' records only);
    /// `complete` false and `settings.interrupted` true unless the journal has its `end` line.
    public var results: BenchResults
    /// Whether any run's probe thread ran with real-time priority.
    public var realtime: Bool
    /// Whether the journal ends with its `end` line (`results.json` was written from it).
    public var hasEnd: Bool
    /// Lines that could not be read (a line cut short by a killed bench, or foreign text).
    public var unreadableLines: Int
  }

  /// Reads the journal at `path`: its header's results with the cells and their runs' records,
  /// nothing computed from them (`RunJournal.read` in Gates adds the summaries and
  /// comparisons).
  /// - Throws: ``ResultsFileError`` naming the file when it cannot be read or does not begin with
  ///   a journal header.
  public static func readRecords(path: String) throws(ResultsFileError) -> Contents {
    let data: Data
    do throws(Errno) {
      data = Data(try FileSystem.contents(atPath: path, maxBytes: .max))
    } catch {
      throw ResultsFileError(reading: .unreadable, path: path, "\(path) cannot be read", cause: error)
    }
    let decoder = JSONDecoder()
    var base: BenchResults?
    var cells: [BenchResults.Cell] = []
    var realtime = false
    var hasEnd = false
    var unreadable = 0
    for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
      guard let entry = try? decoder.decode(Line.self, from: Data(line)) else {
        unreadable += 1
        continue
      }
      if entry.journal == formatIdentifier, let results = entry.results, base == nil {
        base = results
      } else if let cell = entry.cell {
        if !cells.contains(where: { $0.config == cell.config && $0.condition == cell.condition }) {
          cells.append(cell)
        }
      } else if let run = entry.run {
        realtime = realtime || run.realtime
        if let i = cells.firstIndex(where: { $0.config == run.config && $0.condition == run.condition }) {
          cells[i].records.append(run.record)
        } else {
          cells.append(
            BenchResults.Cell(
              config: run.config, condition: run.condition, camera: run.camera, runs: 0, failed: 0,
              phases: [:], records: [run.record]))
        }
      } else if entry.end != nil {
        hasEnd = true
      }
    }
    guard var results = base else {
      throw ResultsFileError(
        reading: .notJournal, path: path,
        "\(path) is not a run journal: it does not begin with a \(formatIdentifier) line")
    }
    results.cells = cells
    results.complete = false
    if !hasEnd { results.settings.interrupted = true }
    return Contents(results: results, realtime: realtime, hasEnd: hasEnd, unreadableLines: unreadable)
  }
}

extension RunJournal {
  /// Appends the `end` line of a journal whose results were rebuilt from it (by a later bench or
  /// `bench report`), so that they are not rebuilt again.
  /// - Throws: `ResultsFileError` with the `errno` of the call that failed.
  package static func markRecovered(path: String) throws(ResultsFileError) {
    let data: Data
    do {
      data = try encoder.encode(Line(end: End(interrupted: true, recovered: true))) + Data("\n".utf8)
    } catch {
      throw ResultsFileError(
        code: .encodingFailed, path: path, message: "cannot encode a journal line", cause: error)
    }
    do throws(Errno) {
      let fd = try FileSystem.openForAppending(atPath: path, creating: false)
      defer { FileDescriptorIO.close(fd) }
      // A last line cut short by a killed bench would swallow the end line: start a new line.
      try FileDescriptorIO.writeAll(fd, "\n")
      try ResultsFile.writeAll(fd, data)
      try FileSystem.synchronizeData(fd)
    } catch {
      throw ResultsFileError(
        code: .writeFailed, path: path, message: "cannot append to the run journal", cause: error)
    }
  }
}
