/// The machine's ids of bench's own tasks, for a bench whose pid namespace is not the machine's
/// (a container's, `unshare --pid`): tracefs takes and records machine-wide ids in
/// `set_event_pid` and in its events, while `/proc` there shows the namespace's (and, mounted for
/// the namespace, no other: `NSpid` lists only the inner one). A line bench writes to the
/// instance's `trace_marker` comes back under the writing thread's machine-wide id, and the app
/// is the process that thread then forked.
package enum TraceMarker {
  /// A task as the trace names it: its thread id and, with `record-tgid`, its thread group's.
  package struct Task: Sendable, Hashable {
    /// The thread's machine-wide id.
    package var tid: Int
    /// Its process's machine-wide id, when the trace has the `(TGID)` column.
    package var tgid: Int?
  }

  /// The task that wrote `marker` (the whole text after `tracing_mark_write: `) in `text`, a
  /// `trace` file's text; nil when no line carries it.
  package static func writer(of marker: String, in text: String) -> Task? {
    let tag = ": tracing_mark_write: "
    for line in text.split(separator: "\n") {
      guard let range = line.range(of: tag), line[range.upperBound...] == marker[...] else { continue }
      // `<comm>-<tid> [(<tgid>)] [<cpu>] <flags> <seconds>`: the last three fields go.
      var head = line[..<range.lowerBound].split(separator: " ", omittingEmptySubsequences: true)
      guard head.count >= 4 else { continue }
      head.removeLast(3)
      var tgid: Int?
      if let last = head.last, last.hasSuffix(")") {
        let inner = last.dropLast()
        head.removeLast()
        if inner.hasPrefix("(") {
          tgid = Int(inner.dropFirst())
        } else {
          tgid = Int(inner)
          if head.last == "(" { head.removeLast() }
        }
      }
      guard let task = head.last, let dash = task.lastIndex(of: "-"),
        let tid = Int(task[task.index(after: dash)...])
      else { continue }
      return Task(tid: tid, tgid: tgid)
    }
    return nil
  }

  /// The first process `parent` (a thread's machine-wide id) forked in `events` that then ran
  /// a program (`sched_process_exec`): the app it spawned, not a thread it made.
  package static func spawnedProcess(by parent: Int, in events: [SchedEvent]) -> Int? {
    var forked: [Int] = []
    var execed = Set<Int>()
    for event in events {
      switch event.kind {
      case .processFork(let from, let child, _) where from == parent: forked.append(child)
      case .exec(let tid, _): execed.insert(tid)
      default: break
      }
    }
    return forked.first { execed.contains($0) }
  }
}
