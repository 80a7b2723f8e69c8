#if canImport(Glibc)
  import Glibc
#endif
import CPlatformShims

/// Anonymous memory files (`memfd`) whose size can be fixed for good: what the runner shares
/// with a program it does not trust. Whoever holds the descriptor may write the bytes but can
/// neither shrink the file (which would make every reader's next access to a mapping past the
/// new end fault with `SIGBUS`) nor grow it, nor lift or add seals.
public enum SealedMemoryFile {
  /// Creates a memory file of `size` bytes, close-on-exec, with its size sealed. Returns the
  /// descriptor. The corresponding calls are `memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING)`,
  /// `ftruncate` and `fcntl(F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)`.
  /// - Throws: the ``Errno`` of the call that failed, with its name.
  public static func create(name: String, size: Int) throws(SealedMemoryFile.Failure) -> Int32 {
    let fd: Int32
    do {
      fd = try SystemCall.retrying { CPlatformShims_memfdCreateSealable(name) }
    } catch {
      throw Failure(call: "memfd_create", errno: error)
    }
    do {
      _ = try SystemCall.retrying { ftruncate(fd, off_t(size)) }
    } catch {
      FileDescriptorIO.close(fd)
      throw Failure(call: "ftruncate", errno: error)
    }
    do {
      _ = try SystemCall.retrying { CPlatformShims_sealSize(fd) }
    } catch {
      FileDescriptorIO.close(fd)
      throw Failure(call: "fcntl(F_ADD_SEALS)", errno: error)
    }
    return fd
  }

  /// Whether the size of the file behind `fd` is sealed against shrinking and growing.
  /// The corresponding call is `fcntl(fd, F_GET_SEALS)`; a descriptor that is not a memory file
  /// has no seals (false).
  public static func sizeIsSealed(_ fd: Int32) -> Bool {
    CPlatformShims_sizeIsSealed(fd) == 1
  }

  /// A call that failed while creating a sealed memory file.
  public struct Failure: Error, Sendable, Equatable {
    /// The call: `memfd_create`, `ftruncate` or `fcntl(F_ADD_SEALS)`.
    public var call: String
    /// What it said.
    public var errno: Errno
  }
}
