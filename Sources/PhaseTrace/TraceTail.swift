import Foundation

/// Follows a trace file that is still being written: each `poll()` parses only the complete
/// lines appended since the last one, so a runner that watches a run for its last events does
/// not re-read the file (and does not take CPU from the app it measures).
///
/// Lines longer than the reader's `maxLineBytes` are skipped without being held in memory and
/// counted as malformed. Used from one thread at a time.
public final class TraceTail {
  private let path: String
  private let reader: TraceReader
  private var handle: FileHandle?
  private var pending: [UInt8] = []
  private var skipping = false
  private var lineNumber = 0
  /// Everything read so far: events in file order, malformed lines and their first problems.
  public private(set) var result = TraceReader.Result()

  /// Follows `path` (which need not exist yet) with `reader`'s limits.
  public init(path: String, reader: TraceReader = TraceReader()) {
    self.path = path
    self.reader = reader
  }

  deinit { try? handle?.close() }

  /// Parses the complete lines appended since the last call; returns the new events.
  @discardableResult
  public func poll() -> ArraySlice<PhaseEvent> {
    if handle == nil { handle = FileHandle(forReadingAtPath: path) }
    guard let handle else { return [] }
    let before = result.events.count
    while true {
      let chunk = (try? handle.read(upToCount: 256 * 1024)) ?? nil
      guard let chunk, !chunk.isEmpty else { break }
      for byte in chunk {
        if byte == UInt8(ascii: "\n") {
          lineNumber += 1
          if skipping {
            reader.note(&result, line: lineNumber, "longer than \(reader.maxLineBytes) bytes")
          } else {
            reader.parse(pending, line: lineNumber, into: &result)
          }
          pending.removeAll(keepingCapacity: true)
          skipping = false
        } else if !skipping {
          if pending.count >= reader.maxLineBytes {
            skipping = true
            pending.removeAll(keepingCapacity: true)
          } else {
            pending.append(byte)
          }
        }
      }
    }
    return result.events[before...]
  }

  /// Ends following: a last line without a newline (a writer killed mid-line) is parsed too.
  public func finish() -> TraceReader.Result {
    poll()
    if skipping {
      reader.note(&result, line: lineNumber + 1, "longer than \(reader.maxLineBytes) bytes")
    } else if !pending.isEmpty {
      reader.parse(pending, line: lineNumber + 1, into: &result)
    }
    pending.removeAll()
    skipping = false
    return result
  }
}
