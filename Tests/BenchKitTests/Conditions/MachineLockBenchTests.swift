#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import SystemCalls
import TestSupport
import TestThreads
import Testing

/// bench and the machine lock, as a user meets them: while another holds the machine, a
/// `--conditions loaded` bench waits, saying so, and runs once it is let go; with `--no-wait` it
/// is refused with exit status 2 before it runs anything. The test stands in for the other bench
/// by holding the machine's lock itself, for as short a time as it can (other tests' loaded
/// benches wait for it meanwhile).
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))))
struct MachineLockBenchTests {
  /// The machine lock, taken as soon as no other bench of the test run holds it.
  static func holdMachine() throws -> MachineLock {
    var held: MachineLock?
    let taken = blockUntil(timeout: .seconds(600)) {
      held = try? MachineLock.take(for: "a test standing in for another bench").get()
      return held != nil
    }
    try #require(taken, "the machine lock stayed held by another bench for 10 minutes")
    return try #require(held)
  }

  /// How bench names the test as the holder: with its pid and what it holds the machine for when
  /// the test could write them into the lock file; a user who may not write a lock file another
  /// made (root's, 0644) holds it read-only, and bench can only say "another bench".
  static func holderWords(_ lock: MachineLock) -> String {
    lock.writable
      ? "another bench (pid \(getpid())) holds the machine for a test standing in for another bench"
      : "another bench holds the machine"
  }

  @Test("a loaded bench waits for the machine with one line, --quiet too, and runs once it is let go")
  func waits() throws {
    let dir = temporaryFolder("machine-lock-bench")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var lock: MachineLock? = try Self.holdMachine()
    let bench = try BenchInvocation.start([
      "--runs", "1", "--warmup", "0", "--conditions", "loaded", "--configs", "deferred", "--thread-states",
      "off", "--quiet", "--out", dir + "/results",
    ])
    defer {
      bench.signal(SIGKILL)
      _ = bench.waitUntilExit(timeout: .seconds(60))
    }
    let holder = Self.holderWords(try #require(lock))
    let waiting = blockUntil(timeout: .seconds(300)) {
      bench.standardErrorText.contains("bench: waiting for the machine: \(holder)") || !bench.isRunning
    }
    let said = bench.standardErrorText
    withExtendedLifetime(lock) {}
    lock = nil
    #expect(waiting && said.contains("this bench needs it for full-load burners"), "\(said)")
    #expect(bench.waitUntilExit(timeout: .seconds(300)))
    #expect(bench.terminationStatus == 0, "\(bench.standardErrorText)")
    #expect(FileManager.default.fileExists(atPath: dir + "/results/results.json"))
  }

  @Test("--no-wait: refused with one line and exit status 2 while another holds the machine; nothing runs")
  func refuses() throws {
    let dir = temporaryFolder("machine-lock-bench")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let lock = try Self.holdMachine()
    let outcome = try BenchInvocation.run(
      [
        "--runs", "1", "--warmup", "0", "--conditions", "warm,loaded", "--configs", "deferred",
        "--thread-states",
        "off", "--no-wait", "--out", dir + "/results",
      ], timeout: .seconds(300))
    withExtendedLifetime(lock) {}
    let refused = try #require(outcome, "bench --no-wait did not finish")
    #expect(refused.status == 2, "\(refused.errors)")
    #expect(
      refused.errors.contains("the machine is in use: \(Self.holderWords(lock))"), "\(refused.errors)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/results/results.json"))
  }
}
