#if canImport(Glibc)
  import Glibc
#endif
import SystemCalls

/// Shared memory the client and the compositor both map (`wl_shm_pool`), carved into buffers
/// (`wl_buffer`): where a preview is drawn and where a screencopy frame lands. The memory is a
/// sealed memory file (`memfd`), so that neither side can shrink it under the other.
package final class WaylandShmPool: @unchecked Sendable {  // immutable after init; `closed` behind a lock
  /// `wl_shm`'s format codes for the layouts used here (DRM fourcc, except the first two).
  package enum Format: UInt32, Sendable {
    /// 32-bit B, G, R, A in memory (little-endian ARGB).
    case argb8888 = 0
    /// 32-bit B, G, R, unused.
    case xrgb8888 = 1
    /// 32-bit R, G, B, A in memory (`XB24`: little-endian xBGR).
    case xbgr8888 = 0x3432_4258
    /// 32-bit R, G, B, A in memory with alpha (`AB24`).
    case abgr8888 = 0x3432_4241
  }

  /// The connection.
  package let connection: WaylandConnection
  /// The pool's object id.
  package let id: UInt32
  /// The pool's size, bytes.
  package let size: Int
  /// The mapping's first byte.
  package let base: UnsafeMutableRawPointer
  private let fd: Int32
  private let closed = PThreadMutex(false)

  /// Creates a pool of `size` bytes through the bound `wl_shm` object `shm`.
  /// - Throws: `.sharedMemory` when the memory cannot be made or mapped; the connection's error.
  package init(connection: WaylandConnection, shm: UInt32, size: Int) throws(WaylandError) {
    guard size > 0 else { throw WaylandError(.sharedMemory, "a Wayland buffer pool of \(size) bytes") }
    let fd: Int32
    do {
      fd = try SealedMemoryFile.create(name: "firstframe-wayland", size: size)
    } catch {
      throw WaylandError(.sharedMemory, "cannot make a Wayland buffer pool: \(error.call): \(error.errno)")
    }
    guard let mapping = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapping != MAP_FAILED
    else {
      FileDescriptorIO.close(fd)
      throw WaylandError(.sharedMemory, "cannot map a Wayland buffer pool of \(size) bytes: \(Errno.current)")
    }
    self.connection = connection
    self.fd = fd
    self.size = size
    self.base = mapping
    id = connection.newObject()
    do {
      try connection.send(shm, 0, [.newID(id), .fd(fd), .int(Int32(clamping: size))])
    } catch {
      munmap(mapping, size)
      FileDescriptorIO.close(fd)
      throw error
    }
  }

  deinit { destroy() }

  /// Makes a buffer of `width`×`height` pixels, `stride` bytes a row, at `offset` in the pool,
  /// with `handler` for its events (`release`, opcode 0). Returns the buffer's id.
  /// - Throws: `.sharedMemory` when the buffer does not fit the pool; the connection's error.
  package func makeBuffer(
    offset: Int, width: Int, height: Int, stride: Int, format: UInt32,
    handler: WaylandConnection.Handler? = nil
  ) throws(WaylandError) -> UInt32 {
    guard offset >= 0, width > 0, height > 0, stride >= width * 4, offset + stride * height <= size else {
      throw WaylandError(
        .sharedMemory,
        "a \(width)×\(height) buffer (stride \(stride)) at \(offset) does not fit a pool of \(size) bytes")
    }
    let buffer = connection.newObject(handler)
    try connection.send(
      id, 0,
      [
        .newID(buffer), .int(Int32(offset)), .int(Int32(width)), .int(Int32(height)), .int(Int32(stride)),
        .uint(format),
      ])
    return buffer
  }

  /// Destroys a buffer made here (`wl_buffer.destroy`).
  package func destroyBuffer(_ buffer: UInt32) {
    try? connection.send(buffer, 0)
  }

  /// The pool's bytes from `offset`, `count` long (within the pool).
  package func bytes(offset: Int, count: Int) -> UnsafeRawBufferPointer? {
    guard offset >= 0, count >= 0, offset + count <= size else { return nil }
    return UnsafeRawBufferPointer(start: base + offset, count: count)
  }

  /// Destroys the pool (`wl_shm_pool.destroy`; buffers made from it live on in the compositor
  /// until destroyed) and unmaps it here. Safe to call more than once.
  package func destroy() {
    let first = closed.withLock { closed in
      defer { closed = true }
      return !closed
    }
    guard first else { return }
    try? connection.send(id, 1)
    munmap(base, size)
    FileDescriptorIO.close(fd)
  }
}
