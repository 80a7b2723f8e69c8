import BenchKit
import Foundation
import TestThreads
import SystemCalls
import Testing
import TestSupport

/// Which programs the preload library can see, decided from the executable before it runs.
@Suite(.blocking, PreloadHarness.timeLimit) struct PreloadCoverageTests {
  /// A minimal 64-bit ELF file: a header and one program header of `type`, followed by `interp`.
  static func elf(
    programHeader type: UInt32, interpreter: String = "", elfClass: UInt8 = 2, machine: UInt16 = 62
  ) -> Data {
    func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
    var header: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, elfClass, 1, 1, 0] + [UInt8](repeating: 0, count: 8)
    // type, machine, version, entry
    header += le(UInt16(2)) + le(machine) + le(UInt32(1)) + le(UInt64(0x401000))
    header += le(UInt64(64)) + le(UInt64(0)) + le(UInt32(0))  // phoff, shoff, flags
    header += le(UInt16(64)) + le(UInt16(56)) + le(UInt16(1)) + le(UInt16(64)) + le(UInt16(0)) + le(UInt16(0))
    let interpBytes = Array(interpreter.utf8) + [0]
    var program = le(type) + le(UInt32(4)) + le(UInt64(120)) + le(UInt64(0)) + le(UInt64(0))
    program += le(UInt64(interpBytes.count)) + le(UInt64(interpBytes.count)) + le(UInt64(1))
    return Data(header + program + interpBytes)
  }

  static func write(_ data: Data, _ name: String, in folder: String, mode: mode_t = 0o755) -> String {
    let path = folder + "/" + name
    // Written close-on-exec: a process another thread starts meanwhile must not keep it open
    // for writing, or executing it fails with ETXTBSY ("Text file busy").
    try? FileSystem.replaceAtomically(Array(data), atPath: path, mode: mode)
    chmod(path, mode)  // whatever the umask took away (set-user-ID included)
    return path
  }

  @Test("a dynamically linked program and a script are covered")
  func covered() throws {
    #expect(PreloadLibrary.coverage(ofExecutable: "/bin/sh") == .covered)
    #expect(
      PreloadLibrary.coverage(ofExecutable: try PreloadLibrary.locate(PreloadLibrary.clientFileName))
        == .covered)
    let folder = temporaryFolder("coverage")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let glibc = Self.write(
      Self.elf(programHeader: 3, interpreter: "/lib64/ld-linux-x86-64.so.2"), "dynamic", in: folder)
    #expect(PreloadLibrary.coverage(ofExecutable: glibc) == .covered)
    let script = Self.write(Data("#!/bin/sh\nexit 0\n".utf8), "script", in: folder)
    #expect(PreloadLibrary.coverage(ofExecutable: script) == .covered)
  }

  @Test("a static executable, a 32-bit one and a musl one are not applicable, each with its reason")
  func notCovered() {
    let folder = temporaryFolder("coverage")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let cases: [(Data, String)] = [
      (Self.elf(programHeader: 1), "statically linked"),  // PT_LOAD only: no PT_INTERP
      (Self.elf(programHeader: 3, interpreter: "/lib/ld-linux.so.2", elfClass: 1), "32-bit"),
      (Self.elf(programHeader: 3, interpreter: "/lib/ld-musl-x86_64.so.1"), "musl"),
      (Self.elf(programHeader: 3, interpreter: "/lib/ld-linux-aarch64.so.1", machine: 9999), "architecture"),
    ]
    for (i, (data, reason)) in cases.enumerated() {
      let path = Self.write(data, "program\(i)", in: folder)
      let coverage = PreloadLibrary.coverage(ofExecutable: path)
      #expect(coverage.reason?.contains(reason) == true, "\(reason): \(coverage)")
      #expect(coverage.reason?.contains(path) == true)
    }
  }

  @Test("a set-user-ID program owned by someone else is not applicable; one owned by the caller is covered")
  func setUserID() throws {
    let folder = temporaryFolder("coverage")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let dynamic = Self.elf(programHeader: 3, interpreter: "/lib64/ld-linux-x86-64.so.2")
    let own = Self.write(dynamic, "own", in: folder, mode: 0o4755)
    #expect(PreloadLibrary.coverage(ofExecutable: own) == .covered)
    if getuid() == 0 {  // only root can give a file away
      let other = Self.write(dynamic, "other", in: folder)
      #expect(chown(other, 65534, 65534) == 0)
      #expect(chmod(other, 0o4755) == 0)
      #expect(PreloadLibrary.coverage(ofExecutable: other).reason?.contains("set-user-ID") == true)
    }
  }
}
