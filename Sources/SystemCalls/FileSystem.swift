#if canImport(Glibc)
  import Glibc
#endif

/// Whole files and folders through POSIX calls, for code that must not link Foundation (camera-app
/// and everything it links): read a file to its end, list a folder, create folders, replace a
/// file atomically. Errors are the ``Errno`` of the call that failed.
public enum FileSystem {
  /// The whole content of the file at `path`, read to its end with `read(2)` (so a `/proc` file,
  /// whose size reads as 0, comes whole). The corresponding calls are `open(2)`, `read(2)` and
  /// `close(2)`.
  /// - Throws: the ``Errno`` of the call that failed (`ENOENT`, `EACCES`, `EISDIR`), or `EFBIG`
  ///   when the file holds more than `maxBytes` bytes.
  public static func contents(atPath path: String, maxBytes: Int = 64 << 20) throws(Errno) -> [UInt8] {
    let fd = try SystemCall.retrying { open(path, O_RDONLY | O_CLOEXEC) }
    defer { FileDescriptorIO.close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let read = chunk.withUnsafeMutableBytes { buffer in
        Result { () throws(Errno) in try FileDescriptorIO.read(fd, into: buffer) }
      }
      let count = try read.get()
      if count == 0 { return bytes }
      guard bytes.count + count <= maxBytes else { throw Errno(rawValue: EFBIG) }
      bytes.append(contentsOf: chunk[..<count])
    }
  }

  /// The whole content of the file at `path`, or nil when ``contents(atPath:maxBytes:)`` throws.
  public static func readFile(atPath path: String, maxBytes: Int = 64 << 20) -> [UInt8]? {
    try? contents(atPath: path, maxBytes: maxBytes)
  }

  /// The file at `path` as UTF-8 text (invalid bytes replaced), or nil as for
  /// ``readFile(atPath:maxBytes:)``.
  public static func readText(atPath path: String, maxBytes: Int = 64 << 20) -> String? {
    readFile(atPath: path, maxBytes: maxBytes).map { String(decoding: $0, as: UTF8.self) }
  }

  /// `path` with every symbolic link, `.` and `..` resolved, or nil when it does not exist or
  /// cannot be resolved. The corresponding call is `realpath(3)`.
  public static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The names in the folder at `path` (without `.` and `..`), in no particular order.
  /// The corresponding calls are `opendir(3)`, `readdir(3)` and `closedir(3)`.
  /// - Throws: the ``Errno`` of `opendir` (`ENOENT`, `ENOTDIR`, `EACCES`).
  public static func contentsOfDirectory(atPath path: String) throws(Errno) -> [String] {
    guard let dir = opendir(path) else { throw Errno.current }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// Creates the folder at `path` with `mode` (less the umask), and any missing parent folders;
  /// a folder that already exists is fine. The corresponding call is `mkdir(2)`.
  /// - Throws: the ``Errno`` of the `mkdir` that failed (`EACCES`, `ENOTDIR`, `EEXIST` when a file
  ///   is in the way).
  public static func createDirectory(atPath path: String, mode: mode_t = 0o755) throws(Errno) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix += component
      do {
        _ = try SystemCall.retrying { mkdir(prefix, mode) }
      } catch  where error == .fileExists {
        guard isDirectory(prefix) else { throw error }
      }
      prefix += "/"
    }
  }

  /// Whether `path` names a folder (following symbolic links). The corresponding call is `stat(2)`.
  public static func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
  }

  /// Creates (or truncates) the file at `path` for writing with `mode` (less the umask) and returns
  /// its descriptor (close-on-exec). The corresponding call is `open(2)` with
  /// `O_WRONLY | O_CREAT | O_TRUNC`.
  /// - Throws: the ``Errno`` of `open` (`ENOENT` for a missing folder, `EACCES`).
  public static func createFile(atPath path: String, mode: mode_t = 0o644) throws(Errno) -> Int32 {
    try SystemCall.retrying { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode) }
  }

  /// Flushes `fd`'s written data to the device. The corresponding call is `fsync(2)`.
  /// - Throws: the ``Errno`` of `fsync` (`EIO`, `ENOSPC`).
  public static func synchronize(_ fd: Int32) throws(Errno) {
    _ = try SystemCall.retrying { fsync(fd) }
  }

  /// Replaces the file at `path` with `bytes` atomically and durably — the one atomic replace of
  /// the project: writes a new temporary file (`.<name>.tmp-<pid>-<random>`, created with
  /// `O_EXCL`) in the same folder with `mode` (less the umask), flushes it (`fsync`), renames it
  /// over `path`, then flushes the folder so that the rename survives a crash. A reader sees the
  /// old content or the new, never part of it. The corresponding calls are `open(2)`, `write(2)`,
  /// `fsync(2)` and `rename(2)`.
  /// - Throws: the ``Errno`` of the call that failed (`ENOENT` for a missing folder, `ENOSPC`,
  ///   `EACCES`); the temporary file is removed. A folder that cannot be opened or flushed (some
  ///   file systems) is not an error: the file is in place, its rename possibly not yet on disk.
  public static func replaceAtomically(
    _ bytes: UnsafeRawBufferPointer, atPath path: String, mode: mode_t = 0o644
  )
    throws(Errno)
  {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let temporary =
      (folder == "/" ? "" : folder) + "/.\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd = try SystemCall.retrying { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) }
    do {
      defer { FileDescriptorIO.close(fd) }
      try FileDescriptorIO.writeAll(fd, bytes)
      try synchronize(fd)
      _ = try SystemCall.retrying { rename(temporary, path) }
    } catch {
      unlink(temporary)
      throw error
    }
    if let dir = try? SystemCall.retrying({ open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }) {
      _ = try? synchronize(dir)
      FileDescriptorIO.close(dir)
    }
  }

  /// Replaces the file at `path` with `bytes`; see
  /// ``replaceAtomically(_:atPath:mode:)-(UnsafeRawBufferPointer,_,_)``.
  public static func replaceAtomically(_ bytes: [UInt8], atPath path: String, mode: mode_t = 0o644)
    throws(Errno)
  {
    let failure = bytes.withUnsafeBytes { raw -> Errno? in
      do throws(Errno) {
        try replaceAtomically(raw, atPath: path, mode: mode)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  /// Replaces the file at `path` with the UTF-8 bytes of `text`; see
  /// ``replaceAtomically(_:atPath:mode:)-(UnsafeRawBufferPointer,_,_)``.
  public static func replaceAtomically(_ text: String, atPath path: String, mode: mode_t = 0o644)
    throws(Errno)
  {
    try replaceAtomically(Array(text.utf8), atPath: path, mode: mode)
  }

  /// Points the symbolic link at `link` to `target`, replacing whatever `link` was, atomically:
  /// a new link beside it, renamed over it. The corresponding calls are `symlink(2)` and
  /// `rename(2)`.
  /// - Throws: the ``Errno`` of the call that failed; the temporary link is removed.
  public static func replaceSymbolicLink(atPath link: String, pointingTo target: String) throws(Errno) {
    let temporary = link + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    _ = try SystemCall.retrying { symlink(target, temporary) }
    do {
      _ = try SystemCall.retrying { rename(temporary, link) }
    } catch {
      unlink(temporary)
      throw error
    }
  }
}
