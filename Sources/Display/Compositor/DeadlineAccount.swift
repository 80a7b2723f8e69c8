/// The compositor's deadline bookkeeping: which refresh ticks it missed.
///
/// The compositor scans out on a fixed grid of ticks, one refresh interval apart
/// (`CLOCK_MONOTONIC`). **A deadline is missed** when either
/// - the scanout for a tick latched half a refresh interval or more after that tick (on a real
///   display, a composition that late misses the vertical blank and shows one refresh later), or
/// - a tick had no scanout at all: the compositor was still busy with an earlier one when the
///   next tick passed, so it skipped to the next tick ahead (every skipped tick counts once).
///
/// So a compositor that keeps up counts 0, one that is half a frame late every time counts every
/// scanout, and one stalled for 50 ms at 60 Hz counts the ticks it slept through.
public struct DeadlineAccount: Sendable, Hashable {
  /// The refresh interval, ns.
  public let periodNanoseconds: UInt64
  /// Deadlines missed so far (late scanouts plus skipped ticks).
  public private(set) var missed: UInt64 = 0
  /// Scanouts latched half a refresh interval or more after their tick.
  public private(set) var lateScanouts: UInt64 = 0
  /// Ticks skipped because the compositor fell a whole interval or more behind.
  public private(set) var skippedTicks: UInt64 = 0

  /// Starts an account for a grid with `periodNanoseconds` (> 0) between ticks.
  public init(periodNanoseconds: UInt64) { self.periodNanoseconds = max(1, periodNanoseconds) }

  /// Records the scanout for the tick at `deadline` that latched at `latchedAt` (ns).
  public mutating func scanned(deadline: UInt64, latchedAt: UInt64) {
    guard latchedAt >= deadline, latchedAt - deadline >= periodNanoseconds / 2 else { return }
    lateScanouts &+= 1
    missed &+= 1
  }

  /// The next tick after the one at `deadline`, given that the compositor is ready at `now`
  /// (ns): the following tick, or, when that has passed already, the first tick after `now`;
  /// every tick passed over counts as missed.
  public mutating func nextDeadline(after deadline: UInt64, now: UInt64) -> UInt64 {
    let next = deadline &+ periodNanoseconds
    guard next <= now else { return next }
    let skipped = (now &- next) / periodNanoseconds &+ 1
    skippedTicks &+= skipped
    missed &+= skipped
    return next &+ skipped &* periodNanoseconds
  }
}
