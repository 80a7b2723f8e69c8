import CXCBShims

/// Has the X server scale a drawable down before the probe reads it (the RENDER extension): a
/// picture on the drawable with a `scale`× transform and the `nearest` filter is composited
/// into a pixmap `scale` times smaller in each dimension, which the probe then reads like a
/// window (`ShmGetImage`). Every pixel of the pixmap is one pixel of the drawable — the one at
/// (`scale`·x, `scale`·y) plus the same phase everywhere — so the probe reads a quarter of the
/// pixels (at `scale` 2) and the server copies fewer than a full read would make it copy.
///
/// Used from one thread (the probe's).
final class X11Downscaler {
  let connection: X11Connection
  /// How many times smaller than the drawable the pixmap is, in each dimension.
  let scale: Int
  /// The pixmap's size, pixels.
  let width: Int
  /// The pixmap's size, pixels.
  let height: Int
  /// The pixmap the server scales into; the probe reads from it.
  let pixmap: UInt32
  /// Whether the pixmap's pixels are a shared segment's bytes (a MIT-SHM pixmap: the probe reads
  /// them in place), rather than the server's own.
  let isShared: Bool
  private let source: UInt32
  private let destination: UInt32
  private var closed = false

  /// The RENDER version this client speaks: 0.11 (transforms and filters came in 0.6).
  static let version = (major: UInt32(0), minor: UInt32(11))

  /// The picture format RENDER gives `visual`, when the server has RENDER 0.6 or later (picture
  /// transforms and filters); nil otherwise. The corresponding calls are
  /// `xcb_get_extension_data`, `xcb_render_query_version` and `xcb_render_query_pict_formats`.
  static func pictureFormat(for visual: UInt32, on connection: X11Connection) -> UInt32? {
    guard connection.extensionInfo(Int32(CXCBShims_ExtensionRender)).present,
      let version = try? connection.reply(
        CXCBShims_renderQueryVersion(connection.raw, Self.version.major, Self.version.minor),
        "xcb_render_query_version"),
      version.u32(8) > 0 || version.u32(12) >= 6,
      let formats = try? connection.reply(
        CXCBShims_renderQueryPictFormats(connection.raw), "xcb_render_query_pict_formats")
    else { return nil }
    return formats.withBytes(from: 0) { bytes, count in
      Self.pictureFormat(for: visual, queryPictFormatsReply: WireBytes(bytes, count: count))
    }
  }

  /// Finds `visual` in a `QueryPictFormats` reply: 32 bytes of header (formats, screens, depths,
  /// visuals counted at 8…20), the formats (28 bytes each), then per screen its depth count and
  /// fallback (8 bytes) and per depth its visual count (8 bytes) and `(visual, format)` pairs.
  /// Nil when the visual is not listed or the reply is shorter than its counts say.
  static func pictureFormat(for visual: UInt32, queryPictFormatsReply reply: WireBytes) -> UInt32? {
    guard reply.count >= 32 else { return nil }
    let formats = Int(reply.u32(8))
    let screens = Int(reply.u32(12))
    guard formats < reply.count / 28 else { return nil }
    var offset = 32 + 28 * formats
    for _ in 0..<screens {
      guard offset + 8 <= reply.count else { return nil }
      let depths = Int(reply.u32(offset))
      offset += 8
      for _ in 0..<depths {
        guard offset + 8 <= reply.count else { return nil }
        let visuals = Int(reply.u16(offset + 2))
        offset += 8
        guard offset + 8 * visuals <= reply.count else { return nil }
        for v in 0..<visuals where reply.u32(offset + 8 * v) == visual {
          return reply.u32(offset + 8 * v + 4)
        }
        offset += 8 * visuals
      }
    }
    return nil
  }

