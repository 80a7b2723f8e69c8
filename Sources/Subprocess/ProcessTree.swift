#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import SystemCalls

/// A process and everything it started, found through `/proc` by parent pid: for stopping a
/// child such as `swift build`, which starts each compiler job in a process group of its own,
/// so that signalling the child's group does not reach them.
package enum ProcessTree {
  /// The parent pid of every process now, from `/proc/<pid>/stat` (its fourth field).
  package static func parents() -> [pid_t: pid_t] { processes().mapValues(\.parent) }

  /// The parent pid and state (`R`, `S`, `Z` for a zombie, …) of every process now, from
  /// `/proc/<pid>/stat` (its fourth and third fields).
  static func processes() -> [pid_t: (parent: pid_t, state: Character)] {
    var table: [pid_t: (parent: pid_t, state: Character)] = [:]
    // Without a readable /proc there is no process to list: the table is empty, as before.
    for entry in (try? FileSystem.contentsOfDirectory(atPath: "/proc")) ?? [] {
      guard let pid = pid_t(entry), let process = ProcessControl.parentAndState(of: pid) else { continue }
      table[pid] = process
    }
    return table
  }

  /// Stops `root` and every process under it, however deep and in whatever process group:
  /// each is first stopped (SIGSTOP, from the top down, so that none can start another while
  /// the tree is read), then all are killed (SIGKILL). `root` stays unreaped for its parent.
  package static func kill(_ root: pid_t) {
    var stopped: Set<pid_t> = []
    // A few passes: a child started between reading /proc and stopping its parent is found next time.
    for _ in 0..<3 {
      var frontier = [root]
      let parents = parents()
      var children: [pid_t: [pid_t]] = [:]
      for (pid, parent) in parents { children[parent, default: []].append(pid) }
      while let pid = frontier.popLast() {
        if stopped.insert(pid).inserted { Glibc.kill(pid, SIGSTOP) }
        frontier += children[pid] ?? []
      }
    }
    for pid in stopped { Glibc.kill(pid, SIGKILL) }
  }
}
