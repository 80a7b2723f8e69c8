import Dispatch
import LaunchContract
import LightBoard
import PhaseTrace
import Synchronization
import SystemCalls
import X11Display

#if canImport(Glibc)
  import Glibc
#endif

/// The X11 path's frames: the probe's own X client (`X11WindowCapture`) on a thread that sleeps
/// in `poll` on the connection, finds the app's window when it is mapped, and reads its pixels
/// whenever DAMAGE reports a change — and once whenever the probe is armed, so that what the
/// window already shows at the start (a frozen frame, the black cover) is seen too.
///
/// **The arm-time read comes first.** Without a refresh grid nothing else would look at an
/// unchanged window, so `armed()` waits (up to `armReadTimeoutNanoseconds`) until the probe
/// thread has the window's pixels in hand: the caller unlocks or spawns only then, and the app
/// cannot replace the frozen image before the probe has seen it, however late the probe thread
/// or the X server is scheduled.
///
/// **Priority.** The thread waits and reads under `SCHED_FIFO` where allowed, and converts and
/// analyses each image at normal priority, so that a slow (debug) probe never holds a core at
/// real-time priority for long — except while the probe is looking for the first live frame
/// (`searching`: armed, not found yet). Those reads decide the headline: change detection needs
/// each new image read when it comes, and an analysis starved at normal priority (100–600 ms
/// under load) left the next changes to be read late, in one, so runs broke.
///
/// **Which window.** Every top-level window mapped after the source started is a candidate.
/// The app's is the first owned (itself, or its client inside a window manager's frame) by the
/// app's process (`watch(processID:)`) or one it started, as the X server knows the owner:
/// X-Resource's `QueryClientIds` (method `client_pid`), which needs nothing from the app and
/// which another client cannot forge; only on a server without X-Resource the window's
/// `_NET_WM_PID` (method `net_wm_pid`). A window is never taken for being mapped first: on a
/// shared X server that was another client's. When it is found, the source emits
/// `display.window_mapped`, stamped when the probe read the `MapNotify`.
final class X11FrameSource: FrameSource {
  /// The lateness the dropped-frame rule allows without a refresh grid: a 60 Hz screen's
  /// interval (16.7 ms), the same tolerance as the shared-memory path at its default rate (a
  /// new image may come up to 1.25 × this late before a frame counts as dropped).
  static let cadenceAllowanceNanoseconds: UInt64 = 16_666_667
  /// How long `armed()` waits for the arm-time read at most (1 s): beyond it the arm goes on
  /// without it (an X server that stopped answering fails the run by itself).
  static let armReadTimeoutNanoseconds: UInt64 = 1_000_000_000

  let capture: X11WindowCapture
  private let deliver: @Sendable (ProbeFrame) -> Void
  /// Whether the probe is looking for the first live frame now (armed, not found yet).
  private let searching: @Sendable () -> Bool
  private let wantsRealtime: Bool
  private let state = PThreadMutex(State())
  private let wakeRead: Int32
  private let wakeWrite: Int32
  private let exited = DispatchSemaphore(value: 0)
  private let armReads = ArmReadGate()

  struct Candidate {
    var window: UInt32
    var mappedAt: UInt64
  }

  struct State {
    var started = false
    var stopRequested = false
    var realtime = false
    /// The probe thread, once it runs (to raise it to `SCHED_FIFO` for an arm-time read).
    var thread: pthread_t?
    var expectedPID: Int32?
    var candidates: [Candidate] = []
    /// Whether a window of the app is watched (set on the probe thread).
    var watching = false
    var events: [PhaseEvent] = []
    var failure: String?
    var refusedReads: UInt64 = 0
    /// The probe thread's CPU time (ns) after its last delivered frame, and the frames delivered.
    var threadCPUNanoseconds: UInt64 = 0
    var framesDelivered: UInt64 = 0
    /// How many times smaller than the watched window the images are (`X11WindowCapture.scale`).
    var readScale = 1
  }

  /// Connects to `display` (nil: `$DISPLAY`) and starts watching for windows; frames go to
  /// `deliver`. `searching` says whether the probe is looking for the first live frame now
  /// (armed, not found yet): while it is, a frame is converted and analysed at real-time
  /// priority too.
  init(
    display: String?, authorization: X11Authorization?, source: X11WindowCapture.Source,
    resolution: X11WindowCapture.Resolution, realtime: Bool,
    searching: @escaping @Sendable () -> Bool = { false }, deliver: @escaping @Sendable (ProbeFrame) -> Void
  ) throws(X11Error) {
    capture = try X11WindowCapture(
      display: display, authorization: authorization, source: source, resolution: resolution)
    let fds: (read: Int32, write: Int32)
    do {
      fds = try ProcessControl.pipe()
    } catch {
      capture.close()
      throw X11Error(
        .systemCallFailed, "cannot create the probe's wake-up pipe: \(error.message)", call: "pipe2",
        errno: error)
    }
    (wakeRead, wakeWrite) = fds
    _ = fcntl(wakeRead, F_SETFL, O_NONBLOCK)
    self.deliver = deliver
    self.searching = searching
    self.wantsRealtime = realtime
  }

