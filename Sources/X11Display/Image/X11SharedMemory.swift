import CXCBShims
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// Memory this process and the X server share (MIT-SHM): images cross it instead of the socket.
///
/// The segment is an anonymous file (`memfd_create`) passed to the server (`ShmAttachFd`, MIT-SHM
/// 1.2), so nothing outlives the processes that map it — no System V segment is left behind
/// by a crash.
final class X11SharedMemory {
  let connection: X11Connection
  /// The segment's id on the server.
  let segment: UInt32
  /// This process's mapping.
  let base: UnsafeMutableRawPointer
  /// Its size in bytes.
  let size: Int
  private var attached = true

  /// Whether the server offers MIT-SHM 1.2 or later (`ShmAttachFd`). The corresponding calls are
  /// `xcb_get_extension_data` and `xcb_shm_query_version`.
  static func isAvailable(on connection: X11Connection) -> Bool {
    guard connection.extensionInfo(Int32(CXCBShims_ExtensionShm)).present,
      let reply = try? connection.reply(CXCBShims_shmQueryVersion(connection.raw), "xcb_shm_query_version")
    else { return false }
    let major = reply.u16(8)
    let minor = reply.u16(10)
    return major > 1 || (major == 1 && minor >= 2)
  }

  /// Whether the server makes pixmaps of shared memory in the `ZPixmap` layout (MIT-SHM's
  /// `ShmCreatePixmap`: QueryVersion's shared_pixmaps, and pixmap format 2). The corresponding
  /// call is `xcb_shm_query_version`.
  static func hasSharedPixmaps(on connection: X11Connection) -> Bool {
    guard connection.extensionInfo(Int32(CXCBShims_ExtensionShm)).present,
      let reply = try? connection.reply(CXCBShims_shmQueryVersion(connection.raw), "xcb_shm_query_version")
    else { return false }
    return reply.u8(1) != 0 && reply.u8(16) == 2
  }

  /// Creates `size` bytes, maps them and attaches them to the server; `serverWrites` lets the
  /// server write into them (ShmGetImage). The corresponding calls are `memfd_create`,
  /// `ftruncate`, `mmap` and `xcb_shm_attach_fd` (checked: one round trip).
  /// - Throws: `X11Error` — `.systemCallFailed`, or `.requestFailed` when the server refuses the
  ///   segment (a server on another machine cannot map it).
  init(connection: X11Connection, size: Int, serverWrites: Bool) throws(X11Error) {
    let fd = CXCBShims_createSharedMemory("firstframe-x11", size)
    guard fd >= 0 else {
      let e = Errno.current
      throw X11Error(
        .systemCallFailed, "cannot create shared memory for X images: \(e.message)", call: "memfd_create",
        errno: e)
    }
    defer { Glibc.close(fd) }
    guard let mapping = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapping != MAP_FAILED
    else {
      let e = Errno.current
      throw X11Error(
        .systemCallFailed, "cannot map shared memory for X images: \(e.message)", call: "mmap", errno: e)
    }
    let segment: UInt32
    do {
      segment = try connection.generateID()
    } catch {
      munmap(mapping, size)
      throw error
    }
    let forServer = fcntl(fd, F_DUPFD_CLOEXEC, 0)  // XCB closes the descriptor it sends
    guard forServer >= 0 else {
      let e = Errno.current
      munmap(mapping, size)
      throw X11Error(
        .systemCallFailed, "cannot pass shared memory to the X server: \(e.message)", call: "dup", errno: e)
    }
    do {
      try connection.check(
        CXCBShims_shmAttachFD(connection.raw, segment, forServer, serverWrites ? 0 : 1), "xcb_shm_attach_fd")
    } catch {
      munmap(mapping, size)
      throw error
    }
    self.connection = connection
    self.segment = segment
    self.base = mapping
    self.size = size
  }

  /// Detaches the segment from the server and unmaps it. Safe to call more than once.
  /// The corresponding calls are `xcb_shm_detach` and `munmap`.
  func close() {
    guard attached else { return }
    attached = false
    _ = CXCBShims_shmDetach(connection.raw, segment)
    _ = CXCBShims_flush(connection.raw)
    munmap(base, size)
  }

  deinit { close() }
}
