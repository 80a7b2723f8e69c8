import CaptureKit
import Glibc
import SystemCalls
import TestThreads
import Testing
import TestSupport

@testable import Display

@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct DisplaySurfaceTests {
  /// One latch of `surface` into `out`, as the compositor does it; nil once the surface is closed.
  func latchOnce(_ latch: inout SurfaceLatch, _ surface: DisplaySurface, into out: inout [UInt8])
    -> SurfaceLatch.Outcome?
  {
    out.withUnsafeMutableBufferPointer { b in surface.withMemory { latch.latch($0, into: b.baseAddress!) } }
  }

  @Test("a surface is created with mode 0600 and removed on close")
  func createdPrivateAndRemoved() throws {
    let surface = try DisplaySurface.create(width: 64, height: 48)
    let path = "/dev/shm" + surface.name
    var st = stat()
    #expect(stat(path, &st) == 0)
    #expect(st.st_mode & 0o777 == 0o600)
    surface.close()
    #expect(stat(path, &st) == -1 && errno == ENOENT)
    surface.close()
  }

  @Test("opening a surface that does not exist says so, with shm_open's errno as a value")
  func missingSurface() {
    #expect {
      _ = try SharedMemoryDisplay.open(name: "/firstframe-does-not-exist-\(getpid())")
    } throws: { error in
      let e = error as? DisplayError
      return e?.code == .surfaceNotFound && e?.errno == .noSuchFile && e?.systemCall == "shm_open"
    }
  }

  @Test("an object that is not a surface, or of the wrong size, is refused with a clear error")
  func wrongObjects() throws {
    let name = "/firstframe-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd = shm_open(name, O_CREAT | O_RDWR, 0o600)
    #expect(fd >= 0)
    defer {
      close(fd)
      shm_unlink(name)
    }
    #expect(ftruncate(fd, 100) == 0)
    #expect { _ = try SharedMemoryDisplay.open(name: name) } throws: {
      ($0 as? DisplayError)?.code == .notASurface
    }
    #expect(ftruncate(fd, 8192) == 0)
    #expect { _ = try SharedMemoryDisplay.open(name: name) } throws: {
      ($0 as? DisplayError)?.code == .notASurface
    }

    let surface = try DisplaySurface.create(width: 64, height: 48)
    defer { surface.close() }
    let fd2 = shm_open(surface.name, O_RDWR, 0)
    #expect(ftruncate(fd2, off_t(surface.geometry.totalBytes + 4096)) == 0)
    close(fd2)
    #expect {
      _ = try SharedMemoryDisplay.open(name: surface.name)
    } throws: { error in
      let e = error as? DisplayError
      return e?.code == .sizeMismatch && e!.message.contains("bytes")
    }
  }

  @Test("a header that stays half-written is reported as torn")
  func tornHeader() throws {
    let surface = try DisplaySurface.create(width: 64, height: 48)
    defer { surface.close() }
    surface.withMemory { $0.atomic64(SurfaceLayout.offHeaderSequence).pointee.store(3, ordering: .releasing) }
    #expect { _ = try SharedMemoryDisplay.open(name: surface.name) } throws: {
      ($0 as? DisplayError)?.code == .tornHeader
    }
  }

  @Test("a presented frame is scaled to the surface and latched whole")
  func presentAndLatch() throws {
    let surface = try DisplaySurface.create(width: 32, height: 16)
    defer { surface.close() }
    let display = try SharedMemoryDisplay.open(name: surface.name)
    defer { display.close() }
    // 64×32 source: left half 200, right half 40 → area average keeps the halves.
    var px = [UInt8](repeating: 40, count: 64 * 32)
    for y in 0..<32 { for x in 0..<32 { px[y * 64 + x] = 200 } }
    display.present(VideoFrame(width: 64, height: 32, pixels: px, sequence: 7, captureTime: 123))
    var latch = SurfaceLatch(geometry: surface.geometry)
    var out = [UInt8](repeating: 1, count: 32 * 16)
    let outcome = latchOnce(&latch, surface, into: &out)
    guard case .latched(let info)? = outcome else {
      Issue.record("expected a latch, got \(String(describing: outcome))")
      return
    }
    #expect(info.frameSequence == 7 && info.captureTime == 123 && !info.isBlack)
    #expect(out[0] == 200 && out[15] == 200 && out[16] == 40 && out[31] == 40 && out[15 * 32 + 31] == 40)
    let again = latchOnce(&latch, surface, into: &out)
    #expect(again == .unchanged)
    display.presentBlack()
    let black = latchOnce(&latch, surface, into: &out)
    if case .latched(let i)? = black { #expect(i.isBlack) } else { Issue.record("expected black") }
    #expect(out.allSatisfy { $0 == 0 })
    // A smaller frame is scaled up (nearest neighbour).
    display.present(
      VideoFrame(
        width: 16, height: 8, pixels: [UInt8](repeating: 77, count: 128), sequence: 8, captureTime: 0))
    _ = latchOnce(&latch, surface, into: &out)
    #expect(out.allSatisfy { $0 == 77 })
  }

  @Test("garbage written into the header and pixels never crashes or hangs the reader")
  func fuzzedSurface() throws {
    let surface = try DisplaySurface.create(width: 64, height: 48)
    defer { surface.close() }
    let display = try SharedMemoryDisplay.open(name: surface.name)
    defer { display.close() }
    var rng = SeededRandom("DisplaySurfaceTests.fuzzedSurface")
    var latch = SurfaceLatch(geometry: surface.geometry)
    var out = [UInt8](repeating: 0, count: 64 * 48)
    var outcomes: [String: Int] = [:]
    for round in 0..<3000 {
      if round % 3 == 0 {
        display.present(
          VideoFrame(
            width: 64, height: 48, pixels: [UInt8](repeating: UInt8(round % 256), count: 64 * 48),
            sequence: UInt64(round), captureTime: 0))
      }
      display.withRawMemory { raw in
        let writes = Int.random(in: 1...16, using: &rng)
        for _ in 0..<writes {
          let at =
            round % 2 == 0 ? Int.random(in: 0..<128, using: &rng) : Int.random(in: 0..<raw.count, using: &rng)
          raw[at] = UInt8.random(in: 0...255, using: &rng)
        }
      }
      let outcome = latchOnce(&latch, surface, into: &out)
      outcomes["\(outcome.map { "\($0)".prefix(8) } ?? "closed")", default: 0] += 1
    }
    #expect(outcomes["corrupt", default: 0] > 0)
    // A fresh surface opened on garbage is refused, not crashed on.
    display.withRawMemory { raw in for i in 0..<64 { raw[i] = UInt8.random(in: 0...255, using: &rng) } }
    #expect(throws: DisplayError.self) { _ = try SharedMemoryDisplay.open(name: surface.name) }
  }

  @Test("the compositor keeps scanning out, refusing the garbage, while an app scribbles over its surface")
  func compositorSurvivesGarbage() throws {
    let surface = try DisplaySurface.create(width: 64, height: 48)
    defer { surface.close() }
    let display = try SharedMemoryDisplay.open(name: surface.name)
    defer { display.close() }
    let compositor = try Compositor(surface: surface, refreshHz: 200) { _ in }
    compositor.start()
    defer { compositor.stop() }
    var rng = SeededRandom("DisplaySurfaceTests.compositorSurvivesGarbage")
    for round in 0..<400 {
      display.withRawMemory { raw in
        for _ in 0..<8 {
          raw[Int.random(in: 0..<raw.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
        }
        if round % 50 == 0 { for i in 0..<4096 { raw[i] = UInt8.random(in: 0...255, using: &rng) } }
      }
      usleep(250)  // not a timing assertion: paces the writes so the compositor scans between them
    }
    // The header is garbage from the first round on (magic, sizes): every latch since is refused,
    // and the compositor goes on scanning out (the previous image) at its refresh rate.
    #expect(blockUntil(timeout: .seconds(30)) { compositor.corruptReads > 0 })
    let scanned = compositor.scanoutCount
    #expect(blockUntil(timeout: .seconds(30)) { compositor.scanoutCount >= scanned + 3 })
  }

  @Test("the compositor shows black until a frame is presented, then the frame")
  func compositorScansOut() throws {
    let surface = try DisplaySurface.create(width: 32, height: 16)
    defer { surface.close() }
    let display = try SharedMemoryDisplay.open(name: surface.name)
    defer { display.close() }
    let seen = Collector<(UInt64, UInt8, UInt64?)>()
    let compositor = try Compositor(surface: surface, refreshHz: 100) { s in
      seen.append((s.time, s.pixels[0], s.presented?.presentTime))
    }
    compositor.start()
    #expect(seen.blockUntilCount(2, timeout: .seconds(30)))  // black scanouts before any present
    let present = display.publish(
      VideoFrame(
        width: 32, height: 16, pixels: [UInt8](repeating: 90, count: 512), sequence: 1, captureTime: 0))!
    #expect(blockUntil(timeout: .seconds(30)) { seen.values.contains { $0.1 == 90 } })
    compositor.stop()
    let scans = seen.values
    #expect(scans.contains { $0.0 < present && $0.1 == 0 })
    for (t, v, p) in scans {
      if t < present { #expect(v == 0 && p == nil) }
      if let p { #expect(p <= t && v == 90) }
    }
    #expect(scans.contains { $0.1 == 90 })
    #expect(zip(scans, scans.dropFirst()).allSatisfy { $0.0 < $1.0 })
  }

  @Test("removeStale removes surfaces whose process is gone and keeps live ones")
  func removeStale() throws {
    let live = try DisplaySurface.create(width: 16, height: 16)
    defer { live.close() }
    let deadName = "/firstframe-999999999-abc"
    let fd = shm_open(deadName, O_CREAT | O_RDWR, 0o600)
    #expect(fd >= 0)
    close(fd)
    let removed = DisplaySurface.removeStale()
    #expect(removed.contains(deadName))
    #expect(!removed.contains(live.name))
    #expect(shm_open(deadName, O_RDWR, 0) == -1)
  }

  @Test("a private display works without a name left behind")
  func privateDisplay() throws {
    let display = try SharedMemoryDisplay.createPrivate(width: 32, height: 32)
    var st = stat()
    #expect(stat("/dev/shm" + display.name, &st) == -1)
    display.present(
      VideoFrame(width: 8, height: 8, pixels: [UInt8](repeating: 5, count: 64), sequence: 0, captureTime: 0))
    display.close()
    let late = display.publish(
      VideoFrame(width: 8, height: 8, pixels: [UInt8](repeating: 5, count: 64), sequence: 0, captureTime: 0))
    #expect(late == nil, "a present after close must do nothing")
  }

  @Test("a sealed surface cannot be shrunk or grown, through its descriptor or reopened through /proc")
  func sealedSurface() throws {
    let surface = try DisplaySurface.createSealed(width: 64, height: 48)
    defer { surface.close() }
    let fd = try #require(surface.descriptor)
    #expect(SealedMemoryFile.sizeIsSealed(fd))
    #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0, "a child must get it only through dup2")
    #expect(ftruncate(fd, 0) == -1 && errno == EPERM)
    #expect(ftruncate(fd, off_t(surface.geometry.totalBytes + 4096)) == -1 && errno == EPERM)
    // What an app can do with the descriptor it inherits: open it again by path, with write access.
    let reopened = open("/proc/self/fd/\(fd)", O_RDWR | O_CLOEXEC)
    #expect(reopened >= 0)
    defer { close(reopened) }
    #expect(ftruncate(reopened, 0) == -1 && errno == EPERM)
    var st = stat()
    #expect(fstat(fd, &st) == 0 && Int(st.st_size) == surface.geometry.totalBytes)
  }

  @Test("a display opened from a sealed surface's descriptor presents into it and leaves the descriptor open")
  func displayFromDescriptor() throws {
    let surface = try DisplaySurface.createSealed(width: 32, height: 16)
    defer { surface.close() }
    let fd = try #require(surface.descriptor)
    let display = try SharedMemoryDisplay.open(descriptor: fd)
    #expect(display.name == "fd:\(fd)" && display.width == 32 && display.height == 16)
    display.present(
      VideoFrame(
        width: 32, height: 16, pixels: [UInt8](repeating: 61, count: 512), sequence: 3, captureTime: 9))
    display.close()
    var latch = SurfaceLatch(geometry: surface.geometry)
    var out = [UInt8](repeating: 0, count: 32 * 16)
    let outcome = latchOnce(&latch, surface, into: &out)
    guard case .latched(let info)? = outcome else {
      Issue.record("expected a latch, got \(String(describing: outcome))")
      return
    }
    #expect(info.frameSequence == 3 && out.allSatisfy { $0 == 61 })
    #expect(fcntl(fd, F_GETFD) != -1, "closing the display closed the surface's descriptor")
    // A descriptor that is not open is an error with fstat's errno, not a crash.
    #expect {
      _ = try SharedMemoryDisplay.open(descriptor: 987)
    } throws: { error in
      let e = error as? DisplayError
      return e?.systemCall == "fstat" && e?.errno == .badFileDescriptor
    }
  }
}
