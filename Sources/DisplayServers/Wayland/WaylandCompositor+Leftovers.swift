#if canImport(Glibc)
  import Glibc
#endif
import CompositorIPC
import Foundation
import LaunchContract
import SystemCalls

/// What a gone bench's compositor left: its runtime folder (claimed with the bench's token), and
/// the compositor itself when it still runs there.
extension WaylandCompositor {
  /// Removes the runtime folders in `/tmp` whose claim is free (their bench is gone), first
  /// killing the compositor still running in one; returns the folders removed.
  @discardableResult
  package static func removeStale(in parent: String = "/tmp", claims: [String] = MachineClaim.searchFolders)
    -> [String]
  {
    MachineClaim.removeLeftoverFolders(in: parent, prefix: folderPrefix, claims: claims) { folder in
      let running = leftoverCompositor(in: folder)
      if let pid = running {
        Glibc.kill(-pid, SIGKILL)
        Glibc.kill(pid, SIGKILL)
      }
      // Its Xwayland's lock file and socket, which a killed sway leaves (wayland+xwayland): only
      // while the lock's pid is that compositor's or no one's.
      if let pid = recordedCompositor(in: folder), pid == running || !ProcessControl.isAlive(pid) {
        removeXwaylandFiles(of: pid)
      }
    }
  }

  /// The pid `folder`'s `compositor.pid` names, living or not.
  static func recordedCompositor(in folder: String) -> pid_t? {
    guard let text = FileSystem.readText(atPath: folder + "/" + pidFile, maxBytes: 64),
      let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1
    else { return nil }
    return pid
  }

  /// The pid in `folder`'s `compositor.pid` when that process lives with `folder` as its
  /// `XDG_RUNTIME_DIR` (a pid reused by another process is never named).
  ///
  /// A process in the middle of `execve` (setpriv becoming the compositor) reads back an empty
  /// environment for a moment: an empty read is tried again for up to 100 ms, so that a
  /// compositor caught starting is not taken for someone else's process and left running.
  static func leftoverCompositor(in folder: String) -> pid_t? {
    guard let pid = recordedCompositor(in: folder) else { return nil }
    let deadline = MonotonicClock.now() &+ 100_000_000
    while let environ = FileSystem.readFile(atPath: "/proc/\(pid)/environ", maxBytes: 1 << 20) {
      if !environ.isEmpty {
        let wanted = Array("XDG_RUNTIME_DIR=\(folder)".utf8)
        return environ.split(separator: 0).contains { Array($0) == wanted } ? pid : nil
      }
      guard MonotonicClock.now() < deadline else { return nil }
      MonotonicClock.sleep(nanoseconds: 2_000_000)
    }
    return nil
  }
}
