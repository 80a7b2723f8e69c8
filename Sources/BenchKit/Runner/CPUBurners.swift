#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import SystemCalls

/// The loaded condition's CPU load: one burner process per core, spinning for the whole cell.
///
/// Burners are this executable re-run with the hidden `__burn` command, in one process group of
/// their own so one `kill(-pgid)` stops them all; each asks the kernel for SIGKILL when the
/// runner dies (`PR_SET_PDEATHSIG`), so none outlives bench even after `kill -9`.
public final class CPUBurners: Sendable {
  private let children: [ChildProcess]

  /// How many burners run.
  public var count: Int { children.count }

  /// Starts `count` burners (default: one per online core).
  public init(count: Int = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) throws(RunnerError) {
    let exe =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    var started: [ChildProcess] = []
    for _ in 0..<max(1, count) {
      do {
        started.append(
          try ChildProcess.spawn(
            argv: [exe, "__burn", String(getpid())], environment: ProcessInfo.processInfo.environment))
      } catch {
        started.forEach { $0.terminate(grace: 0.2) }
        throw error
      }
    }
    children = started
  }

  /// Stops and reaps every burner.
  public func stop() {
    for child in children { child.signalGroup(SIGKILL) }
    for child in children { child.terminate(grace: 0.5) }
  }

  /// The body of a burner process: spin until the parent is gone. Never returns.
  /// The spin is `CPUSpin`, the same loop as calibration's burner threads; the parent check
  /// (a system call) comes every 2^24 rounds, about 25 ms.
  public static func burn(parent: pid_t) -> Never {
    try? ProcessControl.setParentDeathSignal(SIGKILL)
    if getppid() != parent { exit(0) }
    CPUSpin.spin(checkEvery: 1 << 24) { getppid() != parent }
    exit(0)
  }
}
