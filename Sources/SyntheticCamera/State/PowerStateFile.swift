import Glibc
import LaunchContract
import SystemCalls

/// The small file that remembers the synthetic camera's last release and whether it is held
/// now, across processes, so that `open()` knows whether the device is still warm.
///
/// Path: `<state directory>/synthetic-camera.state`, in a folder only this user can change (see
/// ``write(_:)``). Content (text): a header, then `key value` lines, the last two optional:
/// ```
/// firstframe-synthetic-state 1
/// boot_id <contents of /proc/sys/kernel/random/boot_id>
/// last_close_ns <CLOCK_MONOTONIC at the last release, ns>
/// held_since_ns <CLOCK_MONOTONIC at the open of a holder that has not released it, ns>
/// ```
/// `open()` writes `held_since_ns` (keeping the last close); `close()` writes `last_close_ns`
/// and drops it. A holder that never closes (killed, crashed, timed out) leaves the device held:
/// whoever reaped it records the release (``recordRelease(atNs:)``), as the kernel releases a
/// real device's file when its holder exits. Each write goes to a temporary file in the same
/// directory, renamed over the old one (atomic). `open()` powers up warm when the file names this
/// boot and the last close was at most `warm_window_ms` ago; otherwise cold (a binary decision,
/// no interpolation).
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
    /// The last release, CLOCK_MONOTONIC ns; nil when none is known this boot.
    var lastCloseNs: UInt64?
    /// The open of a holder that has not released the device, CLOCK_MONOTONIC ns; nil when no
    /// one holds it.
    var heldSinceNs: UInt64?
  }

  /// The record, or nil when the file is absent or malformed, or the folder is not this user's
  /// own (`PrivateDirectory.check`: then anyone could have written the file).
  func read() -> Record? {
    guard (try? PrivateDirectory.check(directory)) != nil,
      let text = FileSystem.readText(atPath: path, maxBytes: 64 * 1024)
    else { return nil }
    let lines = text.split(separator: "\n").map(String.init)
    guard lines.count >= 2, lines[0] == Self.header, lines[1].hasPrefix("boot_id ") else { return nil }
    var record = Record(bootID: String(lines[1].dropFirst("boot_id ".count)))
    for line in lines.dropFirst(2) {
      let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { return nil }
      switch parts[0] {
      case "last_close_ns":
        guard let ns = UInt64(parts[1]) else { return nil }
        record.lastCloseNs = ns
      case "held_since_ns":
        guard let ns = UInt64(parts[1]) else { return nil }
        record.heldSinceNs = ns
      default: continue
      }
    }
    return record
  }

  /// Cold or warm, for an open at `now` (ns) with a warm window of `warmWindowMs`.
  func powerUp(now: UInt64, warmWindowMs: Double) -> PowerUp {
    guard let record = read(), record.bootID == Self.bootID, let close = record.lastCloseNs, close <= now
    else {
      return .cold
    }
    return Double(now - close) <= warmWindowMs * 1_000_000 ? .warm : .cold
  }

  /// Records a close at `closeNs`: the device is not held.
  func write(closeNs: UInt64, bootID: String = PowerStateFile.bootID) throws(SyntheticCameraError) {
    try write(Record(bootID: bootID, lastCloseNs: closeNs))
  }

  /// Records an open at `openNs` that holds the device, keeping this boot's last close.
  func markHeld(openNs: UInt64) throws(SyntheticCameraError) {
    let previous = read().flatMap { $0.bootID == Self.bootID ? $0.lastCloseNs : nil }
    try write(Record(bootID: Self.bootID, lastCloseNs: previous, heldSinceNs: openNs))
  }

  /// When the device is held (this boot) by a holder that never released it, records its
  /// release at `atNs` (or at its open, if that is later). Returns whether it recorded one; a
  /// device that is not held is left as it is.
  func recordRelease(atNs: UInt64) throws(SyntheticCameraError) -> Bool {
    guard let record = read(), record.bootID == Self.bootID, let held = record.heldSinceNs else {
      return false
    }
    try write(Record(bootID: record.bootID, lastCloseNs: max(atNs, held)))
    return true
  }

  /// Writes `record` (temporary file + rename), in a folder that is this user's own: made with
  /// mode 0700 if missing, refused if another user owns it, others can write into it, or it is
  /// a symbolic link (`PrivateDirectory.prepare`).
  func write(_ record: Record) throws(SyntheticCameraError) {
    do {
      try PrivateDirectory.prepare(directory)
    } catch {
      let failure = "cannot keep the synthetic camera's state in \(directory): \(error.message)"
      throw error.errno.map { SyntheticCameraError(.stateFile, failure, errno: $0) }
        ?? SyntheticCameraError(.stateFile, failure)
    }
    var text = "\(Self.header)\nboot_id \(record.bootID)\n"
    if let close = record.lastCloseNs { text += "last_close_ns \(close)\n" }
    if let held = record.heldSinceNs { text += "held_since_ns \(held)\n" }
    do {
      try FileSystem.replaceAtomically(Array(text.utf8), atPath: path)
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
