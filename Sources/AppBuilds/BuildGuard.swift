#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import SystemCalls

/// Makes a child of bench (the `swift build` of `bench ab`) die with bench even when bench is
/// killed with SIGKILL and cannot stop it: the child is started as
/// `bench __die-with-parent PID COMMAND ARGS…`, which sets `PR_SET_PDEATHSIG` (SIGKILL) and then
/// `execv`s the command. Ctrl-C and SIGTERM are handled by bench itself, which stops the child's
/// whole process group.
package enum BuildGuard {
  /// The hidden first argument of bench that runs a guarded command.
  package static let argument = "__die-with-parent"

  /// `argv` wrapped so that it dies with this process, when this process is `bench` (tests run
  /// `argv` as it is).
  static func wrap(_ argv: [String]) -> [String] {
    // No /proc/self/exe: not known to be bench, so the command runs as it is (as in tests).
    guard let exe = try? FileSystem.symbolicLinkDestination(atPath: "/proc/self/exe"),
      (exe as NSString).lastPathComponent == "bench"
    else { return argv }
    return [exe, argument, String(getpid())] + argv
  }

  /// Runs `arguments` (`PID COMMAND ARGS…`) in place of this process, set to be killed when
  /// its parent (`PID`) ends. Never returns; exits 127 when the command cannot be run.
  package static func exec(_ arguments: [String]) -> Never {
    guard arguments.count >= 2, let parent = Int32(arguments[0]) else {
      FileHandle.standardError.write(Data("bench \(argument): wants PID COMMAND [ARGS…]\n".utf8))
      exit(2)
    }
    do {
      try ProcessControl.setParentDeathSignal(SIGKILL)
    } catch {
      exit(127)
    }
    // The parent may have died before the call above: then nobody would send the signal.
    if getppid() != parent { exit(1) }
    let argv = Array(arguments.dropFirst())
    let cArgs = argv.map { strdup($0) } + [nil]
    execv(argv[0], cArgs)
    FileHandle.standardError.write(Data("bench: cannot run \(argv[0]): \(Errno.current.message)\n".utf8))
    exit(127)
  }
}