  var server: DisplayServerKind { .x11 }

  /// The app's pid: its window is the one to watch.
  func watch(processID pid: Int32) {
    state.withLock { $0.expectedPID = pid }
    wake()
  }

  func start() throws(ProbeSourceError) {
    guard
      state.withLock({ s -> Bool in
        defer { s.started = true }
        return !s.started
      })
    else { return }
    let started = DispatchSemaphore(value: 0)
    do {
      try SystemThread.start(name: "firstframe.x11probe") { [self] in
        let granted = wantsRealtime && Self.requestRealtime()
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
      state.withLock { $0.started = false }
      throw ProbeSourceError("cannot start the X11 probe thread: \(error.message)")
    }
    started.wait()
  }

  /// Asks for an arm-time read and, while a window is watched, waits until the probe thread has
  /// its pixels in hand (at most `armReadTimeoutNanoseconds`; not at all before a window is
  /// found: its first read is of the whole window anyway).
  func armed() {
    // The probe thread may be converting or analysing the previous image at normal priority:
    // back to SCHED_FIFO now (under the lock, so the thread cannot have exited), so that the
    // arm-time read is not queued behind a loaded machine.
    let ticket = armReads.request()
    let watching = state.withLock { s -> Bool in
      if s.realtime, let thread = s.thread { Self.setRealtime(thread) }
      return s.watching && !s.stopRequested && s.failure == nil
    }
    wake()
    guard watching else { return }
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
      armReads.wakeWaiter()
      wake()
      exited.wait()
    }
    capture.close()
  }

  deinit {
    stop()
    Glibc.close(wakeRead)
    Glibc.close(wakeWrite)
  }

  var realtimeGranted: Bool { state.withLock { $0.realtime } }
  var refreshIntervalNanoseconds: UInt64? { nil }
  var faults: FrameSourceFaults { FrameSourceFaults(refusedReads: state.withLock { $0.refusedReads }) }
  var events: [PhaseEvent] { state.withLock { $0.events } }
  var failure: String? { state.withLock { $0.failure } }
  var missedDeadlines: UInt64? { nil }
  /// The probe thread's CPU time so far (ns, as of its last frame) and the frames it delivered.
  var threadCost: (cpuNanoseconds: UInt64, frames: UInt64) {
    state.withLock { ($0.threadCPUNanoseconds, $0.framesDelivered) }
  }
  /// How many times smaller than the watched window the images it delivers are (1 before a
  /// window is watched).
  var readScale: Int { state.withLock { $0.readScale } }

  private func wake() {
    var one: UInt8 = 1
    _ = Glibc.write(wakeWrite, &one, 1)
  }

  private static func requestRealtime() -> Bool { ProbeThreadPriority.enterRealtime(pthread_self()) }
  private static func setRealtime(_ thread: pthread_t) { ProbeThreadPriority.enterRealtime(thread) }
  /// Back to normal priority (`SCHED_OTHER`) for the CPU-heavy part of a frame.
  private static func leaveRealtime() { ProbeThreadPriority.leaveRealtime() }

  // MARK: - The thread

