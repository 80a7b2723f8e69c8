#if canImport(Glibc)
  import Glibc
#endif
import Foundation

/// Whether this machine lets bench trace: root, and tracefs mounted or mountable with the
/// scheduler's events.
package enum TracefsAvailability {
  /// Nil when it does; else why the tracefs tests are skipped.
  package static let reason: String? = {
    guard getuid() == 0 else { return "thread states' tracefs checks need root (CI runs them as root)" }
    let root = "/sys/kernel/tracing"
    if !FileManager.default.fileExists(atPath: root + "/instances") {
      _ = mount("nodev", root, "tracefs", 0, nil)
    }
    guard FileManager.default.fileExists(atPath: root + "/events/sched/sched_switch") else {
      return "no tracefs with the sched events at \(root)"
    }
    return nil
  }()
}
