import CaptureKit
import Display
import Synchronization
import SystemCalls

/// The display surface, as the runner's compositor latches what an app under test wrote: the
/// app presents frames (any size, scaled by the surface), scribbles over the header, the slot
/// table and the pixels, and the compositor latches between. A latched image must be exactly the
/// newest slot's pixels; with header and slot table untouched since a present, the latch must
/// return that frame; and a surface opened afterwards is either refused or sized as created —
/// unless the app rewrote the geometry fields (offsets 0…31) into another layout that fits the
/// object exactly: a reader cannot tell that from a genuine header (the compositor can, and
/// refuses it), so such a reader must present a frame within the object instead.
///
/// Offsets are the documented version-1 layout (`SurfaceLayout`): a 64-byte header, one 64-byte
/// record per slot from offset 64, pixels from offset 4096.
enum SurfaceFuzzer {
  /// One surface per process (creating one per input would cost a `shm_open` each), reset before
  /// every input from the header it was created with.
  final class Rig: Sendable {
    let surface: DisplaySurface
    let display: SharedMemoryDisplay
    let pristineHeader: [UInt8]

    init() throws {
      surface = try DisplaySurface.create(width: 64, height: 48, slots: 3)
      display = try SharedMemoryDisplay.open(name: surface.name)
      pristineHeader = display.withRawMemory { Array($0.prefix(4096)) } ?? []
    }
  }

  static let rig = PThreadMutex<Rig?>(nil)

  /// The end of the header fields that describe the layout (magic through slot count).
  static let geometryFieldsEnd = 32

  static func run(_ data: [UInt8]) -> [String] {
    let rig: Rig
    do {
      rig = try self.rig.withLock { r in
        if r == nil { r = try Rig() }
        return r!
      }
    } catch {
      return ["cannot create the surface: \(error)"]
    }
    return run(data, on: rig)
  }

  static func run(_ data: [UInt8], on rig: Rig) -> [String] {
    let g = rig.surface.geometry
    let tableEnd = 64 + 64 * g.slots
    rig.pristineHeader.withUnsafeBytes { header in
      rig.display.withRawMemory { raw in raw.copyMemory(from: header) }
    }
    var input = FuzzInput(data)
    var latch = SurfaceLatch(geometry: g)
    var screen = [UInt8](repeating: 0, count: g.width * g.height)
    var problems: [String] = []
    var tableIntact = true
    var lastPresent: (sequence: UInt64, value: UInt8)?
    var pixelsIntact = true  // no scribble on the pixels since the last present
    var geometryIntact = true  // no scribble on magic, version, header size, sizes, format, slots
    var steps = 0
    while !input.isEmpty && steps < 64 {
      steps += 1
      switch input.byte() % 6 {
      case 0:  // the app presents a uniform frame of any size; the surface scales it
        let width = input.int(in: 1...300)
        let height = input.int(in: 1...300)
        let value = input.byte()
        let sequence = UInt64(steps)
        rig.display.present(
          VideoFrame(
            width: width, height: height, pixels: [UInt8](repeating: value, count: width * height),
            sequence: sequence, captureTime: 0))
        lastPresent = (sequence, value)
        pixelsIntact = true
      case 1:
        rig.display.presentBlack()
        lastPresent = (0, 0)
        pixelsIntact = true
      case 2, 3:  // the app scribbles a few bytes: in the header and slot table, or anywhere
        let anywhere = input.byte() & 1 == 1
        let count = input.int(in: 1...8)
        for _ in 0..<count {
          let offset = anywhere ? input.int(in: 0...(g.totalBytes - 1)) : input.int(in: 0...(tableEnd - 1))
          let value = input.byte()
          rig.display.withRawMemory { raw in
            if offset < tableEnd && raw[offset] != value { tableIntact = false }
            if offset >= 4096 && raw[offset] != value { pixelsIntact = false }
            if offset < SurfaceFuzzer.geometryFieldsEnd && raw[offset] != value { geometryIntact = false }
            raw[offset] = value
          }
        }
      case 4:  // a scanout
        let outcome = screen.withUnsafeMutableBufferPointer { buffer in
          rig.surface.withMemory { latch.latch($0, into: buffer.baseAddress!) }
        }
        guard let outcome else { return problems + ["the surface closed"] }
        if tableIntact, let present = lastPresent {
          if case .latched(let info) = outcome {
            if info.frameSequence != present.sequence
              || (pixelsIntact && screen.contains(where: { $0 != present.value }))
            {
              problems.append(
                "latched frame \(info.frameSequence), not the frame \(present.sequence) just presented")
            }
          } else {
            problems.append("an intact surface with a new frame latched as \(outcome)")
          }
        }
        if case .latched = outcome {
          let newest = rig.display.withRawMemory { $0.load(fromByteOffset: 48, as: UInt32.self) } ?? 0
          guard Int(newest) < g.slots else {
            problems.append("latched although the newest slot is \(newest) of \(g.slots)")
            continue
          }
          let start = 4096 + Int(newest) * g.slotBytes
          let slot = rig.display.withRawMemory { raw in
            (0..<g.height).flatMap { y in
              raw[(start + y * g.bytesPerRow)..<(start + y * g.bytesPerRow + g.width)]
            }
          }
          if slot != screen { problems.append("the latched image is not slot \(newest)'s pixels") }
        }
        lastPresent = nil
      default:  // another reader opens the surface now
        let sequence = rig.display.withRawMemory { $0.load(fromByteOffset: 32, as: UInt64.self) } ?? 1
        // An odd header sequence is retried for 10 ms: DisplaySurfaceTests covers it once.
        guard sequence & 1 == 0 else { continue }
        if let reader = try? SharedMemoryDisplay.open(name: rig.surface.name) {
          if geometryIntact && (reader.width != g.width || reader.height != g.height) {
            problems.append(
              "a reader accepted a \(reader.width)×\(reader.height) header on a \(g.width)×\(g.height) surface"
            )
          }
          // Whatever geometry it accepted, its frames stay inside the object (ASan checks the
          // bytes; the header's sequence is even, so the present publishes).
          let frame = VideoFrame(
            width: 8, height: 8, pixels: [UInt8](repeating: 7, count: 64), sequence: 1, captureTime: 0)
          if reader.publish(frame) == nil {
            problems.append("a reader that accepted the surface could not present into it")
          }
          lastPresent = (1, 7)
          pixelsIntact = true
          reader.close()
        }
      }
    }
    return problems
  }
}
