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

  /// Plays `data` on `rig` (up to 64 steps, each a move picked by its first byte); the problems
  /// found.
  static func run(_ data: [UInt8], on rig: Rig) -> [String] {
    rig.pristineHeader.withUnsafeBytes { header in
      rig.display.withRawMemory { raw in raw.copyMemory(from: header) }
    }
    var input = FuzzInput(data)
    var trial = Trial(rig: rig)
    var steps = 0
    while !input.isEmpty && steps < 64 {
      steps += 1
      switch input.byte() % 6 {
      case 0: trial.present(&input, sequence: UInt64(steps))
      case 1: trial.presentBlack()
      case 2, 3: trial.scribble(&input)
      case 4: guard trial.scanout() else { return trial.problems + ["the surface closed"] }
      default: trial.openReader()
      }
    }
    return trial.problems
  }
}
