import SystemCalls
import Testing

@Suite struct MonotonicClockTests {
  @Test("a sleep to an absolute deadline returns at or after it")
  func sleepReachesDeadline() {
    let deadline = MonotonicClock.now() + 2_000_000
    MonotonicClock.sleep(until: deadline)  // not a timing assertion: the sleep under test
    #expect(MonotonicClock.now() >= deadline)
    MonotonicClock.sleep(until: deadline - 1_000_000)  // not a timing assertion: a past deadline returns
  }

  @Test("a sliced sleep stops as soon as it is asked to, and says so")
  func slicedSleepStops() {
    var checks = 0
    let reached = MonotonicClock.sleep(until: MonotonicClock.now() + 60_000_000_000, slice: 1_000_000) {
      checks += 1
      return checks == 3
    }
    #expect(!reached && checks == 3)
    #expect(MonotonicClock.sleep(until: MonotonicClock.now() + 1_000_000, slice: 200_000) { false })
  }

  @Test("milliseconds between readings are signed")
  func milliseconds() {
    #expect(MonotonicClock.milliseconds(from: 1_000_000, to: 3_500_000) == 2.5)
    #expect(MonotonicClock.milliseconds(from: 3_000_000, to: 1_000_000) == -2)
  }

  @Test("the spin loop checks its stop condition until it holds")
  func spinStops() {
    var checks = 0
    CPUSpin.spin(checkEvery: 16) {
      checks += 1
      return checks == 5
    }
    #expect(checks == 5)
  }
}
