import Glibc
import SystemCalls
import TestSupport
import Testing

@Suite struct FileSystemRemovingTests {
  @Test("a folder tree is removed whole; a link in it is removed, never followed")
  func removesTrees() throws {
    let root = temporaryFolder("firstframe-rm")
    defer { try? FileSystem.remove(atPath: root, absentIsFine: true) }
    try FileSystem.createDirectory(atPath: root + "/keep")
    try FileSystem.replaceAtomically("kept\n", atPath: root + "/keep/file")
    try FileSystem.createDirectory(atPath: root + "/tree/a/b")
    try FileSystem.replaceAtomically("x", atPath: root + "/tree/a/b/file")
    try FileSystem.replaceAtomically("y", atPath: root + "/tree/top")
    _ = try SystemCall.retrying { symlink(root + "/keep", root + "/tree/a/link") }
    try FileSystem.remove(atPath: root + "/tree")
    #expect(!FileSystem.exists(atPath: root + "/tree"))
    #expect(FileSystem.readText(atPath: root + "/keep/file") == "kept\n")
  }

  @Test("a file and a link are unlinked; a link's target stays")
  func removesFilesAndLinks() throws {
    let root = temporaryFolder("firstframe-rm")
    defer { try? FileSystem.remove(atPath: root, absentIsFine: true) }
    try FileSystem.replaceAtomically("t", atPath: root + "/target")
    _ = try SystemCall.retrying { symlink(root + "/target", root + "/link") }
    try FileSystem.remove(atPath: root + "/link")
    #expect(!FileSystem.exists(atPath: root + "/link"))
    #expect(FileSystem.exists(atPath: root + "/target"))
    try FileSystem.remove(atPath: root + "/target")
    #expect(try FileSystem.contentsOfDirectory(atPath: root).isEmpty)
  }

  @Test("nothing there is ENOENT unless the caller says absent is fine; a refusal is its errno")
  func removeErrors() throws {
    let root = temporaryFolder("firstframe-rm")
    defer { try? FileSystem.remove(atPath: root, absentIsFine: true) }
    #expect(throws: Errno.noSuchFile) { try FileSystem.remove(atPath: root + "/none") }
    try FileSystem.remove(atPath: root + "/none", absentIsFine: true)
    // Even root may not unlink a /proc file: the errno comes back, absent-is-fine or not.
    #expect(throws: Errno(rawValue: EPERM)) { try FileSystem.remove(atPath: "/proc/self/status") }
    #expect(throws: Errno(rawValue: EPERM)) {
      try FileSystem.remove(atPath: "/proc/self/status", absentIsFine: true)
    }
  }
}
