/// The one content hash of results files: `fnv1a64:` and the 16 hex digits of the 64-bit FNV-1a
/// hash of some canonical bytes. `settings.profileHash` is one (over the cost profile's JSON),
/// and the history database keys each benchmark by one (over the results' JSON).
public enum ContentHash {
  /// `fnv1a64:` and 16 lowercase hex digits of FNV-1a over `bytes`.
  public static func fnv1a64(_ bytes: some Sequence<UInt8>) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      h ^= UInt64(byte)
      h = h &* 0x0000_0100_0000_01b3
    }
    let hex = String(h, radix: 16)
    return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
  }
}
