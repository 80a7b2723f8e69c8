/// Reads the text of a tracefs instance's `trace` file into ``SchedEvent``s.
///
/// A line looks like (with the `record-tgid` option; the `(TGID)` column is optional):
///
///     sh-26912   (  26912) [000] d..2. 32152.516261: sched_switch: prev_comm=bash prev_pid=26912 prev_prio=120 prev_state=R+ ==> next_comm=migration/0 next_pid=18 next_prio=0
///
/// A `comm` may hold spaces, so fields are cut at the next known key (` prev_pid=`), never at
/// a space. Comment lines (`#`) and events of other names are skipped, not counted as malformed.
/// The text is read as bytes (``TraceLine``): a run's trace holds thousands of lines, and it is
/// parsed between runs.
package enum SchedTraceParser {
  /// The result of parsing a trace's text.
  package struct Result: Sendable {
    /// The events, in the order of the text (the kernel merges its per-CPU buffers by time).
    package var events: [SchedEvent]
    /// Lines that named a scheduler event the instrument reads but could not be parsed.
    package var malformedLines: Int
  }

  /// The events read; other `sched_*` events in a trace are skipped.
  package static let names: Set<String> = [
    "sched_switch", "sched_wakeup", "sched_wakeup_new", "sched_process_fork", "sched_process_exec",
    "sched_process_exit", "sched_stat_runtime",
  ]

  /// Parses a whole trace text.
  package static func parse(_ text: String) -> Result {
    var text = text
    return text.withUTF8 { bytes in
      var events: [SchedEvent] = []
      var malformed = 0
      var start = 0
      while start < bytes.count {
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        let line = TraceLine(bytes: bytes, start: start, end: end)
        start = end + 1
        switch line.event() {
        case .event(let event): events.append(event)
        case .malformed: malformed += 1
        case .skipped: break
        }
      }
      return Result(events: events, malformedLines: malformed)
    }
  }

  /// Parses one line; nil when it is not one of the events ``SchedEvent/Kind`` names, or is cut.
  package static func parse(line: Substring) -> SchedEvent? {
    var text = String(line)
    return text.withUTF8 { bytes in
      if case .event(let event) = TraceLine(bytes: bytes, start: 0, end: bytes.count).event() { return event }
      return nil
    }
  }

  /// `32152.516261` (seconds with up to nine decimals) → ns.
  static func nanoseconds(_ text: Substring) -> UInt64? {
    var text = String(text)
    return text.withUTF8 { TraceLine(bytes: $0, start: 0, end: $0.count).nanoseconds(0, $0.count) }
  }
}
