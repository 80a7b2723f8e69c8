import Foundation

/// Where `swift build` put the package's executables (`bench`, `camera-app`), found from the
/// running test bundle (`.build/<config>/FirstFramePackageTests.xctest`), for tests that run them.
package enum BuiltProducts {
  /// The folder holding the built executables.
  package static var directory: String {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    var dir = (exe as NSString).deletingLastPathComponent
    for _ in 0..<3 where !FileManager.default.isExecutableFile(atPath: dir + "/camera-app") {
      dir = (dir as NSString).deletingLastPathComponent
    }
    return dir
  }

  /// The path of the built executable `name`.
  package static func path(_ name: String) -> String { directory + "/" + name }
}
