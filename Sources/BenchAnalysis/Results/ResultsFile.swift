import CommandLineKit
import Foundation

/// Reading and writing `results.json` (and baselines, which are results files).
///
/// Loading validates: a missing, empty, truncated, non-JSON, foreign-schema or malformed file
/// gives one `UsageError` line that names the file and what is wrong (exit status 2).
/// Saving is atomic: a temporary file in the same folder, then `rename(2)`.
public enum ResultsFile {
  /// Reads and validates a results file.
  /// - Throws: `UsageError` with one line such as
  ///   `Results/base.json is not a results file: it is truncated or not JSON (…)`.
  public static func load(path: String) throws(UsageError) -> BenchResults {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
      throw UsageError("\(path) \(reason)")
    }
    return try decode(data, name: path)
  }

  /// Decodes and validates results from `data`; `name` is used in the error line.
  public static func decode(_ data: Data, name: String) throws(UsageError) -> BenchResults {
    guard !data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
      throw UsageError("\(name) is empty; expected a \(BenchResults.schemaIdentifier) results file")
    }
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw UsageError(
        "\(name) is not a results file: it is truncated or not valid JSON (\(data.count) bytes)")
    }
    guard let top = object as? [String: Any] else {
      throw UsageError("\(name) is not a results file: expected a JSON object at the top level")
    }
    guard let schema = top["schema"] as? String else {
      throw UsageError(
        "\(name) is not a FirstFrame results file: it has no \"schema\" field (expected \(BenchResults.schemaIdentifier))"
      )
    }
    guard schema == BenchResults.schemaIdentifier else {
      throw UsageError(
        "\(name) has schema '\(schema)'; this bench reads \(BenchResults.schemaIdentifier) only")
    }
    let results: BenchResults
    do {
      results = try JSONDecoder().decode(BenchResults.self, from: data)
    } catch let error as DecodingError {
      throw UsageError("\(name) does not match \(BenchResults.schemaIdentifier): \(describe(error))")
    } catch {
      throw UsageError("\(name) does not match \(BenchResults.schemaIdentifier): \(error)")
    }
    try validate(results, name: name)
    return results
  }

  /// Checks what the decoder cannot: counts agree with samples, samples are finite and ≥ 0.
  static func validate(_ results: BenchResults, name: String) throws(UsageError) {
    for (i, cell) in results.cells.enumerated() {
      for (phase, summary) in cell.phases {
        guard summary.n == summary.samples.count else {
          throw UsageError(
            "\(name) is inconsistent: cells[\(i)] (\(cell.config)/\(cell.condition)) \(phase) has n = \(summary.n) but \(summary.samples.count) samples"
          )
        }
        guard summary.samples.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
          throw UsageError(
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

  /// Writes `results` to `path` atomically: a temporary file beside it, then rename.
  /// - Throws: `ResultsFileError` naming the path and the cause.
  public static func save(_ results: BenchResults, to path: String) throws {
    let data: Data
    do {
      data = try encode(results)
    } catch {
      throw ResultsFileError(
        code: .encodingFailed, path: path, message: "cannot encode the results", cause: error)
    }
    try writeAtomically(data + Data("\n".utf8), to: path)
  }

  /// Writes any bytes to `path` atomically (temporary file in the same folder, fsync, rename).
  /// Creates missing parent folders.
  public static func writeAtomically(_ data: Data, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw ResultsFileError(
        code: .writeFailed, path: path, message: "cannot create the folder \(folder.path)", cause: error)
    }
    let temp = folder.appendingPathComponent(
      ".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    guard FileManager.default.createFile(atPath: temp.path, contents: data) else {
      throw ResultsFileError(code: .writeFailed, path: path, message: "cannot write \(temp.path)", cause: nil)
    }
    if let handle = FileHandle(forUpdatingAtPath: temp.path) {
      try? handle.synchronize()
      try? handle.close()
    }
    guard rename(temp.path, path) == 0 else {
      let code = errno
      unlink(temp.path)
      throw ResultsFileError(
        code: .writeFailed, path: path, message: "cannot rename the temporary file into place",
        cause: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
    }
  }

  /// A decoding error as a short phrase with the JSON path, e.g. `missing field "config" at cells[0]`.
  static func describe(_ error: DecodingError) -> String {
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

/// A failure to write a results file: code, a message a person can act on, the path and the cause.
public struct ResultsFileError: Error, CustomStringConvertible {
  /// What went wrong.
  public enum Code: String, Sendable {
    /// The results could not be turned into JSON (a NaN, for example).
    case encodingFailed
    /// The file or its folder could not be written.
    case writeFailed
  }
  /// What went wrong.
  public var code: Code
  /// The file.
  public var path: String
  /// For people.
  public var message: String
  /// The underlying error, when any.
  public var cause: (any Error)?

  /// One line: `cannot write Results/x/results.json: … (cause)`.
  public var description: String {
    "\(path): \(message)" + (cause.map { " (\($0))" } ?? "")
  }
}
