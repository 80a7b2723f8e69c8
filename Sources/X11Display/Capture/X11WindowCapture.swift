import CXCBShims
import SystemCalls

/// The probe's X client: it watches the screen for the app's window, learns of every change to
/// that window through the DAMAGE extension, and reads the changed pixels (MIT-SHM
/// `ShmGetImage`, or `GetImage` where shared memory is refused) into an 8-bit luma image of the
/// whole window, stamping `CLOCK_MONOTONIC` as soon as the pixels are in hand.
///
/// **A large window is read at reduced size.** From 640×360 up (`Resolution.reduced`), the
/// server scales the changed part down by `scale` in each dimension (RENDER, nearest pixel:
/// `X11Downscaler`) — straight into the shared memory where it has MIT-SHM pixmaps — and the
/// probe reads that: 1/`scale`² of the pixels to copy, convert and analyse, every one of them
/// a pixel of the window. The image is `imageWidth` × `imageHeight`, at least 320×180 — enough
/// for the light board (160×120) and the live-frame detector. A smaller window, or a server
/// without RENDER, is read pixel for pixel.
///
/// Used from one thread (the probe's); nothing here blocks except the replies it waits for.
package final class X11WindowCapture: @unchecked Sendable {
  // @unchecked: used from one thread at a time (the probe's); the connection itself is thread-safe.

  /// What to read a watched window's pixels from.
  package enum Source: String, Sendable, CaseIterable {
    /// The window's own contents: what the app gave the server (the default).
    case window
    /// The screen (the root window) where the window is: what a compositing window manager
    /// actually shows, one composition later. Damage is watched on the root then.
    case screen
  }

  /// How much of a window the probe reads.
  package enum Resolution: String, Sendable, CaseIterable {
    /// Half the window's size in each dimension when it is at least `reducedMinimum` (640×360)
    /// and the server has RENDER; every pixel otherwise (the default).
    case reduced
    /// Every pixel of the window, whatever its size (what the probe read before RENDER; for
    /// comparisons).
    case full
  }

  /// The smallest image `Resolution.reduced` scales a window down to, pixels.
  package static let reducedMinimum = (width: 320, height: 180)

  /// The connection.
  package let connection: X11Connection
  /// Where pixels are read from.
  package let source: Source
  /// Whether images cross in shared memory.
  package let usesSharedMemory: Bool
  /// Whether the server scales a large window straight into the shared memory (a MIT-SHM
  /// pixmap), so that no image has to be copied out of a pixmap afterwards.
  package let usesSharedPixmaps: Bool
  /// How much of a large window is read.
  package let resolution: Resolution
  /// The watched window, once `watch(_:)` was called.
  package private(set) var window: UInt32?
  /// The watched window's size, pixels.
  package private(set) var width = 0
  /// The watched window's size, pixels.
  package private(set) var height = 0
  /// Reads the server refused (a window partly off screen, or unmapped meanwhile).
  package private(set) var refusedReads = 0
  /// The luma image's size, pixels: the window's, divided by `scale`.
  package private(set) var imageWidth = 0
  /// The luma image's size, pixels: the window's, divided by `scale`.
  package private(set) var imageHeight = 0
  /// How many times smaller than the watched window its image is, in each dimension (1 or 2).
  package var scale: Int { downscaler?.scale ?? 1 }

  /// Whether the server says which process owns a window (X-Resource 1.2, ``Ownership/clientPID``).
  let knowsClientProcesses: Bool
  private let damageFirstEvent: UInt8
  /// The atom `_NET_WM_PID`.
  let netWMPid: UInt32
  private var damage: UInt32 = 0
  private var format: X11PixelFormat?
  private var segment: X11SharedMemory?
  private var downscaler: X11Downscaler?
  private var luma: [UInt8] = []
  private var pending: X11Rectangle?
  private var rootOrigin = (x: 0, y: 0)

  /// Connects to `display` (nil: `$DISPLAY`), checks that the server has DAMAGE (and MIT-SHM
  /// 1.2, else images come through the socket), and starts watching the root window for
  /// windows being created, mapped and reparented.
  /// - Throws: `X11Error` — a library or the server missing, or `.extensionMissing` without DAMAGE.
  package convenience init(
    display: String?, authorization: X11Authorization? = nil, source: Source = .window,
    resolution: Resolution = .reduced
  ) throws(X11Error) {
    try self.init(
      display: display, authorization: authorization, source: source, resolution: resolution,
      allowsSharedMemory: true, allowsSharedPixmaps: true)
  }

  /// `init(display:…)`, with `allowsSharedMemory` false reading through the socket (`GetImage`)
  /// as on a server that refuses MIT-SHM, and `allowsSharedPixmaps` false copying a scaled
  /// window out of an ordinary pixmap as on a server without MIT-SHM pixmaps (tests).
  package init(
    display: String?, authorization: X11Authorization?, source: Source, resolution: Resolution = .reduced,
    allowsSharedMemory: Bool, allowsSharedPixmaps: Bool = true
  ) throws(X11Error) {
    let connection = try X11Connection(
      display: display, authorization: authorization, libraries: X11Library.probing)
    let damage = connection.extensionInfo(Int32(CXCBShims_ExtensionDamage))
    guard damage.present else {
      throw X11Error(
        .extensionMissing,
        "the X display \(connection.displayName) has no DAMAGE extension, which the probe needs")
    }
    // DAMAGE answers nothing before its version is agreed (1.1: the version XCB speaks).
    _ = try connection.reply(CXCBShims_damageQueryVersion(connection.raw, 1, 1), "xcb_damage_query_version")
    self.connection = connection
    self.source = source
    self.resolution = resolution
    self.damageFirstEvent = damage.firstEvent
    self.netWMPid = try connection.atom("_NET_WM_PID")
    self.knowsClientProcesses = connection.hasClientIds()
    self.usesSharedMemory = allowsSharedMemory && X11SharedMemory.isAvailable(on: connection)
    self.usesSharedPixmaps =
      usesSharedMemory && allowsSharedPixmaps && X11SharedMemory.hasSharedPixmaps(on: connection)
    // SubstructureNotify on the root: CreateNotify, MapNotify, ReparentNotify of top-level windows.
    _ = CXCBShims_changeWindowAttributes(connection.raw, connection.screen.root, 0x800, [0x80000])
    try connection.roundTrip()
  }

  /// The connection's socket, to `poll` for events.
  package var fileDescriptor: Int32 { connection.fileDescriptor }

  /// The events that have arrived (never blocks). Damage to the watched window is also kept
  /// for the next `readChanges()`.
  /// - Throws: `X11Error` `.connectionLost` when the server has gone.
  package func pollEvents() throws(X11Error) -> [X11Event] {
    var events: [X11Event] = []
    while let event = connection.nextEvent(damageFirstEvent: damageFirstEvent) {
      if case .damaged(let drawable, var area) = event, damage != 0 {
        if source == .screen {
          guard drawable == connection.screen.root else { continue }
          area.x -= rootOrigin.x
          area.y -= rootOrigin.y
        }
        pending = (pending ?? X11Rectangle(x: 0, y: 0, width: 0, height: 0)).union(area)
      }
      events.append(event)
    }
    if let failure = connection.failure { throw failure }
    return events
  }

  /// Starts watching `window`: a DAMAGE object on it (or on the root, reading `.screen`), its
  /// size and pixel format, the shared image. The whole window counts as changed, so the next
  /// `readChanges()` reads all of it.
  package func watch(_ window: UInt32) throws(X11Error) {
    if damage != 0 { _ = CXCBShims_damageDestroy(connection.raw, damage) }
    self.window = window
    let damage = try connection.generateID()
    // BoundingBox (2): one event per growth of the damaged area, with its bounds.
    let watched = source == .screen ? connection.screen.root : window
    _ = CXCBShims_damageCreate(connection.raw, damage, watched, 2)
    // StructureNotify on the window: its size changes and its end.
    _ = CXCBShims_changeWindowAttributes(connection.raw, window, 0x800, [0x20000])
    self.damage = damage
    try resize()
  }

  /// Stops watching the window, which is gone (`DestroyNotify`): its DAMAGE object is freed and
  /// nothing is watched until ``watch(_:)`` (the server may give a new client's window the same
  /// id).
  package func forget() {
    if damage != 0 { _ = CXCBShims_damageDestroy(connection.raw, damage) }
    damage = 0
    pending = nil
    window = nil
  }

  /// Re-reads the watched window's size and format (after a `ConfigureNotify`), and sets up its
  /// scaling (`Resolution.reduced`).
  package func resize() throws(X11Error) {
    guard let window else { return }
    let geometry = try connection.geometry(of: window)
    let attributes = try connection.attributes(of: window)
    guard let visual = connection.setup.visual(attributes.visual, on: connection.screenNumber) else {
      throw X11Error(.unsupportedVisual, "the window's visual is not one of the screen's")
    }
    let depth = source == .screen ? connection.screen.rootDepth : geometry.depth
    let rootVisual = connection.setup.visual(connection.screen.rootVisual, on: connection.screenNumber)
    let readVisual = source == .screen ? rootVisual ?? visual : visual
    format = try X11PixelFormat(setup: connection.setup, visual: readVisual, depth: depth)
    if source == .screen { rootOrigin = try connection.rootPosition(of: window) }
    width = max(1, geometry.width)
    height = max(1, geometry.height)
    downscaler?.close()
    downscaler = nil
    let scale = resolution.scale(width: width, height: height)
    if scale > 1, let pictureFormat = X11Downscaler.pictureFormat(for: readVisual.id, on: connection) {
      try prepareImage(width: width / scale, height: height / scale)
      let drawable = source == .screen ? connection.screen.root : window
      let origin = source == .screen ? rootOrigin : (0, 0)
      func downscaler(into segment: UInt32?) -> X11Downscaler? {
        try? X11Downscaler(
          connection: connection, drawable: drawable, depth: depth, format: pictureFormat, scale: scale,
          origin: origin, width: width / scale, height: height / scale, segment: segment)
      }
      // Into the shared memory where the server allows it, else into a pixmap of its own; a
      // server that refuses both is read pixel for pixel.
      self.downscaler =
        (usesSharedPixmaps ? segment.flatMap { downscaler(into: $0.segment) } : nil) ?? downscaler(into: nil)
    }
    if let failure = connection.failure { throw failure }
    if downscaler == nil { try prepareImage(width: width, height: height) }
    pending = X11Rectangle(x: 0, y: 0, width: width, height: height)
  }

  /// The luma image and the shared segment for a `w`×`h` image (kept when the size is the
  /// same): the image at offset 0, then one pixel for the reads that check the window's corners.
  private func prepareImage(width w: Int, height h: Int) throws(X11Error) {
    guard w != imageWidth || h != imageHeight || luma.isEmpty else { return }
    imageWidth = w
    imageHeight = h
    luma = [UInt8](repeating: 0, count: w * h)
    segment?.close()
    segment = nil
    if usesSharedMemory {
      segment = try X11SharedMemory(connection: connection, size: 4 * w * h + 4, serverWrites: true)
    }
  }

  /// Whether changes are waiting to be read.
  package var hasChanges: Bool { pending.map { !$0.isEmpty } ?? false }

  /// Marks the whole window as changed (read it all next time: a snapshot).
  package func invalidate() {
    if window != nil { pending = X11Rectangle(x: 0, y: 0, width: width, height: height) }
  }

  /// Reads what changed since the last read into the luma image: `DamageSubtract` first (a
  /// change after it raises a new event), then the changed area's pixels (at reduced size, the
  /// server scales them into its pixmap first: in the shared memory, or copied out of it). Returns the `CLOCK_MONOTONIC` time (ns) the
  /// pixels were in hand, or nil when nothing changed or the server refused the read (counted
  /// in `refusedReads`). `inHand` runs right after the stamp, before the pixels are converted
  /// (the probe leaves real-time priority there).
  /// - Throws: `X11Error` `.connectionLost` when the server has gone.
  package func readChanges(inHand: () -> Void = {}) throws(X11Error) -> UInt64? {
    let changed = pending
    pending = nil  // taken even when nothing can be read, so a caller looping on hasChanges ends
    guard let window, let format, let area = changed?.clipped(width: width, height: height), !area.isEmpty
    else { return nil }
    _ = CXCBShims_damageSubtract(connection.raw, damage, 0, 0)
    let drawable = source == .screen ? connection.screen.root : window
    let (dx, dy) = source == .screen ? rootOrigin : (0, 0)
    // Every request is sent before any reply is waited for: one round trip.
    var checks: [CXCBShims_Cookie] = []
    let read: (area: X11Rectangle, image: CXCBShims_Cookie?)
    if let downscaler {
      let scaled = downscaler.pixmapArea(covering: area)
      downscaler.composite(scaled)
      // RENDER scales whatever the drawable holds there; reading the area's two corners (the
      // same request as a full read, into the pixel after the image) refuses what reading the
      // whole area would have refused: a window not viewable, or not entirely on the screen.
      // Their replies also say that the scaling is done.
      checks = [(area.x, area.y), (area.x + area.width - 1, area.y + area.height - 1)].map { x, y in
        readRequest(
          drawable, X11Rectangle(x: x + dx, y: y + dy, width: 1, height: 1), at: 4 * imageWidth * imageHeight)
      }
      read = (scaled, downscaler.isShared ? nil : readRequest(downscaler.pixmap, scaled, at: 0))
    } else {
      read = (
        area,
        readRequest(
          drawable, X11Rectangle(x: area.x + dx, y: area.y + dy, width: area.width, height: area.height),
          at: 0)
      )
    }
    let request = segment == nil ? "xcb_get_image" : "xcb_shm_get_image"
    var refused = false
    for check in checks {
      if try !succeeds(check, request) { refused = true }
    }
    do {
      let reply = try read.image.map { image throws(X11Error) in try connection.reply(image, request) }
      let stamp = MonotonicClock.now()
      if refused { return refuse() }
      inHand()
      if let reply, segment == nil {
        reply.withBytes(from: 32) { pixels, _ in
          convert(
            pixels, rowBytes: format.bytesPerRow(width: read.area.width), area: read.area, format: format)
        }
      } else if let segment {
        // The shared pixmap holds the whole image; a read of the pixmap, just the area.
        let whole = read.image == nil
        let rowBytes = format.bytesPerRow(width: whole ? imageWidth : read.area.width)
        let start = whole ? read.area.y * rowBytes + format.bytesPerRow(width: read.area.x) : 0
        convert(UnsafeRawPointer(segment.base) + start, rowBytes: rowBytes, area: read.area, format: format)
      }
      return stamp
    } catch  where error.code == .requestFailed {
      return refuse()
    }
  }

  /// Asks for the pixels of `area` of `drawable`: `ShmGetImage` into the segment at `offset`
  /// (bytes), or `GetImage` through the socket.
  private func readRequest(_ drawable: UInt32, _ area: X11Rectangle, at offset: Int) -> CXCBShims_Cookie {
    guard let segment else {
      return CXCBShims_getImage(
        connection.raw, 2, drawable, Int16(area.x), Int16(area.y), UInt16(area.width), UInt16(area.height),
        UInt32.max)
    }
    return CXCBShims_shmGetImage(
      connection.raw, drawable, Int16(area.x), Int16(area.y), UInt16(area.width), UInt16(area.height),
      UInt32.max, 2, segment.segment, UInt32(offset))
  }

  /// Counts a read the server refused; nil (no pixels).
  private func refuse() -> UInt64? {
    refusedReads += 1
    return nil
  }

  /// Whether the request of `cookie` succeeded (its reply is dropped); false when the server
  /// refused it.
  /// - Throws: `X11Error` `.connectionLost` when the server has gone.
  private func succeeds(_ cookie: CXCBShims_Cookie, _ request: String) throws(X11Error) -> Bool {
    do {
      _ = try connection.reply(cookie, request)
      return true
    } catch  where error.code == .requestFailed {
      return false
    }
  }

  private func convert(_ pixels: UnsafeRawPointer, rowBytes: Int, area: X11Rectangle, format: X11PixelFormat)
  {
    let w = imageWidth
    luma.withUnsafeMutableBufferPointer { out in
      format.luma(
        from: pixels, sourceBytesPerRow: rowBytes, width: area.width, height: area.height,
        into: out.baseAddress! + area.y * w + area.x, destinationBytesPerRow: w)
    }
  }

  /// Runs `body` on the luma image (`imageWidth`×`imageHeight`, rows packed).
  package func withLuma<R>(_ body: (UnsafePointer<UInt8>, _ width: Int, _ height: Int) -> R) -> R {
    luma.withUnsafeBufferPointer { body($0.baseAddress!, imageWidth, imageHeight) }
  }

  /// Stops watching (the window's DAMAGE object) and closes the connection. Safe to call more than once.
  package func close() {
    downscaler?.close()
    downscaler = nil
    segment?.close()
    segment = nil
    connection.disconnect()
  }

  deinit { close() }
}

extension X11WindowCapture.Resolution {
  /// How many times smaller, in each dimension, a `width`×`height` window is read: 1 at `full`;
  /// at `reduced`, the largest whole number that keeps the image at least
  /// `X11WindowCapture.reducedMinimum` (320×180) — 2 for 640×480, 4 for 1280×720 — or 1.
  package func scale(width: Int, height: Int) -> Int {
    guard self == .reduced else { return 1 }
    let minimum = X11WindowCapture.reducedMinimum
    return max(1, min(width / minimum.width, height / minimum.height))
  }
}
