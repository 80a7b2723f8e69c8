/// Reads the text of bench's device trace instance (`firstframe-<claim>-device`, docs/
/// kernel-device-phases.md) into ``KernelDeviceEvent``s. Lines look like (Debian's 6.1 kernel,
/// `record-tgid` on):
///
///     v4l2-ctl-174     (    174) [000] ...1.    62.851355: sys_openat(dfd: ffffff9c, filename: 7fffe9dccea0, flags: 2, mode: 0)
///     v4l2-ctl-174     (    174) [000] ...1.    62.851455: sys_openat -> 0x3
///     v4l2-ctl-174     (    174) [000] ...1.    63.050164: sys_ioctl(fd: 3, cmd: 40045612, arg: 7fffe9dc6970)
///     v4l2-ctl-174     (    174) [001] .....    63.786329: v4l2_dqbuf: minor = 0, index = 0, type = VIDEO_CAPTURE, …
///     vivid-000-vid-c-175 (  175) [000] .....    63.484166: vb2_buf_done: owner = (____ptrval____), …, type = 1, …
///
/// System call arguments and results are hexadecimal. Lines of other events, comments and lines
/// that cannot be read are skipped; the last are counted.
package enum KernelDeviceTraceParser {
  /// The result of parsing a trace's text.
  package struct Result: Sendable {
    /// The events in the text's order (the kernel merges its per-CPU buffers by time).
    package var events: [KernelDeviceEvent]
    /// Lines that named one of the events but could not be read.
    package var malformedLines: Int
  }

  /// Parses a whole trace text.
  package static func parse(_ text: String) -> Result {
    var result = Result(events: [], malformedLines: 0)
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      switch parse(line: line) {
      case .event(let event): result.events.append(event)
      case .malformed: result.malformedLines += 1
      case .skipped: break
      }
    }
    return result
  }

  /// What one line holds.
  package enum Outcome: Sendable, Hashable {
    /// One of the events.
    case event(KernelDeviceEvent)
    /// It names one of them but cannot be read.
    case malformed
    /// A comment, a blank line, another event.
    case skipped
  }

  /// The events read, by the name the trace prints.
  private static let names: Set<Substring> = [
    "sys_openat", "sys_ioctl", "sys_mmap", "v4l2_dqbuf", "vb2_buf_done",
  ]

  /// Parses one line.
  package static func parse(line: Substring) -> Outcome {
    let trimmed = line.drop { $0 == " " }
    guard !trimmed.isEmpty, trimmed.first != "#" else { return .skipped }
    guard let head = head(of: trimmed) else { return .skipped }
    let body = head.body
    let nameEnd = body.firstIndex { $0 == "(" || $0 == ":" || $0 == " " } ?? body.endIndex
    let name = body[..<nameEnd]
    guard names.contains(name) else { return .skipped }
    guard let kind = kind(name, body[nameEnd...]) else { return .malformed }
    return .event(KernelDeviceEvent(ts: head.ts, tid: head.tid, tgid: head.tgid, comm: head.comm, kind: kind))
  }

  /// The line's head, `COMM-TID [( TGID)] [CPU] FLAGS SECONDS.MICROS: `, and what follows it.
  private static func head(of line: Substring) -> (
    comm: String, tid: Int, tgid: Int?, ts: UInt64, body: Substring
  )? {
    var search = line.startIndex
    while let open = line[search...].firstIndex(of: "[") {
      search = line.index(after: open)
      guard let close = line[search...].firstIndex(of: "]"), close > search,
        line[search..<close].allSatisfy(\.isASCIIDigit)
      else { continue }
      // `] FLAGS   SECONDS.FRACTION: `
      let afterCPU = line[line.index(after: close)...].drop { $0 == " " }
      guard let flagsEnd = afterCPU.firstIndex(of: " ") else { continue }
      let time = afterCPU[flagsEnd...].drop { $0 == " " }
      guard let colon = time.firstIndex(of: ":"), let ts = nanoseconds(time[..<colon]) else { continue }
      let body = time[time.index(after: colon)...].drop { $0 == " " }
      guard let task = task(line[..<open]) else { return nil }
      return (task.comm, task.tid, task.tgid, ts, body)
    }
    return nil
  }

  /// `COMM-TID` with an optional `( TGID)` or `(-------)` after it.
  private static func task(_ text: Substring) -> (comm: String, tid: Int, tgid: Int?)? {
    var task = trim(text)
    var tgid: Int?
    if task.last == ")", let open = task.lastIndex(of: "(") {
      let group = trim(task[task.index(after: open)..<task.index(before: task.endIndex)])
      guard group.allSatisfy({ $0 == "-" }) || Int(group) != nil else { return nil }
      tgid = Int(group)
      task = trim(task[..<open])
    }
    guard let dash = task.lastIndex(of: "-"), let tid = Int(task[task.index(after: dash)...]) else {
      return nil
    }
    return (String(task[..<dash]), tid, tgid)
  }

  private static func kind(_ name: Substring, _ rest: Substring) -> KernelDeviceEvent.Kind? {
    if rest.hasPrefix(" -> ") {
      guard let result = signedHex(rest.dropFirst(4)) else { return nil }
      switch name {
      case "sys_openat": return .openExit(result: result)
      case "sys_ioctl": return .ioctlExit(result: result)
      case "sys_mmap": return .mmapExit
      default: return nil
      }
    }
    if rest.first == "(" {
      let arguments = self.arguments(rest.dropFirst().prefix { $0 != ")" }, separator: ": ")
      switch name {
      case "sys_openat": return .openEnter
      case "sys_ioctl":
        guard let fd = arguments["fd"].flatMap({ UInt64($0, radix: 16) }),
          // The request is an unsigned long; a caller that passes it as a negative int (PipeWire's
          // daemon: VIDIOC_DQBUF is 0xc0585611) has it printed sign-extended to 64 bits.
          let request = arguments["cmd"].flatMap({ UInt64($0, radix: 16) }).map({
            UInt32(truncatingIfNeeded: $0)
          })
        else { return nil }
        return .ioctlEnter(fd: Int(truncatingIfNeeded: Int32(truncatingIfNeeded: fd)), request: request)
      case "sys_mmap":
        guard let fd = arguments["fd"].flatMap({ UInt64($0, radix: 16) }) else { return nil }
        return .mmapEnter(fd: Int(Int32(truncatingIfNeeded: fd)))
      default: return nil
      }
    }
    guard rest.hasPrefix(":") else { return nil }
    let fields = arguments(rest.dropFirst(), separator: " = ")
    switch name {
    case "v4l2_dqbuf":
      guard let minor = fields["minor"].flatMap({ Int($0) }), let type = fields["type"] else { return nil }
      return .dequeued(minor: minor, capture: type == "VIDEO_CAPTURE" || type == "VIDEO_CAPTURE_MPLANE")
    case "vb2_buf_done":
      guard let type = fields["type"].flatMap({ Int($0) }) else { return nil }
      return .bufferDone(capture: type == 1 || type == 9)
    default: return nil
    }
  }

  /// `key<separator>value, key<separator>value` → values by key (the first of each; a value
  /// holding `{ … }` or a comma is cut there, which the keys read here never do).
  private static func arguments(_ text: Substring, separator: String) -> [Substring: Substring] {
    var out: [Substring: Substring] = [:]
    for part in text.split(separator: ",") {
      let item = trim(part)
      guard let range = item.firstRange(of: separator) else { continue }
      let key = item[..<range.lowerBound]
      if out[key] == nil { out[key] = trim(item[range.upperBound...]) }
    }
    return out
  }

  /// `0x…` (or bare hexadecimal) as a signed 64-bit value: `0xffffffffffffffea` is -22.
  private static func signedHex(_ text: Substring) -> Int? {
    let digits = trim(text).hasPrefix("0x") ? trim(text).dropFirst(2) : trim(text)
    guard let value = UInt64(digits, radix: 16) else { return nil }
    return Int(Int64(bitPattern: value))
  }

  /// `SECONDS.FRACTION` (up to nine decimals) → ns.
  static func nanoseconds(_ text: Substring) -> UInt64? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count <= 9, parts[1].count <= 9, !parts[1].isEmpty,
      parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit),
      let seconds = UInt64(parts[0]), let fraction = UInt64(parts[1])
    else { return nil }
    var scale: UInt64 = 1
    for _ in 0..<(9 - parts[1].count) { scale *= 10 }
    return seconds * 1_000_000_000 + fraction * scale
  }

  private static func trim(_ text: Substring) -> Substring {
    guard let first = text.firstIndex(where: { $0 != " " }), let last = text.lastIndex(where: { $0 != " " })
    else { return text[text.endIndex...] }
    return text[first...last]
  }
}

extension Character {
  /// `0`…`9`.
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
