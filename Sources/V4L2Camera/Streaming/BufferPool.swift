import CV4L2Shims

/// One mmap'd driver buffer. The address is kept as an integer: it is only dereferenced by the
/// stream thread between `VIDIOC_DQBUF` and `VIDIOC_QBUF`, when the driver does not touch it.
struct MappedBuffer: Sendable, Hashable {
  /// The mapping's address.
  var address: UInt
  /// The mapping's length in bytes.
  var length: Int

  /// The first `count` bytes (all when `count` is 0 or too large).
  func bytes(count: Int) -> UnsafeRawBufferPointer {
    let n = count > 0 && count <= length ? count : length
    return UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: n)
  }
}

/// The streaming buffer pool: `VIDIOC_REQBUFS` (MMAP), `VIDIOC_QUERYBUF` and `v4l2_mmap` per buffer.
struct BufferPool: Sendable {
  /// The buffers, by index.
  var buffers: [MappedBuffer]

  /// Requests `count` buffers and maps them. On failure, whatever was mapped is released.
  static func allocate(on handle: V4L2Handle, count: Int) throws(V4L2Error) -> BufferPool {
    let granted = try handle.requestMappedBuffers(count, type: V4L2Handle.captureType)
    var pool = BufferPool(buffers: [])
    do throws(V4L2Error) {
      for index in 0..<granted {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = V4L2Handle.captureType
        buffer.memory = UInt32(V4L2_MEMORY_MMAP.rawValue)
        try handle.ioctl(.queryBuffer, &buffer)
        let length = Int(buffer.length)
        let address = try handle.mmap(length: length, offset: Int64(buffer.m.offset))
        pool.buffers.append(MappedBuffer(address: UInt(bitPattern: address), length: length))
      }
    } catch {
      pool.release(on: handle)
      throw error
    }
    return pool
  }

  /// Hands every buffer to the driver (`VIDIOC_QBUF`), before `VIDIOC_STREAMON`.
  func queueAll(on handle: V4L2Handle) throws(V4L2Error) {
    for index in buffers.indices {
      try Self.queue(index: index, on: handle, streaming: false)
    }
  }

  /// `VIDIOC_QBUF` of buffer `index`.
  static func queue(index: Int, on handle: V4L2Handle, streaming: Bool) throws(V4L2Error) {
    var buffer = v4l2_buffer()
    buffer.index = UInt32(index)
    buffer.type = V4L2Handle.captureType
    buffer.memory = UInt32(V4L2_MEMORY_MMAP.rawValue)
    try handle.ioctl(.queueBuffer, &buffer, streaming: streaming)
  }

  /// Unmaps every buffer and frees them in the driver (`VIDIOC_REQBUFS` with count 0).
  func release(on handle: V4L2Handle) {
    for buffer in buffers {
      if let address = UnsafeMutableRawPointer(bitPattern: buffer.address) {
        handle.munmap(address, length: buffer.length)
      }
    }
    var request = v4l2_requestbuffers()
    request.count = 0
    request.type = V4L2Handle.captureType
    request.memory = UInt32(V4L2_MEMORY_MMAP.rawValue)
    _ = handle.ioctlStatus(.requestBuffers, &request)
  }
}
