import Foundation
import Synchronization
import SystemCalls
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A private headless sway for tests of the Wayland client (the wire, screencopy, a preview
/// surface), apart from bench's own compositor: sway 1.7 on wlroots' headless back end with the
/// pixman renderer, one 640×360 output at 60 Hz, no borders, in a folder of its own that is its
/// `XDG_RUNTIME_DIR`. sway refuses to run as root ("Unable to drop root"), so as root it runs as
/// `nobody:nogroup` (`setpriv`) in a folder handed to that user; root reaches its socket anyway.
/// The folder's name carries this process's claim token (`MachineClaim`), so a sway left by a
/// test process that was killed is stopped and removed by the next one only once that claim is
/// free, never one another live test process runs.
package final class HeadlessSway: @unchecked Sendable {
  // @unchecked: the fields are immutable but `process`, whose Process locks internally, and
  // `stopped`, an atomic.

  /// Whether sway is installed (and, as root, `setpriv`).
  package static let available: Bool =
    access(program, X_OK) == 0 && (getuid() != 0 || access(setpriv, X_OK) == 0)
  /// Why the tests that need a compositor are skipped where they are.
  package static let skipReason: Comment =
    "Wayland tests skipped: sway is not installed (scripts/install-deps installs the Debian package sway)"

  static let program = "/usr/bin/sway"
  static let setpriv = "/usr/bin/setpriv"
  static let prefix = "firstframe-testsway-"

  /// The compositor's folder (its `XDG_RUNTIME_DIR`).
  package let folder: String
  /// The Wayland socket's absolute path.
  package var socket: String { folder + "/wayland-1" }
  private let process: TestProcess
  private let stopped = Atomic<Bool>(false)

  /// Starts sway with an output of `width`×`height` at `refresh` Hz; returns once its Wayland
  /// socket accepts connections.
  /// - Throws: when sway does not start in time, with its log's end.
  package init(width: Int = 640, height: Int = 360, refresh: Int = 60) throws {
    Self.removeStale()
    folder = try PrivateDirectory.makeTemporary(
      prefix: Self.prefix + MachineClaim.currentToken + "-", in: "/tmp")
    let asNobody = getuid() == 0
    let config = folder + "/config"
    // No Xwayland: sway 1.7's default (lazy) takes an X display and writes /tmp/.X<n>-lock for
    // every test sway, which a sway a test kills leaves behind.
    try "output HEADLESS-1 mode \(width)x\(height)@\(refresh)Hz\ndefault_border none\nxwayland disable\n"
      .write(
        toFile: config, atomically: false, encoding: .utf8)
    if asNobody {
      chown(folder, 65534, 65534)
      chown(config, 65534, 65534)
    }
    chmod(folder, 0o700)
    let environment = [
      "PATH": "/usr/bin:/bin", "HOME": folder, "XDG_RUNTIME_DIR": folder, "WLR_BACKENDS": "headless",
      "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman", "WAYLAND_DISPLAY": "wayland-1",
    ]
    let arguments = ["-c", config]
    process =
      asNobody
      ? TestProcess(
        executable: Self.setpriv,
        arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", "--", Self.program] + arguments,
        environment: environment, workingDirectory: folder)
      : TestProcess(
        executable: Self.program, arguments: arguments, environment: environment, workingDirectory: folder)
    try process.run()
    let socket = self.socket
    let ready = blockUntil(timeout: .seconds(60), every: .milliseconds(5)) { [process] in
      guard process.isRunning else { return true }
      guard let fd = try? UnixSocket.connect(path: socket) else { return false }
      FileDescriptorIO.close(fd)
      return true
    }
    guard ready, process.isRunning else {
      let log = process.standardErrorText.suffix(400)
      stop()
      throw HeadlessSwayError("sway did not start: \(log)")
    }
  }

  deinit { stop() }

  /// The environment a Wayland client of this compositor needs.
  package var clientEnvironment: [String: String] {
    ["XDG_RUNTIME_DIR": folder, "WAYLAND_DISPLAY": "wayland-1"]
  }

  /// Stops sway (SIGKILL: a test's compositor has nothing to keep, and sway spawned by
  /// Foundation's `Process` inherits the test thread's blocked SIGTERM, which it then never
  /// handles) and removes its folder. Does nothing the second time.
  package func stop() {
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    process.signal(SIGKILL)
    _ = process.waitUntilExit(timeout: .seconds(30))
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// Stops and removes the compositors of test processes that are gone: a folder
  /// `firstframe-testsway-TOKEN-…` whose claim is free; its sway is the process whose working
  /// folder it is.
  static func removeStale() {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
    _ = MachineClaim.removeLeftovers(names, prefix: prefix) { name in
      let folder = "/tmp/" + name
      for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let pid = Int32(entry),
          (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/cwd")) == folder
        else { continue }
        kill(pid, SIGKILL)
      }
      return (try? FileManager.default.removeItem(atPath: folder)) != nil
    }
  }
}

/// Why the test compositor could not be started, with its own words.
package struct HeadlessSwayError: Error, CustomStringConvertible {
  /// What failed.
  package var description: String
  /// Creates the error.
  package init(_ description: String) { self.description = description }
}
