/// Reads the text of a tracefs instance's `trace` file into ``SchedEvent``s.
///
/// A line looks like (with the `record-tgid` option; the `(TGID)` column is optional):
///
///     sh-26912   (  26912) [000] d..2. 32152.516261: sched_switch: prev_comm=bash prev_pid=26912 prev_prio=120 prev_state=R+ ==> next_comm=migration/0 next_pid=18 next_prio=0
///
/// A `comm` may hold spaces, so fields are cut at the next known key (` prev_pid=`), never at
/// a space. Comment lines (`#`) and events of other names are skipped, not counted as malformed.
public enum SchedTraceParser {
  /// The result of parsing a trace's text.
  public struct Result: Sendable {
    /// The events, in the order of the text (the kernel merges its per-CPU buffers by time).
    public var events: [SchedEvent]
    /// Lines that named a scheduler event the instrument reads but could not be parsed.
    public var malformedLines: Int
  }

  /// The events read; other `sched_*` events in a trace are skipped.
  public static let names: Set<String> = [
    "sched_switch", "sched_wakeup", "sched_wakeup_new", "sched_process_fork", "sched_process_exec",
    "sched_process_exit",
  ]

  /// Parses a whole trace text.
  public static func parse(_ text: String) -> Result {
    var events: [SchedEvent] = []
    var malformed = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      if line.first == "#" { continue }
      guard let marker = line.firstRange(of: ": sched_") else { continue }
      let name = line[line.index(marker.lowerBound, offsetBy: 2)...].prefix { $0 != ":" }
      guard names.contains(String(name)) else { continue }
      if let event = parse(line: line) { events.append(event) } else { malformed += 1 }
    }
    return Result(events: events, malformedLines: malformed)
  }

  /// Parses one line; nil when it is not one of the events ``SchedEvent/Kind`` names, or is cut.
  public static func parse(line: Substring) -> SchedEvent? {
    guard let marker = line.firstRange(of: ": sched_") else { return nil }
    let head = line[..<marker.lowerBound]
    let rest = line[line.index(marker.lowerBound, offsetBy: 2)...]
    guard let colon = rest.firstIndex(of: ":") else { return nil }
    let name = rest[..<colon]
    let body = rest[rest.index(after: colon)...].drop { $0 == " " }
    guard let header = parseHeader(head), let kind = parseKind(name: name, body: body) else { return nil }
    return SchedEvent(ts: header.ts, cpu: header.cpu, tgid: header.tgid, taskTid: header.tid, kind: kind)
  }

  /// The line's head: `TASK-PID [( TGID)] [CPU] FLAGS SECONDS.MICROS`.
  static func parseHeader(_ head: Substring) -> (ts: UInt64, cpu: Int, tgid: Int?, tid: Int)? {
    let tokens = head.split(separator: " ", omittingEmptySubsequences: true)
    guard tokens.count >= 4, let ts = nanoseconds(tokens[tokens.count - 1]) else { return nil }
    let cpuToken = tokens[tokens.count - 3]
    guard cpuToken.first == "[", cpuToken.last == "]", let cpu = Int(cpuToken.dropFirst().dropLast()) else {
      return nil
    }
    // The task: everything before the CPU, less an optional `( TGID)` group at its end.
    let before = head[..<cpuToken.startIndex]
    var task = before
    var tgid: Int?
    if let open = before.lastIndex(of: "("), let close = before.lastIndex(of: ")"), open < close,
      before[before.index(after: close)...].allSatisfy({ $0 == " " })
    {
      // `(  26906)`, or `(-------)` where the kernel had no thread group for the task.
      let group = before[before.index(after: open)..<close].trimmingSpaces
      if group.allSatisfy({ $0 == "-" }) || Int(group) != nil {
        tgid = Int(group)
        task = before[..<open]
      }
    }
    let trimmed = task.trimmingSpaces
    guard let dash = trimmed.lastIndex(of: "-"), let tid = Int(trimmed[trimmed.index(after: dash)...]) else {
      return nil
    }
    return (ts, cpu, tgid, tid)
  }

  /// `32152.516261` (seconds with up to nine decimals) → ns.
  static func nanoseconds(_ text: Substring) -> UInt64? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, let seconds = UInt64(parts[0]), parts[1].count <= 9,
      let fraction = UInt64(parts[1].isEmpty ? "0" : parts[1])
    else { return nil }
    var scale: UInt64 = 1
    for _ in 0..<(9 - parts[1].count) { scale *= 10 }
    return seconds * 1_000_000_000 + fraction * scale
  }

  static func parseKind(name: Substring, body: Substring) -> SchedEvent.Kind? {
    switch name {
    case "sched_switch":
      let keys = ["prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid", "next_prio"]
      guard let f = fields(body, keys: keys), let prev = Int(f[1]), let next = Int(f[5]) else { return nil }
      var state = f[3]
      if state.hasSuffix(" ==>") { state = String(state.dropLast(4)) }
      return .switchOut(prev: prev, prevComm: f[0], prevState: state, next: next, nextComm: f[4])
    case "sched_wakeup", "sched_wakeup_new":
      guard let f = fields(body, keys: ["comm", "pid", "prio"]), let tid = Int(f[1]) else { return nil }
      return .wakeup(tid: tid, comm: f[0], new: name == "sched_wakeup_new")
    case "sched_process_fork":
      guard let f = fields(body, keys: ["comm", "pid", "child_comm", "child_pid"]), let parent = Int(f[1]),
        let child = Int(f[3])
      else { return nil }
      return .processFork(parent: parent, child: child, childComm: f[2])
    case "sched_process_exec":
      guard let f = fields(body, keys: ["filename", "pid", "old_pid"]), let tid = Int(f[1]) else {
        return nil
      }
      return .exec(tid: tid, filename: f[0])
    case "sched_process_exit":
      guard let f = fields(body, keys: ["comm", "pid", "prio"]), let tid = Int(f[1]) else { return nil }
      return .exit(tid: tid, comm: f[0])
    default:
      return nil
    }
  }

  /// The values of `keys`, which appear in this order as `key=value`; a value runs to the
  /// next key's ` key=` (the last one to its first space, or the end). Nil when a key is missing.
  static func fields(_ body: Substring, keys: [String]) -> [String]? {
    var values: [String] = []
    var rest = body
    guard rest.hasPrefix(keys[0] + "=") else { return nil }
    rest = rest.dropFirst(keys[0].count + 1)
    for index in keys.indices {
      if index + 1 < keys.count {
        guard let next = rest.firstRange(of: " " + keys[index + 1] + "=") else { return nil }
        values.append(String(rest[..<next.lowerBound]))
        rest = rest[next.upperBound...]
      } else {
        values.append(String(rest.prefix { $0 != " " }))
      }
    }
    return values
  }
}

extension Substring {
  /// The text without leading and trailing spaces.
  fileprivate var trimmingSpaces: Substring {
    guard let first = firstIndex(where: { $0 != " " }), let last = lastIndex(where: { $0 != " " }) else {
      return ""
    }
    return self[first...last]
  }
}
