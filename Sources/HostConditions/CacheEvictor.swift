#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import SystemCalls

/// Makes a launch cold: evicts the app's executable and the libraries it mapped from the page
/// cache with `posix_fadvise(POSIX_FADV_DONTNEED)`, and drops all clean caches through
/// `/proc/sys/vm/drop_caches` when permitted (root). Which of the two happened is reported in
/// the results (`host.cacheEviction`).
package struct CacheEvictor: Sendable {
  /// Files to evict: the executable and every file-backed mapping of the app.
  package var files: Set<String>

  /// Creates an evictor for `files`.
  package init(files: Set<String>) { self.files = files }

  /// Whether this process may write `/proc/sys/vm/drop_caches`.
  package static var canDropCaches: Bool { access("/proc/sys/vm/drop_caches", W_OK) == 0 }

  /// `fadvise` or `fadvise+drop_caches`.
  package static var method: String { canDropCaches ? "fadvise+drop_caches" : "fadvise" }

  /// The file-backed mappings of a live process (`/proc/PID/maps`), for learning what to evict.
  package static func mappedFiles(pid: pid_t) -> Set<String> {
    // Read to the end: Foundation's String(contentsOfFile:) stops at 4 KiB for a /proc file.
    guard let bytes = FileSystem.readFile(atPath: "/proc/\(pid)/maps") else { return [] }
    let text = String(decoding: bytes, as: UTF8.self)
    var files = Set<String>()
    for line in text.split(separator: "\n") {
      // address perms offset dev inode path
      let parts = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
      guard parts.count == 6 else { continue }
      let path = parts[5].trimmingCharacters(in: .whitespaces)
      if path.hasPrefix("/") && !path.hasPrefix("/dev/") && !path.hasSuffix("(deleted)") {
        files.insert(path)
      }
    }
    return files
  }

  /// What one eviction did, recorded per cold run (`counts.evicted_files`, `counts.drop_caches`).
  package struct Outcome: Sendable, Hashable {
    /// Files whose pages `posix_fadvise(POSIX_FADV_DONTNEED)` was applied to (opened and advised).
    package var filesEvicted: Int
    /// The sizes of those files (`st_size`), bytes.
    package var bytesEvicted: Int64 = 0
    /// Whether `1` was written to `/proc/sys/vm/drop_caches`.
    package var droppedCaches: Bool
    /// `fadvise` or `fadvise+drop_caches`.
    package var method: String { droppedCaches ? "fadvise+drop_caches" : "fadvise" }
  }

  /// Evicts. Returns what was done.
  ///
  /// The paths come from the app's memory map, which the app controls: each is opened without
  /// following a symbolic link and without blocking (`O_NOFOLLOW | O_NONBLOCK`, so a FIFO put in a
  /// library's place cannot hang the runner), and only a regular file is advised.
  @discardableResult
  package func evict() -> Outcome {
    var evicted = 0
    var bytes: Int64 = 0
    for path in files {
      guard let fd = try? SystemCall.retrying({ open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) })
      else { continue }
      var status = stat()
      if fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
        if posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED)) == 0 {
          evicted += 1
          bytes += Int64(status.st_size)
        }
      }
      FileDescriptorIO.close(fd)
    }
    guard Self.canDropCaches else {
      return Outcome(filesEvicted: evicted, bytesEvicted: bytes, droppedCaches: false)
    }
    sync()
    guard let fd = try? SystemCall.retrying({ open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC) }) else {
      return Outcome(filesEvicted: evicted, bytesEvicted: bytes, droppedCaches: false)
    }
    defer { FileDescriptorIO.close(fd) }
    let dropped = (try? FileDescriptorIO.writeAll(fd, "1\n")) != nil
    return Outcome(filesEvicted: evicted, bytesEvicted: bytes, droppedCaches: dropped)
  }
}
