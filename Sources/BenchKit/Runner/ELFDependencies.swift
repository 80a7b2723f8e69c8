#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import SystemCalls

/// The files the dynamic loader maps to start a program, read from the program's ELF headers
/// rather than from a running process: the program itself, its interpreter (`PT_INTERP`,
/// `ld-linux`), and every shared library of its `DT_NEEDED` closure, each resolved as `ld.so`
/// does (DT_RPATH when there is no DT_RUNPATH, `LD_LIBRARY_PATH`, DT_RUNPATH, the folders of
/// `/etc/ld.so.conf`, then the default folders), `$ORIGIN` expanded. A script (`#!`) brings in
/// its interpreter's closure (through `/usr/bin/env NAME` too).
///
/// It is a static reading: libraries a program opens with `dlopen` are not in it. It never runs
/// the program (unlike `ldd`, which may), so it is safe on an untrusted `--app`.
/// 64-bit little-endian ELF only; anything else contributes only its own path.
public enum ELFDependencies {
  /// The most files in one closure.
  static let maxFiles = 1024

  /// `path` (symbolic links resolved) and everything the loader maps to start it, as absolute
  /// real paths. `environment` gives `LD_LIBRARY_PATH` and `PATH`.
  public static func closure(of path: String, environment: [String: String]) -> Set<String> {
    var out = Set<String>()
    var queue: [String] = []
    func add(_ p: String) {
      guard out.count < maxFiles, let real = realPath(p), !out.contains(real) else { return }
      out.insert(real)
      queue.append(real)
    }
    add(path)
    let libraryPath = (environment["LD_LIBRARY_PATH"] ?? "").split(separator: ":").map(String.init)
    var machine: UInt16?
    while let file = queue.popLast() {
      if let interpreter = scriptInterpreter(file, environment: environment) {
        add(interpreter)
        continue
      }
      guard let info = read(file), machine == nil || machine == info.machine else { continue }
      machine = machine ?? info.machine
      if let interp = info.interpreter { add(interp) }
      let origin = directory(of: file)
      func expand(_ list: [String]) -> [String] {
        list.map {
          $0.replacingOccurrences(of: "${ORIGIN}", with: origin).replacingOccurrences(
            of: "$ORIGIN", with: origin)
        }.filter { $0.hasPrefix("/") && !$0.contains("$") }
      }
      let dirs =
        (info.runpath.isEmpty ? expand(info.rpath) : []) + libraryPath + expand(info.runpath)
        + systemDirectories
      for needed in info.needed {
        if needed.contains("/") {
          if needed.hasPrefix("/") { add(needed) }
          continue
        }
        for dir in dirs {
          let candidate = dir + "/" + needed
          if let lib = read(candidate), lib.machine == info.machine {
            add(candidate)
            break
          }
        }
      }
    }
    return out
  }

  /// What the loader needs of one object.
  struct Info {
    var machine: UInt16
    var interpreter: String?
    var needed: [String] = []
    var rpath: [String] = []
    var runpath: [String] = []
  }

