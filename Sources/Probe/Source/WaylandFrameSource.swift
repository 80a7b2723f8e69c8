import Dispatch
import LaunchContract
import LightBoard
import PhaseTrace
import Synchronization
import SystemCalls
import WaylandClient

#if canImport(Glibc)
  import Glibc
#endif

/// The Wayland path's frames: the probe's own client of a wlroots compositor, on a thread of its
/// own that sleeps in `poll` on the connection and copies the output (wlr-screencopy) whenever
/// it changed (`copy_with_damage`: the copy waits for an output commit with damage), and once
/// whenever the probe is armed (a copy without damage: what the output shows now).
///
/// **Stamped when it was on screen.** Each frame's time is the compositor's presentation time
/// of the output commit it was copied from (the `ready` event; `CLOCK_MONOTONIC` in wlroots),
/// not when the probe read it. The probe's own delay — the `ready` event read minus that time —
/// is kept per frame (`lag`, `DisplayMonitor.waylandProbeLag`, `ProbeReport.presentationLag`).
/// A change committed while the probe was busy (converting and analysing the previous copy) is
/// copied at the next commit and stamped with that commit's time: such a copy, requested more
/// than one refresh after the previous frame's commit, is `ProbeFrame.seenLate`, as on X11.
///
/// **The arm-time copy comes first**, as on X11: `armed()` waits (up to
/// `armReadTimeoutNanoseconds`) until the probe thread has a copy without damage in hand, so
/// the caller unlocks or spawns only after the probe has seen what the output showed.
///
/// **Refresh.** The frames' times are output commits, on the compositor's refresh grid: the
/// source reports the output's refresh interval (`wl_output`'s current mode) as its own, so
/// that the detector and calibration reason in the compositor's refreshes; it has no deadlines
/// of its own (`missedDeadlines` nil), since it copies only changed frames.
///
/// **Which window.** Screencopy reads the whole output and names no window; a
/// `WaylandWindowWatcher` (sway's IPC) reports each window mapped with its owner's pid, and the
/// first one owned by the app's process or one it started is the app's: `display.window_mapped`,
/// stamped when the watcher saw it. Without a watcher there is no `display.window_mapped`.
///
/// **Which pixels.** Once the watcher said where the app's window is, only its region of the
/// output is analysed, as X11 reads the window (`WaylandFrameSource+Region.swift`); until then
/// the whole output. Each change of the region is a `display.probe_region` event.
///
/// **Priority**: as on X11, the thread waits and copies under `SCHED_FIFO` where allowed, and
/// converts and analyses at normal priority except while the probe looks for the first live frame.
final class WaylandFrameSource: FrameSource {
  /// How long `armed()` waits for the arm-time copy at most (1 s).
  static let armReadTimeoutNanoseconds: UInt64 = 1_000_000_000
  /// Lags kept for `lag` since the last arm, at most (the oldest are dropped beyond it).
  static let lagCapacity = 65_536

  let connection: WaylandConnection
  /// The copies that wait for a change.
  private let changes: WaylandScreencopy
  /// The arm-time copies (without damage).
  private let whole: WaylandScreencopy
  /// The output's refresh interval, ns, when the compositor reported its current mode.
  let outputRefreshNanoseconds: UInt64?
  private let reduced: Bool
  private let watcher: (any WaylandWindowWatcher)?
  private let deliver: @Sendable (ProbeFrame) -> Void
  private let searching: @Sendable () -> Bool
  private let wantsRealtime: Bool
  private let state = PThreadMutex(State())
  private let wakeRead: Int32
  private let wakeWrite: Int32
  private let exited = DispatchSemaphore(value: 0)
  private let armReads = ArmReadGate()

  struct State {
    var started = false
    var stopRequested = false
    var realtime = false
    var thread: pthread_t?
    var expectedPID: Int32?
    var candidates: [WaylandWindow] = []
    var watched: WaylandWindow?
    /// The region of the output analysed as of the last frame, and the app's window then
    /// (empty before it is known); nil before the first frame.
    var analysed: (area: WaylandRegion, window: String)?
    var events: [PhaseEvent] = []
    var failure: String?
    var refusedReads: UInt64 = 0
    var threadCPUNanoseconds: UInt64 = 0
    var framesDelivered: UInt64 = 0
    var duplicateCopies: UInt64 = 0
    var lateCopies: UInt64 = 0
    var lags: [UInt64] = []
    var presentedAfterReceipt: UInt64 = 0
    var readScale = 1
  }

