/// Four-character pixel-format codes (`v4l2_fourcc('Y','U','Y','V')`), which Swift cannot
/// import as macros.
public enum FourCC {
  /// The code of `text` (four ASCII characters, padded with spaces).
  public static func code(_ text: String) -> UInt32 {
    var bytes = Array(text.utf8.prefix(4))
    while bytes.count < 4 { bytes.append(0x20) }
    return UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
  }

  /// The text of `code`, e.g. `YUYV` (big-endian variants end in `-BE`).
  public static func text(_ code: UInt32) -> String {
    let bytes = (0..<4).map { UInt8((code >> (8 * UInt32($0))) & 0x7F) }
    let text = String(decoding: bytes.map { $0 < 0x20 ? 0x3F : $0 }, as: UTF8.self)
    return code & 0x8000_0000 != 0 ? text + "-BE" : text
  }
}
