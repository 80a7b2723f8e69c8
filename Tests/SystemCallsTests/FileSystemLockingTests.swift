import Glibc
import SystemCalls
import Testing

@Suite struct FileSystemLockingTests {
  @Test("an exclusive lock is taken once, refused to a second opening, and free again once closed")
  func tryLock() throws {
    let path = "/tmp/firstframe-lock-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    defer { unlink(path) }
    let first = try FileSystem.createFile(atPath: path)
    let second = try FileSystem.createFile(atPath: path)
    defer { FileDescriptorIO.close(second) }
    #expect(try FileSystem.tryLockExclusively(first))
    #expect(try !FileSystem.tryLockExclusively(second))
    FileDescriptorIO.close(first)
    #expect(try FileSystem.tryLockExclusively(second))
    #expect(throws: Errno.badFileDescriptor) { try FileSystem.tryLockExclusively(-1) }
  }
}
