/// Polls `condition` every millisecond until it holds (true) or `timeout` passes (false).
/// For waiting on work other threads do; the timeout is a safety net, not a timing assertion.
public func waitUntil(timeout: Duration = .seconds(30), _ condition: @Sendable () -> Bool) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  while !condition() {
    if clock.now >= deadline { return false }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return true
}
