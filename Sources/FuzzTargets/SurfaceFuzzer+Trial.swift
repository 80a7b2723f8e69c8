import CaptureKit
import Display

extension SurfaceFuzzer {
  /// One input's run on the rig: the app's moves (presents, scribbles), the compositor's
  /// scanouts and other readers' opens, what each left intact since the last present, and the
  /// problems found.
  struct Trial {
    let rig: Rig
    let g: SurfaceLayout.Geometry
    /// The end of the header and the slot table.
    let tableEnd: Int
    var latch: SurfaceLatch
    var screen: [UInt8]
    var problems: [String] = []
    var tableIntact = true
    var lastPresent: (sequence: UInt64, value: UInt8)?
    var pixelsIntact = true  // no scribble on the pixels since the last present
    var geometryIntact = true  // no scribble on magic, version, header size, sizes, format, slots

    init(rig: Rig) {
      self.rig = rig
      g = rig.surface.geometry
      tableEnd = 64 + 64 * g.slots
      latch = SurfaceLatch(geometry: g)
      screen = [UInt8](repeating: 0, count: g.width * g.height)
    }

    /// The app presents a uniform frame of any size (read from `input`); the surface scales it.
    mutating func present(_ input: inout FuzzInput, sequence: UInt64) {
      let width = input.int(in: 1...300)
      let height = input.int(in: 1...300)
      let value = input.byte()
      rig.display.present(
        VideoFrame(
          width: width, height: height, pixels: [UInt8](repeating: value, count: width * height),
          sequence: sequence, captureTime: 0))
      lastPresent = (sequence, value)
      pixelsIntact = true
    }

    /// The app presents black.
    mutating func presentBlack() {
      rig.display.presentBlack()
      lastPresent = (0, 0)
      pixelsIntact = true
    }

    /// The app scribbles a few bytes (read from `input`): in the header and slot table, or anywhere.
    mutating func scribble(_ input: inout FuzzInput) {
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
    }

    /// A scanout: the latch must return the frame just presented onto an intact table, and a
    /// latched image must be the newest slot's pixels. False when the surface closed.
    mutating func scanout() -> Bool {
      var latch = latch
      let outcome = screen.withUnsafeMutableBufferPointer { buffer in
        rig.surface.withMemory { latch.latch($0, into: buffer.baseAddress!) }
      }
      self.latch = latch
      guard let outcome else { return false }
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
          return true
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
      return true
    }

    /// Another reader opens the surface now: it must see the surface's size while the geometry
    /// fields are intact, and whatever it accepted, it must present inside the object.
    mutating func openReader() {
      let sequence = rig.display.withRawMemory { $0.load(fromByteOffset: 32, as: UInt64.self) } ?? 1
      // An odd header sequence is retried for 10 ms: DisplaySurfaceTests covers it once.
      guard sequence & 1 == 0 else { return }
      guard let reader = try? SharedMemoryDisplay.open(name: rig.surface.name) else { return }
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
