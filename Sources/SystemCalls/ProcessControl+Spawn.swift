#if canImport(Glibc)
  import Glibc
#endif
import CPlatformShims

extension ProcessControl {
  /// Starts `path` with `arguments` (argv[0] first) and `environment` in a child process of
  /// its own process group, stdin from /dev/null, stdout and stderr to `output`, `keep` left
  /// open across exec, that the kernel sends `deathSignal` when the calling *thread* exits
  /// (`PR_SET_PDEATHSIG`): call it from a thread that lives as long as the child should — a
  /// server then never outlives its owner, even when the owner is killed with SIGKILL.
  /// The corresponding calls are `fork`, `prctl(PR_SET_PDEATHSIG)` and `execve`.
  /// - Throws: the `Errno` of `fork`, or of `execve` (`ENOENT` when `path` does not exist).
  public static func spawnTiedToThread(
    path: String, arguments: [String], environment: [String: String], output: Int32, keep: Int32?,
    deathSignal: Int32
  ) throws(Errno) -> pid_t {
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    let pid = CPlatformShims_spawnTiedToThread(path, argv, envp, output, keep ?? -1, deathSignal)
    guard pid > 0 else { throw Errno.current }
    return pid
  }
}
