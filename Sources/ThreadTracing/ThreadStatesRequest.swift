/// `--thread-states`: how each run's thread states are recorded.
package enum ThreadStatesRequest: String, Sendable, CaseIterable {
  /// tracefs where bench can use it (root, tracefs mountable, the `sched` events there), else
  /// `/proc` samples.
  case auto
  /// tracefs, or bench stops with a usage error saying why it cannot.
  case on
  /// `/proc` samples even where tracefs could be used.
  case sampled
  /// Nothing recorded: no `thread_states` in the runs.
  case off
}

/// What a benchmark's runs record, resolved from a ``ThreadStatesRequest`` on this machine.
package enum ThreadStatesMethod: Sendable {
  /// tracefs, through bench's one instance.
  case tracefs(TracefsSession)
  /// `/proc` samples.
  case sampled
  /// Nothing.
  case off

  /// As `settings.threadStates` records it: `tracefs`, `sampled` or `off`.
  package var name: String {
    switch self {
    case .tracefs: "tracefs"
    case .sampled: "sampled"
    case .off: "off"
    }
  }

  /// Resolves `request`: opens the tracefs instance for `auto` and `on`; `auto` falls back to
  /// `sampled` (with the reason, for the log) where tracefs cannot be used.
  /// - Throws: ``TracefsError`` for `on` when tracefs cannot be used.
  package static func resolve(_ request: ThreadStatesRequest, root: String = TracefsSession.defaultRoot)
    throws(TracefsError) -> (method: ThreadStatesMethod, fallback: String?)
  {
    switch request {
    case .off: return (.off, nil)
    case .sampled: return (.sampled, nil)
    case .on: return (.tracefs(try TracefsSession.open(root: root)), nil)
    case .auto:
      do {
        return (.tracefs(try TracefsSession.open(root: root)), nil)
      } catch {
        return (.sampled, error.message)
      }
    }
  }

  /// Why the runs have no device trace (docs/kernel-device-phases.md), or nil when they have one.
  package var deviceTraceAbsence: String? {
    switch self {
    case .tracefs(let session): session.deviceAbsence
    case .sampled: "thread states are sampled from /proc, not traced with tracefs (--thread-states)"
    case .off: "--thread-states off: no tracefs session"
    }
  }

  /// Ends the method: removes the tracefs instance.
  package func close() {
    if case .tracefs(let session) = self { session.close() }
  }
}
