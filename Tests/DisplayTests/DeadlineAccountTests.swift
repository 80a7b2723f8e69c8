import SystemCalls
import Testing
import TestSupport

@testable import Display

/// Missed compositor deadlines, as `DeadlineAccount` defines them: a scanout latched half a
/// refresh interval or more after its tick, or a tick skipped.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct DeadlineAccountTests {
  @Test("scanouts on time miss nothing; one half an interval late misses its deadline")
  func lateScanouts() {
    var account = DeadlineAccount(periodNanoseconds: 1000)
    account.scanned(deadline: 5000, latchedAt: 5000)
    account.scanned(deadline: 6000, latchedAt: 6499)
    #expect(account.missed == 0)
    account.scanned(deadline: 7000, latchedAt: 7500)
    #expect(account.missed == 1)
    #expect(account.lateScanouts == 1)
    #expect(account.skippedTicks == 0)
  }

  @Test(
    "a compositor ready before the next tick keeps the grid; one that slept past ticks skips and counts them")
  func skippedTicks() {
    var account = DeadlineAccount(periodNanoseconds: 1000)
    #expect(account.nextDeadline(after: 5000, now: 5900) == 6000)
    #expect(account.missed == 0)
    // Ready at 8200: the ticks at 6000, 7000 and 8000 passed without a scanout.
    #expect(account.nextDeadline(after: 5000, now: 8200) == 9000)
    #expect(account.skippedTicks == 3)
    #expect(account.missed == 3)
    // Ready exactly at the next tick: that tick is passed over too (the sleep would return late).
    #expect(account.nextDeadline(after: 9000, now: 10000) == 11000)
    #expect(account.missed == 4)
  }

  @Test("a compositor whose scanout work stalls for several refresh intervals counts missed deadlines")
  func stalledCompositorCounts() async throws {
    let surface = try DisplaySurface.create(width: 16, height: 16)
    defer { surface.close() }
    let stalls = Collector<UInt64>()
    // 100 Hz: the third scanout's work takes 45 ms, four ticks and a half.
    let compositor = try Compositor(surface: surface, refreshHz: 100, realtime: false) { scanout in
      if scanout.index == 2 {
        MonotonicClock.sleep(nanoseconds: 45_000_000)  // not a timing assertion: the stall under test
        stalls.append(scanout.index)
      }
    }
    #expect(compositor.missedDeadlines == 0)
    compositor.start()
    defer { compositor.stop() }
    // Both at once: on a loaded machine the early scanouts can miss deadlines too, so four misses
    // may be counted before the stalled scanout's work has returned (its record appended).
    #expect(await waitUntil(timeout: .seconds(10)) { stalls.count == 1 && compositor.missedDeadlines >= 4 })
    #expect(stalls.count == 1)
  }
}
