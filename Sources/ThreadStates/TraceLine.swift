/// One line of a `trace` file's text, read as bytes: `bytes[start..<end]`, without its newline.
/// See ``SchedTraceParser`` for the format.
struct TraceLine {
  let bytes: UnsafeBufferPointer<UInt8>
  let start: Int
  let end: Int

  /// What a line holds.
  enum Outcome {
    /// One of the events the instrument reads.
    case event(SchedEvent)
    /// It names one of them but cannot be read (cut short, a field missing).
    case malformed
    /// A comment, a blank line, another event.
    case skipped
  }

  /// An event the instrument reads: its name, its fields' keys in the order they appear, which
  /// values are numbers, and what may follow the last value.
  ///
  /// A `comm` or a `filename` may hold a key (` pid=`) or a space, but a comm is at most 15
  /// bytes, so a line has one way to split where every number field is a number and the text
  /// after the last value is what the kernel writes there: ``fields(from:_:)`` finds it.
  private struct Layout {
    let tag: Tag
    let name: [UInt8]
    /// The first key with its `=`.
    let first: [UInt8]
    /// The next keys, each as ` key=`.
    let rest: [[UInt8]]
    /// The values that are numbers (an optional `-` and digits), by position.
    let numbers: Set<Int>
    /// What may follow the last value: the end of the line (an empty entry) or these.
    let tails: [[UInt8]]

    init(_ tag: Tag, _ name: String, _ keys: [String], numbers: Set<Int>, tails: [String] = [""]) {
      self.tag = tag
      self.name = Array(name.utf8)
      self.first = Array((keys[0] + "=").utf8)
      self.rest = keys.dropFirst().map { Array((" " + $0 + "=").utf8) }
      self.numbers = numbers
      self.tails = tails.map { Array($0.utf8) }
    }
  }

  private enum Tag { case switchOut, wakeup, wakeupNew, fork, exec, exit, runtime }

  private static let layouts: [Layout] = [
    Layout(
      .switchOut, "sched_switch",
      ["prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid", "next_prio"],
      numbers: [1, 2, 5, 6]),
    Layout(
      .wakeup, "sched_wakeup", ["comm", "pid", "prio"], numbers: [1, 2], tails: [" target_cpu=", " success="]),
    Layout(
      .wakeupNew, "sched_wakeup_new", ["comm", "pid", "prio"], numbers: [1, 2],
      tails: [" target_cpu=", " success="]),
    Layout(.fork, "sched_process_fork", ["comm", "pid", "child_comm", "child_pid"], numbers: [1, 3]),
    Layout(.exec, "sched_process_exec", ["filename", "pid", "old_pid"], numbers: [1, 2]),
    Layout(
      .exit, "sched_process_exit", ["comm", "pid", "prio"], numbers: [1, 2], tails: ["", " group_dead="]),
    // `runtime=N [ns]`; kernels before 6.8 add ` vruntime=N [ns]` after it.
    Layout(.runtime, "sched_stat_runtime", ["comm", "pid", "runtime"], numbers: [1, 2], tails: [" [ns]"]),
  ]
  private static let marker = Array(": sched_".utf8)
  private static let space = UInt8(ascii: " ")

  /// The line's event, or why there is none. The event's name is the first `: sched_NAME:` that
  /// a head (`TASK-PID [(TGID)] [CPU] FLAGS TIME`) comes before: a task's comm may spell it too.
  func event() -> Outcome {
    guard end > start, bytes[start] != UInt8(ascii: "#") else { return .skipped }
    var outcome = Outcome.skipped
    var from = start
    while let mark = find(Self.marker, from: from) {
      from = mark + 1
      var colon = mark + 2
      while colon < end, bytes[colon] != UInt8(ascii: ":") { colon += 1 }
      guard let layout = Self.layouts.first(where: { equals(mark + 2, colon, $0.name) }) else { continue }
      outcome = .malformed
      guard colon < end, let header = header(before: mark) else { continue }
      var body = colon + 1
      while body < end, bytes[body] == Self.space { body += 1 }
      guard let f = fields(from: body, layout), let kind = kind(layout.tag, f) else { return .malformed }
      return .event(
        SchedEvent(ts: header.ts, cpu: header.cpu, tgid: header.tgid, taskTid: header.tid, kind: kind))
    }
    return outcome
  }

