import Foundation
import Subprocess
import SystemCalls

/// Where an app writes its trace while it runs: `trace.jsonl` in a folder of its own, made fresh
/// for the launch (`mkdtemp`, mode 0700, `firstframe-run-XXXXXX` under `$TMPDIR`), outside the
/// results folder.
///
/// The app is untrusted. With its trace inside `<out>/traces/` it could reach everything beside
/// it: append forged lines to the run journal, plant the next run's log, or swap its trace for a
/// link that bench then followed. Here the folder holds only its own trace, and bench keeps a
/// copy it makes itself (``keep(at:maxBytes:)``): read without following a link, at most
/// `maxBytes`, replaced atomically into `<out>/traces/`. The folder is removed when the launch
/// is released (`deinit`), whichever way its run ended.
final class PrivateTrace: Sendable {
  /// The private folder.
  let folder: String
  /// The trace file the app is given (`FIRSTFRAME_TRACE`), empty at the start.
  let path: String

  /// Makes the folder and the empty trace in it.
  /// - Throws: `RunnerError` (`spawnFailed`) naming the call that failed.
  init() throws(RunnerError) {
    do {
      folder = try PrivateDirectory.makeTemporary(prefix: "firstframe-run-")
    } catch {
      throw RunnerError(.spawnFailed, "cannot make the run's private trace folder: \(error.message)")
    }
    path = folder + "/trace.jsonl"
    do {
      FileDescriptorIO.close(try FileSystem.createFile(atPath: path, mode: 0o600))
    } catch {
      try? FileManager.default.removeItem(atPath: folder)
      throw RunnerError(.spawnFailed, "cannot create the run's trace \(path): \(error.message)", errno: error)
    }
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }

  /// Copies the trace's first `maxBytes` bytes to `destination` (atomically: a reader sees no
  /// part of it). A trace the app replaced by a link or by something other than a regular file is
  /// not read: an empty file is kept in its place (the run's reader counted it as a malformed
  /// trace and said why). A failure to write is not an error of the run: the run's record holds
  /// what was read.
  func keep(at destination: String, maxBytes: Int) {
    var bytes: [UInt8] = []
    if let fd = try? FileSystem.openForReading(atPath: path, refusingLinks: true, nonBlocking: true) {
      if FileSystem.isRegularFile(fd) { bytes = (try? FileSystem.prefix(of: fd, maxBytes: maxBytes)) ?? [] }
      FileDescriptorIO.close(fd)
    }
    try? FileSystem.replaceAtomically(bytes, atPath: destination)
  }
}