  /// Reads `path`'s program headers and dynamic section (bounded reads); nil when it is not a
  /// readable 64-bit little-endian ELF file.
  static func read(_ path: String) -> Info? {
    guard let fd = try? SystemCall.retrying({ open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }) else {
      return nil
    }
    defer { FileDescriptorIO.close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    func bytes(_ offset: UInt64, _ count: Int) -> [UInt8]? {
      guard count >= 0, count <= 8 << 20, offset <= UInt64(Int64.max) else { return nil }
      var buffer = [UInt8](repeating: 0, count: count)
      let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
      return got == count ? buffer : nil
    }
    guard let header = bytes(0, 64), header[0] == 0x7F, header[1] == 0x45, header[2] == 0x4C,
      header[3] == 0x46,
      header[4] == 2, header[5] == 1
    else { return nil }
    let phoff = le64(header, 32)
    let phentsize = Int(le16(header, 54))
    let phnum = Int(le16(header, 56))
    guard phentsize >= 56, phnum <= 512, let table = bytes(phoff, phentsize * phnum) else { return nil }
    var info = Info(machine: le16(header, 18))
    var loads: [(offset: UInt64, vaddr: UInt64, size: UInt64)] = []
    var dynamic: (offset: UInt64, size: UInt64)?
    for i in 0..<phnum {
      let base = i * phentsize
      let type = le32(table, base)
      let offset = le64(table, base + 8)
      let vaddr = le64(table, base + 16)
      let filesz = le64(table, base + 32)
      switch type {
      case 1: loads.append((offset, vaddr, filesz))
      case 2: dynamic = (offset, filesz)
      case 3:
        if filesz < 4096, let text = bytes(offset, Int(filesz)) {
          info.interpreter = String(decoding: text.prefix { $0 != 0 }, as: UTF8.self)
        }
      default: break
      }
    }
    guard let dynamic, dynamic.size <= 1 << 20, let entries = bytes(dynamic.offset, Int(dynamic.size)) else {
      return info  // static: nothing needed
    }
    var strtab: UInt64?
    var strsz: UInt64 = 0
    var needed: [UInt64] = []
    var rpath: [UInt64] = []
    var runpath: [UInt64] = []
    var at = 0
    while at + 16 <= entries.count {
      let tag = le64(entries, at)
      let value = le64(entries, at + 8)
      at += 16
      switch tag {
      case 0: at = entries.count
      case 1: needed.append(value)
      case 5: strtab = value
      case 10: strsz = value
      case 15: rpath.append(value)
      case 29: runpath.append(value)
      default: break
      }
    }
    guard let strtab, strsz > 0, strsz <= 8 << 20,
      let segment = loads.first(where: { strtab >= $0.vaddr && strtab - $0.vaddr < $0.size }),
      let strings = bytes(segment.offset + (strtab - segment.vaddr), Int(strsz))
    else { return info }
    func string(_ index: UInt64) -> String? {
      guard index < UInt64(strings.count) else { return nil }
      return String(decoding: strings[Int(index)...].prefix { $0 != 0 }, as: UTF8.self)
    }
    info.needed = needed.compactMap(string)
    info.rpath = rpath.compactMap(string).flatMap { $0.split(separator: ":").map(String.init) }
    info.runpath = runpath.compactMap(string).flatMap { $0.split(separator: ":").map(String.init) }
    return info
  }

  /// A script's interpreter (`#!/bin/sh`, or NAME found in `PATH` for `#!/usr/bin/env NAME`).
  static func scriptInterpreter(_ path: String, environment: [String: String]) -> String? {
    guard let head = FileSystem.readFile(atPath: path, maxBytes: 256), head.starts(with: [0x23, 0x21]) else {
      return nil
    }
    let line = String(decoding: head.dropFirst(2).prefix { $0 != 0x0A }, as: UTF8.self)
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    guard let first = words.first, first.hasPrefix("/") else { return nil }
    if first.hasSuffix("/env"), let name = words.dropFirst().first(where: { !$0.hasPrefix("-") }) {
      return searchPath(name, environment: environment)
    }
    return first
  }

  /// `name` looked up in `environment["PATH"]` (an executable regular file), or nil.
  public static func searchPath(_ name: String, environment: [String: String]) -> String? {
    if name.contains("/") { return name }
    for dir in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
      let candidate = "\(dir)/\(name)"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  /// The loader's system folders: those `/etc/ld.so.conf` lists (with its `include`s), then the
  /// defaults.
  static let systemDirectories: [String] = {
    var dirs: [String] = []
    var seen = Set<String>()
    func conf(_ path: String, depth: Int) {
      guard depth < 4, let text = FileSystem.readText(atPath: path, maxBytes: 1 << 20) else { return }
      for raw in text.split(separator: "\n") {
        let line = String(raw.prefix { $0 != "#" }).trimmingWhitespace()
        if line.hasPrefix("include ") {
          let pattern = String(line.dropFirst("include ".count)).trimmingWhitespace()
          let full = pattern.hasPrefix("/") ? pattern : "/etc/" + pattern
          for file in globbed(full).sorted() { conf(file, depth: depth + 1) }
        } else if line.hasPrefix("/"), seen.insert(line).inserted {
          dirs.append(line)
        }
      }
    }
    conf("/etc/ld.so.conf", depth: 0)
    for dir in [
      "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
      "/usr/lib/aarch64-linux-gnu",
      "/lib64", "/usr/lib64", "/lib", "/usr/lib",
    ] where seen.insert(dir).inserted {
      dirs.append(dir)
    }
    return dirs
  }()

  static func globbed(_ pattern: String) -> [String] {
    var result = glob_t()
    defer { globfree(&result) }
    guard glob(pattern, 0, nil, &result) == 0 else { return [] }
    return (0..<Int(result.gl_pathc)).compactMap { result.gl_pathv[$0].map { String(cString: $0) } }
  }

  static func realPath(_ path: String) -> String? {
    guard let real = realpath(path, nil) else { return nil }
    defer { free(real) }
    return String(cString: real)
  }

  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  static func le16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) | UInt16(b[at + 1]) << 8 }
  static func le32(_ b: [UInt8], _ at: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(b[at + $1]) << (8 * $1) }
  }
  static func le64(_ b: [UInt8], _ at: Int) -> UInt64 {
    (0..<8).reduce(0) { $0 | UInt64(b[at + $1]) << (8 * $1) }
  }
}
