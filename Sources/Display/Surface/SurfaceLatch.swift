import Synchronization

/// The reading half of the surface protocol: copies the newest complete slot out of a surface
/// whose header and pixels an app may have filled with garbage.
///
/// Every read checks every header field against the geometry the owner created, bounds every
/// retry, and never trusts an index or a size from shared memory. A torn or corrupt read keeps
/// the previous image.
package struct SurfaceLatch {
  /// What one latch attempt found.
  package enum Outcome: Equatable {
    /// Nothing presented yet (the screen stays black).
    case nothingPresented
    /// The newest slot is the one latched last time; the buffer is unchanged.
    case unchanged
    /// A new slot was copied into the buffer.
    case latched(PresentedFrameInfo)
    /// The header failed validation; the buffer is unchanged.
    case corrupt
    /// The slot was being written during every attempt; the buffer is unchanged.
    case torn
  }

  let geometry: SurfaceLayout.Geometry
  private(set) var lastSlot: UInt32 = SurfaceLayout.noSlot
  private(set) var lastSlotSequence: UInt64 = 0
  static let maxAttempts = 3

  package init(geometry: SurfaceLayout.Geometry) { self.geometry = geometry }

  /// Whether the header still describes `geometry` exactly.
  func headerIsValid(_ m: SurfaceMemory) -> Bool {
    let seq = m.atomic64(SurfaceLayout.offHeaderSequence).pointee.load(ordering: .acquiring)
    return seq & 1 == 0 && m.u32(SurfaceLayout.offMagic) == SurfaceLayout.magic
      && m.u32(SurfaceLayout.offVersion) == SurfaceLayout.version
      && m.u32(SurfaceLayout.offHeaderBytes) == UInt32(SurfaceLayout.headerBytes)
      && m.u32(SurfaceLayout.offWidth) == UInt32(geometry.width)
      && m.u32(SurfaceLayout.offHeight) == UInt32(geometry.height)
      && m.u32(SurfaceLayout.offBytesPerRow) == UInt32(geometry.bytesPerRow)
      && m.u32(SurfaceLayout.offPixelFormat) == SurfaceLayout.pixelFormatLuma8
      && m.u32(SurfaceLayout.offSlotCount) == UInt32(geometry.slots)
  }

  /// Copies the newest complete slot into `buffer` (`width × height` bytes, rows packed) if it
  /// is new since the last call.
  package mutating func latch(_ m: SurfaceMemory, into buffer: UnsafeMutablePointer<UInt8>) -> Outcome {
    for _ in 0..<Self.maxAttempts {
      guard headerIsValid(m) else { return .corrupt }
      let newest = m.atomic32(SurfaceLayout.offNewestSlot).pointee.load(ordering: .acquiring)
      if newest == SurfaceLayout.noSlot {
        return lastSlot == SurfaceLayout.noSlot ? .nothingPresented : .unchanged
      }
      guard newest < UInt32(geometry.slots) else { return .corrupt }
      let slot = Int(newest)
      let record = SurfaceMemory.slotRecord(slot)
      let s1 = m.atomic64(record + SurfaceLayout.slotOffSequence).pointee.load(ordering: .acquiring)
      if s1 & 1 == 1 { continue }
      if newest == lastSlot && s1 == lastSlotSequence { return .unchanged }
      let src = m.pixels(slot: slot, geometry: geometry)
      let w = geometry.width
      for y in 0..<geometry.height {
        (buffer + y * w).update(from: src + y * geometry.bytesPerRow, count: w)
      }
      let info = PresentedFrameInfo(
        frameSequence: m.u64(record + SurfaceLayout.slotOffFrameSequence),
        captureTime: m.u64(record + SurfaceLayout.slotOffCaptureTime),
        presentTime: m.u64(record + SurfaceLayout.slotOffPresentTime),
        isBlack: m.u32(record + SurfaceLayout.slotOffFlags) & SurfaceLayout.flagBlack != 0)
      atomicMemoryFence(ordering: .acquiring)
      let s2 = m.atomic64(record + SurfaceLayout.slotOffSequence).pointee.load(ordering: .relaxed)
      if s1 != s2 { continue }
      lastSlot = newest
      lastSlotSequence = s1
      return .latched(info)
    }
    return .torn
  }
}