  /// Sets up the scaling of `drawable` (of `depth`, whose visual has picture `format`) by
  /// `scale` into a `width`×`height` pixmap: pixmap (x, y) shows the drawable's pixel at
  /// (`origin.x` + `scale`·x, `origin.y` + `scale`·y), give or take the filter's phase. The
  /// source picture includes inferior windows, as `GetImage` does. The corresponding calls are
  /// `xcb_create_pixmap`, `xcb_render_create_picture`, `xcb_render_set_picture_transform` and
  /// `xcb_render_set_picture_filter` (each checked: one round trip in all). With `segment`, the
  /// pixmap is the segment's bytes from offset 0, in rows of `4 × width` (`xcb_shm_create_pixmap`).
  /// - Throws: `X11Error` `.requestFailed` when the server refuses one of them.
  init(
    connection: X11Connection, drawable: UInt32, depth: UInt8, format: UInt32, scale: Int,
    origin: (x: Int, y: Int), width: Int, height: Int, segment: UInt32? = nil
  ) throws(X11Error) {
    let pixmap = try connection.generateID()
    let source = try connection.generateID()
    let destination = try connection.generateID()
    let raw = connection.raw
    let fixedOne = Int32(1 << 16)
    let matrix: [Int32] = [
      Int32(scale) * fixedOne, 0, Int32(origin.x) * fixedOne,
      0, Int32(scale) * fixedOne, Int32(origin.y) * fixedOne,
      0, 0, fixedOne,
    ]
    let filter = "nearest"
    // CPSubwindowMode (1 << 8): IncludeInferiors (1).
    let cookies = [
      segment.map {
        (
          CXCBShims_shmCreatePixmap(raw, pixmap, drawable, UInt16(width), UInt16(height), depth, $0, 0),
          "xcb_shm_create_pixmap"
        )
      }
        ?? (
          CXCBShims_createPixmap(raw, depth, pixmap, drawable, UInt16(width), UInt16(height)),
          "xcb_create_pixmap"
        ),
      (
        CXCBShims_renderCreatePicture(raw, source, drawable, format, 1 << 8, [1]), "xcb_render_create_picture"
      ),
      (CXCBShims_renderCreatePicture(raw, destination, pixmap, format, 0, nil), "xcb_render_create_picture"),
      (CXCBShims_renderSetPictureTransform(raw, source, matrix), "xcb_render_set_picture_transform"),
      (
        CXCBShims_renderSetPictureFilter(raw, source, UInt16(filter.utf8.count), filter),
        "xcb_render_set_picture_filter"
      ),
    ]
    var failure: X11Error?
    for (cookie, name) in cookies {
      do {
        try connection.check(cookie, name)
      } catch {
        failure = failure ?? error
      }
    }
    self.connection = connection
    self.scale = scale
    self.width = width
    self.height = height
    self.pixmap = pixmap
    self.isShared = segment != nil
    self.source = source
    self.destination = destination
    if let failure {
      close()
      throw failure
    }
  }

  /// The part of the pixmap that shows `area` of the drawable (drawable pixels, relative to the
  /// origin): every pixmap pixel any of whose `scale`×`scale` source pixels is in `area`.
  func pixmapArea(covering area: X11Rectangle) -> X11Rectangle {
    let x0 = max(0, area.x) / scale
    let y0 = max(0, area.y) / scale
    let x1 = min(width, (area.x + area.width + scale - 1) / scale)
    let y1 = min(height, (area.y + area.height + scale - 1) / scale)
    return X11Rectangle(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
  }

  /// Asks the server to scale the part `area` of the pixmap (pixmap pixels) from the drawable.
  /// Nothing waits: a later reply on the same connection says it was done. The corresponding
  /// call is `xcb_render_composite` (operator Src).
  func composite(_ area: X11Rectangle) {
    _ = CXCBShims_renderComposite(
      connection.raw, 1, source, 0, destination, Int16(area.x), Int16(area.y), 0, 0, Int16(area.x),
      Int16(area.y), UInt16(area.width), UInt16(area.height))
  }

  /// Frees the pictures and the pixmap. Safe to call more than once. The corresponding calls are
  /// `xcb_render_free_picture` and `xcb_free_pixmap`.
  func close() {
    guard !closed else { return }
    closed = true
    _ = CXCBShims_renderFreePicture(connection.raw, source)
    _ = CXCBShims_renderFreePicture(connection.raw, destination)
    _ = CXCBShims_freePixmap(connection.raw, pixmap)
  }

  deinit { close() }
}
