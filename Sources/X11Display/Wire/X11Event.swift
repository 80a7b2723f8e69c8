/// An event (or the error of an unchecked request) from the server, as far as FirstFrame reads
/// it. Parsed from the 32-byte wire format (X protocol, "Events"; DAMAGE, "DamageNotify").
package enum X11Event: Sendable, Hashable {
  /// A window was created (`CreateNotify`, on its parent).
  case created(window: UInt32, parent: UInt32)
  /// A window was mapped (`MapNotify`): it is on screen, unless an ancestor is unmapped.
  case mapped(window: UInt32, overrideRedirect: Bool)
  /// A window was unmapped (`UnmapNotify`).
  case unmapped(window: UInt32)
  /// A window was destroyed (`DestroyNotify`).
  case destroyed(window: UInt32)
  /// A window moved or changed size (`ConfigureNotify`).
  case configured(window: UInt32, x: Int, y: Int, width: Int, height: Int)
  /// A window got a new parent (`ReparentNotify`: a window manager framed it).
  case reparented(window: UInt32, parent: UInt32)
  /// The contents of `drawable` changed in `area` (`DamageNotify`).
  case damaged(drawable: UInt32, area: X11Rectangle)
  /// An unchecked request failed (`Error`): its X error code and the request's major opcode.
  case error(code: UInt8, majorOpcode: UInt8, resource: UInt32)
  /// Something FirstFrame does not read (its response type, without the sent-event bit).
  case other(type: UInt8)

  /// Parses the event at `base` (`xcb_poll_for_event`'s 32 bytes). `damageFirstEvent` is the
  /// DAMAGE extension's first event code (nil when DAMAGE is not in use).
  package init(wire base: UnsafeRawPointer, damageFirstEvent: UInt8?) {
    let w = WireBytes(base, count: 32)
    let type = w.u8(0) & 0x7f
    switch type {
    case 0: self = .error(code: w.u8(1), majorOpcode: w.u8(10), resource: w.u32(4))
    case 16: self = .created(window: w.u32(8), parent: w.u32(4))
    case 17: self = .destroyed(window: w.u32(8))
    case 18: self = .unmapped(window: w.u32(8))
    case 19: self = .mapped(window: w.u32(8), overrideRedirect: w.u8(12) != 0)
    case 21: self = .reparented(window: w.u32(8), parent: w.u32(12))
    case 22:
      self = .configured(
        window: w.u32(8), x: Int(w.i16(16)), y: Int(w.i16(18)), width: Int(w.u16(20)), height: Int(w.u16(22)))
    default:
      if let first = damageFirstEvent, type == first {
        self = .damaged(
          drawable: w.u32(4),
          area: X11Rectangle(
            x: Int(w.i16(16)), y: Int(w.i16(18)), width: Int(w.u16(20)), height: Int(w.u16(22))))
      } else {
        self = .other(type: type)
      }
    }
  }
}

/// A rectangle in window coordinates, pixels.
package struct X11Rectangle: Sendable, Hashable {
  /// Left edge.
  package var x: Int
  /// Top edge.
  package var y: Int
  /// Width.
  package var width: Int
  /// Height.
  package var height: Int

  /// Creates the rectangle.
  package init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// Whether it covers no pixel.
  package var isEmpty: Bool { width <= 0 || height <= 0 }

  /// The smallest rectangle holding both.
  package func union(_ other: X11Rectangle) -> X11Rectangle {
    if isEmpty { return other }
    if other.isEmpty { return self }
    let x0 = min(x, other.x)
    let y0 = min(y, other.y)
    return X11Rectangle(
      x: x0, y: y0, width: max(x + width, other.x + other.width) - x0,
      height: max(y + height, other.y + other.height) - y0)
  }

  /// The part inside `width`×`height` from the origin.
  package func clipped(width w: Int, height h: Int) -> X11Rectangle {
    let x0 = max(0, x)
    let y0 = max(0, y)
    let x1 = min(w, x + width)
    let y1 = min(h, y + height)
    return X11Rectangle(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
  }
}
