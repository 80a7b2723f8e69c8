#if canImport(Glibc)
  import Glibc
#endif

/// This process's environment, read without Foundation.
enum LibcEnvironment {
  /// The value of `name`, or nil when unset or empty. The corresponding call is `getenv`.
  static func value(_ name: String) -> String? {
    guard let raw = getenv(name), raw.pointee != 0 else { return nil }
    return String(cString: raw)
  }
}
