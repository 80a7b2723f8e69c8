import LaunchContract
import Testing

@testable import BenchKit
@testable import DisplayServers
@testable import Probe
@testable import ProbeCalibration
@testable import X11Display

/// What the X11 path reads and writes at the protocol's byte offsets, and its bad input — no
/// X server needed, so these run everywhere.
@Suite struct X11WireTests {
  /// A connection setup as a server sends it: one pixmap format (depth 24, 32 bpp), one screen
  /// 1280×720 with root 0x100, depth 24, one TrueColor visual 0x21.
  static func setupBytes(byteOrder: UInt8 = 0) -> [UInt8] {
    var b = [UInt8]()
    func u8(_ v: UInt8) { b.append(v) }
    func u16(_ v: UInt16) { withUnsafeBytes(of: v) { b.append(contentsOf: $0) } }
    func u32(_ v: UInt32) { withUnsafeBytes(of: v) { b.append(contentsOf: $0) } }
    let vendor = Array("Test Vendor".utf8)  // 11 bytes, padded to 12
    u8(1); u8(0); u16(11); u16(0); u16(0)  // status, pad, version, length (filled below)
    u32(12_101_007); u32(0x0040_0000); u32(0x001f_ffff); u32(256)
    u16(UInt16(vendor.count)); u16(65535); u8(1); u8(1); u8(byteOrder); u8(0); u8(32); u8(32); u8(8); u8(255)
    b += [0, 0, 0, 0]
    b += vendor + [0]
    u8(24); u8(32); u8(32); b += [0, 0, 0, 0, 0]  // pixmap format
    u32(0x100); u32(0x20); u32(0xffffff); u32(0); u32(0); u16(1280); u16(720); u16(338); u16(190)
    u16(1); u16(1); u32(0x21); u8(0); u8(0); u8(24); u8(1)  // screen
    u8(24); u8(0); u16(1); b += [0, 0, 0, 0]  // depth 24, one visual
    u32(0x21); u8(4); u8(8); u16(256); u32(0xff0000); u32(0xff00); u32(0xff); b += [0, 0, 0, 0]
    let length = UInt16((b.count - 8) / 4)
    withUnsafeBytes(of: length) {
      b[6] = $0[0]; b[7] = $0[1]
    }
    return b
  }

