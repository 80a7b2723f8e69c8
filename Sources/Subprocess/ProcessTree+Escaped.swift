#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import SystemCalls

extension ProcessTree {
  /// Kills and reaps every process that escaped this one's children: the orphans re-parented to
  /// it as a child subreaper (``ProcessControl/becomeChildSubreaper()``) — children it did not
  /// start (``ProcessControl/ownChildren``) — and everything under them. Each gets SIGTERM, and
  /// SIGKILL once `grace` seconds have passed; orphans that ended (zombies) are reaped.
  ///
  /// - Returns: how many live processes were found (zombies not counted), or nil when this
  ///   process is not a subreaper: then an orphan goes to init, and a child it did not list may
  ///   be another library's (Foundation's `Process` in a test), which must not be killed.
  package static func killEscaped(grace: Double = 0.5) -> Int? {
    guard ProcessControl.isChildSubreaper else { return nil }
    var found: Set<pid_t> = []
    let start = MonotonicClock.now()
    let graceEnd = start &+ UInt64(grace * 1e9)
    let giveUp = graceEnd &+ 5_000_000_000
    while MonotonicClock.now() < giveUp {
      let live = escapedNow()
      found.formUnion(live)
      if live.isEmpty { break }
      let signal = MonotonicClock.now() < graceEnd ? SIGTERM : SIGKILL
      for pid in live { Glibc.kill(pid, signal) }
      _ = MonotonicClock.sleep(until: MonotonicClock.now() &+ 1_000_000, slice: 1_000_000) { false }
    }
    return found.count
  }

  /// The live processes now under the orphans re-parented to this process (orphans included),
  /// after reaping the orphans that ended. Read while no child is being spawned, so a child just
  /// started is listed in ``ProcessControl/ownChildren`` already.
  private static func escapedNow() -> Set<pid_t> {
    let me = getpid()
    let (table, own) = ProcessControl.ownChildren.withLock { (processes(), $0) }
    var children: [pid_t: [pid_t]] = [:]
    for (pid, entry) in table { children[entry.parent, default: []].append(pid) }
    var frontier = (children[me] ?? []).filter { !own.contains($0) }
    var live: Set<pid_t> = []
    while let pid = frontier.popLast() {
      if table[pid]?.state == "Z" {
        if table[pid]?.parent == me { _ = ProcessControl.reapOrphan(pid) }
      } else {
        live.insert(pid)
      }
      frontier += children[pid] ?? []
    }
    return live
  }
}
