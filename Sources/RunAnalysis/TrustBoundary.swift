import LaunchContract
import PhaseTrace

/// The trust boundary between the app under test and the runner (docs/gates-and-ci.md, "The trust boundary"):
/// events owned by the runner (`launch.*`, `relock.*`) and the probe (`display.*`) are taken from
/// their own records only. The same names in the app's trace are forgeries: ignored and counted;
/// so are events there that claim the kernel as their `source` (bench's device trace writes those).
package enum TrustBoundary {
  /// The app's trace split at the boundary.
  package struct Split: Sendable {
    /// Events the app may write (owner `app`): they join the runner's and probe's records.
    package var trusted: [PhaseEvent]
    /// Events the app wrote under a name owned by the runner or the probe: never used.
    package var forged: [PhaseEvent]
  }

  /// Splits events read from the app's trace by their names' owners.
  package static func split(appTrace events: [PhaseEvent]) -> Split {
    var split = Split(trusted: [], forged: [])
    for event in events {
      if EventOwner(eventName: event.name) == .app,
        event.fields[PhaseExtractor.sourceField]?.stringValue != PhaseExtractor.kernelSource
      {
        split.trusted.append(event)
      } else {
        split.forged.append(event)
      }
    }
    return split
  }
}
