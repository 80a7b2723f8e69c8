import Glibc
import SystemCalls
import Testing

@Suite struct FileSystemLocationsTests {
  @Test("the working directory is the resolved path of `.`")
  func currentDirectory() throws {
    #expect(try FileSystem.currentDirectory() == FileSystem.realPath("."))
  }

  @Test("the temporary folder is $TMPDIR without its trailing slash, or /tmp when unset or empty")
  func temporaryDirectory() {
    #expect(FileSystem.temporaryDirectory(tmpdir: nil) == "/tmp")
    #expect(FileSystem.temporaryDirectory(tmpdir: "") == "/tmp")
    #expect(FileSystem.temporaryDirectory(tmpdir: "/var/tmp/") == "/var/tmp")
    #expect(FileSystem.temporaryDirectory(tmpdir: "/scratch") == "/scratch")
    #expect(FileSystem.temporaryDirectory(tmpdir: "/") == "/")
    #expect(FileSystem.isDirectory(FileSystem.temporaryDirectory))
  }
}
