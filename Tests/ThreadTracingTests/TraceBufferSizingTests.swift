import TestSupport
import Testing
import ThreadTracing

/// How big the next run's tracefs buffer is (issue 41, item 5): grown when a run's busiest CPU
/// left less than the headroom or lost events, never shrunk, capped.
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct TraceBufferSizingTests {
  @Test("a run that used under a quarter of the buffer keeps its size")
  func roomEnough() {
    #expect(TraceBufferSizing.next(currentKB: 4096, busiestCPUBytes: 1 << 20) == nil)
    #expect(TraceBufferSizing.next(currentKB: 4096, busiestCPUBytes: 0) == nil)
  }

  @Test("a run past a quarter of the buffer doubles it until the headroom holds")
  func grows() {
    // 1.5 MiB on one CPU: 6 MiB wanted, 8 MiB given.
    #expect(TraceBufferSizing.next(currentKB: 4096, busiestCPUBytes: 1536 << 10) == 8192)
    // 5 MiB: 20 MiB wanted, 32 MiB given.
    #expect(TraceBufferSizing.next(currentKB: 4096, busiestCPUBytes: 5 << 20) == 32768)
  }

  @Test("the bytes a CPU needed count its lost events at the run's average event size")
  func lostEventsCount() {
    // 4 MiB held in 80,000 events (52 bytes each), 40,000 lost: 6 MiB needed.
    let needed = TraceBufferSizing.neededBytes(held: 4_160_000, entries: 80_000, lost: 40_000)
    #expect(needed == 4_160_000 + 40_000 * 52)
    #expect(TraceBufferSizing.next(currentKB: 4096, busiestCPUBytes: needed) == 32768)
    // A CPU that held nothing and lost everything: 64 bytes an event.
    #expect(TraceBufferSizing.neededBytes(held: 0, entries: 0, lost: 10) == 640)
  }

  @Test("the ceiling holds, and a buffer at it is not grown")
  func capped() {
    #expect(TraceBufferSizing.next(currentKB: 4096, busiestCPUBytes: 1 << 40, ceilingKB: 16384) == 16384)
    #expect(TraceBufferSizing.next(currentKB: 16384, busiestCPUBytes: 1 << 40, ceilingKB: 16384) == nil)
    #expect(
      TraceBufferSizing.next(currentKB: 4096, busiestCPUBytes: Int.max) == TraceBufferSizing.ceilingKBPerCPU)
  }

  @Test("the ceiling is a sixteenth of the memory available shared by the CPUs, at most 64 MiB a CPU")
  func ceilingFromMemory() {
    let big = "MemTotal:       24000000 kB\nMemAvailable:   20000000 kB\n"
    #expect(TraceBufferSizing.ceiling(meminfo: big, cpus: 2) == TraceBufferSizing.ceilingKBPerCPU)
    let small = "MemTotal:        1000000 kB\nMemAvailable:     512000 kB\n"
    #expect(TraceBufferSizing.ceiling(meminfo: small, cpus: 2) == 16000)
    #expect(TraceBufferSizing.ceiling(meminfo: "", cpus: 2) == TraceBufferSizing.ceilingKBPerCPU)
  }
}
