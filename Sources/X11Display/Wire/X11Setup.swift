/// What the server said when the connection was set up: image byte order, pixmap formats, and
/// per screen its root window, size, depths and visuals. Parsed from the setup reply's wire
/// format (X protocol, "Connection Setup").
package struct X11Setup: Sendable, Hashable {
  /// How many bits per pixel the server uses for a depth, and how rows are padded.
  package struct PixmapFormat: Sendable, Hashable {
    /// Bits of colour (24 for TrueColor RGB).
    package var depth: UInt8
    /// Bits per pixel in images of this depth (32 for depth 24 on every modern server).
    package var bitsPerPixel: UInt8
    /// Each image row is padded to this many bits.
    package var scanlinePad: UInt8
  }

  /// A visual: how a pixel value maps to colour.
  package struct Visual: Sendable, Hashable {
    /// The visual's id.
    package var id: UInt32
    /// Its depth.
    package var depth: UInt8
    /// 4 is TrueColor, 5 DirectColor (the classes with red, green and blue masks).
    package var visualClass: UInt8
    /// Where red is in a pixel value.
    package var redMask: UInt32
    /// Where green is in a pixel value.
    package var greenMask: UInt32
    /// Where blue is in a pixel value.
    package var blueMask: UInt32
  }

  /// A screen.
  package struct Screen: Sendable, Hashable {
    /// Its root window.
    package var root: UInt32
    /// The black pixel value.
    package var blackPixel: UInt32
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int
    /// The root window's visual.
    package var rootVisual: UInt32
    /// The root window's depth.
    package var rootDepth: UInt8
    /// Every visual the screen offers, with its depth.
    package var visuals: [Visual]
  }

  /// The vendor string ("The X.Org Foundation").
  package var vendor: String
  /// The vendor's release number (12101007 is X.Org 21.1.7).
  package var releaseNumber: UInt32
  /// 0 when images are least significant byte first, 1 when most significant byte first.
  package var imageByteOrder: UInt8
  /// The formats, by depth.
  package var pixmapFormats: [PixmapFormat]
  /// The screens.
  package var screens: [Screen]

  /// The format of images of `depth`, if the server has one.
  package func format(depth: UInt8) -> PixmapFormat? { pixmapFormats.first { $0.depth == depth } }

  /// Parses the setup at `base` (`xcb_get_setup`: 8 bytes, then `4 × length` more).
  package init(wire base: UnsafeRawPointer) {
    let head = WireBytes(base, count: 8)
    let w = WireBytes(base, count: 8 + 4 * Int(head.u16(6)))
    releaseNumber = w.u32(8)
    let vendorLength = Int(w.u16(24))
    let screenCount = Int(w.u8(28))
    let formatCount = Int(w.u8(29))
    imageByteOrder = w.u8(30)
    vendor = String(decoding: w.bytes(40, vendorLength), as: UTF8.self)
    var offset = 40 + WireBytes.padded(vendorLength)
    pixmapFormats = (0..<formatCount).map { i in
      let o = offset + 8 * i
      return PixmapFormat(depth: w.u8(o), bitsPerPixel: w.u8(o + 1), scanlinePad: w.u8(o + 2))
    }
    offset += 8 * formatCount
    var screens: [Screen] = []
    for _ in 0..<screenCount {
      var screen = Screen(
        root: w.u32(offset), blackPixel: w.u32(offset + 12), width: Int(w.u16(offset + 20)),
        height: Int(w.u16(offset + 22)), rootVisual: w.u32(offset + 32), rootDepth: w.u8(offset + 38),
        visuals: [])
      let depthCount = Int(w.u8(offset + 39))
      offset += 40
      for _ in 0..<depthCount {
        let depth = w.u8(offset)
        let visualCount = Int(w.u16(offset + 2))
        offset += 8
        for _ in 0..<visualCount {
          screen.visuals.append(
            Visual(
              id: w.u32(offset), depth: depth, visualClass: w.u8(offset + 4), redMask: w.u32(offset + 8),
              greenMask: w.u32(offset + 12), blueMask: w.u32(offset + 16)))
          offset += 24
        }
      }
      screens.append(screen)
    }
    self.screens = screens
  }

  /// The visual called `id` on `screen`, if it has one.
  package func visual(_ id: UInt32, on screen: Int) -> Visual? {
    screens.indices.contains(screen) ? screens[screen].visuals.first { $0.id == id } : nil
  }
}
