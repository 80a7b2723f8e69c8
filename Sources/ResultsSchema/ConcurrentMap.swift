import Dispatch
import Synchronization
import SystemCalls

/// Maps `items` with `transform` on every core (Dispatch's `concurrentPerform`), keeping their
/// order: the comparisons of a results file are independent, and each (a bootstrap) is pure work.
package func concurrentMap<T: Sendable, U: Sendable>(_ items: [T], _ transform: @Sendable (T) -> U) -> [U] {
  guard items.count > 1 else { return items.map(transform) }
  let results = PThreadMutex<[U?]>(Array(repeating: nil, count: items.count))
  DispatchQueue.concurrentPerform(iterations: items.count) { i in
    let value = transform(items[i])
    results.withLock { $0[i] = value }
  }
  return results.withLock { $0.map { $0! } }
}
