#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import SystemCalls
import TestSupport
import TestThreads
import Testing

@testable import HostConditions

/// The way through the machine lock: a second bench waits, saying so in one line, and goes on
/// once the first lets go; with `--no-wait` it is refused with a line naming the holder. Each
/// test locks a file in a folder of its own.
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct MachineGateTests {
  @Test("a second bench waits with one line while the first holds the machine, and takes it once let go")
  func waits() throws {
    let folder = temporaryFolder("machine-gate")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let first = MachineGate(path: folder + "/machine.lock")
    let second = MachineGate(path: folder + "/machine.lock")
    #expect(first.take(for: "the cpufreq cap", interrupted: { false }, note: { _ in }) == .taken)
    let notes = Collector<String>()
    let done = Collector<MachineGate.Outcome>()
    Thread.detachNewThread {
      done.append(second.take(for: "full-load burners", interrupted: { false }, note: { notes.append($0) }))
    }
    #expect(notes.blockUntilCount(1))
    #expect(done.values.isEmpty)
    #expect(
      notes.values == [
        "bench: waiting for the machine: another bench (pid \(getpid())) holds the machine for the cpufreq cap (\(folder)/machine.lock); this bench needs it for full-load burners (--no-wait refuses instead)"
      ])
    first.release()
    #expect(done.blockUntilCount(1))
    #expect(done.values == [.taken])
    #expect(second.isHeld && !first.isHeld)
    #expect(notes.values.count == 1)
    second.release()
  }

  @Test(
    "--no-wait: refused with a line naming the holder, before or during the benchmark; a stopped wait is interrupted"
  )
  func refuses() throws {
    let folder = temporaryFolder("machine-gate")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let first = MachineGate(path: folder + "/machine.lock")
    #expect(first.pin(for: "the hot soak") == nil)
    first.release()
    #expect(first.isHeld, "a lock pinned for the benchmark was let go after one condition")
    let refused = MachineGate(path: folder + "/machine.lock", waits: false)
    let line =
      "the machine is in use: another bench (pid \(getpid())) holds the machine for the hot soak (\(folder)/machine.lock); this bench needs it for the cpufreq cap: run it again when that bench ends, or without --no-wait to wait"
    #expect(refused.pin(for: "the cpufreq cap") == line)
    #expect(refused.take(for: "the cpufreq cap", interrupted: { false }, note: { _ in }) == .refused(line))
    let stopped = MachineGate(path: folder + "/machine.lock")
    #expect(stopped.take(for: "the cpufreq cap", interrupted: { true }, note: { _ in }) == .interrupted)
    first.close()
    #expect(!first.isHeld)
  }
}