  @Test("the connection setup is read at the protocol's offsets: vendor, formats, screen, visuals")
  func setupParses() {
    let setup = Self.setupBytes().withUnsafeBytes { X11Setup(wire: $0.baseAddress!) }
    #expect(setup.vendor == "Test Vendor")
    #expect(setup.releaseNumber == 12_101_007)
    #expect(setup.format(depth: 24)?.bitsPerPixel == 32)
    let screen = setup.screens.first
    #expect(
      screen?.root == 0x100 && screen?.width == 1280 && screen?.height == 720 && screen?.rootDepth == 24)
    #expect(setup.visual(0x21, on: 0)?.redMask == 0xff0000)
  }

  @Test("every grey level survives grey → the server's pixel → luma, in either byte order")
  func greyRoundTrip() throws {
    for order: UInt8 in [0, 1] {
      let setup = Self.setupBytes(byteOrder: order).withUnsafeBytes { X11Setup(wire: $0.baseAddress!) }
      let visual = try #require(setup.visual(0x21, on: 0))
      let format = try X11PixelFormat(setup: setup, visual: visual, depth: 24)
      let pixels = format.greyPixels()
      var luma = [UInt8](repeating: 0, count: 256)
      pixels.withUnsafeBytes { raw in
        luma.withUnsafeMutableBufferPointer { out in
          format.luma(
            from: raw.baseAddress!, sourceBytesPerRow: 1024, width: 256, height: 1, into: out.baseAddress!,
            destinationBytesPerRow: 256)
        }
      }
      #expect(luma == (0...255).map { UInt8($0) }, "byte order \(order)")
    }
  }

  @Test("a screen that is not 32 bits per pixel TrueColor is refused with a line saying so")
  func unsupportedVisual() throws {
    let setup = Self.setupBytes().withUnsafeBytes { X11Setup(wire: $0.baseAddress!) }
    let visual = try #require(setup.visual(0x21, on: 0))
    #expect(throws: X11Error.self) { try X11PixelFormat(setup: setup, visual: visual, depth: 16) }
    var pseudo = visual
    pseudo.visualClass = 3
    #expect(throws: X11Error.self) { try X11PixelFormat(setup: setup, visual: pseudo, depth: 24) }
  }

  /// An X-Resource `QueryClientIds` reply holding `values` (mask, value words), with `num_ids`
  /// set to `count` (their number unless given).
  static func clientIdsReply(_ values: [(mask: UInt32, words: [UInt32])], count: UInt32? = nil) -> [UInt8] {
    var body: [UInt32] = []
    for value in values { body += [0x0040_0001, value.mask, UInt32(4 * value.words.count)] + value.words }
    // A reply (type 1, sequence 0), its length in words, num_ids, 20 bytes of padding, the values.
    let words: [UInt32] = [1, UInt32(body.count), count ?? UInt32(values.count), 0, 0, 0, 0, 0] + body
    return words.flatMap { word in withUnsafeBytes(of: word) { Array($0) } }
  }

  @Test(
    "a QueryClientIds reply: the process id is the value under XRES_CLIENT_ID_PID_MASK; without one, or with counts past the reply, nil"
  )
  func clientIdsReply() {
    func pid(_ bytes: [UInt8]) -> Int32? {
      bytes.withUnsafeBytes {
        X11Connection.processID(inClientIdsReply: WireBytes($0.baseAddress!, count: $0.count))
      }
    }
    #expect(pid(Self.clientIdsReply([(mask: 2, words: [4242])])) == 4242)
    #expect(pid(Self.clientIdsReply([(mask: 1, words: []), (mask: 2, words: [77])])) == 77)
    #expect(pid(Self.clientIdsReply([(mask: 1, words: [])])) == nil)
    #expect(pid(Self.clientIdsReply([(mask: 2, words: [])])) == nil)  // the server does not know it
    #expect(pid(Self.clientIdsReply([], count: 1_000_000)) == nil)
    var lying = Self.clientIdsReply([(mask: 2, words: [4242])])
    lying[32 + 8] = 0xff  // a value longer than the reply
    #expect(pid(lying) == nil)
    #expect(pid(Array(lying.prefix(20))) == nil)
  }

  @Test("events: MapNotify, DAMAGE's notify at its first event code, and an error")
  func eventsParse() {
    var map = [UInt8](repeating: 0, count: 32)
    map[0] = 19
    withUnsafeBytes(of: UInt32(0x400007)) { map.replaceSubrange(8..<12, with: $0) }
    map[12] = 1
    #expect(
      map.withUnsafeBytes { X11Event(wire: $0.baseAddress!, damageFirstEvent: 91) }
        == .mapped(window: 0x400007, overrideRedirect: true))
    var damage = [UInt8](repeating: 0, count: 32)
    damage[0] = 91 | 0x80  // sent-event bit ignored
    withUnsafeBytes(of: UInt32(0x400007)) { damage.replaceSubrange(4..<8, with: $0) }
    for (offset, value) in [(16, Int16(3)), (18, 4), (20, 64), (22, 48)] {
      withUnsafeBytes(of: value) { damage.replaceSubrange(offset..<offset + 2, with: $0) }
    }
    #expect(
      damage.withUnsafeBytes { X11Event(wire: $0.baseAddress!, damageFirstEvent: 91) }
        == .damaged(drawable: 0x400007, area: X11Rectangle(x: 3, y: 4, width: 64, height: 48)))
    #expect(
      damage.withUnsafeBytes { X11Event(wire: $0.baseAddress!, damageFirstEvent: nil) } == .other(type: 91))
    var error = [UInt8](repeating: 0, count: 32)
    error[1] = 8
    error[10] = 18
    #expect(
      error.withUnsafeBytes { X11Event(wire: $0.baseAddress!, damageFirstEvent: nil) }
        == .error(code: 8, majorOpcode: 18, resource: 0))
    #expect(X11Connection.errorName(8) == "BadMatch")
  }

  @Test("damaged areas add up to their bounding box and are clipped to the window")
  func rectangles() {
    let a = X11Rectangle(x: 10, y: 10, width: 10, height: 10)
    let b = X11Rectangle(x: -5, y: 15, width: 10, height: 100)
    #expect(a.union(b) == X11Rectangle(x: -5, y: 10, width: 25, height: 105))
    #expect(a.union(b).clipped(width: 64, height: 48) == X11Rectangle(x: 0, y: 10, width: 20, height: 38))
    #expect(X11Rectangle(x: 70, y: 0, width: 5, height: 5).clipped(width: 64, height: 48).isEmpty)
  }

  @Test("a library that cannot be loaded is named with the package that installs it")
  func missingLibrary() {
    do {
      try X11Library.load([.damage], fileNames: { _ in "libxcb-firstframe-missing.so.0" })
      Issue.record("a missing library loaded")
    } catch {
      #expect(error.code == .libraryMissing)
      #expect(error.message.contains("install the package libxcb-damage0"), "\(error.message)")
      #expect(!error.message.contains("\n"))
    }
  }

  @Test("--display takes shm, x11, x11:NAME and wayland[:SOCKET]; anything else is one line")
  func displayPaths() throws {
    #expect(try DisplayPath(parsing: "shm") == .sharedMemory)
    #expect(try DisplayPath(parsing: "x11") == .privateX11)
    #expect(try DisplayPath(parsing: "x11::0") == .x11(display: ":0"))
    #expect(try DisplayPath(parsing: "x11::0").description == "x11::0")
    for bad in ["weston", "x11:", "X11", ""] {
      #expect(throws: LaunchContractError.self) { try DisplayPath(parsing: bad) }
    }
  }

  @Test("window_mapped is measured on X11 launches and explained in relock and on shm")
  func windowMappedApplicability() {
    func reasons(_ display: DisplayPath, _ condition: LaunchCondition) -> String? {
      AppExpectations(
        configuration: .deferred, outputs: [.preview], tap: false, isReferenceApp: true, display: display
      )
      .inapplicablePhases(in: condition)[PhaseName.windowMapped]
    }
    #expect(reasons(.sharedMemory, .warm)?.hasPrefix("shm:") == true)
    #expect(reasons(.privateX11, .warm) == nil)
    #expect(reasons(.x11(display: ":0"), .cold) == nil)
    #expect(reasons(.privateX11, .relock)?.hasPrefix("relock:") == true)
  }

  @Test("the Xauthority entry: FamilyWild, the display number, MIT-MAGIC-COOKIE-1 and the cookie")
  func xauthority() {
    let cookie = X11Authorization(cookie: Array(1...16))
    let bytes = [UInt8](XauthorityFile.contents(cookie, display: 7))
    let expected: [UInt8] =
      [0xff, 0xff, 0, 0, 0, 1, UInt8(ascii: "7"), 0, 18] + Array("MIT-MAGIC-COOKIE-1".utf8) + [0, 16]
      + Array(1...16)
    #expect(bytes == expected)
  }

  @Test(
    "calibration fails an X11 report whose lag p99 is beyond its bound, and never for lag alone without one")
  func lagBound() {
    func report(p99: Double, bound: Double?) -> CalibrationReport {
      CalibrationReport(
        load: true, loadThreads: 2, refreshHz: 0, refreshIntervalMilliseconds: 0, realtimeGranted: true,
        boardDecodes: true, trials: 60, early: 0, misses: 0, lagP50Milliseconds: 1, lagP99Milliseconds: p99,
        lagMaxMilliseconds: p99, methods: [:], staleReportedWithoutCover: 20, trialsWithoutCover: 20,
        staleReportedWithCover: 0, analysisMicrosecondsPerScanout: 10, display: "x11::1",
        lagBoundMilliseconds: bound)
    }
    #expect(report(p99: 3.9, bound: Calibration.x11LagBoundMilliseconds).passes)
    #expect(!report(p99: 5.04, bound: Calibration.x11LagBoundMilliseconds).passes)
    #expect(report(p99: 16.5, bound: nil).passes)
  }
}
