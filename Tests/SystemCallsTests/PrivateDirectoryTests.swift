import Glibc
import SystemCalls
import TestSupport
import Testing

@Suite struct PrivateDirectoryTests {
  func mode(_ path: String) -> mode_t? {
    var st = stat()
    return lstat(path, &st) == 0 ? st.st_mode : nil
  }

  @Test("a temporary private folder is new, mode 0700, with an unpredictable name")
  func temporary() throws {
    let a = try PrivateDirectory.makeTemporary(prefix: "ff-private-")
    let b = try PrivateDirectory.makeTemporary(prefix: "ff-private-")
    defer {
      rmdir(a)
      rmdir(b)
    }
    #expect(a != b && a.hasPrefix(PrivateDirectory.temporaryRoot() + "/ff-private-"))
    #expect(mode(a).map { $0 & S_IFMT == S_IFDIR && $0 & 0o777 == 0o700 } == true)
    try PrivateDirectory.check(a)
  }

  @Test("prepare makes missing folders with mode 0700 and accepts them again")
  func prepareCreates() throws {
    let base = try PrivateDirectory.makeTemporary(prefix: "ff-private-")
    defer {
      rmdir(base + "/x/y")
      rmdir(base + "/x")
      rmdir(base)
    }
    try PrivateDirectory.prepare(base + "/x/y")
    #expect(mode(base + "/x").map { $0 & 0o777 } == 0o700)
    #expect(mode(base + "/x/y").map { $0 & 0o777 } == 0o700)
    try PrivateDirectory.prepare(base + "/x/y")
  }

  @Test("a symbolic link, a folder others can write into, a file and a relative path are refused")
  func refusals() throws {
    let base = try PrivateDirectory.makeTemporary(prefix: "ff-private-")
    defer {
      unlink(base + "/link")
      unlink(base + "/file")
      rmdir(base + "/open/inner")
      rmdir(base + "/open")
      rmdir(base + "/real")
      rmdir(base)
    }
    #expect(mkdir(base + "/real", 0o700) == 0)
    #expect(symlink(base + "/real", base + "/link") == 0)
    #expect(throws: PrivateDirectoryError.self) { try PrivateDirectory.prepare(base + "/link") }
    #expect(mkdir(base + "/open", 0o700) == 0 && chmod(base + "/open", 0o777) == 0)
    let open = #expect(throws: PrivateDirectoryError.self) { try PrivateDirectory.check(base + "/open") }
    #expect(open?.code == .writableByOthers)
    // Inside a folder others can write into (not sticky), even a private folder can be swapped.
    #expect(mkdir(base + "/open/inner", 0o700) == 0)
    let inner = #expect(throws: PrivateDirectoryError.self) {
      try PrivateDirectory.check(base + "/open/inner")
    }
    #expect(inner?.code == .writableByOthers && inner?.path == base + "/open")
    let fd = Glibc.open(base + "/file", O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
    close(fd)
    #expect(throws: PrivateDirectoryError.self) { try PrivateDirectory.prepare(base + "/file") }
    #expect(throws: PrivateDirectoryError.self) { try PrivateDirectory.prepare("relative/dir") }
  }

  @Test(
    "a folder another user owns is refused, naming the owner",
    .enabled(if: ForeignFolder.canPlant, Prerequisites.cannotPlant))
  func foreignOwner() throws {
    let base = try PrivateDirectory.makeTemporary(prefix: "ff-private-")
    defer {
      rmdir(base + "/theirs")
      rmdir(base)
    }
    #expect(mkdir(base + "/theirs", 0o700) == 0 && chown(base + "/theirs", 65534, 65534) == 0)
    let error = #expect(throws: PrivateDirectoryError.self) { try PrivateDirectory.prepare(base + "/theirs") }
    #expect(error?.code == .foreignOwner)
    #expect(error?.message.contains("owned by user 65534") == true)
  }

  @Test("the per-user folder is under $XDG_RUNTIME_DIR when that is an absolute path, else in /tmp by uid")
  func perUser() {
    #expect(PrivateDirectory.perUserPath("ff", runtimeDirectory: "/run/user/5") == "/run/user/5/ff")
    #expect(PrivateDirectory.perUserPath("ff", runtimeDirectory: "/run/user/5/") == "/run/user/5/ff")
    #expect(PrivateDirectory.perUserPath("ff", runtimeDirectory: nil) == "/tmp/ff-\(getuid())")
    #expect(PrivateDirectory.perUserPath("ff", runtimeDirectory: "relative") == "/tmp/ff-\(getuid())")
  }
}