  private func run() {
    var fds = [
      pollfd(fd: capture.fileDescriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
    ]
    var drain = [UInt8](repeating: 0, count: 64)
    while true {
      if state.withLock({ $0.stopRequested }) { return }
      do {
        try serviceConnection()
      } catch {
        state.withLock { $0.failure = error.message }
        armReads.wakeWaiter()
        return
      }
      _ = poll(&fds, 2, -1)
      if fds[1].revents != 0 { while Glibc.read(wakeRead, &drain, drain.count) > 0 {} }
    }
  }

  /// Handles every event that arrived and reads every change, until the connection is quiet
  /// (replies are waited for, and events that arrive meanwhile are queued inside XCB, where
  /// `poll` cannot see them).
  ///
  /// A read made before the thread slept again after delivering a frame is **late**
  /// (`ProbeFrame.seenLate`): its change arrived while the probe was converting or analysing
  /// the previous image (at normal priority, unless `searching`), so the gap since the previous
  /// read is the probe's busy time, however long a loaded machine made it.
  private func serviceConnection() throws(X11Error) {
    var deliveredSinceWaking = false
    while true {
      let events = try capture.pollEvents()
      let now = MonotonicClock.now()
      for event in events { try handle(event, at: now) }
      try resolveWindow()
      // The arm-time read: every request up to `snapshot` is answered by this read.
      var snapshot: UInt64?
      if capture.window != nil {
        snapshot = armReads.pending
        if snapshot != nil { capture.invalidate() }
      }
      guard capture.hasChanges else {
        if events.isEmpty { return }
        continue
      }
      let realtime = state.withLock { $0.realtime }
      var leftRealtime = false
      let stamp = try capture.readChanges {
        if let snapshot { markArmRead(upTo: snapshot) }
        if realtime && !searching() {
          Self.leaveRealtime()
          leftRealtime = true
        }
      }
      if let snapshot { markArmRead(upTo: snapshot) }  // also when refused
      if let stamp {
        capture.withLuma { base, width, height in
          deliver(
            ProbeFrame(
              image: LumaImage(base: base, width: width, height: height, bytesPerRow: width), time: stamp,
              seenLate: deliveredSinceWaking))
        }
        deliveredSinceWaking = true
      }
      if leftRealtime { _ = Self.requestRealtime() }
      let cpu = MonotonicClock.threadCPUTime()
      state.withLock {
        $0.refusedReads = UInt64(capture.refusedReads)
        $0.threadCPUNanoseconds = cpu
        $0.framesDelivered += 1
      }
    }
  }

  /// The arm-time reads up to `ticket` are in hand (the pixels, not yet converted): `armed()`
  /// may return while the frame is converted and analysed.
  private func markArmRead(upTo ticket: UInt64) { armReads.markDone(upTo: ticket) }

  private func handle(_ event: X11Event, at time: UInt64) throws(X11Error) {
    switch event {
    case .mapped(let window, _):
      state.withLock { $0.candidates.append(Candidate(window: window, mappedAt: time)) }
    case .destroyed(let window) where window == capture.window:
      // Gone: the app's next window is watched (guvcview shows video in its second window), even
      // one with the same id (a new client can be given the ids an ended one used: gst after gst).
      capture.forget()
    case .configured(let window, _, _, _, _) where window == capture.window:
      try capture.resize()
      let scale = capture.scale
      state.withLock { $0.readScale = scale }
    default: break
    }
  }

  /// Picks the app's window among the mapped candidates once the app's pid is known: the first
  /// whose owner (`X11WindowCapture.ownerProcessID(of:)`) is the app or a process it started.
  /// A window no process of the app owns is never taken, whatever the order it was mapped in.
  ///
  /// **A larger window of the app, mapped later, is watched instead**, and the app's next
  /// window once the watched one is destroyed (issue 40 item 5):
  /// an app that maps a small window first (a splash, a 16×16 placeholder) is read where its
  /// video is. The switch is a `display.probe_region`
  /// event (the window, its owner and size); `display.window_mapped` stays the first window's.
  private func resolveWindow() throws(X11Error) {
    let (pid, candidates) = state.withLock { ($0.expectedPID, $0.candidates) }
    guard let pid, !candidates.isEmpty else { return }
    state.withLock { $0.candidates.removeAll() }  // each looked at once
    let watchedArea = capture.window.map { _ in capture.width * capture.height }
    let recorded = state.withLock { $0.events.contains { $0.name == EventName.displayWindowMapped.rawValue } }
    for candidate in candidates {
      guard
        let (client, owner) = capture.appWindow(
          candidate.window,
          isApp: {
            ProcessControl.isProcess($0, selfOrDescendantOf: pid)
          })
      else { continue }  // another client's window
      if let watchedArea {
        guard client != capture.window, let size = capture.size(of: client),
          size.width * size.height > watchedArea
        else { continue }
        try watch(client, owner: owner, appPID: pid, at: candidate.mappedAt, name: .displayProbeRegion)
      } else {
        try watch(
          client, owner: owner, appPID: pid, at: candidate.mappedAt,
          name: recorded ? .displayProbeRegion : .displayWindowMapped)
      }
      return
    }
  }

  /// Watches `client` and records `name` for it: `display.window_mapped` for the app's first
  /// window, `display.probe_region` when the probe moves to a larger one.
  private func watch(_ client: UInt32, owner: Int32, appPID pid: Int32, at time: UInt64, name: EventName)
    throws(X11Error)
  {
    try capture.watch(client)
    let event = PhaseEvent(
      ts: time, name: name.rawValue, kind: .event, pid: getpid(),
      fields: [
        "window": .string("0x" + String(client, radix: 16)),
        "method": .string(capture.ownership.rawValue), "app_pid": .int(Int64(pid)),
        "owner_pid": .int(Int64(owner)), "width": .int(Int64(capture.width)),
        "height": .int(Int64(capture.height)), "read_scale": .int(Int64(capture.scale)),
      ])
    let scale = capture.scale
    state.withLock {
      $0.events.append(event)
      $0.watching = true
      $0.readScale = scale
    }
  }
}
