import SystemCalls
import X11Display

/// An Xauthority file (the format `xauth` reads and libXau parses): entries of a family, an
/// address, a display number, an authorization name and its data, each length a big-endian
/// 16-bit count. FirstFrame writes one entry for its private Xvfb: family `FamilyWild` (any
/// address), the display number, `MIT-MAGIC-COOKIE-1` and the cookie.
enum XauthorityFile {
  /// `FamilyWild`: the entry matches any address.
  static let familyWild: UInt16 = 0xffff

  /// The file's bytes for `authorization` on display number `display` (nil: any display,
  /// for the server's own `-auth` file, written before its number is known).
  static func contents(_ authorization: X11Authorization, display: Int?) -> [UInt8] {
    var out: [UInt8] = []
    func u16(_ v: UInt16) { out.append(contentsOf: [UInt8(v >> 8), UInt8(v & 0xff)]) }
    func field(_ bytes: [UInt8]) {
      u16(UInt16(bytes.count))
      out.append(contentsOf: bytes)
    }
    u16(familyWild)
    field([])
    field(display.map { Array(String($0).utf8) } ?? [])
    field(Array(authorization.name.utf8))
    field(authorization.data)
    return out
  }

  /// Writes the file at `path`, readable by this user only, atomically
  /// (``FileSystem/replaceAtomically(_:atPath:mode:)-([UInt8],_,_)``).
  /// - Throws: the ``Errno`` of the call that failed.
  static func write(_ authorization: X11Authorization, display: Int?, to path: String) throws(Errno) {
    try FileSystem.replaceAtomically(contents(authorization, display: display), atPath: path, mode: 0o600)
  }

  /// A new `MIT-MAGIC-COOKIE-1` authorization: 16 bytes from the system's random generator.
  static func newCookie() -> X11Authorization {
    var generator = SystemRandomNumberGenerator()
    return X11Authorization(cookie: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
  }
}
