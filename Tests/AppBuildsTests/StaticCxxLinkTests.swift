#if canImport(Glibc)
  import Glibc
#endif
import AppBuilds
import Foundation
import SystemCalls
import TestSupport
import TestThreads
import Testing

/// `CameraAppLocator.prepareStaticCxx`, the link to the C++ runtime's static archive that
/// camera-app's link step finds before the shared `libstdc++.so`. Tests, benches and scripts
/// locate (and so build) camera-app at the same time: a caller that removed the link, even for a
/// moment, let a concurrent `swift build` link the shared runtime, and SwiftPM then kept that
/// binary (seen in CI: "libstdc++.so.6" in camera-app's loader list). A fake toolchain (a `clang`
/// script that names a file of the test's and counts how often it is asked) stands in for the
/// real one, so the test does not depend on the machine's GCC installation.
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct StaticCxxLinkTests {
  /// A folder with a fake `swift` beside a fake `clang` that sleeps `delay` seconds, appends a
  /// line to `asked`, then prints the path of a readable file `archive`.
  struct FakeToolchain {
    let folder: String
    var swift: String { folder + "/bin/swift" }
    var archive: String { folder + "/libstdc++.a" }
    var asked: String { folder + "/asked" }
    var scratch: String { folder + "/scratch" }

    init(delay: Double) throws {
      folder = FileManager.default.temporaryDirectory.path + "/static-cxx-\(UUID().uuidString)"
      try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
      // Written close-on-exec (FileSystem), so that no process another test starts meanwhile
      // keeps a descriptor for writing open, which would make exec refuse the script (ETXTBSY).
      try FileSystem.replaceAtomically(Array("!<arch>\n".utf8), atPath: folder + "/libstdc++.a")
      try FileSystem.replaceAtomically(
        Array("#!/bin/sh\nexit 0\n".utf8), atPath: folder + "/bin/swift", mode: 0o755)
      let clang = "#!/bin/sh\nsleep \(delay)\necho asked >> '\(folder)/asked'\necho '\(folder)/libstdc++.a'\n"
      try FileSystem.replaceAtomically(Array(clang.utf8), atPath: folder + "/bin/clang", mode: 0o755)
    }

    var timesAsked: Int {
      ((try? String(contentsOfFile: asked, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }
  }

  static func inode(_ path: String) -> UInt? {
    var info = stat()
    return lstat(path, &info) == 0 ? UInt(info.st_ino) : nil
  }

  @Test("a link that still leads to the archive is kept: clang is asked once, the link never remade")
  func keptLink() throws {
    let toolchain = try FakeToolchain(delay: 0)
    defer { toolchain.remove() }
    let link = toolchain.scratch + "/" + CameraAppLocator.staticCxxFolder + "/libstdc++.a"
    #expect(
      CameraAppLocator.prepareStaticCxx(scratch: toolchain.scratch, swift: toolchain.swift)
        == toolchain.archive)
    let first = try #require(Self.inode(link))
    #expect(
      CameraAppLocator.prepareStaticCxx(scratch: toolchain.scratch, swift: toolchain.swift)
        == toolchain.archive)
    #expect(Self.inode(link) == first, "the link was removed and made again")
    #expect(toolchain.timesAsked == 1)
  }

  @Test("callers at the same time each get the archive, and once made the link is never missing")
  func concurrentCallers() async throws {
    let toolchain = try FakeToolchain(delay: 0.3)
    defer { toolchain.remove() }
    let link = toolchain.scratch + "/" + CameraAppLocator.staticCxxFolder + "/libstdc++.a"
    // A stale link (its archive gone) makes every caller remake it, all at once.
    try FileManager.default.createDirectory(
      atPath: toolchain.scratch + "/" + CameraAppLocator.staticCxxFolder, withIntermediateDirectories: true)
    symlink(toolchain.folder + "/gone.a", link)
    let callers = 6
    let answers = Answers(count: callers)
    let threads = (0..<callers).map { index in
      Thread {
        answers.set(
          index, CameraAppLocator.prepareStaticCxx(scratch: toolchain.scratch, swift: toolchain.swift))
      }
    }
    threads.forEach { $0.start() }
    // Watch the link while they work: once it leads to the archive, it must keep doing so.
    var madeAt: Int?
    var missing = 0
    var polls = 0
    let deadline = Date().addingTimeInterval(TestTime.seconds(30))
    while !answers.allSet, Date() < deadline {
      let leads = FileManager.default.fileExists(atPath: link)
      if leads, madeAt == nil { madeAt = polls }
      if !leads, madeAt != nil { missing += 1 }
      polls += 1
      usleep(200)  // not a timing assertion: the watch's poll interval
    }
    #expect(answers.allSet, "the callers finished within 30 s")
    #expect(answers.values == Array(repeating: toolchain.archive, count: callers), "\(answers.values)")
    #expect(missing == 0, "the link was missing in \(missing) of \(polls) looks after it was made")
    #expect(FileManager.default.fileExists(atPath: link))
  }

  /// One answer per caller thread, under a lock.
  final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [String??]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: String?) { lock.withLock { slots[index] = .some(value) } }
    var allSet: Bool { lock.withLock { slots.allSatisfy { $0 != nil } } }
    var values: [String?] { lock.withLock { slots.map { $0 ?? nil } } }
  }
}
