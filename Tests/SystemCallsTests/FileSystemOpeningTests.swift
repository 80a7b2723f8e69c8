import Foundation
import Glibc
import SystemCalls
import Testing
import TestSupport

@Suite struct FileSystemOpeningTests {
  @Test("appending creates a missing file and keeps an existing one's content; reading can refuse a link")
  func appendingAndReading() throws {
    let root = temporaryFolder("opening")
    defer { try? FileManager.default.removeItem(atPath: root) }
    let path = root + "/trace"
    for line in ["one\n", "two\n"] {
      let fd = try FileSystem.openForAppendingCreatingIfMissing(atPath: path)
      try FileDescriptorIO.writeAll(fd, line)
      FileDescriptorIO.close(fd)
    }
    #expect(FileSystem.readText(atPath: path) == "one\ntwo\n")
    _ = try SystemCall.retrying { symlink(path, root + "/link") }
    #expect(throws: Errno.tooManyLinks) {
      try FileSystem.openForReading(atPath: root + "/link", refusingLinks: true)
    }
    let fd = try FileSystem.openForReading(atPath: root + "/link", nonBlocking: true)
    defer { FileDescriptorIO.close(fd) }
    #expect(FileSystem.isRegularFile(fd) && FileSystem.size(of: fd) == 8)
    #expect(FileDescriptorIO.currentOffset(fd) == 0)
    var buffer = [UInt8](repeating: 0, count: 4)
    _ = try buffer.withUnsafeMutableBytes { raw throws(Errno) in try FileDescriptorIO.read(fd, into: raw) }
    #expect(FileDescriptorIO.currentOffset(fd) == 4)
  }

  @Test("a pipe is open, not a regular file, and can be made non-blocking; a closed descriptor is not open")
  func descriptors() throws {
    let (r, w) = try ProcessControl.pipe()
    #expect(FileDescriptorIO.isOpen(r) && !FileSystem.isRegularFile(r))
    #expect(FileDescriptorIO.setNonBlocking(r))
    var byte: UInt8 = 0
    #expect(throws: Errno.wouldBlock) {
      _ = try withUnsafeMutableBytes(of: &byte) { raw throws(Errno) in try FileDescriptorIO.read(r, into: raw)
      }
    }
    FileDescriptorIO.close(r)
    FileDescriptorIO.close(w)
    #expect(!FileDescriptorIO.isOpen(r))
  }

  @Test("the environment and this process's id come through the seam; memchr finds the first byte")
  func processAndMemory() {
    setenv("FIRSTFRAME_SEAM_TEST", "value", 1)
    setenv("FIRSTFRAME_SEAM_EMPTY", "", 1)
    #expect(ProcessControl.environmentValue("FIRSTFRAME_SEAM_TEST") == "value")
    #expect(ProcessControl.environmentValue("FIRSTFRAME_SEAM_EMPTY") == nil)
    #expect(ProcessControl.currentProcessID == getpid())
    let bytes: [UInt8] = Array("ab\ncd\n".utf8)
    bytes.withUnsafeBytes { raw in
      #expect(RawMemory.firstIndex(of: UInt8(ascii: "\n"), in: raw) == 2)
      #expect(RawMemory.firstIndex(of: UInt8(ascii: "z"), in: raw) == nil)
    }
  }
}
