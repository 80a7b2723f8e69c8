#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import SystemCalls

/// What a failed run quotes of the app's own output: the last line it wrote to stderr (a bad
/// GStreamer pipeline's `WARNING: erroneous pipeline: no element "x"`).
///
/// The app is untrusted and its stderr file can be any size: only its last ``maxBytes`` are
/// read (`pread`, opened without following a link or blocking, a regular file only); control
/// characters (escape sequences, a progress line's carriage returns) end or leave the line,
/// and the quoted line is cut at ``maxCharacters``.
package enum AppOutput {
  /// Bytes read from the end of the file.
  package static let maxBytes = 4096
  /// Characters of the line quoted.
  package static let maxCharacters = 200

  /// The last non-empty line of the file at `path`, cleaned; nil when there is none.
  package static func lastLine(ofFile path: String) -> String? {
    guard let fd = try? SystemCall.retrying({ open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) })
    else { return nil }
    defer { FileDescriptorIO.close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return nil }
    let count = Int(min(Int64(maxBytes), Int64(status.st_size)))
    var bytes = [UInt8](repeating: 0, count: count)
    let n = bytes.withUnsafeMutableBytes {
      pread(fd, $0.baseAddress, count, off_t(status.st_size) - off_t(count))
    }
    guard n > 0 else { return nil }
    return lastLine(of: Array(bytes[..<n]))
  }

  /// The last non-empty line of `bytes` (lines end at `\n` or `\r`), without control
  /// characters or ANSI escape sequences, cut at ``maxCharacters`` (with `…`).
  package static func lastLine(of bytes: [UInt8]) -> String? {
    let lines = bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D })
    for line in lines.reversed() {
      let text = clean(String(decoding: line, as: UTF8.self))
      if !text.isEmpty {
        return text.count > maxCharacters ? String(text.prefix(maxCharacters)) + "…" : text
      }
    }
    return nil
  }

  /// `text` without ANSI escape sequences (`ESC [ … letter`) and other control characters,
  /// trimmed.
  static func clean(_ text: String) -> String {
    var out = ""
    var scalars = text.unicodeScalars.makeIterator()
    while let c = scalars.next() {
      if c == "\u{1B}" {
        // CSI: ESC [ parameters… final byte (@ to ~); any other escape: drop the next character.
        if let next = scalars.next(), next == "[" {
          while let p = scalars.next(), !(0x40...0x7E).contains(p.value) {}
        }
        continue
      }
      if c.properties.generalCategory == .control || c.properties.generalCategory == .format { continue }
      out.unicodeScalars.append(c)
    }
    return out.trimmingCharacters(in: .whitespaces)
  }
}
