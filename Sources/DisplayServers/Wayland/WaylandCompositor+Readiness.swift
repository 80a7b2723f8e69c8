#if canImport(Glibc)
  import Glibc
#endif
import CompositorIPC
import Foundation
import LaunchContract
import SystemCalls

/// When a compositor is ready: its Wayland socket accepts a connection and, for sway, its IPC's
/// `GET_OUTPUTS` shows the output at the mode asked.
extension WaylandCompositor {
  /// What readiness found.
  struct Readiness {
    var socket: String
    var ipcSocket: String?
    var output: Output
    var version: String
  }

  /// Why the compositor is not ready, one line.
  struct NotReady: Error {
    var message: String
  }

  /// Waits until the compositor in `folder` is ready (its Wayland socket accepts a connection;
  /// sway's IPC shows the output at the mode asked), polling every millisecond, by `deadline`.
  static func waitUntilReady(
    _ kind: WaylandCompositorKind, folder: String, owner: Owner, width: Int, height: Int, refreshHz: Double,
    deadline: UInt64
  ) throws(NotReady) -> Readiness {
    var socket: String?
    var last = "did not open its Wayland socket"
    while true {
      if let ended = owner.ended.withLock({ $0 }) {
        throw NotReady(message: "the Wayland compositor (\(kind.program)) exited: \(ended)")
      }
      guard MonotonicClock.now() < deadline else {
        throw NotReady(message: "the Wayland compositor (\(kind.program)) was not ready in time: it \(last)")
      }
      let names = (try? FileSystem.contentsOfDirectory(atPath: folder)) ?? []
      if socket == nil, let name = names.first(where: isWaylandSocketName),
        let fd = try? UnixSocket.connect(path: folder + "/" + name)
      {
        FileDescriptorIO.close(fd)
        socket = folder + "/" + name
        last = "opened its Wayland socket"
      }
      if let socket {
        guard kind == .sway else {
          return Readiness(socket: socket, ipcSocket: nil, output: defaultOutput, version: "0.1.4")
        }
        if let ipc = names.first(where: { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }) {
          switch swayOutput(
            folder + "/" + ipc, width: width, height: height, refreshHz: refreshHz, deadline: deadline)
          {
          case .success(let found):
            return Readiness(
              socket: socket, ipcSocket: folder + "/" + ipc, output: found.output, version: found.version)
          case .failure(let why): last = why.message
          }
        }
      }
      MonotonicClock.sleep(nanoseconds: 1_000_000)
    }
  }

  /// sway's output at the mode asked, through its IPC at `ipc`; a failure says what was wrong.
  static func swayOutput(_ ipc: String, width: Int, height: Int, refreshHz: Double, deadline: UInt64)
    -> Result<(output: Output, version: String), NotReady>
  {
    do {
      let connection = try SwayIPC(path: ipc)
      defer { connection.close() }
      let outputs = try connection.outputs(until: deadline)
      guard let o = outputs.first(where: { $0.active }) else {
        return .failure(NotReady(message: "shows no active output"))
      }
      let asked = Int((refreshHz * 1000).rounded())
      guard o.width == width, o.height == height, abs(o.refreshMillihertz - asked) <= 1 else {
        return .failure(
          NotReady(
            message:
              "shows its output \(o.name) at \(o.width)x\(o.height)@\(o.refreshHz) Hz, not \(width)x\(height)@\(hertz(refreshHz)) Hz"
          ))
      }
      let version = (try? connection.version(until: deadline)) ?? "?"
      return .success(
        (
          Output(name: o.name, width: o.width, height: o.height, refreshMillihertz: o.refreshMillihertz),
          version
        ))
    } catch {
      return .failure(NotReady(message: "did not answer on its IPC: \(error.message)"))
    }
  }

  /// Whether `name` is a Wayland socket's (`wayland-1`, not its `.lock`).
  static func isWaylandSocketName(_ name: String) -> Bool {
    name.hasPrefix("wayland-") && !name.hasSuffix(".lock")
  }
}
