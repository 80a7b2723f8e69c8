#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Subprocess
import SystemCalls

/// The loaded condition's load: one burner process per CPU of its `BurnerPlan`, pinned to that
/// CPU, for the whole cell: spinning (`--load cpu`) or streaming over a buffer bigger than the
/// last-level cache (`--load memory`).
///
/// Burners are this executable re-run with the hidden `__burn` command, in one process group of
/// their own so one `kill(-pgid)` stops them all; each asks the kernel for SIGKILL when the
/// runner dies (`PR_SET_PDEATHSIG`), so none outlives bench even after `kill -9`. Each is pinned
/// by the runner right after it starts (`sched_setaffinity` on its pid).
package final class CPUBurners: Sendable {
  private let children: [ChildProcess]
  /// The plan the burners follow.
  package let plan: BurnerPlan

  /// How many burners run.
  package var count: Int { children.count }

  /// The burners' process ids, one per CPU of `plan.cpus`, in that order.
  package var processIDs: [pid_t] { children.map(\.pid) }

  /// Starts one burner per CPU of `plan` (default: this process's CPUs and quota, spinning),
  /// each pinned to its CPU. `executable` implements `__burn` (default: this executable).
  /// - Throws: `RunnerError` when a burner cannot be started or pinned (those started are stopped).
  package init(plan: BurnerPlan = .current(kind: .cpu), executable: String? = nil) throws(RunnerError) {
    let exe =
      executable
      ?? (try? FileSystem.symbolicLinkDestination(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    var started: [ChildProcess] = []
    for cpu in plan.cpus {
      do throws(RunnerError) {
        let child = try ChildProcess.spawn(
          argv: [exe, "__burn", String(getpid()), String(plan.bufferBytes ?? 0)],
          environment: ProcessInfo.processInfo.environment)
        started.append(child)
        do {
          try CPUAffinity.set(pid: child.pid, cpus: [cpu])
        } catch {
          throw RunnerError(.spawnFailed, "cannot pin a burner to CPU \(cpu): \(error)")
        }
      } catch {
        started.forEach { $0.terminate(grace: 0.2) }
        throw error
      }
    }
    children = started
    self.plan = plan
  }

  /// The CPU time the burners got so far, s, summed over them (each one's
  /// `/proc/PID/schedstat`: time on a CPU, ns); nil when one cannot be read.
  package func cpuSeconds() -> Double? {
    var total = 0.0
    for child in children {
      guard let text = FileSystem.readText(atPath: "/proc/\(child.pid)/schedstat", maxBytes: 256),
        let ns = text.split(separator: " ").first.flatMap({ Double($0) })
      else { return nil }
      total += ns / 1e9
    }
    return total
  }

  /// Busy and total time of each of `cpus` so far, in `/proc/stat`'s ticks (busy: neither idle
  /// nor waiting for I/O), summed; nil when `/proc/stat` cannot be read.
  package static func cpuTicks(_ cpus: [Int]) -> (busy: Int, total: Int)? {
    guard let text = FileSystem.readText(atPath: "/proc/stat", maxBytes: 1 << 20) else { return nil }
    var busy = 0
    var total = 0
    let wanted = Set(cpus.map { "cpu\($0)" })
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard let name = fields.first, wanted.contains(String(name)) else { continue }
      let ticks = fields.dropFirst().prefix(8).compactMap { Int($0) }
      guard ticks.count >= 5 else { return nil }
      let all = ticks.reduce(0, +)
      total += all
      busy += all - ticks[3] - ticks[4]
    }
    return total > 0 ? (busy, total) : nil
  }

  /// Stops and reaps every burner.
  package func stop() {
    for child in children { child.signalGroup(SIGKILL) }
    for child in children { child.terminate(grace: 0.5) }
  }

  /// The body of a burner process: spin (`bufferBytes` 0) or stream over a buffer of
  /// `bufferBytes`, until the parent is gone. Never returns.
  /// The spin is `CPUSpin`, the same loop as calibration's burner threads; the parent check
  /// (a system call) comes every 2^24 rounds, about 25 ms, or after every pass over the buffer.
  package static func burn(parent: pid_t, bufferBytes: Int = 0) -> Never {
    try? ProcessControl.setParentDeathSignal(SIGKILL)
    if getppid() != parent { exit(0) }
    if bufferBytes > 0 {
      stream(bytes: bufferBytes) { getppid() != parent }
    } else {
      CPUSpin.spin(checkEvery: 1 << 24) { getppid() != parent }
    }
    exit(0)
  }

  /// Copies one half of a `bytes` buffer over the other, back and forth (every byte read and
  /// written on every pass: the buffer, bigger than the last-level cache, streams through
  /// memory), until `shouldStop()`.
  static func stream(bytes: Int, until shouldStop: () -> Bool) {
    let half = max(bytes / 2, 4096)
    guard let buffer = malloc(2 * half) else { return }
    defer { free(buffer) }
    memset(buffer, 0x5A, 2 * half)
    var forward = true
    repeat {
      if forward {
        memcpy(buffer + half, buffer, half)
      } else {
        memcpy(buffer, buffer + half, half)
      }
      forward.toggle()
    } while !shouldStop()
  }
}
