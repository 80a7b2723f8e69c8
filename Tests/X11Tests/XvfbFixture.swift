import DisplayServers
import BenchKit
import Testing
import Foundation
import X11Display

/// A private Xvfb per test (started and stopped by BenchKit's `XvfbServer`), and whether the
/// X11 tests can run here at all: they need Xvfb and the XCB libraries (`scripts/install-deps`).
enum XvfbFixture {
  /// Whether Xvfb and libxcb, libxcb-shm, libxcb-damage and libxcb-render are installed.
  static let available: Bool = {
    guard XvfbServer.locate() != nil else { return false }
    return (try? X11Library.load(X11Library.probing)) != nil
  }()

  /// Why the X11 tests are skipped where they are.
  static let skipReason: Comment =
    "X11 tests skipped: Xvfb or libxcb-shm0/libxcb-damage0/libxcb-render0 missing (scripts/install-deps installs xvfb, libxcb-shm0, libxcb-damage0, libxcb-render0)"

  /// Starts an Xvfb with a 1280×720 screen; `realtime` asks for `SCHED_FIFO`, as bench's own
  /// Xvfb does (granted to root), for tests that hold the probe to bench's timing bounds.
  static func start(realtime: Bool = false) throws -> XvfbServer {
    try XvfbServer(width: 1280, height: 720, logPath: nil, realtime: realtime)
  }
}
