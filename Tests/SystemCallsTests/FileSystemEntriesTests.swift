import Glibc
import SystemCalls
import TestSupport
import Testing

@Suite struct FileSystemEntriesTests {
  @Test("each kind of entry is told apart without following links; nothing there is nil")
  func kinds() throws {
    let root = temporaryFolder("firstframe-kind")
    defer { try? FileSystem.remove(atPath: root, absentIsFine: true) }
    try FileSystem.replaceAtomically("x", atPath: root + "/file")
    _ = try SystemCall.retrying { symlink(root + "/file", root + "/link") }
    _ = try SystemCall.retrying { symlink(root + "/none", root + "/dangling") }
    #expect(try FileSystem.kind(atPath: root + "/file") == .file)
    #expect(try FileSystem.kind(atPath: root) == .directory)
    #expect(try FileSystem.kind(atPath: root + "/link") == .symbolicLink)
    #expect(try FileSystem.kind(atPath: "/dev/null") == .other)
    #expect(try FileSystem.kind(atPath: root + "/none") == nil)
    #expect(try FileSystem.kind(atPath: root + "/file/under") == nil)
    #expect(FileSystem.exists(atPath: root + "/dangling"))
    #expect(!FileSystem.exists(atPath: root + "/none"))
  }

  @Test("a path through a loop of links is its errno, not absent")
  func kindErrors() throws {
    let root = temporaryFolder("firstframe-kind")
    defer { try? FileSystem.remove(atPath: root, absentIsFine: true) }
    _ = try SystemCall.retrying { symlink(root + "/loop", root + "/loop") }
    #expect(throws: Errno(rawValue: ELOOP)) { try FileSystem.kind(atPath: root + "/loop/x") }
    #expect(!FileSystem.exists(atPath: root + "/loop/x"))
  }

  @Test("a file is executable with an execute bit, not without; nothing there is not")
  func executables() throws {
    let root = temporaryFolder("firstframe-kind")
    defer { try? FileSystem.remove(atPath: root, absentIsFine: true) }
    try FileSystem.replaceAtomically("#!/bin/sh\n", atPath: root + "/script", mode: 0o755)
    try FileSystem.replaceAtomically("text", atPath: root + "/text", mode: 0o644)
    #expect(FileSystem.isExecutable(atPath: root + "/script"))
    #expect(!FileSystem.isExecutable(atPath: root + "/text"))
    #expect(!FileSystem.isExecutable(atPath: root + "/none"))
  }

  @Test("a link's destination is read as written, however long; a non-link is EINVAL")
  func linkDestinations() throws {
    let root = temporaryFolder("firstframe-kind")
    defer { try? FileSystem.remove(atPath: root, absentIsFine: true) }
    _ = try SystemCall.retrying { symlink("relative/target", root + "/short") }
    let long = String(repeating: "d/", count: 400) + "end"
    _ = try SystemCall.retrying { symlink(long, root + "/long") }
    #expect(try FileSystem.symbolicLinkDestination(atPath: root + "/short") == "relative/target")
    #expect(try FileSystem.symbolicLinkDestination(atPath: root + "/long") == long)
    #expect(try FileSystem.symbolicLinkDestination(atPath: "/proc/self/exe").hasPrefix("/"))
    #expect(throws: Errno(rawValue: EINVAL)) { try FileSystem.symbolicLinkDestination(atPath: root) }
    #expect(throws: Errno.noSuchFile) { try FileSystem.symbolicLinkDestination(atPath: root + "/none") }
  }
}
