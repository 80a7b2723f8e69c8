import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What a test needs from the machine beyond the package, each with the reason a test shows when
/// it is skipped for lack of it: `.enabled(if: Prerequisites.cCompiler != nil,
/// Prerequisites.noCCompiler)`. A test that cannot run is listed as skipped with its reason, never
/// passed silently.
package enum Prerequisites {
  /// The executable `name` on `PATH` (this process's), or nil.
  package static func onPath(_ name: String) -> String? {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map {
      "\($0)/\(name)"
    }.first { access($0, X_OK) == 0 }
  }

  /// The system's C compiler (`cc` on PATH), or nil.
  package static let cCompiler = onPath("cc")
  /// The reason shown for a test skipped without a C compiler.
  package static let noCCompiler: Comment =
    "skipped: no C compiler (cc) on PATH to build the reference program (Debian: apt-get install gcc)"

  /// The reason shown for a test skipped because it cannot hand a folder to another user
  /// (``ForeignFolder/canPlant``).
  package static let cannotPlant: Comment =
    "skipped: planting a folder another user owns needs root (chown); run the tests as root to check it"
}
