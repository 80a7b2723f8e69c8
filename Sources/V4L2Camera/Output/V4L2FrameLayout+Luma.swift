import CV4L2Shims

extension V4L2FrameLayout {
  /// How a grey picture is laid into this pixel format, or nil when it cannot be (compressed or
  /// unusual formats).
  var lumaPacking: CV4L2Shims_LumaPacking? {
    switch fourCC {
    case "GREY", "YU12", "YV12", "NV12", "NV21", "NV16", "NV61", "422P", "YM12", "YM21":
      CV4L2Shims_LumaPackingPlane
    case "YUYV", "YVYU": CV4L2Shims_LumaPackingYFirst
    case "UYVY", "VYUY": CV4L2Shims_LumaPackingYSecond
    case "RGB3", "BGR3": CV4L2Shims_LumaPackingThreeBytes
    case "RGB4", "BGR4", "XR24", "AR24", "XB24", "AB24", "RX24", "RA24", "BX24", "BA24":
      CV4L2Shims_LumaPackingFourBytes
    default: nil
    }
  }

  /// Whether ``writeLuma(_:lumaStride:into:rows:fillChroma:)`` can fill this format: the
  /// luma-bearing YUV formats (as luma with neutral chroma) and the 24/32-bit RGB formats (as grey).
  public var acceptsLuma: Bool { lumaPacking != nil }

  /// Writes rows `rows` of the `width × height` luma image `luma` (`lumaStride` bytes per row)
  /// into `frame`, a buffer of this layout, as a grey picture; `fillChroma` also sets the chroma
  /// (needed once per buffer: it never changes). Does nothing for a format that does not
  /// ``acceptsLuma``. Writes only inside `frame`.
  public func writeLuma(
    _ luma: UnsafePointer<UInt8>, lumaStride: Int, into frame: UnsafeMutableRawBufferPointer,
    rows: Range<Int>,
    fillChroma: Bool
  ) {
    guard let packing = lumaPacking, let base = frame.baseAddress else { return }
    CV4L2Shims_packLuma(
      luma, Int32(width), Int32(height), Int32(lumaStride), base.assumingMemoryBound(to: UInt8.self),
      frame.count, Int32(max(bytesPerLine, 0)), Int32(packing.rawValue), Int32(max(0, rows.lowerBound)),
      Int32(min(height, rows.upperBound)), fillChroma ? 1 : 0)
  }
}