  private func kind(_ tag: Tag, _ f: [(Int, Int)]) -> SchedEvent.Kind? {
    switch tag {
    case .switchOut:
      guard let prev = int(f[1]), let next = int(f[5]) else { return nil }
      var state = f[3]
      if equals(max(state.0, state.1 - 4), state.1, Array(" ==>".utf8)) { state.1 -= 4 }
      return .switchOut(
        prev: prev, prevComm: string(f[0]), prevState: string(state), next: next, nextComm: string(f[4]))
    case .wakeup, .wakeupNew:
      guard let tid = int(f[1]) else { return nil }
      return .wakeup(tid: tid, comm: string(f[0]), new: tag == .wakeupNew)
    case .fork:
      guard let parent = int(f[1]), let child = int(f[3]) else { return nil }
      return .processFork(parent: parent, child: child, childComm: string(f[2]))
    case .exec:
      guard let tid = int(f[1]) else { return nil }
      return .exec(tid: tid, filename: string(f[0]))
    case .exit:
      guard let tid = int(f[1]) else { return nil }
      return .exit(tid: tid, comm: string(f[0]))
    case .runtime:
      guard let tid = int(f[1]), let ns = int(f[2]) else { return nil }
      return .runtime(tid: tid, ns: UInt64(ns))
    }
  }

  /// The line's head, `TASK-PID [( TGID)] [CPU] FLAGS SECONDS.MICROS`, before `limit`.
  private func header(before limit: Int) -> (ts: UInt64, cpu: Int, tgid: Int?, tid: Int)? {
    var cursor = limit
    func token() -> (Int, Int)? {
      while cursor > start, bytes[cursor - 1] == Self.space { cursor -= 1 }
      let tokenEnd = cursor
      while cursor > start, bytes[cursor - 1] != Self.space { cursor -= 1 }
      return tokenEnd > cursor ? (cursor, tokenEnd) : nil
    }
    guard let time = token(), let ts = nanoseconds(time.0, time.1), token() != nil, let cpuToken = token(),
      bytes[cpuToken.0] == UInt8(ascii: "["), bytes[cpuToken.1 - 1] == UInt8(ascii: "]"),
      let cpu = int((cpuToken.0 + 1, cpuToken.1 - 1))
    else { return nil }
    // The task: everything before the CPU, less an optional `( TGID)` group at its end —
    // `(  26906)`, or `(-------)` where the kernel had no thread group for the task.
    var taskEnd = trimmed((start, cpuToken.0)).1
    var tgid: Int?
    if taskEnd > start, bytes[taskEnd - 1] == UInt8(ascii: ")"),
      let open = lastIndex(of: UInt8(ascii: "("), in: start, taskEnd - 1)
    {
      let group = trimmed((open + 1, taskEnd - 1))
      let unknown = (group.0..<group.1).allSatisfy { bytes[$0] == UInt8(ascii: "-") }
      if unknown || int(group) != nil {
        tgid = unknown ? nil : int(group)
        taskEnd = open
      }
    }
    let task = trimmed((start, taskEnd))
    guard task.1 > task.0, let dash = lastIndex(of: UInt8(ascii: "-"), in: task.0, task.1),
      let tid = int((dash + 1, task.1))
    else { return nil }
    return (ts, cpu, tgid, tid)
  }

  /// The fields' values, in the layout's order: each runs to an occurrence of the next key's
  /// ` key=` (the last one to its first space, then one of the layout's tails), the first
  /// occurrences that make every number field a number. Nil when there is no such split.
  private func fields(from body: Int, _ layout: Layout) -> [(Int, Int)]? {
    guard equals(body, min(end, body + layout.first.count), layout.first) else { return nil }
    var values: [(Int, Int)] = []
    var tries = Self.maxTries
    return split(layout, 0, from: body + layout.first.count, &values, &tries) ? values : nil
  }

  /// The most places a line's values are tried at before it is given up as malformed. A kernel's
  /// line needs one per value (seven at most), a little more where a thread's name spells a key;
  /// an exec path spelling the keys thousands of times would otherwise cost the square of that.
  static let maxTries = 64

