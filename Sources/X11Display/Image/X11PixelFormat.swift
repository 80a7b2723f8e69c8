/// How a window's pixels are laid out in an image (`ZPixmap`): 32 bits per pixel, rows of
/// `4 × width` bytes, red, green and blue where the visual's masks say, in the server's image
/// byte order. Converts FirstFrame's 8-bit luma to pixels (presenting) and back (the probe).
package struct X11PixelFormat: Sendable, Hashable {
  /// The depth images are sent with (24 on a TrueColor desktop, 32 for an ARGB window).
  package let depth: UInt8
  /// Where red is in a pixel value.
  package let redMask: UInt32
  /// Where green is in a pixel value.
  package let greenMask: UInt32
  /// Where blue is in a pixel value.
  package let blueMask: UInt32
  /// Whether pixels are stored most significant byte first (the server's image byte order).
  package let mostSignificantByteFirst: Bool

  /// The format of `visual` at `depth` on a server with `setup`.
  /// - Throws: `X11Error` `.unsupportedVisual` unless the visual is TrueColor or DirectColor and
  ///   images of its depth take 32 bits per pixel.
  package init(setup: X11Setup, visual: X11Setup.Visual, depth: UInt8) throws(X11Error) {
    guard visual.visualClass == 4 || visual.visualClass == 5 else {
      throw X11Error(
        .unsupportedVisual,
        "the window's visual 0x\(String(visual.id, radix: 16)) is not TrueColor (class \(visual.visualClass)); only TrueColor screens are supported"
      )
    }
    guard let format = setup.format(depth: depth), format.bitsPerPixel == 32 else {
      throw X11Error(
        .unsupportedVisual,
        "images of depth \(depth) are not 32 bits per pixel on this server; only 24- and 32-bit TrueColor are supported"
      )
    }
    self.depth = depth
    self.redMask = visual.redMask
    self.greenMask = visual.greenMask
    self.blueMask = visual.blueMask
    self.mostSignificantByteFirst = setup.imageByteOrder == 1
  }

  /// Bytes per image row of `width` pixels.
  package func bytesPerRow(width: Int) -> Int { 4 * width }

  /// The 32-bit word, as it lies in memory, for each grey level 0…255.
  package func greyPixels() -> [UInt32] {
    (0...255).map { v -> UInt32 in
      let pixel =
        Self.scaled(UInt32(v), into: redMask) | Self.scaled(UInt32(v), into: greenMask)
        | Self.scaled(UInt32(v), into: blueMask)
      return storedOrder(pixel)
    }
  }

  func storedOrder(_ pixel: UInt32) -> UInt32 {
    // The server's byte order vs this machine's: the word is stored as the server reads it.
    let hostIsLittle = UInt32(1).littleEndian == 1
    return (mostSignificantByteFirst == hostIsLittle) ? pixel.byteSwapped : pixel
  }

  /// An 8-bit level scaled into the bits of `mask`.
  static func scaled(_ level: UInt32, into mask: UInt32) -> UInt32 {
    guard mask != 0 else { return 0 }
    let shift = UInt32(mask.trailingZeroBitCount)
    let maximum = mask >> shift
    return ((level * maximum + 127) / 255) << shift
  }

  /// Converts `height` rows of `width` pixels at `source` (`sourceBytesPerRow` apart) to luma at
  /// `destination` (`destinationBytesPerRow` apart): Y = (77 R + 150 G + 29 B + 128) / 256, the
  /// BT.601 weights in 8-bit fixed point, so a grey pixel (v, v, v) reads back as exactly v.
  package func luma(
    from source: UnsafeRawPointer, sourceBytesPerRow: Int, width: Int, height: Int,
    into destination: UnsafeMutablePointer<UInt8>, destinationBytesPerRow: Int
  ) {
    let hostIsLittle = UInt32(1).littleEndian == 1
    let swap = mostSignificantByteFirst == hostIsLittle
    if !swap && redMask == 0xff0000 && greenMask == 0xff00 && blueMask == 0xff {
      for y in 0..<height {
        Self.lumaOfRGB888(
          (source + y * sourceBytesPerRow).assumingMemoryBound(to: UInt32.self),
          into: destination + y * destinationBytesPerRow, count: width)
      }
      return
    }
    let channels = [redMask, greenMask, blueMask].map { mask -> (shift: UInt32, maximum: UInt32) in
      let shift = UInt32(mask == 0 ? 0 : mask.trailingZeroBitCount)
      return (shift, max(1, mask >> shift))
    }
    for y in 0..<height {
      let row = source + y * sourceBytesPerRow
      let out = destination + y * destinationBytesPerRow
      for x in 0..<width {
        var p = row.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self)
        if swap { p = p.byteSwapped }
        let r = ((p & redMask) >> channels[0].shift) * 255 / channels[0].maximum
        let g = ((p & greenMask) >> channels[1].shift) * 255 / channels[1].maximum
        let b = ((p & blueMask) >> channels[2].shift) * 255 / channels[2].maximum
        out[x] = UInt8(truncatingIfNeeded: (77 * r + 150 * g + 29 * b + 128) >> 8)
      }
    }
  }

  /// Luma of `count` pixels `0x00RRGGBB` (native order). Optimised, 16 at a time in 16-bit
  /// lanes: the weighted sum is at most 65 408, so it fits, and 16-bit multiplies exist in
  /// baseline SSE2 (32-bit ones do not). Unoptimised (a debug build), generic SIMD code is many
  /// times slower than a plain loop, so that build takes the plain loop.
  static func lumaOfRGB888(
    _ source: UnsafePointer<UInt32>, into destination: UnsafeMutablePointer<UInt8>, count: Int
  ) {
    var x = 0
    #if !DEBUG
      while x + 16 <= count {
        let v = UnsafeRawPointer(source + x).loadUnaligned(as: SIMD16<UInt32>.self)
        let r = SIMD16<UInt16>(truncatingIfNeeded: (v &>> 16) & 0xff)
        let g = SIMD16<UInt16>(truncatingIfNeeded: (v &>> 8) & 0xff)
        let b = SIMD16<UInt16>(truncatingIfNeeded: v & 0xff)
        let luma = (77 &* r &+ 150 &* g &+ 29 &* b &+ 128) &>> 8
        UnsafeMutableRawPointer(destination + x).storeBytes(
          of: SIMD16<UInt8>(truncatingIfNeeded: luma), as: SIMD16<UInt8>.self)
        x += 16
      }
    #endif
    while x < count {
      let p = source[x]
      let sum = 77 &* ((p >> 16) & 0xff) &+ 150 &* ((p >> 8) & 0xff) &+ 29 &* (p & 0xff) &+ 128
      destination[x] = UInt8(truncatingIfNeeded: sum >> 8)
      x += 1
    }
  }
}
