#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import SystemCalls

/// Follows a trace file that is still being written: each `poll()` parses only the complete
/// lines appended since the last one, so a runner that watches a run for its last events does
/// not re-read the file (and does not take CPU from the app it measures).
///
/// Lines longer than the reader's `maxLineBytes` are skipped without being held in memory and
/// counted as malformed. Used from one thread at a time.
public final class TraceTail {
  private let path: String
  private let reader: TraceReader
  /// The open trace file, or -1 until it exists.
  private var fd: Int32 = -1
  /// What one read(2) fills, reused across polls.
  private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
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

  deinit { if fd >= 0 { FileDescriptorIO.close(fd) } }

  /// Parses the complete lines appended since the last call; returns the new events.
  @discardableResult
  public func poll() -> ArraySlice<PhaseEvent> {
    if fd < 0 { fd = (try? SystemCall.retrying { open(path, O_RDONLY | O_CLOEXEC) }) ?? -1 }
    guard fd >= 0 else { return [] }
    let before = result.events.count
    while true {
      let descriptor = fd
      let count =
        chunk.withUnsafeMutableBytes { buffer in try? FileDescriptorIO.read(descriptor, into: buffer) } ?? 0
      guard count > 0 else { break }
      for byte in chunk[..<count] {
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
