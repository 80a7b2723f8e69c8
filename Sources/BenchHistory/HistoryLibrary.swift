/// Loading a database library at run time: the one Swift side of the C shims' loader
/// (CLibraryLoader), for libsqlite3 (``SQLiteLibrary``) and libpq (``PQLibrary``).
enum HistoryLibrary {
  /// Calls `load` (a shim's `…_load(path, message, size)`) for `path`.
  /// - Throws: `HistoryError` (`libraryMissing`): "cannot load PATH for WHAT (Debian package
  ///   PACKAGE)", with dlopen's text as the cause.
  static func load(
    _ path: String, for what: String, package: String,
    _ load: (UnsafePointer<CChar>, UnsafeMutablePointer<CChar>?, Int) -> Int32
  ) throws(HistoryError) {
    var message = [CChar](repeating: 0, count: 512)
    let status = message.withUnsafeMutableBufferPointer { buffer in
      load(path, buffer.baseAddress, buffer.count)
    }
    guard status == 0 else {
      let cause = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw HistoryError(
        .libraryMissing, "cannot load \(path) for \(what) (Debian package \(package))", cause: cause)
    }
  }
}
