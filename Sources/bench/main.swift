import AppBuilds
import BenchCommands
import BenchKit
import Foundation
import HostConditions
import Subprocess
import SystemCalls

// `bench` dispatches to a command (BenchCommandLine); every command returns its exit status
// (0 ok, 1 failed/regression, 2 bad usage or input).
let arguments = Array(CommandLine.arguments.dropFirst())
// Not dumpable (issue 41): no process of bench's user — the app under test when bench is not
// root — reaches what bench and its helpers hold open through /proc/<pid>/fd, or their memory.
try? ProcessControl.becomeNotDumpable()
switch arguments.first {
case "__burn":
  // A burner of the loaded condition (internal; see CPUBurners): parent pid, buffer bytes.
  CPUBurners.burn(
    parent: Int32(arguments.dropFirst().first ?? "") ?? getppid(),
    bufferBytes: Int(arguments.dropFirst(2).first ?? "") ?? 0)
case ProcessGuard.command:
  // The process guard: stops what this bench started when it dies (internal; see ProcessGuard).
  ProcessGuard.serve()
case BuildGuard.argument:
  // A child that dies with bench (internal; see BuildGuard): bench ab's swift build.
  BuildGuard.exec(Array(arguments.dropFirst()))
default:
  // A closed stderr or a file-size limit is an error to report (EPIPE, EFBIG), never a death:
  // from the first line bench writes (a note before any command installs its handlers, e.g.
  // "thread states sampled" for a user without root, used to kill bench with SIGPIPE).
  signal(SIGPIPE, SIG_IGN)
  signal(SIGXFSZ, SIG_IGN)
  // This executable runs the hidden helpers above, so the run command may start a guard.
  ProcessGuard.enable(
    // Without /proc/self/exe, argv[0] is the best guess at this executable.
    executable: (try? FileSystem.symbolicLinkDestination(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0])
  exit(BenchCommandLine.main(arguments))
}
