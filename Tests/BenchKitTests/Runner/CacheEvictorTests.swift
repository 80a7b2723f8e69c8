import BenchKit
import Foundation
@testable import HostConditions
import Testing

@Suite struct CacheEvictorTests {
  /// The file-backed mappings of this process, read with stdio to the end (the reference).
  static func mappedFilesWithStdio() throws -> Set<String> {
    let file = try #require(fopen("/proc/self/maps", "r"))
    defer { fclose(file) }
    var files = Set<String>()
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) > 0 {
      let text = String(cString: line!)
      if let slash = text.firstIndex(of: "/") {
        let path = text[slash...].trimmingCharacters(in: .whitespacesAndNewlines)
        if !path.hasPrefix("/dev/") && !path.hasSuffix("(deleted)") { files.insert(path) }
      }
    }
    return files
  }

  @Test("every file a process maps is learned, however long /proc/PID/maps is")
  func learnsEveryMapping() throws {
    let expected = try Self.mappedFilesWithStdio()
    // The test runner maps dozens of libraries: its maps are longer than one 4 KiB read.
    #expect(expected.count > 10)
    let learned = CacheEvictor.mappedFiles(pid: getpid())
    #expect(expected.subtracting(learned).isEmpty, "missed: \(expected.subtracting(learned).sorted())")
  }
}
