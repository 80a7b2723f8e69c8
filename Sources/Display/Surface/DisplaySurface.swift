import Synchronization
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// The runner's side of a display surface: a POSIX shared-memory object (`shm_open`, mode 0600),
/// or a size-sealed anonymous memory file (`memfd_create`), that the app under test presents
/// preview frames into and the compositor scans out.
///
/// The layout is documented on `SurfaceLayout`. The owner unlinks the name on `close()` and on
/// deinit; `removeStale()` removes surfaces left behind by crashed runners.
public final class DisplaySurface: @unchecked Sendable {
  // @unchecked: the mapping lives in `mapping` (a Mutex); every access to shared memory holds it,
  // so `close()` cannot unmap under a reader. Everything else is immutable.

  /// The shared-memory name, for example `/firstframe-1234-9f8e7d6c` (pass it as `FIRSTFRAME_DISPLAY`);
  /// `memfd:firstframe-surface` for a sealed surface, which has no name to open.
  public let name: String
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// Number of frame slots.
  public let slots: Int
  package let geometry: SurfaceLayout.Geometry
  private let mapping: PThreadMutex<Mapping?>

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
    self.mapping = PThreadMutex(mapping)
  }

  /// Creates a surface of `width`×`height` 8-bit luma pixels with `slots` frame slots (2–16;
  /// 3 lets the app write one while the compositor reads another). The name is unique
  /// (`/firstframe-<pid>-<random>`), the object is created with `O_EXCL` and mode 0600.
  /// The corresponding calls are `shm_open`, `fchmod`, `ftruncate` and `mmap`.
  ///
  /// Anyone who can open the name can also shrink the object, and the compositor's next read
  /// past the new end would kill this process with `SIGBUS`: give an app you do not trust a
  /// ``createSealed(width:height:slots:)`` surface instead.
  public static func create(width: Int, height: Int, slots: Int = 3) throws(DisplayError) -> DisplaySurface {
    let g = try geometry(width: width, height: height, slots: slots)
    var fd: Int32 = -1
    var name = ""
    for attempt in 1...8 {
      name =
        "/\(namePrefix)\(MachineClaim.currentToken)-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
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
    return try mapNew(fd: fd, name: name, geometry: g, unlinked: false)
  }

  /// Creates a surface in an anonymous memory file whose size is sealed (`F_SEAL_SHRINK |
  /// F_SEAL_GROW | F_SEAL_SEAL`): the surface to hand to an app under test as an inherited
  /// descriptor (``descriptor``, passed as `FIRSTFRAME_DISPLAY=fd:N`). The app can write every
  /// byte but cannot shrink or grow it, so nothing it does can make the compositor's reads fault.
  /// It has no name: nothing is left behind when every descriptor and mapping is gone.
  /// The corresponding calls are `memfd_create`, `ftruncate`, `fcntl(F_ADD_SEALS)` and `mmap`.
  public static func createSealed(width: Int, height: Int, slots: Int = 3) throws(DisplayError)
    -> DisplaySurface
  {
    let g = try geometry(width: width, height: height, slots: slots)
    let fd: Int32
    do {
      fd = try Syscalls.createSealedMemory(name: namePrefix + "surface", size: g.totalBytes)
    } catch {
      throw DisplayError(
        .systemCallFailed, "could not create a sealed display surface of \(g.totalBytes) bytes",
        systemCall: error.call, errno: error.errno)
    }
    return try mapNew(fd: fd, name: "memfd:\(namePrefix)surface", geometry: g, unlinked: true)
  }

  /// The geometry of a new surface, checked.
  private static func geometry(width: Int, height: Int, slots: Int) throws(DisplayError)
    -> SurfaceLayout.Geometry
  {
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
    return SurfaceLayout.Geometry(
      width: width, height: height, bytesPerRow: SurfaceLayout.bytesPerRow(width: width), slots: slots)
  }

  /// Maps a new, sized object and writes its header. On failure the descriptor is closed (and a
  /// name that is not `unlinked` removed).
  private static func mapNew(fd: Int32, name: String, geometry g: SurfaceLayout.Geometry, unlinked: Bool)
    throws(DisplayError) -> DisplaySurface
  {
    let base: UnsafeMutableRawPointer
    do {
      base = try Syscalls.map(fd, g.totalBytes)
    } catch {
      Syscalls.closeDescriptor(fd)
      if !unlinked { Syscalls.shmUnlink(name) }
      throw DisplayError(
        .systemCallFailed, "could not map the display surface \(name)", systemCall: "mmap", errno: error)
    }
    SurfaceMemory(base: base).writeHeader(g)
    return DisplaySurface(
      name: name, geometry: g, mapping: Mapping(base: base, size: g.totalBytes, fd: fd, unlinked: unlinked))
  }

  /// The surface's descriptor, for a child process to inherit (see
  /// ``createSealed(width:height:slots:)``); nil once closed. It is close-on-exec: a child gets
  /// it only through an explicit `dup2` (`posix_spawn_file_actions_adddup2`).
  public var descriptor: Int32? { mapping.withLock { $0?.fd } }

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

  deinit { close() }

  /// Runs `body` on the mapped memory while holding the mapping lock, or returns nil when closed.
  package func withMemory<R>(_ body: (SurfaceMemory) -> R) -> R? {
    mapping.withLock { m -> R? in
      guard let current = m else { return nil }
      return body(SurfaceMemory(base: current.base))
    }
  }

  /// Removes surfaces in `directory` (where glibc keeps POSIX shared memory) whose owner's claim
  /// (the token in `/firstframe-<token>-<random>`, `MachineClaim`, looked up in `claims`) is
  /// free: the crash-safe cleanup path for the runner, right in any pid namespace. Returns the
  /// names removed. The corresponding call is `shm_unlink`.
  @discardableResult
  public static func removeStale(
    directory: String = "/dev/shm", claims: [String] = MachineClaim.searchFolders
  ) -> [String] {
    guard let entries = try? FileSystem.contentsOfDirectory(atPath: directory) else { return [] }
    let named = entries.filter { $0.dropFirst(namePrefix.count).contains("-") }
    return MachineClaim.removeLeftovers(named, prefix: namePrefix, folders: claims) {
      Syscalls.shmUnlink("/" + $0) == 0
    }.map { "/" + $0 }
  }
}
