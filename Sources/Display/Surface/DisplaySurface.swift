import Synchronization
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// The runner's side of a display surface: a POSIX shared-memory object (`shm_open`, mode 0600)
/// that the app under test presents preview frames into and the compositor scans out.
///
/// The layout is documented on `SurfaceLayout`. The owner unlinks the name on `close()` and on
/// deinit; `removeStale()` removes surfaces left behind by crashed runners.
public final class DisplaySurface: @unchecked Sendable {
  // @unchecked: the mapping lives in `mapping` (a Mutex); every access to shared memory holds it,
  // so `close()` cannot unmap under a reader. Everything else is immutable.

  /// The shared-memory name, for example `/firstframe-1234-9f8e7d6c` (pass it as `FIRSTFRAME_DISPLAY`).
  public let name: String
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// Number of frame slots.
  public let slots: Int
  let geometry: SurfaceLayout.Geometry
  private let mapping: Mutex<Mapping?>

  // @unchecked: a raw pointer that only ever lives inside `mapping` (a Mutex).
  struct Mapping: @unchecked Sendable {
    var base: UnsafeMutableRawPointer
    var size: Int
    var fd: Int32
    var unlinked: Bool
  }

  /// The prefix of every surface name, after the leading slash.
  public static let namePrefix = "firstframe-"

  private init(name: String, geometry: SurfaceLayout.Geometry, mapping: Mapping) {
    self.name = name
    self.width = geometry.width
    self.height = geometry.height
    self.slots = geometry.slots
    self.geometry = geometry
    self.mapping = Mutex(mapping)
  }

  /// Creates a surface of `width`×`height` 8-bit luma pixels with `slots` frame slots (2–16;
  /// 3 lets the app write one while the compositor reads another). The name is unique
  /// (`/firstframe-<pid>-<random>`), the object is created with `O_EXCL` and mode 0600.
  /// The corresponding calls are `shm_open`, `fchmod`, `ftruncate` and `mmap`.
  public static func create(width: Int, height: Int, slots: Int = 3) throws(DisplayError) -> DisplaySurface {
    let dims = SurfaceLayout.minDimension...SurfaceLayout.maxDimension
    guard dims.contains(width), dims.contains(height) else {
      throw DisplayError(
        .invalidArgument,
        "a display surface is \(SurfaceLayout.minDimension)…\(SurfaceLayout.maxDimension) pixels on each side, not \(width)×\(height)"
      )
    }
    guard (1...SurfaceLayout.maxSlots).contains(slots) else {
      throw DisplayError(
        .invalidArgument, "a display surface has 1…\(SurfaceLayout.maxSlots) slots, not \(slots)")
    }
    let g = SurfaceLayout.Geometry(
      width: width, height: height, bytesPerRow: SurfaceLayout.bytesPerRow(width: width), slots: slots)
    var fd: Int32 = -1
    var name = ""
    for attempt in 1...8 {
      name = "/\(namePrefix)\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
      do {
        fd = try Syscalls.check("shm_open", "could not create the display surface \(name)") {
          () throws(Errno) in try Syscalls.shmOpen(name, flags: O_CREAT | O_EXCL | O_RDWR, mode: 0o600)
        }
        break
      } catch  where error.errno == .fileExists && attempt < 8 {
        continue
      }
    }
    do {
      _ = try Syscalls.check("fchmod", "could not make the display surface \(name) private") {
        () throws(Errno) in try Syscalls.chmod(fd, 0o600)
      }
      _ = try Syscalls.check(
        "ftruncate", "could not size the display surface \(name) to \(g.totalBytes) bytes"
      ) {
        () throws(Errno) in try Syscalls.truncate(fd, g.totalBytes)
      }
    } catch {
      Syscalls.closeDescriptor(fd)
      Syscalls.shmUnlink(name)
      throw error
    }
    let base: UnsafeMutableRawPointer
    do {
      base = try Syscalls.map(fd, g.totalBytes)
    } catch {
      Syscalls.closeDescriptor(fd)
      Syscalls.shmUnlink(name)
      throw DisplayError(
        .systemCallFailed, "could not map the display surface \(name)", systemCall: "mmap", errno: error)
    }
    SurfaceMemory(base: base).writeHeader(g)
    return DisplaySurface(
      name: name, geometry: g, mapping: Mapping(base: base, size: g.totalBytes, fd: fd, unlinked: false))
  }

  /// Unmaps the surface and unlinks its name. Safe to call more than once.
  /// The corresponding calls are `munmap`, `close` and `shm_unlink`.
  public func close() {
    mapping.withLock { m in
      guard let current = m else { return }
      Syscalls.unmap(current.base, current.size)
      Syscalls.closeDescriptor(current.fd)
      if !current.unlinked { Syscalls.shmUnlink(name) }
      m = nil
    }
  }

  /// Removes the name now but keeps the mapping (for a private surface nobody else opens).
  func unlinkName() {
    mapping.withLock { m in
      guard m != nil, m!.unlinked == false else { return }
      Syscalls.shmUnlink(name)
      m!.unlinked = true
    }
  }

  deinit { close() }

  /// Runs `body` on the mapped memory while holding the mapping lock, or returns nil when closed.
  func withMemory<R>(_ body: (SurfaceMemory) -> R) -> R? {
    mapping.withLock { m -> R? in
      guard let current = m else { return nil }
      return body(SurfaceMemory(base: current.base))
    }
  }

  /// Removes surfaces in `directory` (where glibc keeps POSIX shared memory) whose owning process
  /// (the pid in `/firstframe-<pid>-<random>`) no longer exists: the crash-safe cleanup path for
  /// the runner. Returns the names removed. The corresponding call is `shm_unlink`.
  @discardableResult
  public static func removeStale(directory: String = "/dev/shm") -> [String] {
    guard let entries = try? FileSystem.contentsOfDirectory(atPath: directory) else { return [] }
    var removed: [String] = []
    for entry in entries where entry.hasPrefix(namePrefix) {
      let rest = entry.dropFirst(namePrefix.count)
      guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]) else { continue }
      if pid == getpid() || Syscalls.processExists(pid) { continue }
      if Syscalls.shmUnlink("/" + entry) == 0 { removed.append("/" + entry) }
    }
    return removed
  }
}