  /// The probe thread's own bookkeeping.
  private struct Progress {
    var armTicket: UInt64?
    var changeRequestedAt: UInt64?
    var lastPresented: UInt64?
    var luma: [UInt8] = []
  }

  /// Connects to the compositor at `socket` (an absolute path, or a name in `XDG_RUNTIME_DIR`),
  /// binds screencopy (version 2 or later, for damage) and reads the output's mode; frames go
  /// to `deliver`. `reduced`: an output of 640×360 or more is analysed at 1/2 (or less) size in
  /// each dimension, nearest pixel, as X11 reads a window.
  /// - Throws: `WaylandError`: no compositor there, or no `zwlr_screencopy_manager_v1`.
  init(
    socket: String, environment: [String: String] = [:], watcher: (any WaylandWindowWatcher)?,
    reduced: Bool = true, realtime: Bool, searching: @escaping @Sendable () -> Bool = { false },
    deliver: @escaping @Sendable (ProbeFrame) -> Void
  ) throws(WaylandError) {
    connection = try WaylandConnection(socket: socket, environment: environment)
    do {
      let registry = try WaylandRegistry(connection: connection)
      changes = try WaylandScreencopy(registry: registry, withDamage: true)
      whole = try WaylandScreencopy(registry: registry, withDamage: false)
      outputRefreshNanoseconds = try Self.outputRefresh(registry)
      let fds = try ProcessControl.pipe()
      (wakeRead, wakeWrite) = fds
    } catch let error as WaylandError {
      connection.close()
      throw error
    } catch {
      connection.close()
      throw WaylandError(.sharedMemory, "cannot create the probe's wake-up pipe: \(error)")
    }
    _ = fcntl(wakeRead, F_SETFL, O_NONBLOCK)
    self.reduced = reduced
    self.watcher = watcher
    self.deliver = deliver
    self.searching = searching
    self.wantsRealtime = realtime
  }

  var server: DisplayServerKind { .wayland }

  func watch(processID pid: Int32) {
    state.withLock { $0.expectedPID = pid }
    resolveWindow()
  }

  func start() throws(ProbeSourceError) {
    guard
      state.withLock({ s -> Bool in
        defer { s.started = true }
        return !s.started
      })
    else { return }
    if let watcher {
      try watcher.start { [weak self] window in
        guard let self else { return }
        self.state.withLock { s in
          // The app's window again: where it is now.
          if s.watched?.identifier == window.identifier {
            s.watched?.x = window.x
            s.watched?.y = window.y
            s.watched?.width = window.width
            s.watched?.height = window.height
          } else {
            s.candidates.append(window)
          }
        }
        self.resolveWindow()
      }
    }
    let started = DispatchSemaphore(value: 0)
    do {
      try SystemThread.start(name: "firstframe.wlprobe") { [self] in
        let granted = wantsRealtime && ProbeThreadPriority.enterRealtime(pthread_self())
        state.withLock {
          $0.realtime = granted
          $0.thread = pthread_self()
        }
        started.signal()
        run()
        state.withLock { $0.thread = nil }
        exited.signal()
      }
    } catch {
      watcher?.stop()
      state.withLock { $0.started = false }
      throw ProbeSourceError("cannot start the Wayland probe thread: \(error.message)")
    }
    started.wait()
  }

  /// Asks for an arm-time copy and waits until the probe thread has it in hand (at most
  /// `armReadTimeoutNanoseconds`). Restarts the lag account.
  func armed() {
    let ticket = armReads.request()
    let live = state.withLock { s -> Bool in
      s.lags.removeAll(keepingCapacity: true)
      if s.realtime, let thread = s.thread { ProbeThreadPriority.enterRealtime(thread) }
      return s.started && !s.stopRequested && s.failure == nil
    }
    wake()
    guard live else { return }
    armReads.wait(for: ticket, timeout: Self.armReadTimeoutNanoseconds) {
      state.withLock { $0.stopRequested || $0.failure != nil }
    }
  }

  func stop() {
    let wasRunning = state.withLock { s -> Bool in
      defer { s.stopRequested = true }
      return s.started && !s.stopRequested
    }
    if wasRunning {
      watcher?.stop()
      armReads.wakeWaiter()
      wake()
      exited.wait()
    }
    changes.close()
    whole.close()
    connection.close()
  }

