/// The one spin loop behind both kinds of CPU burner (the loaded condition's burner processes
/// and calibration's burner threads): integer work the optimiser cannot remove, checking a stop
/// condition every `checkEvery` rounds.
public enum CPUSpin {
  /// Spins until `shouldStop()` returns true, checking it every `checkEvery` rounds of an
  /// xorshift generator (about 0.1 ms of work per 65,536 rounds).
  public static func spin(checkEvery: Int = 1 << 16, until shouldStop: () -> Bool) {
    var x: UInt64 = 0x9E37_79B9_7F4A_7C15
    repeat {
      for _ in 0..<checkEvery {
        x ^= x << 13
        x ^= x >> 7
        x ^= x << 17
      }
      blackHole(x)
    } while !shouldStop()
  }

  /// Consumes `value` so the work that produced it is kept; compiles to a call that does nothing.
  @inline(never)
  @_optimize(none)
  public static func blackHole<T>(_ value: T) {}
}
