import Synchronization
import SystemCalls

/// The byte layout of a display surface (version 1). All integers are native-endian (the
/// runner and the app run on one machine).
///
/// ```
/// offset  size  field
///      0     4  magic            "FFDS" (0x53444646 read as UInt32)
///      4     4  version          1
///      8     4  headerBytes      4096: where slot 0's pixels start
///     12     4  width            pixels
///     16     4  height           pixels
///     20     4  bytesPerRow      ≥ width, a multiple of 64
///     24     4  pixelFormat      1 = 8-bit luma
///     28     4  slotCount        1…16
///     32     8  headerSequence   even when the header is complete, odd while the owner writes it
///     40     8  publishCount     frames published so far (written by the presenting client)
///     48     4  newestSlot       index of the newest complete slot; 0xFFFF_FFFF = nothing presented
///     52    12  reserved
///     64  64×n  slot table, one 64-byte record per slot:
///                 +0  u64 sequence       seqlock: odd while the slot is written, even when complete
///                 +8  u64 frameSequence  the presented frame's stream number
///                +16  u64 captureTime    the frame's capture time (CLOCK_MONOTONIC ns)
///                +24  u64 presentTime    ground truth for calibration only (CLOCK_MONOTONIC ns)
///                +32  u32 flags          bit 0: a black cover (`presentBlack`)
///   4096         slot i's pixels at 4096 + i × bytesPerRow × height
/// ```
///
/// The probe never reads `frameSequence`, `captureTime`, `presentTime` or `flags`: it sees only
/// pixels. A reader trusts nothing in the header: it checks every field against the geometry it
/// expects on every read and bounds every retry.
package enum SurfaceLayout {
  static let magic: UInt32 = 0x5344_4646
  static let version: UInt32 = 1
  static let headerBytes = 4096
  static let pixelFormatLuma8: UInt32 = 1
  static let maxSlots = 16
  static let slotRecordBytes = 64
  static let slotTableOffset = 64
  static let noSlot: UInt32 = 0xFFFF_FFFF
  static let maxDimension = 8192
  static let minDimension = 16
  static let flagBlack: UInt32 = 1

  // Header offsets.
  static let offMagic = 0
  static let offVersion = 4
  static let offHeaderBytes = 8
  static let offWidth = 12
  static let offHeight = 16
  static let offBytesPerRow = 20
  static let offPixelFormat = 24
  static let offSlotCount = 28
  static let offHeaderSequence = 32
  static let offPublishCount = 40
  static let offNewestSlot = 48

  // Slot record offsets.
  static let slotOffSequence = 0
  static let slotOffFrameSequence = 8
  static let slotOffCaptureTime = 16
  static let slotOffPresentTime = 24
  static let slotOffFlags = 32

  /// Row stride for `width`: rounded up to 64 bytes.
  static func bytesPerRow(width: Int) -> Int { (width + 63) & ~63 }

  /// Total object size for a geometry.
  static func totalBytes(bytesPerRow: Int, height: Int, slots: Int) -> Int {
    headerBytes + slots * bytesPerRow * height
  }

  /// The geometry a surface declares.
  package struct Geometry: Equatable, Sendable {
    package var width: Int
    package var height: Int
    package var bytesPerRow: Int
    package var slots: Int
    package var slotBytes: Int { bytesPerRow * height }
    package var totalBytes: Int {
      SurfaceLayout.totalBytes(bytesPerRow: bytesPerRow, height: height, slots: slots)
    }
  }
}

