import SystemCalls

/// Spends a software cost as real work on the calling thread.
///
/// The work runs in chunks and stops as soon as the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`)
/// has grown by the requested ms. So on an idle core a 100 ms cost takes about 100 ms of wall
/// time, and on a loaded CPU it takes longer, as a real stack's set-up would. The CPU clock is
/// read only when the wall clock (a vDSO read, no system call) has advanced by what was left of
/// the budget at the last read, capped at ``maxReadGapNs``: CPU time grows no faster than wall
/// time, so no read is skipped that could have ended the work. Reading it after every chunk
/// (every ~12 µs) made the kernel account the thread's time and reschedule on each read, and
/// wrote a `sched_stat_runtime` event each time into a traced run (40,000 a launch). Chunks,
/// in order:
/// 1. build tables: a CRC-32 table (256 entries) and a 12-bit tone curve (4096 entries);
/// 2. allocate and fill the plan's buffers, one buffer per chunk (every page written);
/// 3. hash the buffers (FNV-1a over 64-bit words) 64 KiB per chunk, round and round, until the
///    CPU time is reached.
/// If the time runs out before every buffer exists, the pool stays partial: the cost is what is
/// modelled, not the footprint. The product keeps the buffers and the digest, and the camera keeps
/// the product until `close()`, so the optimizer cannot delete the work.
enum SoftwareWork {
  /// The longest wall-clock gap between two reads of the CPU clock, ns: the work overshoots its
  /// budget by at most this (plus one chunk) when the thread was not preempted.
  static let maxReadGapNs: UInt64 = 250_000

  static func run(milliseconds: Double, plan: WorkPlan) -> WorkProduct {
    let budget = UInt64(max(0, milliseconds) * 1_000_000)
    let start = MonotonicClock.threadCPUTime()
    var nextRead = MonotonicClock.now()
    func spent() -> Bool {
      let now = MonotonicClock.now()
      guard now >= nextRead else { return false }
      let used = MonotonicClock.threadCPUTime() &- start
      guard used < budget else { return true }
      nextRead = now + min(budget - used, maxReadGapNs)
      return false
    }

    let crcTable = makeCRC32Table()
    let toneCurve = makeToneCurve()
    var digest: UInt64 = 0xCBF2_9CE4_8422_2325
    digest = fnv(digest, UInt64(crcTable[255]) ^ UInt64(toneCurve[4095]))
    var buffers: [[UInt8]] = []
    buffers.reserveCapacity(plan.buffers.count)
    for (i, size) in plan.buffers.enumerated() where !spent() {
      buffers.append(Array(repeating: UInt8(truncatingIfNeeded: 0x5A &+ i), count: max(8, size)))
    }
    if buffers.isEmpty { buffers.append(Array(repeating: 0xA5, count: 1 << 16)) }
    var which = 0
    var offset = 0
    let chunk = 1 << 16
    while !spent() {
      let buffer = buffers[which]
      let end = min(buffer.count, offset + chunk)
      digest = buffer.withUnsafeBytes { raw in
        var h = digest
        var i = offset
        while i + 8 <= end {
          h = fnv(h, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
          i += 8
        }
        return h
      }
      offset = end
      if offset >= buffer.count {
        offset = 0
        which = (which + 1) % buffers.count
      }
    }
    return WorkProduct(buffers: buffers, tables: crcTable, toneCurve: toneCurve, digest: digest)
  }

  @inline(__always)
  static func fnv(_ h: UInt64, _ word: UInt64) -> UInt64 { (h ^ word) &* 0x0000_0100_0000_01B3 }

  static func makeCRC32Table() -> [UInt32] {
    (0..<256).map { n in
      var c = UInt32(n)
      for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
      return c
    }
  }

  static func makeToneCurve() -> [UInt16] {
    (0..<4096).map { i in
      let x = Double(i) / 4095
      return UInt16((x.squareRoot() * 0.6 + x * 0.4) * 65535)
    }
  }
}

/// What a software cost leaves behind: its buffer pool, tables and digest, kept by the camera
/// until `close()` (immutable, hence `Sendable`).
final class WorkProduct: Sendable {
  let buffers: [[UInt8]]
  let tables: [UInt32]
  let toneCurve: [UInt16]
  let digest: UInt64

  init(buffers: [[UInt8]], tables: [UInt32], toneCurve: [UInt16], digest: UInt64) {
    self.buffers = buffers
    self.tables = tables
    self.toneCurve = toneCurve
    self.digest = digest
  }

  /// Bytes held by the pool.
  var footprint: Int { buffers.reduce(0) { $0 + $1.count } }

  /// Hands the digest to `CPUSpin.blackHole`, so a discarded product's work is not optimised away.
  func digestSink() { CPUSpin.blackHole(digest) }
}
