import Dispatch
import Foundation
import Synchronization

/// Threads that spin until `stop()`; the owner stops them with `defer`, so they always stop.
final class BurnerThreads: Sendable {
  let count: Int
  private let stopFlag = Atomic<Bool>(false)
  private let done = DispatchSemaphore(value: 0)

  init(threads: Int) {
    count = max(1, threads)
    for i in 0..<count {
      let thread = Thread { [self] in
        var x: UInt64 = UInt64(i) &+ 1
        while !stopFlag.load(ordering: .relaxed) {
          for _ in 0..<10_000 { x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
        }
        if x == 42 { print("") }  // keep the loop from being optimised away
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
