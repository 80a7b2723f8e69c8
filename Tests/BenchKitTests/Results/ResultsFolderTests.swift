import BenchKit
import CommandLineKit
import Foundation
import Gates
import ResultsSchema
import TestSupport
import Testing

@Suite struct ResultsFolderTests {
  @Test("a second bench on the same results folder is refused while the first holds it")
  func exclusive() throws {
    let dir = temporaryFolder("folder")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let first = try ResultsFolder.claim(dir, overwrite: false) { _ in }
    #expect(ResultsFolder.isHeld(dir))
    let error = #expect(throws: UsageError.self) { try ResultsFolder.claim(dir, overwrite: true) { _ in } }
    #expect(error?.message.contains("another bench is writing to this folder") == true)
    _ = first
  }

  @Test("a folder with earlier results is refused; --overwrite replaces bench's files and leaves others")
  func nonEmpty() throws {
    let dir = temporaryFolder("folder")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for name in ["results.json", "samples.csv", "notes.txt"] {
      #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data("x".utf8)))
    }
    let error = #expect(throws: UsageError.self) { try ResultsFolder.claim(dir, overwrite: false) { _ in } }
    #expect(error?.message.contains("is not empty (notes.txt, results.json, samples.csv)") == true)
    _ = try ResultsFolder.claim(dir, overwrite: true) { _ in }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["notes.txt"])
  }

  @Test("a journal without its end line (a killed bench) is rebuilt into results.json, marked incomplete")
  func recovers() throws {
    let dir = temporaryFolder("folder")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let base = SyntheticResults.make(runs: 0)
    let full = SyntheticResults.make(runs: 3)
    do {
      let journal = try RunJournal(folder: dir, base: base)
      for cell in full.cells {
        try journal.startCell(cell)
        for record in cell.records {
          try journal.append(
            run: record, config: cell.config, condition: cell.condition, camera: cell.camera, realtime: false)
        }
      }
    }
    var notes: [String] = []
    let error = #expect(throws: UsageError.self) {
      try ResultsFolder.claim(dir, overwrite: false) { notes.append($0) }
    }
    #expect(error?.message.contains("is not empty") == true)
    #expect(notes.count == 1 && notes[0].contains("24 finished runs kept (complete: false)"), "\(notes)")
    let rebuilt = try ResultsFile.load(path: dir + "/results.json")
    #expect(rebuilt.complete == false && rebuilt.settings.interrupted)
    #expect(rebuilt.cells.map { $0.records.count } == full.cells.map { $0.records.count })
    #expect(try RunJournal.read(path: dir + "/" + RunJournal.fileName).hasEnd)
    // Rebuilt once: a second look finds the journal ended.
    notes = []
    _ = try? ResultsFolder.claim(dir, overwrite: false) { notes.append($0) }
    #expect(notes.isEmpty)
  }
}
