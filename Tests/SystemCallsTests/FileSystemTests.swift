import Glibc
import SystemCalls
import TestSupport
import Testing

@Suite struct FileSystemTests {
  static func cleanUp(_ folder: String) {
    let names = (try? FileSystem.contentsOfDirectory(atPath: folder)) ?? []
    for name in names {
      let path = folder + "/" + name
      if FileSystem.isDirectory(path) { cleanUp(path) } else { unlink(path) }
    }
    rmdir(folder)
  }

  @Test("a /proc file is read to its end, whatever its reported size")
  func readsProcFilesWhole() throws {
    let maps = try FileSystem.contents(atPath: "/proc/self/maps")
    // The test runner maps dozens of libraries: far more than one 4 KiB read.
    #expect(maps.count > 4096)
    #expect(maps.last == UInt8(ascii: "\n"))
  }

  @Test("a missing file, a folder and a file over the limit are errors with their errno")
  func readErrors() throws {
    #expect(throws: Errno.noSuchFile) { try FileSystem.contents(atPath: "/nonexistent/firstframe") }
    #expect(throws: Errno(rawValue: EISDIR)) { try FileSystem.contents(atPath: "/tmp") }
    #expect(throws: Errno(rawValue: EFBIG)) {
      try FileSystem.contents(atPath: "/proc/self/maps", maxBytes: 100)
    }
    #expect(FileSystem.readFile(atPath: "/nonexistent/firstframe") == nil)
  }

  @Test("folders are created with their parents; an existing one is fine, a file in the way is not")
  func createsFolders() throws {
    let root = temporaryFolder("firstframe-fs")
    defer { Self.cleanUp(root) }
    try FileSystem.createDirectory(atPath: root + "/a/b/c", mode: 0o700)
    #expect(FileSystem.isDirectory(root + "/a/b/c"))
    try FileSystem.createDirectory(atPath: root + "/a/b")
    try FileSystem.replaceAtomically(Array("x".utf8), atPath: root + "/file")
    #expect(throws: Errno.fileExists) { try FileSystem.createDirectory(atPath: root + "/file/d") }
    #expect(Set(try FileSystem.contentsOfDirectory(atPath: root)) == ["a", "file"])
    #expect(throws: Errno.noSuchFile) { try FileSystem.contentsOfDirectory(atPath: root + "/none") }
  }

  @Test("an atomic write replaces the file's content and leaves no temporary file behind")
  func writesAtomically() throws {
    let root = temporaryFolder("firstframe-fs")
    defer { Self.cleanUp(root) }
    let path = root + "/state"
    try FileSystem.replaceAtomically(Array("first\n".utf8), atPath: path)
    try FileSystem.replaceAtomically(Array("second\n".utf8), atPath: path, mode: 0o600)
    #expect(FileSystem.readText(atPath: path) == "second\n")
    #expect(try FileSystem.contentsOfDirectory(atPath: root) == ["state"])
    #expect(throws: Errno.noSuchFile) { try FileSystem.replaceAtomically([1], atPath: root + "/none/state") }
    #expect(try FileSystem.contentsOfDirectory(atPath: root) == ["state"])
  }

  @Test("a replace over a symbolic link replaces the link, not its target; a link is re-pointed atomically")
  func replacesLinks() throws {
    let root = temporaryFolder("firstframe-fs")
    defer { Self.cleanUp(root) }
    try FileSystem.replaceAtomically("target\n", atPath: root + "/target")
    _ = try SystemCall.retrying { symlink(root + "/target", root + "/link") }
    try FileSystem.replaceAtomically("new\n", atPath: root + "/link")
    #expect(FileSystem.readText(atPath: root + "/target") == "target\n")
    #expect(FileSystem.readText(atPath: root + "/link") == "new\n")
    try FileSystem.replaceSymbolicLink(atPath: root + "/latest", pointingTo: "target")
    try FileSystem.replaceSymbolicLink(atPath: root + "/latest", pointingTo: "link")
    #expect(FileSystem.readText(atPath: root + "/latest") == "new\n")
    #expect(Set(try FileSystem.contentsOfDirectory(atPath: root)) == ["target", "link", "latest"])
  }

  @Test("whitespace around a value is trimmed, inside it is kept")
  func trimming() {
    #expect(" 42000\n".trimmingWhitespace() == "42000")
    #expect("\t a b \r\n".trimmingWhitespace() == "a b")
    #expect(" \n".trimmingWhitespace() == "")
  }
}
