import Foundation
import SystemCalls

/// Reading and writing `results.json` (and baselines, which are results files).
///
/// Loading validates: a missing, empty, truncated, non-JSON, foreign-schema or malformed file
/// gives a ``ResultsFileError`` whose one line names the file and what is wrong (the commands
/// print it as a usage error, exit status 2). Saving is atomic and durable
/// (`FileSystem.replaceAtomically`).
public enum ResultsFile {
  /// Reads and validates a results file, keeping the runs' timelines that `timelines` selects
  /// (all by default; comparisons and gates want none, the reports the representative runs').
  /// - Throws: ``ResultsFileError`` with one line such as
  ///   `Results/base.json is not a results file: it is truncated or not JSON (…)`.
  public static func load(path: String, timelines: BenchResults.TimelineSelection = .all)
    throws(ResultsFileError)
    -> BenchResults
  {
    try decode(read(path: path), name: path, timelines: timelines)
  }

  /// Reads and validates results files at once, one thread each (on a machine with two cores
  /// or more): `compare` and `gate` read a baseline and new results, and decoding is most of
  /// their time. Each file's outcome is what ``load(path:timelines:)`` gives, in `paths` order,
  /// so that the caller throws the error it would have met first.
  public static func loadConcurrently(_ paths: [String], timelines: BenchResults.TimelineSelection = .all)
    -> [Result<BenchResults, ResultsFileError>]
  {
    concurrentMap(paths) { path -> Result<BenchResults, ResultsFileError> in
      do throws(ResultsFileError) {
        return .success(try load(path: path, timelines: timelines))
      } catch {
        return .failure(error)
      }
    }
  }

  /// The bytes of the file at `path`.
  /// - Throws: ``ResultsFileError`` naming the file when it does not exist or cannot be read.
  public static func read(path: String) throws(ResultsFileError) -> Data {
    do throws(Errno) {
      return Data(try FileSystem.contents(atPath: path, maxBytes: .max))
    } catch {
      let exists = error != .noSuchFile && error != Errno(rawValue: ENOTDIR)
      throw ResultsFileError(
        reading: exists ? .unreadable : .missing, path: path,
        "\(path) \(exists ? "cannot be read" : "does not exist")", cause: error)
    }
  }

