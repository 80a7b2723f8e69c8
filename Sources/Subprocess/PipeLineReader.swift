import SystemCalls

/// Reads a pipe (a child's trace, Xvfb's `-displayfd`) as lines until a deadline: a line may
/// arrive in pieces, and only complete lines are handed on, without their newlines.
package struct PipeLineReader {
  /// What one ``lines(until:)`` gave.
  package enum Outcome: Equatable, Sendable {
    /// One or more complete lines.
    case lines([String])
    /// The writer closed the pipe (a part line before it is dropped).
    case endOfInput
    /// The deadline passed first.
    case timedOut
    /// `poll` or `read` failed.
    case failed(Errno)
  }

  /// The pipe's reading end (not closed here).
  package let fd: Int32
  private var pending: [UInt8] = []

  /// A reader of `fd`.
  package init(_ fd: Int32) { self.fd = fd }

  /// Reads until at least one more line is complete, the pipe ends, or `deadline`
  /// (`CLOCK_MONOTONIC`, ns) passes
  /// (``FileDescriptorIO/read(_:into:until:)``).
  package mutating func lines(until deadline: UInt64) -> Outcome {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let read = buffer.withUnsafeMutableBytes { bytes in
        Result { () throws(Errno) in try FileDescriptorIO.read(fd, into: bytes, until: deadline) }
      }
      switch read {
      case .failure(let error): return .failed(error)
      case .success(nil): return .timedOut
      case .success(0): return .endOfInput
      case .success(let count?):
        let lines = append(buffer[..<count])
        if !lines.isEmpty { return .lines(lines) }
      }
    }
  }

  /// Appends `bytes`; returns the lines they completed, without their newlines. A line longer
  /// than 64 KiB keeps its first 64 KiB.
  package mutating func append(_ bytes: ArraySlice<UInt8>) -> [String] {
    var lines: [String] = []
    for byte in bytes {
      if byte == UInt8(ascii: "\n") {
        lines.append(String(decoding: pending, as: UTF8.self))
        pending.removeAll(keepingCapacity: true)
      } else if pending.count < 64 * 1024 {
        pending.append(byte)
      }
    }
    return lines
  }
}
