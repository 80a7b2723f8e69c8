import Foundation
import SystemCalls
import TestSupport
import Testing

@testable import BenchKit

@Suite struct StateFolderTests {
  @Test(
    "bench's state folder is its own: a folder another user planted at the old predictable name is neither used nor deleted",
    .enabled(if: ForeignFolder.canPlant, Prerequisites.cannotPlant))
  func plantedFolder() throws {
    let predictable = "/tmp/firstframe-bench-\(getuid())-\(getpid())"
    try #require(ForeignFolder.plant(at: predictable))
    defer { ForeignFolder.remove(predictable) }
    var state = ""
    do {
      let runner = try BenchRunner(settings: RunSettings(), appBinary: "/bin/true")
      state = runner.stateDirectory
      #expect(state != predictable)
      var st = stat()
      #expect(lstat(state, &st) == 0)
      #expect(st.st_mode & S_IFMT == S_IFDIR && st.st_uid == geteuid() && st.st_mode & 0o777 == 0o700)
    }
    // The runner is gone: its own folder with it, the planted one untouched.
    #expect(access(state, F_OK) != 0)
    #expect(ForeignFolder.stillPlanted(at: predictable))
  }

  @Test(
    "as root, the app user's state folders a bench killed with SIGKILL left are swept by the next bench when their claim is free; a live bench's are kept",
    .enabled(if: geteuid() == 0, "needs root: only a root bench hands folders to another user"))
  func handedOverSwept() throws {
    let root = temporaryFolder("scratch-sweep")
    let claims = temporaryFolder("claims")
    defer {
      try? FileManager.default.removeItem(atPath: root)
      try? FileManager.default.removeItem(atPath: claims)
    }
    let nobody = try AppUser.resolve(given: "nobody", cameraNode: nil, benchIsRoot: true, environment: [:])
      .get()
    // A dead bench's claim: the file is there, nobody holds it.
    let dead = "\(getpid())x" + String(format: "%016llx", UInt64.random(in: 0...UInt64.max))
    try #require(FileManager.default.createFile(atPath: claims + "/" + dead, contents: nil))
    var left: [AppScratchFolder] = []
    for prefix in AppScratchFolder.prefixes {
      let folder = try AppScratchFolder(prefix: prefix, user: nobody, in: root, token: dead)
      // What the app left in its scratch, as the app user.
      try FileSystem.replaceAtomically(Array("power".utf8), atPath: folder.scratch + "/state")
      try FileSystem.changeOwner(
        atPath: folder.scratch + "/state", uid: nobody.identity.uid, gid: nobody.identity.gid)
      left.append(folder)
    }
    var st = stat()
    #expect(lstat(left[0].scratch, &st) == 0 && st.st_uid == nobody.identity.uid)
    // This bench's own (its claim not in `claims`: judged by its pid, which lives).
    let live = try AppScratchFolder(prefix: "firstframe-bench-", user: nobody, in: root)
    defer { live.remove() }
    let removed = AppScratchFolder.removeAbandoned(in: root, folders: [claims])
    #expect(Set(removed) == Set(left.map { ($0.folder as NSString).lastPathComponent }), "\(removed)")
    for folder in left { #expect(access(folder.folder, F_OK) != 0, "\(folder.folder) left behind") }
    #expect(access(live.scratch, F_OK) == 0, "a live bench's folder was removed")
  }
}
