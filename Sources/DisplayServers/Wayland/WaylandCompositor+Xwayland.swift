#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Subprocess
import SystemCalls

/// Xwayland in the private sway (`--display wayland+xwayland`, issue 36): sway's configuration
/// says `xwayland force`, so wlroots starts Xwayland with sway rather than at the first X client's
/// connection (which would put Xwayland's start inside the measured launch). wlroots picks a free
/// display number N, writes `/tmp/.XN-lock` with the compositor's pid, and listens on
/// `/tmp/.X11-unix/XN`; the display is ready when an X connection there gets the server's answer
/// to its set-up.
///
/// Xwayland lets in its own user only (it runs as sway's, `nobody` when bench is root): an app user
/// other than that one is let in by name (`xhost +si:localuser:NAME`, run as sway's user).
extension WaylandCompositor {
  /// The folder wlroots' lock files are in, and its socket folder's name there.
  static let xLockFolder = "/tmp"
  static let xSocketFolder = "/tmp/.X11-unix"

  /// Waits until the Xwayland of the compositor `pid` serves its display, by `deadline`; returns
  /// the display (`:1`).
  static func waitForXwayland(compositor pid: pid_t, owner: Owner, deadline: UInt64) throws(NotReady)
    -> String
  {
    var last = "wrote no /tmp/.X*-lock with sway's pid"
    while true {
      if let ended = owner.ended.withLock({ $0 }) {
        throw NotReady(message: "the Wayland compositor (sway) exited: \(ended)")
      }
      guard MonotonicClock.now() < deadline else {
        throw NotReady(message: "sway's Xwayland was not ready in time: sway \(last)")
      }
      if let number = xwaylandDisplayNumber(of: pid) {
        last = "has Xwayland's display :\(number), which did not answer an X connection"
        if xServerAnswers(at: "\(xSocketFolder)/X\(number)", deadline: deadline) { return ":\(number)" }
      }
      MonotonicClock.sleep(nanoseconds: 2_000_000)
    }
  }

  /// The Xwayland of the compositor whose process group is `group`: the process of that group
  /// running `Xwayland`, or nil.
  static func xwaylandProcess(inGroup group: pid_t) -> pid_t? {
    for entry in (try? FileSystem.contentsOfDirectory(atPath: "/proc")) ?? [] {
      guard let p = pid_t(entry), p != group, ProcessControl.processGroup(of: p) == group,
        let exe = try? FileSystem.symbolicLinkDestination(atPath: "/proc/\(p)/exe"),
        exe.hasSuffix("/Xwayland")
      else { continue }
      return p
    }
    return nil
  }

  /// The display number whose lock file (`/tmp/.XN-lock`) names `pid`, or nil.
  static func xwaylandDisplayNumber(of pid: pid_t, in folder: String = xLockFolder) -> Int? {
    let names = (try? FileSystem.contentsOfDirectory(atPath: folder)) ?? []
    for name in names where name.hasPrefix(".X") && name.hasSuffix("-lock") {
      guard let number = Int(name.dropFirst(2).dropLast(5)), number >= 0,
        let text = FileSystem.readText(atPath: folder + "/" + name, maxBytes: 64),
        pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0"))))
          == pid
      else { continue }
      return number
    }
    return nil
  }

  /// Whether an X server answers a connection's set-up at `socket` by `deadline`: success,
  /// failure or a request to authenticate are all answers (bench, root, is refused by an
  /// Xwayland that lets in nobody only: it is serving all the same).
  static func xServerAnswers(at socket: String, deadline: UInt64) -> Bool {
    guard let fd = try? UnixSocket.connect(path: socket) else { return false }
    defer { FileDescriptorIO.close(fd) }
    // Set-up: little-endian, protocol 11.0, no authorization.
    let setup: [UInt8] = [0x6C, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    guard (try? FileDescriptorIO.writeAll(fd, setup)) != nil else { return false }
    while MonotonicClock.now() < deadline {
      let left = Int32(clamping: (deadline &- MonotonicClock.now()) / 1_000_000)
      guard let readable = try? UnixSocket.waitReadable(fd, milliseconds: max(1, min(left, 250))) else {
        return false
      }
      guard readable else { continue }
      var first: UInt8 = 0xFF
      let count = withUnsafeMutableBytes(of: &first) { (try? FileDescriptorIO.read(fd, into: $0)) ?? 0 }
      return count == 1 && first <= 2
    }
    return false
  }

  /// Removes the lock file and socket of display `number` when its lock names `pid` (a
  /// compositor killed before wlroots could remove them); returns whether it removed them.
  @discardableResult
  static func removeXwaylandFiles(of pid: pid_t) -> Bool {
    guard let number = xwaylandDisplayNumber(of: pid) else { return false }
    // Another process's display is never named: the lock names this compositor.
    try? FileSystem.remove(atPath: "\(xSocketFolder)/X\(number)")
    try? FileSystem.remove(atPath: "\(xLockFolder)/.X\(number)-lock")
    return true
  }

  /// Lets the app user `uid` into Xwayland's `display` when it is not the compositor's user:
  /// `xhost +si:localuser:NAME` run as the compositor's user (the only one Xwayland lets in).
  /// - Throws: `RunnerError` `.displayFailed`: no user of that uid, no `xhost`, or it failed.
  static func letIntoXwayland(
    _ display: String, appUser uid: uid_t, compositorUser: uid_t, deadline: Double = 10
  ) throws(RunnerError) {
    guard let user = UserIdentity.lookUp(String(uid)) else {
      throw RunnerError(.displayFailed, "cannot let uid \(uid) into Xwayland \(display): no such user")
    }
    guard let xhost = WaylandServer.locate("xhost") else {
      throw RunnerError(
        .displayFailed,
        "--display wayland+xwayland for the app user \(user.name): Xwayland lets in sway's user only, and letting \(user.name) in needs xhost (apt-get install x11-xserver-utils)"
      )
    }
    let child = try ChildProcess.spawn(
      argv: [xhost, "+si:localuser:\(user.name)"],
      environment: ["PATH": "/usr/bin:/bin", "DISPLAY": display],
      user: UserIdentity(name: "nobody", uid: compositorUser, gid: compositorUser))
    let ended = child.wait(timeout: deadline) ?? child.terminate(grace: 0.5)
    guard ended.isSuccess else {
      throw RunnerError(
        .displayFailed, "cannot let \(user.name) into Xwayland \(display): xhost \(ended)")
    }
  }
}
