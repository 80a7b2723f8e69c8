import Foundation
import LaunchContract
import Sampling

/// A random number generator for tests that want varied inputs and a reproducible failure:
/// the seed is `$FIRSTFRAME_TEST_SEED` when set, else fresh, and is printed with the test's
/// name, so a failing run can be replayed exactly (`FIRSTFRAME_TEST_SEED=N swift test --filter …`).
package struct SeededRandom: RandomNumberGenerator, Sendable {
  /// The seed this generator started from.
  package let seed: UInt64
  private var generator: SplitMix64

  /// Creates the generator for `test` (its name, printed with the seed).
  package init(_ test: String) {
    let given = HarnessVariable.testSeed.value.flatMap { UInt64($0) }
    seed = given ?? UInt64.random(in: 0...UInt64.max)
    generator = SplitMix64(seed: seed)
    print("\(test): random seed \(seed) (replay with FIRSTFRAME_TEST_SEED=\(seed))")
  }

  /// The next 64 random bits.
  package mutating func next() -> UInt64 { generator.next() }
}
