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
    return killUntilGone(grace: grace, scan: escapedNow)
  }

  /// Kills what `scan` lists until it lists nothing: SIGTERM, and SIGKILL once `grace` seconds
  /// have passed (for at most 5 s more). Returns how many processes it listed in all.
  private static func killUntilGone(grace: Double, scan: () -> Set<pid_t>) -> Int {
    var found: Set<pid_t> = []
    let graceEnd = MonotonicClock.now() &+ UInt64(grace * 1e9)
    let giveUp = graceEnd &+ 5_000_000_000
    while MonotonicClock.now() < giveUp {
      let live = scan()
      found.formUnion(live)
      if live.isEmpty { break }
      let signal = MonotonicClock.now() < graceEnd ? SIGTERM : SIGKILL
      for pid in live { Glibc.kill(pid, signal) }
      _ = MonotonicClock.sleep(until: MonotonicClock.now() &+ 1_000_000, slice: 1_000_000) { false }
    }
    return found.count
  }

  /// Kills every process under `root` (a running app: a relock cell's, which outlives its runs)
  /// that left `root`'s process group (`setsid`, `setpgid`), and everything under it: each gets
  /// SIGTERM, and SIGKILL once `grace` seconds have passed. Such a process is not reached when
  /// the app's group is signalled; in a launch run it escapes when the app ends
  /// (``killEscaped(grace:)``), and a relock app does not end until its cell does.
  ///
  /// - Returns: how many live processes were found.
  package static func killLeftGroup(of root: pid_t, grace: Double = 0.5) -> Int {
    killUntilGone(grace: grace) { leftGroupNow(of: root) }
  }

  /// The live processes under `root` outside its process group, and everything under them.
  private static func leftGroupNow(of root: pid_t) -> Set<pid_t> {
    let table = processes()
    var children: [pid_t: [pid_t]] = [:]
    for (pid, entry) in table { children[entry.parent, default: []].append(pid) }
    var frontier = children[root] ?? []
    var live: Set<pid_t> = []
    while let pid = frontier.popLast() {
      frontier += children[pid] ?? []
      // A parent is looked at before its children: a child of one outside is outside too.
      guard table[pid]?.state != "Z", let group = ProcessControl.processGroup(of: pid) else { continue }
      if group != root || live.contains(table[pid]?.parent ?? root) { live.insert(pid) }
    }
    return live
  }

  /// The live processes now under the orphans re-parented to this process (orphans included),
  /// after reaping the orphans that ended. Read while no child is being spawned, so a child just
  /// started is listed in ``ProcessControl/ownChildren`` already. A live orphan that is bench's
  /// own (``ProcessControl/ownOrphans``: sway's Xwayland, double-forked by wlroots) is not an
  /// escape, and is left with what it started.
  private static func escapedNow() -> Set<pid_t> {
    let me = getpid()
    let (table, own) = ProcessControl.ownChildren.withLock { (processes(), $0) }
    let ownOrphans = ProcessControl.ownOrphans.withLock { $0 }
    var children: [pid_t: [pid_t]] = [:]
    for (pid, entry) in table { children[entry.parent, default: []].append(pid) }
    var frontier = (children[me] ?? []).filter { !own.contains($0) }
    var live: Set<pid_t> = []
    while let pid = frontier.popLast() {
      if table[pid]?.state == "Z" {
        if table[pid]?.parent == me { _ = ProcessControl.reapOrphan(pid) }
      } else if ownOrphans.contains(pid) {
        continue
      } else {
        live.insert(pid)
      }
      frontier += children[pid] ?? []
    }
    return live
  }
}
