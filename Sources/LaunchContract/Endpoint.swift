import SystemCalls

/// Where a stream of the launch contract goes or comes from: an inherited file descriptor
/// (`fd:N`) or a path. `FIRSTFRAME_TRACE` and `FIRSTFRAME_CONTROL` are endpoints; this is the one
/// place their syntax is parsed.
public enum Endpoint: Sendable, Hashable, CustomStringConvertible {
  /// A descriptor the runner left open in the app (`fd:3`).
  case descriptor(Int32)
  /// A file or FIFO path.
  case path(String)

  /// Parses `fd:N` (N a non-negative descriptor number) or a path.
  /// - Throws: `LaunchContractError` for an empty text or `fd:` followed by something that is
  ///   not a descriptor number.
  public init(parsing text: String) throws(LaunchContractError) {
    guard !text.isEmpty else { throw LaunchContractError("an endpoint cannot be empty (use fd:N or a path)") }
    if text.hasPrefix("fd:") {
      guard let n = Int32(text.dropFirst(3)), n >= 0 else {
        throw LaunchContractError("'\(text)' is not a file descriptor (use fd:N with N ≥ 0, or a path)")
      }
      self = .descriptor(n)
    } else {
      self = .path(text)
    }
  }

  /// The endpoint as it is written in the environment: `fd:3` or the path.
  public var description: String {
    switch self {
    case .descriptor(let n): "fd:\(n)"
    case .path(let p): p
    }
  }

  /// An opened endpoint: the descriptor and whether the opener must close it.
  public struct Opened: Sendable {
    /// The descriptor to read or write.
    public var fd: Int32
    /// True when the endpoint was a path that this process opened (and so closes).
    public var ownsDescriptor: Bool
  }

  /// Opens the endpoint to append to: a path is created (mode 0600) if missing and opened with
  /// `O_APPEND`, so lines from several processes never interleave; a descriptor must be open.
  /// - Throws: the ``Errno`` of `open(2)`, or `EBADF` for a descriptor that is not open.
  public func openForAppending() throws(Errno) -> Opened {
    try open(forAppending: true)
  }

  /// Opens the endpoint to read from. A descriptor must be open.
  /// - Throws: the ``Errno`` of `open(2)`, or `EBADF` for a descriptor that is not open.
  public func openForReading() throws(Errno) -> Opened {
    try open(forAppending: false)
  }

  private func open(forAppending: Bool) throws(Errno) -> Opened {
    switch self {
    case .descriptor(let n):
      guard FileDescriptorIO.isOpen(n) else { throw .badFileDescriptor }
      return Opened(fd: n, ownsDescriptor: false)
    case .path(let p):
      let fd =
        forAppending
        ? try FileSystem.openForAppendingCreatingIfMissing(atPath: p, mode: 0o600)
        : try FileSystem.openForReading(atPath: p)
      return Opened(fd: fd, ownsDescriptor: true)
    }
  }
}
