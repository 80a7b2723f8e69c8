#if canImport(Glibc)
  import Glibc
#endif

extension PreloadLibrary {
  /// Whether the dynamic loader will load the library into a program, decided from its file
  /// before it runs. When it will not, the device phases (and the library's `app.main`) are "not
  /// applicable" for that program, with ``reason``.
  package enum Coverage: Sendable, Hashable {
    /// The loader will preload the library (a dynamically linked glibc program of this machine's
    /// architecture, or a script, whose interpreter is one).
    case covered
    /// The loader will not: why, in a sentence.
    case notApplicable(reason: String)

    /// Why the library cannot see the program, or nil when it can.
    package var reason: String? {
      if case .notApplicable(let reason) = self { reason } else { nil }
    }
  }

  /// Whether the library can be preloaded into the executable at `path` (resolved: not a bare
  /// command name). Not covered: a statically linked executable (an ELF file without a
  /// `PT_INTERP` program header: no dynamic loader runs), one for another architecture or ELF
  /// class, one whose loader is not glibc's, and one that runs in secure-execution mode because it
  /// is set-user-ID or set-group-ID to someone else, where the loader ignores `LD_PRELOAD`. (A
  /// program with file capabilities also runs in secure-execution mode for a user other than
  /// root; that needs the file's extended attributes and is not checked here.) A file that is not ELF (a script) is covered: its interpreter
  /// is what the kernel runs. A file that cannot be read is left to exec to judge (covered).
  package static func coverage(ofExecutable path: String) -> Coverage {
    var st = stat()
    guard stat(path, &st) == 0 else { return .covered }
    if st.st_mode & S_ISUID != 0, st.st_uid != getuid() {
      return .notApplicable(
        reason: "\(path) is set-user-ID: the dynamic loader ignores LD_PRELOAD in secure-execution mode")
    }
    if st.st_mode & S_ISGID != 0, st.st_gid != getgid() {
      return .notApplicable(
        reason: "\(path) is set-group-ID: the dynamic loader ignores LD_PRELOAD in secure-execution mode")
    }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return .covered }
    defer { close(fd) }
    return coverage(
      ofELF: { offset, count in
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        return n == count ? bytes : nil
      }, path: path)
  }

  /// The ELF part of ``coverage(ofExecutable:)``: `read(offset, count)` gives `count` bytes of the
  /// file at `offset`, or nil past its end.
  static func coverage(ofELF read: (Int, Int) -> [UInt8]?, path: String) -> Coverage {
    guard let header = read(0, 64), header[0..<4] == [0x7F, 0x45, 0x4C, 0x46] else { return .covered }
    func number(_ bytes: [UInt8], _ at: Int, _ size: Int) -> Int {
      (0..<size).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }  // little-endian
    }
    guard header[4] == 2 else {
      return .notApplicable(reason: "\(path) is a 32-bit program: the 64-bit library cannot load into it")
    }
    guard number(header, 18, 2) == Self.machine else {
      return .notApplicable(
        reason: "\(path) is built for another architecture (ELF machine \(number(header, 18, 2)))")
    }
    let tableOffset = number(header, 32, 8)
    let entrySize = number(header, 54, 2)
    let entries = number(header, 56, 2)
    guard entrySize >= 56, let table = read(tableOffset, entrySize * entries) else { return .covered }
    for i in 0..<entries where number(table, i * entrySize, 4) == 3 {  // PT_INTERP
      let at = number(table, i * entrySize + 8, 8)
      let size = min(number(table, i * entrySize + 32, 8), 4096)
      let loader = read(at, size).map { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } ?? ""
      if loader.contains("ld-musl") {
        return .notApplicable(
          reason: "\(path) runs with musl's loader (\(loader)): the library is built against glibc")
      }
      return .covered
    }
    return .notApplicable(
      reason: "\(path) is statically linked (no PT_INTERP): no dynamic loader runs, so nothing is preloaded")
  }

  /// This machine's ELF `e_machine`: the library's architecture.
  static var machine: Int {
    #if arch(x86_64)
      62  // EM_X86_64
    #elseif arch(arm64)
      183  // EM_AARCH64
    #else
      -1
    #endif
  }
}