/// Typed access to a mapped surface. Holds a raw pointer; the owner of the mapping keeps it alive.
package struct SurfaceMemory {
  let base: UnsafeMutableRawPointer

  @inline(__always) func u32(_ offset: Int) -> UInt32 {
    base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
  }
  @inline(__always) func setU32(_ offset: Int, _ value: UInt32) {
    base.storeBytes(of: value, toByteOffset: offset, as: UInt32.self)
  }
  @inline(__always) func u64(_ offset: Int) -> UInt64 {
    base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
  }
  @inline(__always) func setU64(_ offset: Int, _ value: UInt64) {
    base.storeBytes(of: value, toByteOffset: offset, as: UInt64.self)
  }

  /// An 8-byte-aligned field used as an atomic (offsets 32, 40, 64 + 64·i are aligned; the base is page aligned).
  @inline(__always) func atomic64(_ offset: Int) -> UnsafeMutablePointer<Atomic<UInt64>> {
    (base + offset).assumingMemoryBound(to: Atomic<UInt64>.self)
  }
  @inline(__always) func atomic32(_ offset: Int) -> UnsafeMutablePointer<Atomic<UInt32>> {
    (base + offset).assumingMemoryBound(to: Atomic<UInt32>.self)
  }

  @inline(__always) static func slotRecord(_ slot: Int) -> Int {
    SurfaceLayout.slotTableOffset + slot * SurfaceLayout.slotRecordBytes
  }
  @inline(__always) func pixels(slot: Int, geometry: SurfaceLayout.Geometry) -> UnsafeMutablePointer<UInt8> {
    (base + SurfaceLayout.headerBytes + slot * geometry.slotBytes).assumingMemoryBound(to: UInt8.self)
  }

  /// Writes a fresh header (owner side): sequence odd, fields, then sequence even.
  func writeHeader(_ g: SurfaceLayout.Geometry) {
    atomic64(SurfaceLayout.offHeaderSequence).pointee.store(1, ordering: .releasing)
    setU32(SurfaceLayout.offVersion, SurfaceLayout.version)
    setU32(SurfaceLayout.offHeaderBytes, UInt32(SurfaceLayout.headerBytes))
    setU32(SurfaceLayout.offWidth, UInt32(g.width))
    setU32(SurfaceLayout.offHeight, UInt32(g.height))
    setU32(SurfaceLayout.offBytesPerRow, UInt32(g.bytesPerRow))
    setU32(SurfaceLayout.offPixelFormat, SurfaceLayout.pixelFormatLuma8)
    setU32(SurfaceLayout.offSlotCount, UInt32(g.slots))
    atomic64(SurfaceLayout.offPublishCount).pointee.store(0, ordering: .relaxed)
    atomic32(SurfaceLayout.offNewestSlot).pointee.store(SurfaceLayout.noSlot, ordering: .relaxed)
    for s in 0..<g.slots {
      let r = Self.slotRecord(s)
      for o in stride(from: 0, to: SurfaceLayout.slotRecordBytes, by: 8) { setU64(r + o, 0) }
    }
    setU32(SurfaceLayout.offMagic, SurfaceLayout.magic)
    atomic64(SurfaceLayout.offHeaderSequence).pointee.store(2, ordering: .releasing)
  }

  /// Reads and checks the header (client side) against the object's size. Retries a bounded
  /// number of times while the header sequence is odd or changes under the read.
  func readGeometry(objectBytes: Int) throws(DisplayError) -> SurfaceLayout.Geometry {
    var attempt = 0
    while true {
      attempt += 1
      let s1 = atomic64(SurfaceLayout.offHeaderSequence).pointee.load(ordering: .acquiring)
      let magic = u32(SurfaceLayout.offMagic)
      let version = u32(SurfaceLayout.offVersion)
      let headerBytes = u32(SurfaceLayout.offHeaderBytes)
      let w = Int(u32(SurfaceLayout.offWidth))
      let h = Int(u32(SurfaceLayout.offHeight))
      let bpr = Int(u32(SurfaceLayout.offBytesPerRow))
      let format = u32(SurfaceLayout.offPixelFormat)
      let slots = Int(u32(SurfaceLayout.offSlotCount))
      atomicMemoryFence(ordering: .acquiring)
      let s2 = atomic64(SurfaceLayout.offHeaderSequence).pointee.load(ordering: .acquiring)
      if s1 & 1 == 1 || s1 != s2 {
        if attempt >= 20 {
          throw DisplayError(
            .tornHeader,
            "the display surface's header is being rewritten and never settled; the runner that owns it may have crashed mid-write — start the run again"
          )
        }
        MonotonicClock.sleep(nanoseconds: 500_000)
        continue
      }
      guard magic == SurfaceLayout.magic else {
        throw DisplayError(
          .notASurface,
          "the shared-memory object is not a FirstFrame display surface (bad magic); check FIRSTFRAME_DISPLAY"
        )
      }
      guard version == SurfaceLayout.version else {
        throw DisplayError(
          .unsupportedVersion,
          "the display surface has layout version \(version) but this build reads version \(SurfaceLayout.version); rebuild the app and bench from one checkout"
        )
      }
      let dims = SurfaceLayout.minDimension...SurfaceLayout.maxDimension
      guard Int(headerBytes) == SurfaceLayout.headerBytes, dims.contains(w), dims.contains(h),
        bpr >= w, bpr <= SurfaceLayout.maxDimension, bpr % 64 == 0,
        format == SurfaceLayout.pixelFormatLuma8, (1...SurfaceLayout.maxSlots).contains(slots)
      else {
        throw DisplayError(
          .invalidHeader,
          "the display surface's header is out of range (\(w)×\(h), \(bpr) bytes per row, format \(format), \(slots) slots); the surface is corrupt — start the run again"
        )
      }
      let g = SurfaceLayout.Geometry(width: w, height: h, bytesPerRow: bpr, slots: slots)
      guard g.totalBytes == objectBytes else {
        throw DisplayError(
          .sizeMismatch,
          "the display surface declares \(w)×\(h) × \(slots) slots (\(g.totalBytes) bytes) but the object holds \(objectBytes) bytes; it is not a complete FirstFrame surface"
        )
      }
      return g
    }
  }
}
