import SystemCalls

/// Follows a trace file that is still being written: each `poll()` parses only the complete
/// lines appended since the last one, so a runner that watches a run for its last events does
/// not re-read the file (and does not take CPU from the app it measures).
///
/// Lines longer than the reader's `maxLineBytes` are skipped without being held in memory and
/// counted as malformed. Each `poll()` reads at most `maxBytesPerPoll` bytes, so a writer that
/// floods the file cannot keep a poll from returning; the reader's `maxEvents` and `maxBytes`
/// bound what one window (a run) keeps and reads. The file is opened without following a
/// symbolic link and without blocking, and read only when it is a regular file. Used from one
/// thread at a time.
public final class TraceTail {
  private let path: String
  private let reader: TraceReader
  private let maxBytesPerPoll: Int
  private var fd: Int32 = -1
  private var refused = false
  private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
  private var pending: [UInt8] = []
  private var skipping = false
  private var lineNumber = 0
  private var windowBytes = 0
  /// Everything read so far: events in file order, malformed lines and their first problems.
  public private(set) var result = TraceReader.Result()

  /// Follows `path` (which need not exist yet) with `reader`'s limits, reading at most
  /// `maxBytesPerPoll` bytes per ``poll()``.
  public init(path: String, reader: TraceReader = TraceReader(), maxBytesPerPoll: Int = 1 << 20) {
    self.path = path
    self.reader = reader
    self.maxBytesPerPoll = max(1, maxBytesPerPoll)
  }

  deinit { if fd >= 0 { FileDescriptorIO.close(fd) } }

  /// Opens the trace once it exists: `O_NOFOLLOW | O_NONBLOCK`, a regular file only.
  private func open() -> Bool {
    if fd >= 0 { return true }
    if refused { return false }
    let opened: Int32
    do {
      opened = try FileSystem.openForReading(atPath: path, refusingLinks: true, nonBlocking: true)
    } catch {
      if error == .tooManyLinks { refuse("a symbolic link") }
      return false
    }
    guard FileSystem.isRegularFile(opened) else {
      FileDescriptorIO.close(opened)
      refuse("not a regular file")
      return false
    }
    fd = opened
    return true
  }

  private func refuse(_ what: String) {
    refused = true
    result.malformedLines += 1
    result.problems.append("the trace \(path) is \(what): not read")
  }

  /// Parses the complete lines appended since the last call, reading at most `maxBytesPerPoll`
  /// bytes; returns the new events.
  @discardableResult
  public func poll() -> ArraySlice<PhaseEvent> {
    let before = result.events.count
    _ = read(upTo: maxBytesPerPoll)
    return result.events[min(before, result.events.count)...]
  }

  /// Reads up to `limit` bytes (and no further than the window's `maxBytes`); returns how many.
  private func read(upTo limit: Int) -> Int {
    guard open() else { return 0 }
    var total = 0
    while total < limit && windowBytes < reader.maxBytes {
      let want = min(buffer.count, limit - total, reader.maxBytes - windowBytes)
      let n = buffer.withUnsafeMutableBytes { raw -> Int in
        let chunk = UnsafeMutableRawBufferPointer(rebasing: raw[0..<want])
        guard let n = try? FileDescriptorIO.read(fd, into: chunk), n > 0 else { return 0 }
        consume(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
        return n
      }
      if n <= 0 { break }
      total += n
      windowBytes += n
    }
    return total
  }

  /// Splits `bytes` into lines (a flood of them is scanned with `memchr`, not byte by byte).
  private func consume(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    var start = 0
    while start < bytes.count {
      let rest = UnsafeRawBufferPointer(start: base + start, count: bytes.count - start)
      guard let offset = RawMemory.firstIndex(of: UInt8(ascii: "\n"), in: rest) else {
        keep(rest)
        return
      }
      let end = start + offset
      keep(UnsafeRawBufferPointer(start: base + start, count: end - start))
      lineNumber += 1
      endLine(at: lineNumber)
      start = end + 1
    }
  }

  /// Adds part of the current line, or starts skipping it once it is longer than `maxLineBytes`.
  private func keep(_ part: UnsafeRawBufferPointer) {
    guard !skipping, part.count > 0 else { return }
    if pending.count + part.count > reader.maxLineBytes {
      skipping = true
      pending.removeAll(keepingCapacity: true)
    } else {
      pending.append(contentsOf: part)
    }
  }

  private func endLine(at line: Int) {
    if skipping {
      reader.note(&result, line: line, "longer than \(reader.maxLineBytes) bytes")
    } else if result.events.count >= reader.maxEvents {
      if !pending.isEmpty { result.droppedLines += 1 }
    } else {
      reader.parse(pending, line: line, into: &result)
    }
    pending.removeAll(keepingCapacity: true)
    skipping = false
  }

  /// Reads what the file holds now, up to the window's `maxBytes` (the bytes past it are
  /// counted in `unreadBytes`), without ending the last line; returns everything read so far.
  @discardableResult
  public func drain() -> TraceReader.Result {
    while read(upTo: 1 << 20) > 0 {}
    if fd >= 0, windowBytes >= reader.maxBytes {
      if let size = FileSystem.size(of: fd), let offset = FileDescriptorIO.currentOffset(fd) {
        result.unreadBytes = max(0, size - offset)
      }
    }
    return result
  }

  /// Ends following: reads what is left (see ``drain()``); a last line without a newline (a
  /// writer killed mid-line) is parsed too.
  public func finish() -> TraceReader.Result {
    drain()
    if !pending.isEmpty || skipping { endLine(at: lineNumber + 1) }
    pending.removeAll()
    skipping = false
    return result
  }

  /// Starts a new window (the next run of an app that stays up): forgets the events before `ts`
  /// and the counts, and gives the window fresh `maxEvents` and `maxBytes` budgets.
  public func startWindow(keepingEventsFrom ts: UInt64) {
    result.events.removeAll { $0.ts < ts }
    result.malformedLines = 0
    result.problems = []
    result.droppedLines = 0
    result.unreadBytes = 0
    windowBytes = 0
  }
}
