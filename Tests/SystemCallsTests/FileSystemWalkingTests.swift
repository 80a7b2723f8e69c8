import Glibc
import SystemCalls
import TestSupport
import Testing

@Suite struct FileSystemWalkingTests {
  @Test("a walk lists every entry relative to the root, a folder before what it holds, links unfollowed")
  func walksTrees() throws {
    let root = temporaryFolder("firstframe-walk")
    defer { try? FileSystem.remove(atPath: root, absentIsFine: true) }
    try FileSystem.createDirectory(atPath: root + "/a/b")
    try FileSystem.replaceAtomically("x", atPath: root + "/a/b/file")
    try FileSystem.replaceAtomically("y", atPath: root + "/top")
    _ = try SystemCall.retrying { symlink(root + "/a", root + "/link") }
    let entries = try FileSystem.walk(atPath: root)
    #expect(Set(entries) == ["a", "a/b", "a/b/file", "top", "link"])
    #expect(entries.count == 5)
    let index = { (name: String) in entries.firstIndex(of: name) ?? -1 }
    #expect(index("a") < index("a/b") && index("a/b") < index("a/b/file"))
  }

  @Test("walking nothing or a file is its errno")
  func walkErrors() throws {
    let root = temporaryFolder("firstframe-walk")
    defer { try? FileSystem.remove(atPath: root, absentIsFine: true) }
    try FileSystem.replaceAtomically("x", atPath: root + "/file")
    #expect(throws: Errno.noSuchFile) { try FileSystem.walk(atPath: root + "/none") }
    #expect(throws: Errno(rawValue: ENOTDIR)) { try FileSystem.walk(atPath: root + "/file") }
  }
}
