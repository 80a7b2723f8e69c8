import Foundation
import Synchronization
import SystemCalls

/// The run journal (`journal.jsonl` in the results folder): the source of truth for a benchmark
/// in progress. One JSON object per line, each written whole and flushed to the disk
/// (`fdatasync`) before bench goes on:
///
/// - first `{"journal": "firstframe.journal/1", "results": {…}}`: the results without cells
///   (tool, host, settings);
/// - `{"cell": {…}}` when a cell starts (its configuration, condition, burners, phases that do
///   not apply);
/// - `{"run": {"config": …, "condition": …, "camera": …, "realtime": …, "record": {…}}}` for each
///   finished counted run;
/// - last `{"end": {…}}` once `results.json` holds the final results.
///
/// Each run costs one line, whatever came before it: the bookkeeping per run stays flat over a
/// long benchmark. `results.json` and the reports are made from the runs at the end, on Ctrl-C,
/// and — from the journal — when bench or `bench report` finds a journal without its `end` line
/// (a bench killed before its final save).
public final class RunJournal: @unchecked Sendable {
  // @unchecked: `goodLength`, `unsaved` and `storedProblem` change under `lock` only; `fd` and
  // `path` never change.
  /// The journal's file name inside a results folder.
  public static let fileName = "journal.jsonl"
  /// The first line's `journal` value.
  public static let formatIdentifier = "firstframe.journal/1"

  /// The journal's path.
  public let path: String
  private let lock = PThreadMutex<Void>(())
  private let fd: Int32
  private var goodLength: Int
  private var unsaved: [(line: Data, isRun: Bool)] = []

  /// One line of the journal.
  struct Line: Codable {
    var journal: String?
    var results: BenchResults?
    var cell: BenchResults.Cell?
    var run: Run?
    var end: End?
  }

  /// A finished run and the cell it belongs to.
  struct Run: Codable {
    var config: String
    var condition: String
    var camera: String
    var realtime: Bool
    var record: BenchResults.RunRecord
  }

  /// The final results were written.
  struct End: Codable {
    var interrupted: Bool
    var recovered: Bool
  }

  /// Creates `folder/journal.jsonl` (replacing none: the folder was checked to be free of one)
  /// and writes its first line, the results without cells.
  /// - Throws: `ResultsFileError` with the `errno` of the call that failed.
  public init(folder: String, base: BenchResults) throws(ResultsFileError) {
    let path = folder + "/" + Self.fileName
    self.path = path
    var header = base
    header.cells = []
    header.comparisons = []
    let fd: Int32
    do {
      fd = try FileSystem.openForAppending(atPath: path, creating: true)
    } catch {
      throw ResultsFileError(
        code: .writeFailed, path: path, message: "cannot create the run journal", cause: error)
    }
    self.fd = fd
    goodLength = 0
    try append(Line(journal: Self.formatIdentifier, results: header))
  }

  deinit { FileDescriptorIO.close(fd) }

  /// The last write problem, while lines wait in memory for a write to succeed; nil otherwise.
  public var problem: ResultsFileError? { lock.withLock { _ in storedProblem } }
  private var storedProblem: ResultsFileError?

  /// Finished runs whose lines could not be written yet (a full disk): they are retried before
  /// each new line.
  public var unsavedRuns: Int { lock.withLock { _ in unsaved.filter(\.isRun).count } }

  /// Notes that a cell started.
  public func startCell(_ cell: BenchResults.Cell) throws(ResultsFileError) {
    var empty = cell
    empty.records = []
    empty.phases = [:]
    empty.runs = 0
    empty.failed = 0
    try append(Line(cell: empty))
  }

  /// Appends a finished run.
  public func append(
    run record: BenchResults.RunRecord, config: String, condition: String, camera: String, realtime: Bool
  ) throws(ResultsFileError) {
    try append(
      Line(run: Run(config: config, condition: condition, camera: camera, realtime: realtime, record: record))
    )
  }

  /// Notes that `results.json` now holds the final results.
  public func end(interrupted: Bool) throws(ResultsFileError) {
    try append(Line(end: End(interrupted: interrupted, recovered: false)))
  }

  private func append(_ line: Line) throws(ResultsFileError) {
    let data: Data
    do {
      data = try Self.encoder.encode(line) + Data("\n".utf8)
    } catch {
      throw ResultsFileError(
        code: .encodingFailed, path: path, message: "cannot encode a journal line", cause: error)
    }
    let failure = lock.withLock { _ -> ResultsFileError? in
      unsaved.append((data, line.run != nil))
      while let next = unsaved.first?.line {
        do throws(Errno) {
          try ResultsFile.writeAll(fd, next)
          try FileSystem.synchronizeData(fd)
          goodLength += next.count
          unsaved.removeFirst()
        } catch {
          // A line written in part would spoil the next: cut the file back to whole lines.
          try? FileSystem.truncate(fd, toLength: goodLength)
          let problem = ResultsFileError(
            code: .writeFailed, path: path,
            message: "cannot append to the run journal (\(unsaved.count) line(s) kept in memory)",
            cause: error)
          storedProblem = problem
          return problem
        }
      }
      storedProblem = nil
      return nil
    }
    if let failure { throw failure }
  }

  static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }
}
