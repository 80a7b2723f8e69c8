import Foundation
import Subprocess
import SystemCalls

/// Where an app writes its trace while it runs: `trace.jsonl` in a folder of its own, made fresh
/// for the launch (`mkdtemp`, mode 0700, `firstframe-run-<bench's pid>-XXXXXX` under `$TMPDIR`),
/// outside the results folder.
///
/// The app is untrusted. With its trace inside `<out>/traces/` it could reach everything beside
/// it: append forged lines to the run journal, plant the next run's log, or swap its trace for a
/// link that bench then followed. Here the folder holds only its own trace, and bench keeps a
/// copy it makes itself (``keep(at:maxBytes:)``): read without following a link, at most
/// `maxBytes`, replaced atomically into `<out>/traces/`. The folder is removed when the launch
/// is released (`deinit`), whichever way its run ended; a bench killed with SIGKILL cannot do
/// that, so the first launch of the next bench removes the folders whose bench no longer runs
/// (``removeAbandoned(in:)``).
final class PrivateTrace: Sendable {
  /// The start of every private folder's name; bench's pid and `-` follow it.
  static let namePrefix = "firstframe-run-"
  /// Done once per process, by the first launch: ``removeAbandoned(in:)`` on `$TMPDIR`, and the
  /// apps' abandoned state folders (``AppScratchFolder/removeAbandoned(in:folders:)``).
  private static let abandonedRemoved: Void = {
    removeAbandoned(in: PrivateDirectory.temporaryRoot())
    AppScratchFolder.removeAbandoned(in: PrivateDirectory.temporaryRoot())
  }()

  /// The private folder.
  let folder: String
  /// The trace file the app is given (`FIRSTFRAME_TRACE`), empty at the start.
  let path: String
  /// The cost profile the app is given (`--profile`): the profile itself where the app's user can
  /// read it; else, with the app running as another user than bench's, bench's copy in this
  /// folder (`profile.json`, bench's, mode 0644: the app reads it, cannot change it), so that a
  /// profile in a folder closed to that user — `bench ab`'s pinned `OUT/profile.json` in a 0700
  /// `mktemp -d` — still reaches it. (The copy is fresh in the page cache: a cold run evicts the
  /// profile, not the copy.)
  let profile: String?

  /// Makes the folder and the empty trace in it. When the app runs as another user than bench's
  /// (``AppUser``), the trace goes into `app/` in the folder, the app user's own: the folder
  /// stays bench's (mode 0711: the app can pass through it, not list or change it), so that the
  /// sweep of abandoned folders still knows it as this user's; and `profile` (the run's
  /// `--profile`, nil: none), when that user cannot read it, is copied beside it (``profile``),
  /// at most 1 MiB as the app would read.
  /// - Throws: `RunnerError` (`spawnFailed`) naming the call that failed.
  init(appUser: AppUser? = nil, profile source: String? = nil) throws(RunnerError) {
    _ = Self.abandonedRemoved
    do {
      folder = try PrivateDirectory.makeTemporary(prefix: "\(Self.namePrefix)\(MachineClaim.currentToken)-")
    } catch {
      throw RunnerError(.spawnFailed, "cannot make the run's private trace folder: \(error.message)")
    }
    let granted = appUser?.dropsPrivileges == true ? appUser : nil
    path = folder + (granted == nil ? "" : "/app") + "/trace.jsonl"
    let made = folder
    let closed = source.map { granted?.identity.cannotReach($0, access: R_OK) != nil } ?? false
    profile = closed ? made + "/profile.json" : source
    do {
      if let granted {
        try FileSystem.setMode(atPath: folder, 0o711)
        try FileSystem.createDirectory(atPath: folder + "/app", mode: 0o700)
        try granted.grant(folder + "/app")
      }
      if closed, let source, let copy = profile {
        try FileSystem.replaceAtomically(
          try FileSystem.contents(atPath: source, maxBytes: Self.maxProfileBytes), atPath: copy, mode: 0o644)
      }
      FileDescriptorIO.close(try FileSystem.createFile(atPath: path, mode: 0o600))
      try granted?.grant(path)
    } catch {
      try? FileSystem.remove(atPath: folder, absentIsFine: true)
      throw RunnerError(.spawnFailed, "cannot create the run's trace \(path): \(error.message)", errno: error)
    }
  }

  /// The most of a profile copied for the app: as much as camera-app reads of one.
  static let maxProfileBytes = 1 << 20

  deinit { try? FileSystem.remove(atPath: folder, absentIsFine: true) }

  /// Removes the private folders in `root` whose bench (the claim token in their name,
  /// `MachineClaim`) is gone: what a bench killed with SIGKILL left behind. Only folders of this
  /// user's own (not links: `PrivateDirectory.check`) are removed; one whose bench still runs, in
  /// whatever pid namespace, or whose name holds no token, is left alone.
  static func removeAbandoned(in root: String) {
    let names = (try? FileSystem.contentsOfDirectory(atPath: root)) ?? []
    _ = MachineClaim.removeLeftovers(names, prefix: namePrefix) { name in
      let path = root + "/" + name
      guard (try? PrivateDirectory.check(path)) != nil else { return false }
      try? FileSystem.remove(atPath: path, absentIsFine: true)
      return true
    }
  }

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
