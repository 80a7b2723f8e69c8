import JSONDecoding

/// Reads a trace file written by any number of processes.
///
/// Malformed lines (not JSON, missing fields, over `maxLineBytes`) are counted, never fatal;
/// a line longer than the limit is skipped without being held in memory, so one bad writer
/// cannot make the reader use unbounded memory. A writer that floods the trace cannot make it
/// read or keep without end either: after `maxEvents` events the remaining lines are counted, not
/// parsed, and after `maxBytes` bytes the reader stops. Only a regular file is read (a FIFO, a
/// device or a symbolic link put in the trace's place is refused), so a read never blocks.
public struct TraceReader: Sendable {
  /// The longest line accepted, in bytes.
  public var maxLineBytes: Int
  /// The most events kept (per window of a ``TraceTail``); later lines are counted in
  /// `droppedLines`.
  public var maxEvents: Int
  /// The most bytes read (per window of a ``TraceTail``); the rest is counted in `unreadBytes`.
  public var maxBytes: Int

  /// Creates a reader.
  public init(maxLineBytes: Int = 64 * 1024, maxEvents: Int = 1_000_000, maxBytes: Int = 1 << 30) {
    self.maxLineBytes = maxLineBytes
    self.maxEvents = maxEvents
    self.maxBytes = maxBytes
  }

  /// What a read produced.
  public struct Result: Sendable {
    /// Well-formed events, in file order.
    public var events: [PhaseEvent] = []
    /// How many lines could not be used.
    public var malformedLines = 0
    /// The first few problems, for a report (`line N: why`).
    public var problems: [String] = []
    /// Lines after the first `maxEvents` events: counted, not parsed.
    public var droppedLines = 0
    /// Bytes after the first `maxBytes`, or of a trace that is not a regular file: not read.
    public var unreadBytes = 0
  }

  /// Reads `path`. A missing file reads as empty.
  public func read(path: String) -> Result {
    let tail = TraceTail(path: path, reader: self)
    tail.poll()
    return tail.finish()
  }

  /// Parses the lines of `text` (for tests and in-memory traces), split at every newline byte
  /// as a file read splits them (a `\r\n` is one `Character` in Swift, but two bytes here too).
  public func parse(text: String) -> Result {
    var result = Result()
    for (i, line) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .enumerated()
    {
      let bytes = Array(line)
      if bytes.count > maxLineBytes {
        note(&result, line: i + 1, "longer than \(maxLineBytes) bytes")
      } else {
        parse(bytes, line: i + 1, into: &result)
      }
    }
    return result
  }

  func parse(_ bytes: [UInt8], line: Int, into result: inout Result) {
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
    do {
      let event = try JSONValueDecoder().decode(PhaseEvent.self, from: bytes)
      result.events.append(event)
    } catch {
      note(&result, line: line, "not a trace event")
    }
  }

  func note(_ result: inout Result, line: Int, _ why: String) {
    result.malformedLines += 1
    if result.problems.count < 10 { result.problems.append("line \(line): \(why)") }
  }
}
