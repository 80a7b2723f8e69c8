#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import SystemCalls

/// Runs the built `bench` executable the way a user does, for tests of what it writes.
public enum BenchInvocation {
  /// What a finished `bench` left behind.
  public struct Outcome: Sendable {
    /// Its exit status (a signal's number when it was killed).
    public var status: Int32
    /// Everything it wrote to stdout.
    public var output: String
  }

  /// Writes `script` (starting with `#!`) to `dir/name`, executable; returns its path.
  public static func writeScript(_ script: String, named name: String, in dir: String) throws -> String {
    let path = dir + "/" + name
    // Written close-on-exec: a process another thread starts meanwhile must not keep it open
    // for writing, or executing it fails with ETXTBSY ("Text file busy").
    try FileSystem.writeAtomically(Array(script.utf8), toPath: path, mode: 0o755)
    return path
  }

  /// Runs `bench arguments…` with `environment` set over this process's, stderr discarded; waits
  /// at most `timeout` seconds (then terminates it). Returns nil when it did not finish in time.
  public static func run(
    _ arguments: [String], environment: [String: String] = [:], timeout: Double = 120
  ) throws -> Outcome? {
    let bench = Process()
    bench.executableURL = URL(fileURLWithPath: BuiltProducts.path("bench"))
    bench.arguments = arguments
    bench.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let stdout = Pipe()
    bench.standardOutput = stdout
    bench.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try bench.run()
    // The table fits in the pipe's buffer (64 KiB), so stdout is read once bench has ended.
    let ended = blockUntil(timeout: .milliseconds(Int(timeout * 1000)), every: .milliseconds(20)) {
      !bench.isRunning
    }
    if !ended {
      bench.terminate()
      if !bench.waitUntilExit(timeout: .seconds(10)) { kill(bench.processIdentifier, SIGKILL) }
      return nil
    }
    // bench has ended; what it wrote is in the pipe (read what is there, never waiting for a
    // writer that outlived it).
    let fd = stdout.fileHandleForReading.fileDescriptor
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    var text = Data()
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n <= 0 { break }
      text.append(contentsOf: chunk[0..<n])
    }
    return Outcome(
      status: bench.terminationStatus, output: String(decoding: text, as: UTF8.self))
  }
}
