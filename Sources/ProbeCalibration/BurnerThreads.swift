import Dispatch
import Foundation
import Probe
import Synchronization
import SystemCalls

/// Threads that spin (`CPUSpin`, the same loop as the loaded condition's burner processes) until
/// `stop()`; the owner stops them with `defer`, so they always stop.
final class BurnerThreads: Sendable {
  let count: Int
  private let stopFlag = Atomic<Bool>(false)
  private let done = DispatchSemaphore(value: 0)

  init(threads: Int) {
    count = max(1, threads)
    for i in 0..<count {
      let thread = Thread { [self] in
        CPUSpin.spin { stopFlag.load(ordering: .relaxed) }
        done.signal()
      }
      thread.name = "firstframe.burner.\(i)"
      thread.start()
    }
  }

  func stop() {
    guard !stopFlag.exchange(true, ordering: .acquiringAndReleasing) else { return }
    for _ in 0..<count { done.wait() }
  }

}
