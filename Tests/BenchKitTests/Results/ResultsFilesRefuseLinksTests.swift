import Foundation
import ResultsSchema
import Subprocess
import SystemCalls
import TestSupport
import Testing

/// The files bench writes in a results folder are its own (issue 28, item 4): a file planted
/// where a run's log goes lends it no bytes, and a link planted where the journal goes is
/// refused, never followed to the file it points at.
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct ResultsFilesRefuseLinksTests {
  @Test("a run's logs start empty: bytes planted in them before the run are gone")
  func plantedLogs() throws {
    let dir = temporaryFolder("planted-logs")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (stdoutLog, stderrLog) = (dir + "/run.stdout.log", dir + "/run.log")
    for path in [stdoutLog, stderrLog] { try FileSystem.replaceAtomically("PLANTED\n", atPath: path) }
    let drain = try AppOutputDrain(stdoutPath: stdoutLog, stderrPath: stderrLog)
    drain.finish(within: 0)
    #expect(FileSystem.readText(atPath: stdoutLog) == "")
    #expect(FileSystem.readText(atPath: stderrLog) == "")
  }

  @Test("a link planted where the journal goes is refused; the file it points at is untouched")
  func journalLink() throws {
    let dir = temporaryFolder("journal-link")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let target = dir + "/elsewhere.txt"
    try FileSystem.replaceAtomically("someone else's file\n", atPath: target)
    try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: dir + "/out/" + RunJournal.fileName, withDestinationPath: target)
    #expect(throws: ResultsFileError.self) {
      _ = try RunJournal(folder: dir + "/out", base: SyntheticResults.make(runs: 0))
    }
    #expect(FileSystem.readText(atPath: target) == "someone else's file\n")
  }
}
