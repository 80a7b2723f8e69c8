import Glibc
import LaunchContract
import SystemCalls

/// The small file that remembers when the synthetic camera was last closed, across processes,
/// so that `open()` knows whether the device is still warm.
///
/// Path: `<state directory>/synthetic-camera.state`, in a folder only this user can change (see
/// ``write(closeNs:bootID:)``). Content (text, three lines):
/// ```
/// firstframe-synthetic-state 1
/// boot_id <contents of /proc/sys/kernel/random/boot_id>
/// last_close_ns <CLOCK_MONOTONIC at close, ns>
/// ```
/// Written at `close()` to a temporary file in the same directory and renamed over the old one
/// (atomic). `open()` powers up warm when the file exists, names this boot, and the close was at
/// most `warm_window_ms` ago; otherwise cold (a binary decision, no interpolation).
struct PowerStateFile: Sendable {
  let directory: String
  var path: String { directory + "/synthetic-camera.state" }

  static let header = "firstframe-synthetic-state 1"

  /// `$FIRSTFRAME_SYNTHETIC_STATE` if set and not empty, else `$XDG_RUNTIME_DIR/firstframe`,
  /// else `/tmp/firstframe-<uid>`.
  static func defaultDirectory() -> String {
    defaultDirectory(
      syntheticState: LaunchEnvironment.value(of: .syntheticState),
      runtimeDirectory: getenv("XDG_RUNTIME_DIR").map { String(cString: $0) })
  }

  /// The runner's folder (`syntheticState`) when given, else the per-user folder `firstframe`
  /// (`PrivateDirectory.perUserPath`).
  static func defaultDirectory(syntheticState: String?, runtimeDirectory: String?) -> String {
    if let syntheticState, !syntheticState.isEmpty { return syntheticState }
    return PrivateDirectory.perUserPath("firstframe", runtimeDirectory: runtimeDirectory)
  }

  /// This boot's id (`/proc/sys/kernel/random/boot_id`), or `unknown`.
  static let bootID: String = {
    let text = FileSystem.readText(atPath: "/proc/sys/kernel/random/boot_id", maxBytes: 4096)
    let trimmed = text?.trimmingWhitespace() ?? ""
    return trimmed.isEmpty ? "unknown" : trimmed
  }()

  struct Record: Sendable, Hashable {
    var bootID: String
    var lastCloseNs: UInt64
  }

  /// The record, or nil when the file is absent or malformed, or the folder is not this user's
  /// own (`PrivateDirectory.check`: then anyone could have written the file).
  func read() -> Record? {
    guard (try? PrivateDirectory.check(directory)) != nil,
      let text = FileSystem.readText(atPath: path, maxBytes: 64 * 1024)
    else { return nil }
    let lines = text.split(separator: "\n").map(String.init)
    guard lines.count >= 3, lines[0] == Self.header,
      lines[1].hasPrefix("boot_id "), lines[2].hasPrefix("last_close_ns "),
      let ns = UInt64(lines[2].dropFirst("last_close_ns ".count))
    else { return nil }
    return Record(bootID: String(lines[1].dropFirst("boot_id ".count)), lastCloseNs: ns)
  }

  /// Cold or warm, for an open at `now` (ns) with a warm window of `warmWindowMs`.
  func powerUp(now: UInt64, warmWindowMs: Double) -> PowerUp {
    guard let record = read(), record.bootID == Self.bootID, record.lastCloseNs <= now else { return .cold }
    return Double(now - record.lastCloseNs) <= warmWindowMs * 1_000_000 ? .warm : .cold
  }

  /// Records a close at `closeNs` (temporary file + rename), in a folder that is this user's own:
  /// made with mode 0700 if missing, refused if another user owns it, others can write into it,
  /// or it is a symbolic link (`PrivateDirectory.prepare`).
  func write(closeNs: UInt64, bootID: String = PowerStateFile.bootID) throws(SyntheticCameraError) {
    do {
      try PrivateDirectory.prepare(directory)
    } catch {
      let failure = "cannot keep the synthetic camera's state in \(directory): \(error.message)"
      throw error.errno.map { SyntheticCameraError(.stateFile, failure, errno: $0) }
        ?? SyntheticCameraError(.stateFile, failure)
    }
    let text = "\(Self.header)\nboot_id \(bootID)\nlast_close_ns \(closeNs)\n"
    do {
      try FileSystem.writeAtomically(Array(text.utf8), toPath: path)
    } catch {
      throw SyntheticCameraError(.stateFile, "cannot write \(path)", errno: error)
    }
  }

  /// Forgets the last close, so the next open is cold. A missing file is fine.
  func remove() throws(SyntheticCameraError) {
    do {
      _ = try SystemCall.retrying { unlink(path) }
    } catch {
      guard error != .noSuchFile else { return }
      throw SyntheticCameraError(
        .stateFile, "cannot remove \(path) to make the synthetic camera cold", errno: error)
    }
  }
}