  /// Decodes and validates results from `data`; `name` is used in the error line.
  ///
  /// A well-formed file is decoded once, straight into `BenchResults`. When not every timeline is
  /// wanted, the decoder is given the file without them (``TimelineLocator``: they are three
  /// quarters of its bytes) and the wanted ones are decoded from their own bytes. A file that does
  /// not decode that way is decoded as it is (twice for the representative timelines: the second
  /// pass keeps only the timelines of the runs the first picked); only a file that does not decode
  /// is looked at again (as generic JSON) to say what is wrong with it.
  public static func decode(
    _ data: Data, name: String, timelines: BenchResults.TimelineSelection = .all
  ) throws(ResultsFileError) -> BenchResults {
    guard !data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
      throw ResultsFileError(
        reading: .empty, path: name,
        "\(name) is empty; expected a \(BenchResults.schemaIdentifier) results file")
    }
    if timelines != .all, let results = decodeLocatingTimelines(data, timelines: timelines) {
      return results
    }
    if timelines == .representative {
      let light = try decode(data, name: name, timelines: .none)
      var runs: [Int: Int] = [:]
      for (i, cell) in light.cells.enumerated() { runs[i] = MedianRun.pick(cell)?.run }
      return try decode(data, name: name, timelines: .runs(runs))
    }
    let results: BenchResults
    do {
      let decoder = JSONDecoder()
      decoder.userInfo[BenchResults.timelineSelectionKey] = timelines
      results = try decoder.decode(BenchResults.self, from: data)
    } catch {
      throw diagnose(data, name: name, error: error)
    }
    guard results.schema == BenchResults.schemaIdentifier else {
      throw ResultsFileError(
        reading: .foreignSchema, path: name,
        "\(name) has schema '\(results.schema)'; this bench reads \(BenchResults.schemaIdentifier) only")
    }
    try validate(results, name: name)
    return results
  }

  /// `data` decoded without its timelines, then the wanted ones from their own bytes; nil when
  /// the locator cannot follow the file or anything does not decode or validate (the caller then
  /// decodes the file as it is, and says what is wrong). The same results as decoding the whole
  /// file with the same selection.
  static func decodeLocatingTimelines(_ data: Data, timelines: BenchResults.TimelineSelection)
    -> BenchResults?
  {
    guard let located = TimelineLocator(data) else { return nil }
    let decoder = JSONDecoder()
    decoder.userInfo[BenchResults.timelineSelectionKey] = BenchResults.TimelineSelection.none
    guard var results = try? decoder.decode(BenchResults.self, from: located.withoutTimelines),
      results.schema == BenchResults.schemaIdentifier, (try? validate(results, name: "")) != nil
    else { return nil }
    var runs: [Int: Int] = [:]
    switch timelines {
    case .all: return nil
    case .none: return results
    case .representative:
      for (i, cell) in results.cells.enumerated() { runs[i] = MedianRun.pick(cell)?.run }
    case .runs(let wanted): runs = wanted
    }
    let eventsDecoder = JSONDecoder()
    for (cell, run) in runs where results.cells.indices.contains(cell) {
      for j in results.cells[cell].records.indices where results.cells[cell].records[j].run == run {
        guard let range = located.ranges[cell]?[j] else { continue }
        let bytes = data[(data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)]
        guard let events = try? eventsDecoder.decode([BenchResults.TimelineEvent]?.self, from: bytes) else {
          return nil
        }
        results.cells[cell].records[j].timeline = events
      }
    }
    return results
  }

  /// Why `data` did not decode as results: not JSON, not an object, no or a foreign schema, or a
  /// field that does not match.
  static func diagnose(_ data: Data, name: String, error: any Error) -> ResultsFileError {
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      return ResultsFileError(
        reading: .notResults, path: name,
        "\(name) is not a results file: it is truncated or not valid JSON (\(data.count) bytes)")
    }
    guard let top = object as? [String: Any] else {
      return ResultsFileError(
        reading: .notResults, path: name,
        "\(name) is not a results file: expected a JSON object at the top level")
    }
    guard let schema = top["schema"] as? String else {
      return ResultsFileError(
        reading: .notResults, path: name,
        "\(name) is not a FirstFrame results file: it has no \"schema\" field (expected \(BenchResults.schemaIdentifier))"
      )
    }
    guard schema == BenchResults.schemaIdentifier else {
      return ResultsFileError(
        reading: .foreignSchema, path: name,
        "\(name) has schema '\(schema)'; this bench reads \(BenchResults.schemaIdentifier) only")
    }
    if let error = error as? DecodingError {
      return ResultsFileError(
        reading: .mismatch, path: name,
        "\(name) does not match \(BenchResults.schemaIdentifier): \(describe(error))")
    }
    return ResultsFileError(
      reading: .mismatch, path: name, "\(name) does not match \(BenchResults.schemaIdentifier): \(error)")
  }

  /// Checks what the decoder cannot: counts agree with samples, samples are finite and ≥ 0.
  static func validate(_ results: BenchResults, name: String) throws(ResultsFileError) {
    for (i, cell) in results.cells.enumerated() {
      for (phase, summary) in cell.phases {
        guard summary.n == summary.samples.count else {
          throw ResultsFileError(
            reading: .inconsistent, path: name,
            "\(name) is inconsistent: cells[\(i)] (\(cell.config)/\(cell.condition)) \(phase) has n = \(summary.n) but \(summary.samples.count) samples"
          )
        }
        guard summary.samples.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
          throw ResultsFileError(
            reading: .inconsistent, path: name,
            "\(name) is inconsistent: cells[\(i)] (\(cell.config)/\(cell.condition)) \(phase) has a negative or non-finite sample"
          )
        }
      }
    }
  }

  /// The JSON text of `results`: pretty-printed with sorted keys, so diffs are readable.
  public static func encode(_ results: BenchResults) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(results)
  }

  /// The bytes of the results file `data`, which has no `baseline` field (decode it to know),
  /// with `baseline` added as that field; nil when `data` does not begin with an object. `bench
  /// baseline save` copies a results file this way instead of decoding and encoding every run's
  /// timeline again.
  public static func adding(baseline: BenchResults.BaselineInfo, to data: Data) -> Data? {
    guard let open = data.firstIndex(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
      data[open] == UInt8(ascii: "{")
    else { return nil }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let info = try? encoder.encode(baseline) else { return nil }
    var out = Data(data[...open])
    out.append(Data("\n  \"baseline\" : ".utf8))
    out.append(info)
    out.append(Data(",".utf8))
    out.append(data[data.index(after: open)...])
    return out
  }

  /// Writes `results` to `path` atomically: a temporary file beside it, then rename.
  /// - Throws: `ResultsFileError` naming the path and the cause.
  public static func save(_ results: BenchResults, to path: String) throws(ResultsFileError) {
    let data: Data
    do {
      data = try encode(results)
    } catch {
      throw ResultsFileError(
        code: .encodingFailed, path: path, message: "cannot encode the results", cause: error)
    }
    try replaceAtomically(data + Data("\n".utf8), to: path)
  }

  /// Writes any bytes to `path` atomically: a temporary file in the same folder, written whole
  /// and flushed (`fsync`), renamed over `path`, then the folder flushed. Creates missing parent
  /// folders.
  /// (``FileSystem/replaceAtomically(_:atPath:mode:)-(UnsafeRawBufferPointer,_,_)``).
  /// - Throws: `ResultsFileError` naming the path and the `errno` of the call that failed.
  public static func replaceAtomically(_ data: Data, to path: String) throws(ResultsFileError) {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    do throws(Errno) {
      try FileSystem.createDirectory(atPath: folder, mode: 0o777)
    } catch {
      throw ResultsFileError(
        code: .writeFailed, path: path, message: "cannot create the folder \(folder)", cause: error)
    }
    let written = data.withUnsafeBytes { raw in
      Result { () throws(Errno) in try FileSystem.replaceAtomically(raw, atPath: path) }
    }
    if case .failure(let error) = written {
      throw ResultsFileError(
        code: .writeFailed, path: path, message: "cannot write the file atomically", cause: error)
    }
  }

  /// Writes every byte of `data` to `fd` (``FileDescriptorIO/writeAll(_:_:)-(_,UnsafeRawBufferPointer)``).
  /// - Throws: the ``Errno`` of the write that failed.
  public static func writeAll(_ fd: Int32, _ data: Data) throws(Errno) {
    let failure = data.withUnsafeBytes { raw -> Errno? in
      do throws(Errno) {
        try FileDescriptorIO.writeAll(fd, raw)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  /// A decoding error as a short phrase with the JSON path, e.g. `missing field "config" at cells[0]`.
  package static func describe(_ error: DecodingError) -> String {
    func path(_ keys: [any CodingKey]) -> String {
      var s = ""
      for key in keys {
        if let i = key.intValue {
          s += "[\(i)]"
        } else {
          s += s.isEmpty ? key.stringValue : ".\(key.stringValue)"
        }
      }
      return s.isEmpty ? "the top level" : s
    }
    switch error {
    case .keyNotFound(let key, let context):
      return "missing field \"\(key.stringValue)\" at \(path(context.codingPath))"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "wrong type at \(path(context.codingPath))"
    case .dataCorrupted(let context):
      return "corrupt value at \(path(context.codingPath))"
    @unknown default:
      return "\(error)"
    }
  }
}