  deinit {
    stop()
    Glibc.close(wakeRead)
    Glibc.close(wakeWrite)
  }

  var realtimeGranted: Bool { state.withLock { $0.realtime } }
  var refreshIntervalNanoseconds: UInt64? { outputRefreshNanoseconds }
  var faults: FrameSourceFaults { FrameSourceFaults(refusedReads: state.withLock { $0.refusedReads }) }
  var events: [PhaseEvent] { state.withLock { $0.events } }
  var failure: String? { state.withLock { $0.failure } }
  var missedDeadlines: UInt64? { nil }
  /// The probe thread's CPU time so far (ns, as of its last frame) and the frames it delivered.
  var threadCost: (cpuNanoseconds: UInt64, frames: UInt64) {
    state.withLock { ($0.threadCPUNanoseconds, $0.framesDelivered) }
  }
  /// received − presented over the frames delivered since the last arm.
  var lag: ProbeLag? { ProbeLag(state.withLock { $0.lags }) }
  /// Frames presented after the probe read them (a compositor whose clock is not the probe's).
  var presentedAfterReceipt: UInt64 { state.withLock { $0.presentedAfterReceipt } }
  /// Frames delivered `seenLate`: a change copy asked for more than one refresh after the
  /// previous commit (the probe was busy), stamped with a commit that may be later than the change's.
  var lateCopies: UInt64 { state.withLock { $0.lateCopies } }
  /// Copies dropped for being presented no later than a frame already delivered.
  var duplicateCopies: UInt64 { state.withLock { $0.duplicateCopies } }
  /// How many times smaller than the output the images it delivers are, in each dimension.
  var readScale: Int { state.withLock { $0.readScale } }

  private func wake() {
    var one: UInt8 = 1
    _ = Glibc.write(wakeWrite, &one, 1)
  }

  // MARK: - The window

  /// Takes the first candidate owned by the app's process or one it started, once the pid is
  /// known; other clients' windows are forgotten.
  private func resolveWindow() {
    let (pid, candidates) = state.withLock { s -> (Int32?, [WaylandWindow]) in
      s.watched == nil ? (s.expectedPID, s.candidates) : (nil, [])
    }
    guard let pid, !candidates.isEmpty else { return }
    let found = candidates.first { ProcessControl.isProcess($0.ownerProcessID, selfOrDescendantOf: pid) }
    state.withLock { s in
      s.candidates.removeAll { c in candidates.contains(c) }
      guard s.watched == nil, let found else { return }
      s.watched = found
      s.events.append(
        PhaseEvent(
          ts: found.seenNanoseconds, name: EventName.displayWindowMapped.rawValue, kind: .event,
          pid: getpid(),
          fields: [
            "window": .string(found.identifier), "method": .string(watcher?.method ?? ""),
            "app_pid": .int(Int64(pid)), "owner_pid": .int(Int64(found.ownerProcessID)),
            "width": .int(Int64(found.width)), "height": .int(Int64(found.height)),
            "read_scale": .int(Int64(s.readScale)),
          ]))
    }
  }

  // MARK: - The thread

  private func run() {
    var fds = [
      pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
    ]
    var drain = [UInt8](repeating: 0, count: 64)
    var progress = Progress()
    while true {
      if state.withLock({ $0.stopRequested }) { return }
      do {
        try service(&progress)
      } catch {
        state.withLock { if $0.failure == nil { $0.failure = error.message } }
        armReads.wakeWaiter()
        return
      }
      _ = poll(&fds, 2, -1)  // a hang-up wakes it too, and the next read names it
      if fds[1].revents != 0 { while Glibc.read(wakeRead, &drain, drain.count) > 0 {} }
    }
  }

