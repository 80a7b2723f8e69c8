/// Inputs that crash code another change of issue 10 is rewriting (each named with its owner):
/// the target skips them so that the fuzzer and the corpus replay test the rest, and the crash
/// inputs stay in the corpus. Remove an entry when its fix lands; the replay then checks the fix.
enum KnownHoles {
  /// A PGM whose header ends before its third number: `PhotoLibrary.decodeThumbnail` indexes
  /// its three header fields unchecked (issue 10, "a truncated photo header in camera-app's
  /// photo library" — the `holes` change). Conservatively: "P5" and then only digits and
  /// whitespace.
  static func pgmHeaderCutShort(_ file: [UInt8]) -> Bool {
    guard file.count >= 2, file[0] == UInt8(ascii: "P"), file[1] == UInt8(ascii: "5") else { return false }
    return file.dropFirst(2).allSatisfy {
      ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09
    }
  }
}
