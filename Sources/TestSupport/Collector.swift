import SystemCalls

/// A thread-safe list that callbacks append to (frames, photos, histograms, running states).
/// Pass `collector.append` as the callback.
package final class Collector<Element: Sendable>: Sendable {
  private let storage = PThreadMutex<[Element]>([])

  /// Creates an empty collector.
  package init() {}

  /// Appends `element`.
  package func append(_ element: Element) {
    storage.withLock { $0.append(element) }
  }

  /// Everything appended so far, in order.
  package var values: [Element] { storage.withLock { $0 } }

  /// How many elements have been appended.
  package var count: Int { storage.withLock { $0.count } }

  /// Waits until at least `count` elements are there. False after `timeout`.
  package func waitForCount(_ count: Int, timeout: Duration = .seconds(120)) async -> Bool {
    await waitUntil(timeout: timeout) { self.count >= count }
  }

  /// Blocks the calling thread until at least `count` elements are there (for synchronous
  /// tests; see ``blockUntil(timeout:_:)``). False after `timeout`.
  package func blockUntilCount(_ count: Int, timeout: Duration = .seconds(120)) -> Bool {
    blockUntil(timeout: timeout) { self.count >= count }
  }
}