  /// Reads what the compositor sent, then moves both copies on until neither has anything new:
  /// the arm-time copy (asked for when an arm is waiting) and the copy of the next change
  /// (always pending), delivering each frame in order of presentation.
  private func service(_ progress: inout Progress) throws(WaylandError) {
    try connection.dispatch(waitingMilliseconds: 0)
    while true {
      var moved = false
      if progress.armTicket == nil {
        progress.armTicket = armReads.pending
      }
      if let ticket = progress.armTicket {
        let refused = whole.counts.failures
        if let frame = try whole.nextFrame(waitingMilliseconds: 0) {
          markArmRead(upTo: ticket)
          progress.armTicket = nil
          try handle(frame, seenLate: false, &progress)
          moved = true
        } else if whole.counts.failures > refused {
          markArmRead(upTo: ticket)  // refused: counted, and the arm goes on
          progress.armTicket = nil
          state.withLock { $0.refusedReads += 1 }
          moved = true
        }
      }
      if progress.changeRequestedAt == nil { progress.changeRequestedAt = MonotonicClock.now() }
      let refused = changes.counts.failures
      if let frame = try changes.nextFrame(waitingMilliseconds: 0) {
        // A copy asked for more than one refresh after the previous commit may hold a change
        // committed before it was asked for: its stamp is the probe's, not the app's.
        let refresh = outputRefreshNanoseconds ?? X11FrameSource.cadenceAllowanceNanoseconds
        let late = progress.changeRequestedAt.map { asked in
          progress.lastPresented.map { asked > $0 && asked - $0 >= refresh } ?? false
        }
        progress.changeRequestedAt = nil
        try handle(frame, seenLate: late ?? false, &progress)
        moved = true
      } else if changes.counts.failures > refused {
        progress.changeRequestedAt = nil
        state.withLock { $0.refusedReads += 1 }
        moved = true
      }
      if !moved { return }
    }
  }

  /// Converts `frame` to luma and delivers it, stamped with its presentation time — unless a
  /// frame presented at that time or later was delivered already.
  private func handle(_ frame: WaylandScreencopy.Frame, seenLate: Bool, _ progress: inout Progress)
    throws(WaylandError)
  {
    if let last = progress.lastPresented, frame.presentedNanoseconds <= last {
      state.withLock { $0.duplicateCopies += 1 }
      return
    }
    progress.lastPresented = frame.presentedNanoseconds
    let lag = frame.receivedNanoseconds &- min(frame.receivedNanoseconds, frame.presentedNanoseconds)
    let realtime = state.withLock { $0.realtime }
    let leftRealtime = realtime && !searching()
    if leftRealtime { ProbeThreadPriority.leaveRealtime() }
    let region = state.withLock { s in s.watched.flatMap { Self.region(of: $0, in: frame) } }
    let area = region ?? WaylandRegion(x: 0, y: 0, width: frame.width, height: frame.height)
    let scale = reduced ? WaylandLuma.reducedScale(width: area.width, height: area.height) : 1
    let (width, height) = (area.width / scale, area.height / scale)
    if progress.luma.count != width * height { progress.luma = [UInt8](repeating: 0, count: width * height) }
    let converted = progress.luma.withUnsafeMutableBufferPointer { out in
      WaylandLuma.convert(frame, region: region, scale: scale, into: out)
    }
    guard converted else {
      throw WaylandError(
        .malformed,
        "the compositor copies its output in format 0x\(String(frame.format, radix: 16)), which the probe cannot read (only 32-bit RGB)"
      )
    }
    progress.luma.withUnsafeBufferPointer { p in
      deliver(
        ProbeFrame(
          image: LumaImage(base: p.baseAddress!, width: width, height: height, bytesPerRow: width),
          time: frame.presentedNanoseconds, seenLate: seenLate))
    }
    if leftRealtime { ProbeThreadPriority.enterRealtime(pthread_self()) }
    let cpu = MonotonicClock.threadCPUTime()
    state.withLock {
      if $0.lags.count >= Self.lagCapacity { $0.lags.removeFirst($0.lags.count / 2) }
      $0.lags.append(lag)
      if frame.presentedNanoseconds > frame.receivedNanoseconds { $0.presentedAfterReceipt += 1 }
      $0.threadCPUNanoseconds = cpu
      $0.framesDelivered += 1
      if seenLate { $0.lateCopies += 1 }
      $0.readScale = scale
      let window = $0.watched?.identifier ?? ""
      if $0.analysed?.area != area || $0.analysed?.window != window {
        $0.analysed = (area, window)
        $0.events.append(Self.regionEvent(area, window: window, frame: frame, scale: scale))
      }
    }
  }

  /// The arm-time copies up to `ticket` are in hand: `armed()` may return.
  private func markArmRead(upTo ticket: UInt64) { armReads.markDone(upTo: ticket) }
}
