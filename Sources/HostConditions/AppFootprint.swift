#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Subprocess
import SystemCalls

/// What a cold launch of a program reads from the disk before its own code runs, known before
/// the first run: the executable (its real path: the eviction does not follow links), the
/// interpreter of a `#!` script (the program `env` runs, for `#!/usr/bin/env NAME`), and the
/// shared libraries the dynamic loader resolves for it.
///
/// The libraries come from the system's loader in list mode (`ld.so --list PATH`), which maps
/// the program's dependencies and prints them without running any of the program's code (unlike
/// `ldd` on a program with a loader of its own). The executable is the one the user named, not
/// something the app wrote. Libraries the app opens later (`dlopen`: GStreamer's plugins) are
/// learned from its memory map once its first frame is seen (``CacheEvictor/mappedFiles(pid:)``).
package enum AppFootprint {
  /// The system's dynamic loader on x86_64 glibc systems.
  package static let loader = "/lib64/ld-linux-x86-64.so.2"
  /// How long the loader may take to list a program's libraries, seconds.
  package static let listTimeoutSeconds = 5.0
  /// The most libraries taken from one listing.
  package static let maxLibraries = 1024

  /// The executable's real path, a script's interpreter (and its libraries), and the libraries
  /// the loader resolves for a dynamically linked executable. Files that cannot be resolved are
  /// left out.
  package static func files(ofExecutable path: String) -> Set<String> {
    guard let real = FileSystem.realPath(path) else { return [] }
    var files: Set<String> = [real]
    if let interpreter = scriptInterpreter(real), interpreter != real,
      let resolved = FileSystem.realPath(interpreter)
    {
      files.insert(resolved)
      files.formUnion(libraries(of: resolved))
    } else {
      files.formUnion(libraries(of: real))
    }
    return files
  }

  /// The libraries `ld.so --list` resolves for the ELF executable at `path` (none for a static
  /// executable, a non-ELF file, or when the loader is not there or does not answer in time).
  package static func libraries(of path: String) -> Set<String> {
    guard access(loader, X_OK) == 0, isELF(path) else { return [] }
    guard let out = try? PrivateDirectory.makeTemporary(prefix: "firstframe-ldlist-") else { return [] }
    defer { try? FileSystem.remove(atPath: out, absentIsFine: true) }
    let listing = out + "/list.txt"
    guard
      let child = try? ChildProcess.spawn(argv: [loader, "--list", path], environment: [:], logPath: listing)
    else { return [] }
    guard case .exited(0) = child.wait(timeout: listTimeoutSeconds) ?? child.terminate(grace: 0.5) else {
      return []
    }
    let bytes = FileSystem.readFile(atPath: listing, maxBytes: 1 << 20) ?? []
    return parseListing(String(decoding: bytes, as: UTF8.self))
  }

  /// The real paths in the loader's listing: `name => /path (0x…)` and `/path (0x…)` lines
  /// (`linux-vdso.so.1` and `not found` lines have none).
  package static func parseListing(_ text: String) -> Set<String> {
    var paths = Set<String>()
    for line in text.split(separator: "\n") where paths.count < maxLibraries {
      var entry = Substring(line.trimmingCharacters(in: .whitespaces))
      if let arrow = entry.range(of: "=> ") { entry = entry[arrow.upperBound...] }
      guard entry.hasPrefix("/") else { continue }
      if let address = entry.range(of: " (0x", options: .backwards) { entry = entry[..<address.lowerBound] }
      if let real = FileSystem.realPath(String(entry)) { paths.insert(real) }
    }
    return paths
  }

  /// The interpreter a `#!` script names (its first word; for `#!/usr/bin/env NAME`, NAME found
  /// in `PATH`, as `env` would run it), or nil.
  static func scriptInterpreter(_ path: String) -> String? {
    guard let fd = try? SystemCall.retrying({ open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }) else {
      return nil
    }
    defer { FileDescriptorIO.close(fd) }
    var bytes = [UInt8](repeating: 0, count: 256)
    let n = bytes.withUnsafeMutableBytes { (try? FileDescriptorIO.read(fd, into: $0)) ?? 0 }
    guard n > 2, bytes[0] == 0x23, bytes[1] == 0x21 else { return nil }
    let line = String(decoding: bytes[2..<n].prefix { $0 != 0x0A }, as: UTF8.self)
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    guard let first = words.first else { return nil }
    if first.hasSuffix("/env"), let name = words.dropFirst().first(where: { !$0.hasPrefix("-") }) {
      return ExecutableLookup.resolve(name) ?? first
    }
    return first
  }

  static func isELF(_ path: String) -> Bool {
    guard let fd = try? SystemCall.retrying({ open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }) else {
      return false
    }
    defer { FileDescriptorIO.close(fd) }
    var magic = [UInt8](repeating: 0, count: 4)
    let n = magic.withUnsafeMutableBytes { (try? FileDescriptorIO.read(fd, into: $0)) ?? 0 }
    return n == 4 && magic == [0x7F, 0x45, 0x4C, 0x46]
  }
}
