import AppBuilds
import Subprocess
import TestSupport
import Testing

/// camera-app's build log: a folder bench cannot write (a checkout another user owns) is said as
/// such, in one line, before anything is spawned — not as a spawn of bench that failed.
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct BuildLogTests {
  @Test("a build log bench cannot write is named in the error, and no build starts")
  func unwritableLog() {
    // Under a regular file: no user can make it (ENOTDIR), root included.
    let log = "/dev/null/camera-app-build.log"
    do {
      _ = try CameraAppLocator.build(
        package: "/nonexistent-package", scratch: "/nonexistent-package/.build/camera-app", logPath: log,
        swift: "/bin/false", interrupted: { false })
      Issue.record("the build was started")
    } catch {
      #expect(error.message.contains("cannot write the build log \(log)"), "\(error.message)")
      #expect(!error.message.contains("cannot start"), "\(error.message)")
    }
  }
}
