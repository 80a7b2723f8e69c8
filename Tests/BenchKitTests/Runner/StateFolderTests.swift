import Foundation
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
}