  /// Value `index` starts at `cursor`: tries each place it can end, then the values after it,
  /// while `tries` last.
  private func split(
    _ layout: Layout, _ index: Int, from cursor: Int, _ values: inout [(Int, Int)], _ tries: inout Int
  ) -> Bool {
    func fits(_ value: (Int, Int)) -> Bool { !layout.numbers.contains(index) || isNumber(value) }
    guard index < layout.rest.count else {
      var last = cursor
      while last < end, bytes[last] != Self.space { last += 1 }
      let tail = layout.tails.contains {
        $0.isEmpty ? last == end : equals(last, min(end, last + $0.count), $0)
      }
      guard fits((cursor, last)), tail else { return false }
      values.append((cursor, last))
      return true
    }
    let key = layout.rest[index]
    var from = cursor
    while tries > 0, let next = find(key, from: from) {
      tries -= 1
      from = next + 1
      guard fits((cursor, next)) else { continue }
      values.append((cursor, next))
      if split(layout, index + 1, from: next + key.count, &values, &tries) { return true }
      values.removeLast()
    }
    return false
  }

  /// Whether `range` is an optional `-` and at least one digit.
  private func isNumber(_ range: (Int, Int)) -> Bool {
    var from = range.0
    if from < range.1, bytes[from] == UInt8(ascii: "-") { from += 1 }
    guard from < range.1 else { return false }
    return (from..<range.1).allSatisfy { bytes[$0] >= 48 && bytes[$0] <= 57 }
  }

  /// `SECONDS.FRACTION` (up to nine decimals) in `bytes[from..<to]` → ns. At most 9 digits of
  /// seconds (31 years of CLOCK_MONOTONIC): sums of such times over a trace's threads stay far
  /// from UInt64's end.
  func nanoseconds(_ from: Int, _ to: Int) -> UInt64? {
    guard let dot = lastIndex(of: UInt8(ascii: "."), in: from, to),
      lastIndex(of: UInt8(ascii: "."), in: from, dot) == nil,
      to - dot - 1 <= 9, dot - from <= 9, let seconds = int((from, dot))
    else { return nil }
    let fraction = dot + 1 == to ? 0 : int((dot + 1, to))
    guard let fraction else { return nil }
    var scale: UInt64 = 1
    for _ in 0..<(9 - (to - dot - 1)) { scale *= 10 }
    return UInt64(seconds) * 1_000_000_000 + UInt64(fraction) * scale
  }

  /// The decimal digits of `range` as a number; nil when empty, not all digits, or too long.
  private func int(_ range: (Int, Int)) -> Int? {
    guard range.1 > range.0, range.1 - range.0 <= 18 else { return nil }
    var value = 0
    for index in range.0..<range.1 {
      let digit = Int(bytes[index]) - 48
      guard digit >= 0, digit <= 9 else { return nil }
      value = value * 10 + digit
    }
    return value
  }

  private func string(_ range: (Int, Int)) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range.0..<range.1]), as: UTF8.self)
  }

  private func trimmed(_ range: (Int, Int)) -> (Int, Int) {
    var (from, to) = range
    while from < to, bytes[from] == Self.space { from += 1 }
    while to > from, bytes[to - 1] == Self.space { to -= 1 }
    return (from, to)
  }

  private func equals(_ from: Int, _ to: Int, _ text: [UInt8]) -> Bool {
    guard to - from == text.count else { return false }
    for offset in 0..<text.count where bytes[from + offset] != text[offset] { return false }
    return true
  }

  /// Where `needle` first starts at or after `from`, within the line.
  private func find(_ needle: [UInt8], from: Int) -> Int? {
    guard let first = needle.first, end - needle.count >= from else { return nil }
    var index = from
    while index <= end - needle.count {
      if bytes[index] == first, equals(index, index + needle.count, needle) { return index }
      index += 1
    }
    return nil
  }

  private func lastIndex(of byte: UInt8, in from: Int, _ to: Int) -> Int? {
    var index = to
    while index > from {
      index -= 1
      if bytes[index] == byte { return index }
    }
    return nil
  }
}
