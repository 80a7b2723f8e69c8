/// Where the light board puts its parts in a `width × height` image.
///
/// Every position is a fixed fraction of the image size, so a board rendered at one size and
/// scaled (for example 1280×720 shown as 640×360) is found by the layout computed for the
/// scaled size. The board is meant for 320×240 up to 1920×1080 and works at any size from
/// ``minimumWidth`` × ``minimumHeight``.
///
/// ```
///  ┌──────────────────────────────────────────────┐  margins: W/16 left and right
///  │            background scene                   │
///  │   ┌──────────────────────────────────────┐    │  bar track: rows H/16 ..< 3H/16,
///  │   │ ░░░░░░░░░░░██░░░░░░░░░░░░░░░░░░░░░░ │    │  32 slots; the bar fills slot
///  │   └──────────────────────────────────────┘    │  (sequence mod 32), dark track
///  │            background scene                   │
///  │   ┌─┬──────────────────────────────────┬─┐    │  code band: rows 9H/16 ..< 15H/16,
///  │   │W│ d d d d d d d d d d d d d d d d d d │B│  │  4 rows × 20 columns of blocks;
///  │   │B│ d d d d d d d d d d d d d d d d d d │W│  │  columns 0 and 19 are sync/reference
///  │   │W│ d d d d d d d d d d d d d d d d d d │B│  │  blocks (white/black alternating, the
///  │   │B│ d d d d d d d d d d d d d d d d d d │W│  │  right column inverted); 72 data blocks
///  │   └─┴──────────────────────────────────┴─┘    │
///  └──────────────────────────────────────────────┘
/// ```
///
/// The 72 data blocks, row by row, left to right, carry (most significant bit first):
/// the capture time in whole microseconds (48 bits, `CLOCK_MONOTONIC`), a 3-bit marker `101`,
/// the bar step (5 bits), and a CRC-16/CCITT-FALSE of those 56 bits (16 bits). A white block
/// (luma ``whiteLevel``) is a 1, a black block (``blackLevel``) a 0. The decoder thresholds each
/// row halfway between that row's two reference blocks.
public struct LightBoardLayout: Sendable, Hashable {
  /// The bar's period: the bar is in slot `sequence mod barPeriod`.
  public static let barPeriod = 32
  /// Rows of blocks in the code band.
  public static let codeRows = 4
  /// Columns of blocks in the code band, the two reference columns included.
  public static let codeColumns = 20
  /// Data blocks per row (``codeColumns`` minus the two reference columns).
  public static let dataColumns = codeColumns - 2
  /// Bits of capture time (whole microseconds) the board carries.
  public static let timeBits = 48
  /// The smallest image the board is drawn into and decoded from, in pixels.
  public static let minimumWidth = 160
  /// The smallest image height the board is drawn into and decoded from, in pixels.
  public static let minimumHeight = 120
  /// Luma of a white block (a 1 bit, a reference white).
  public static let whiteLevel: UInt8 = 235
  /// Luma of a black block (a 0 bit, a reference black).
  public static let blackLevel: UInt8 = 16
  /// Luma of the bar track.
  public static let trackLevel: UInt8 = 40
  /// Luma of the bar.
  public static let barLevel: UInt8 = 225

  /// Image width in pixels.
  public let width: Int
  /// Image height in pixels.
  public let height: Int
  /// The bar track (all ``barPeriod`` slots).
  public let barTrack: LightBoardRect
  /// The code band (all ``codeRows`` × ``codeColumns`` blocks).
  public let codeBand: LightBoardRect

  /// The layout for an image of `width × height` pixels.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
    let left = width / 16
    let right = width - width / 16
    barTrack = LightBoardRect(
      x: left, y: height / 16, width: right - left, height: 3 * height / 16 - height / 16)
    codeBand = LightBoardRect(
      x: left, y: 9 * height / 16, width: right - left, height: 15 * height / 16 - 9 * height / 16)
  }

  /// Whether the image is large enough to hold a readable board.
  public var isUsable: Bool { width >= Self.minimumWidth && height >= Self.minimumHeight }

  /// The slot the bar fills at `step` (`0 ..< barPeriod`).
  public func barSlot(_ step: Int) -> LightBoardRect {
    let x0 = barTrack.x + step * barTrack.width / Self.barPeriod
    let x1 = barTrack.x + (step + 1) * barTrack.width / Self.barPeriod
    return LightBoardRect(x: x0, y: barTrack.y, width: x1 - x0, height: barTrack.height)
  }

  /// The block at `row` (`0 ..< codeRows`) and `column` (`0 ..< codeColumns`; 0 and
  /// `codeColumns - 1` are the reference columns).
  public func codeBlock(row: Int, column: Int) -> LightBoardRect {
    let x0 = codeBand.x + column * codeBand.width / Self.codeColumns
    let x1 = codeBand.x + (column + 1) * codeBand.width / Self.codeColumns
    let y0 = codeBand.y + row * codeBand.height / Self.codeRows
    let y1 = codeBand.y + (row + 1) * codeBand.height / Self.codeRows
    return LightBoardRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// Whether the reference block at `row` in the left column is white (the right one is the opposite).
  public static func leftReferenceIsWhite(row: Int) -> Bool { row % 2 == 0 }
}
