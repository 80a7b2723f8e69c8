#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import SystemCalls

/// Finds the program a command line names, as `posix_spawn` would run it: on `PATH` unless the
/// name has a slash, and only a file that starts as a program.
package enum ExecutableLookup {
  /// `name`'s path: `name` itself when it has a slash, else the first executable file of that
  /// name in a `PATH` folder (`/usr/bin:/bin` without `PATH`); nil when there is none.
  package static func resolve(_ name: String) -> String? {
    if name.contains("/") { return access(name, X_OK) == 0 && !FileSystem.isDirectory(name) ? name : nil }
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
      let candidate = "\(dir)/\(name)"
      if access(candidate, X_OK) == 0 && !FileSystem.isDirectory(candidate) { return candidate }
    }
    return nil
  }

  /// Whether `path` starts as a program `posix_spawn` can run: an ELF executable (`\u{7F}ELF`) or
  /// a script naming its interpreter (`#!`). Anything else fails every spawn with `ENOEXEC`.
  package static func isProgram(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var magic = [UInt8](repeating: 0, count: 4)
    let n = magic.withUnsafeMutableBytes { (try? FileDescriptorIO.read(fd, into: $0)) ?? 0 }
    return (n == 4 && magic == [0x7F, 0x45, 0x4C, 0x46]) || (n >= 2 && magic[0] == 0x23 && magic[1] == 0x21)
  }
}
