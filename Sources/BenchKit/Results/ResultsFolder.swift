#if canImport(Glibc)
  import Glibc
#endif
import Gates
import Reports
import CommandLineKit
import Foundation
import ResultsSchema
import SystemCalls

/// The results folder of one `bench` run (`--out`), held for the run: an exclusive lock
/// (`flock(LOCK_EX)` on the folder itself) so that a second bench on the same folder is refused
/// instead of interleaving its runs, and a check that the folder holds no earlier results.
///
/// A folder whose journal has no `end` line — a bench killed before its final save — first gets
/// its `results.json` and reports rebuilt from the journal, so those runs are kept whatever
/// happens next.
package final class ResultsFolder: Sendable {
  /// The folder.
  package let path: String
  private let lockFD: Int32

  /// The files and folders bench writes in a results folder (what `--overwrite` replaces).
  package static let benchFiles = [
    "results.json", RunJournal.fileName, "samples.csv", ReportWriter.plotFileName, ReportWriter.traceFileName,
    ReportWriter.summaryFileName, "traces",
  ]

  private init(path: String, lockFD: Int32) {
    self.path = path
    self.lockFD = lockFD
  }

  deinit { FileDescriptorIO.close(lockFD) }

  /// The journal's path.
  package var journalPath: String { path + "/" + RunJournal.fileName }
  /// The results file's path.
  package var resultsPath: String { path + "/results.json" }

  /// Locks `path` for this bench, rebuilds results left by a killed bench, and checks that the
  /// folder holds no results (or, with `overwrite`, removes bench's own files from it; other
  /// files are left alone). `note` receives what was done, one line each.
  /// - Throws: `UsageError` (exit status 2) when another bench holds the folder or it is not empty.
  package static func claim(_ path: String, overwrite: Bool, note: (String) -> Void) throws(UsageError)
    -> ResultsFolder
  {
    let fd: Int32
    do {
      fd = try SystemCall.retrying { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    } catch {
      throw UsageError("--out \(path): cannot open the folder (\(error.message))")
    }
    do {
      _ = try SystemCall.retrying { flock(fd, LOCK_EX | LOCK_NB) }
    } catch {
      FileDescriptorIO.close(fd)
      if error == .wouldBlock {
        throw UsageError("--out \(path): another bench is writing to this folder")
      }
      throw UsageError("--out \(path): cannot lock the folder (\(error.message))")
    }
    let folder = ResultsFolder(path: path, lockFD: fd)
    if let recovered = folder.recoverUnfinished() { note(recovered) }
    let entries = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    guard !entries.isEmpty else { return folder }
    guard overwrite else {
      let shown = entries.prefix(3).joined(separator: ", ") + (entries.count > 3 ? ", …" : "")
      throw UsageError(
        "--out \(path) is not empty (\(shown)); choose an empty folder, or --overwrite to replace its results"
      )
    }
    for name in benchFiles where entries.contains(name) {
      do {
        try FileManager.default.removeItem(atPath: path + "/" + name)
      } catch {
        throw UsageError("--out \(path): cannot remove the earlier \(name) (\(error.localizedDescription))")
      }
    }
    return folder
  }

  /// When the folder's journal has no `end` line, rebuilds `results.json` (with `complete` false)
  /// and the reports from it and marks the journal ended. Returns what was done, or nil.
  package func recoverUnfinished() -> String? {
    guard let journal = try? RunJournal.read(path: journalPath), !journal.hasEnd else { return nil }
    let runs = journal.results.cells.reduce(0) { $0 + $1.records.count }
    do {
      try Self.rebuild(from: journal, folder: path, markEnded: true)
    } catch {
      return
        "bench: \(path) holds the journal of an unfinished bench (\(runs) runs) but its results could not be rebuilt: \(error)"
    }
    return
      "bench: rebuilt \(resultsPath) from the journal of an unfinished bench: \(runs) finished runs kept (complete: false)"
  }

  /// Writes `results.json` and the reports of `folder` from `journal`; with `markEnded`, appends
  /// the journal's `end` line so that they are not rebuilt again.
  /// - Throws: `ResultsFileError` naming the file that could not be written.
  package static func rebuild(from journal: RunJournal.Contents, folder: String, markEnded: Bool)
    throws(ResultsFileError)
  {
    try ResultsFile.save(journal.results, to: folder + "/results.json")
    do {
      try ReportWriter.writeAll(results: journal.results, folder: folder)
    } catch let error as ResultsFileError {
      throw error
    } catch {
      throw ResultsFileError(
        code: .writeFailed, path: folder, message: "cannot write the reports", cause: error)
    }
    if markEnded { try RunJournal.markRecovered(path: folder + "/" + RunJournal.fileName) }
  }

  /// Whether a bench holds `folder` now (its lock is taken).
  package static func isHeld(_ folder: String) -> Bool {
    guard let fd = try? SystemCall.retrying({ open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }) else {
      return false
    }
    defer { FileDescriptorIO.close(fd) }
    return (try? FileSystem.tryLockExclusively(fd)) == false
  }
}
