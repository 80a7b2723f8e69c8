import CV4L2Shims

/// libv4l2, loaded at run time when the first V4L2 device is opened (`dlopen`), so that a
/// process that never opens a V4L2 camera — camera-app with the synthetic camera — maps no video
/// library, and building needs no `libv4l-dev`.
public enum LibV4L2 {
  /// The library's file name (its soname).
  public static let soname = "libv4l2.so.0"
  /// The Debian/Ubuntu package that installs it.
  public static let package = "libv4l-0"

  /// Loads the library (once; a failed load is tried again on the next call). Returns nil when
  /// it is loaded, or why it cannot be (the loader's message). The corresponding calls are
  /// `dlopen(soname, RTLD_NOW | RTLD_LOCAL)` and `dlsym` for `v4l2_open`, `v4l2_close`,
  /// `v4l2_ioctl`, `v4l2_mmap` and `v4l2_munmap`.
  public static func load(soname: String = soname) -> String? {
    var why = [CChar](repeating: 0, count: 512)
    guard CV4L2Shims_load(soname, &why, why.count) != 0 else { return nil }
    return String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Whether the library can be loaded (loading it if it was not yet).
  public static var isAvailable: Bool { load() == nil }
}
