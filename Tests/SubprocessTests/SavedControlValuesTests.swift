import Glibc
import Subprocess
import SystemCalls
import TestSupport
import TestThreads
import Testing

/// The kernel settings a guard writes back when bench was killed: its own, not another bench's.
@Suite struct SavedControlValuesTests {
  @Test("the saved values are written back, the governor first, only when the file names the owner asked for")
  func writeBack() throws {
    let folder = temporaryFolder("saved-values")
    defer { try? FileSystem.remove(atPath: folder, absentIsFine: true) }
    for file in ["scaling_governor", "scaling_max_freq"] {
      try FileSystem.replaceAtomically("now\n", atPath: folder + "/" + file)
    }
    let state = folder + "/state"
    let text =
      "pid 5\nowner 5x00000000000000aa\n\(folder)/scaling_max_freq\t3000000\n"
      + "\(folder)/scaling_governor\tperformance\n"
    try FileSystem.replaceAtomically(text, atPath: state)
    #expect(SavedControlValues.owner(in: text) == "5x00000000000000aa")
    #expect(SavedControlValues.writeBack(from: state, owner: "6x00000000000000bb") == 0)
    #expect(FileSystem.readText(atPath: folder + "/scaling_max_freq") == "now\n")
    #expect(SavedControlValues.writeBack(from: state, owner: "5x00000000000000aa") == 2)
    #expect(FileSystem.readText(atPath: folder + "/scaling_max_freq") == "3000000\n")
    #expect(FileSystem.readText(atPath: folder + "/scaling_governor") == "performance\n")
    #expect(!FileSystem.exists(atPath: state))
  }
}
