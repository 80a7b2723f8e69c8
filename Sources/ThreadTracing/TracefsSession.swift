import Subprocess
import SystemCalls
import ThreadStates

/// Bench's own tracefs instance (`/sys/kernel/tracing/instances/firstframe-<bench's claim>`): the
/// scheduler events of every CPU on the `mono` trace clock (CLOCK_MONOTONIC, the clock of the
/// phase events), into a ring buffer sized up front that drops new events when full rather
/// than overwriting the run's start (`overwrite` off; the drops are counted). Tracing is on only
/// between ``begin()`` and ``end()``: from just before the app is spawned to the end of the run;
/// the buffer is cleared after each run is read (and at a begin that no end followed), so each
/// run starts with it empty. Another tracer on the machine keeps its own buffer.
///
/// Only bench's own tasks and what they start are traced (`set_event_pid` with bench's threads,
/// `options/event-fork` adding every task they fork, the app's tree and a display server bench starts
/// among them; ``track(_:)`` adds a tree bench did not start): a `sched_switch` is kept when either
/// side is one of them, a wakeup when the woken task is. The rest of the machine's events are
/// not recorded: on a loaded machine they were 10–50 thousand a run, and parsing them between
/// runs took seconds, long enough for a warm device to go cold.
///
/// A companion instance (`firstframe-<bench's claim>-runtime`, same tasks and clock) records only
/// `sched_stat_runtime`, which places the switches into a thread that this kernel leaves out of
/// the trace (docs/thread-states.md, Limits). It has a buffer of its own because an app can
/// fill it: every read of a running thread's CPU-time clock writes one. When it is full, the
/// main trace is still complete; only the placing stops (the run's `unseen_*` say so). A device
/// instance (`-device`, every process) records the camera's calls (docs/kernel-device-phases.md).
///
/// The instances are removed by ``close()`` (the runs' end, Ctrl-C and SIGTERM end the pipeline
/// normally), by the process guard when bench dies any other way (SIGKILL:
/// ``ProcessGuard/removeDirectoryOnExit(_:)``), and as a last resort by the next bench
/// (``removeStale(root:)``: `firstframe-<token>` instances whose claim is free, `MachineClaim`).
package final class TracefsSession: Sendable {
  /// Where tracefs is mounted (bench mounts it there when it is not).
  package static let defaultRoot = "/sys/kernel/tracing"
  /// The name of bench's instances: this prefix and bench's claim token (`MachineClaim`).
  package static let instancePrefix = "firstframe-"
  /// The events recorded (all in the `sched` group).
  package static let events = [
    "sched_switch", "sched_wakeup", "sched_wakeup_new", "sched_process_fork", "sched_process_exec",
    "sched_process_exit",
  ]
  /// The companion instance's event, recorded when the kernel has it: `sched_stat_runtime`
  /// (a fair-class thread's CPU time, counted at ticks, switches and reads of its CPU clock).
  package static let runtimeEvent = "sched_stat_runtime"
  /// The companion's name after the main instance's.
  package static let runtimeSuffix = "-runtime"
  /// The companion's ring buffer per CPU, KiB: about 40,000 events per CPU.
  package static let runtimeBufferKBPerCPU = 2048
  /// The ring buffer per CPU a session starts with, KiB: about 90,000 switch events per CPU,
  /// ten times a loaded launch's (docs/measurements/2026-12-03-thread-states-cost.md). A run
  /// that uses more than a quarter of it on one CPU, or loses events, grows it for the next runs
  /// (``TraceBufferSizing``): another tracer on the machine can multiply a run's events.
  package static let bufferKBPerCPU = 4096
  /// The least trace text read back per run, bytes (the buffer's text is about twice its size:
  /// ``readLimit(kbPerCPU:cpus:)`` allows more for a grown buffer).
  package static let maxTraceText = 64 << 20

  /// The tracefs mount.
  package let root: String
  /// The instance's folder.
  package let path: String
  /// The companion instance's folder (``runtimeEvent`` only); nil when the kernel lacks the
  /// event or the companion could not be made.
  package let runtimePath: String?

  /// The device instance's folder, or why there is none (``devicePath``, ``deviceAbsence``).
  let device: (path: String?, absence: String?)

  /// Whether the buffers are empty: cleared after each run's trace is read (``end()``), so that
  /// the kernel's work of clearing them (a wait for RCU, ~60 ms an instance) falls between runs
  /// and not just before a spawn. ``begin()`` clears them only when a run did not end.
  private let cleared = PThreadMutex(true)
  /// Whether bench's pid namespace is not the machine's (found at ``open(root:token:bufferKB:)``
  /// by a marker line coming back under another id): then `/proc`'s ids mean nothing to
  /// tracefs, and ``begin()`` adds the thread that calls it by the id its marker shows.
  let namespaced = PThreadMutex(false)
  /// The thread that called the last ``begin()``, as the trace names it: set in another pid
  /// namespace only (nil in the machine's, where bench's ids are the trace's).
  private let beganBy = PThreadMutex<TraceMarker.Task?>(nil)
  /// Each instance folder's buffer size per CPU now, KiB.
  let sizes = PThreadMutex<[String: Int]>([:])

  init(root: String, path: String, runtimePath: String? = nil, device: (String?, String?) = (nil, nil)) {
    (self.root, self.path, self.runtimePath, self.device) = (root, path, runtimePath, device)
  }

  /// What one traced run produced.
  package struct Capture: Sendable {
    /// The `trace` file's text.
    package var text: String
    /// Events the kernel dropped (the buffer was full) or overwrote during the run, all CPUs.
    package var lostEvents: Int
    /// The bytes the run's events took in the buffer, all CPUs (the companion's included).
    package var bytes: Int
    /// The main buffer's size per CPU during the run, KiB (``TraceBufferSizing`` grows it
    /// between runs).
    package var bufferKBPerCPU = TracefsSession.bufferKBPerCPU
    /// Whether the main trace's text was longer than bench reads (``readLimit(kbPerCPU:cpus:)``):
    /// its end is missing, so the run's breakdown is incomplete.
    package var truncated = false
    /// The companion instance's `trace` text (empty without one).
    package var runtimeText = ""
    /// Events the companion dropped: the switches in after them cannot be placed.
    package var runtimeLostEvents = 0
    /// The device instance's `trace` text (empty without one).
    package var deviceText = ""
    /// Events the device instance dropped.
    package var deviceLostEvents = 0
  }

  /// Opens bench's instance: mounts tracefs at `root` when it is not mounted, removes stale
  /// instances of benches that died, makes `firstframe-<token>` and sets it up, tracing off.
  /// `token` names the instance's owner: this process's claim (`MachineClaim.currentToken`).
  /// - Throws: a ``TracefsError`` saying why tracefs cannot be used (not root, no tracefs, no
  ///   `mono` clock, a missing event).
  package static func open(
    root: String = defaultRoot, token: String = MachineClaim.currentToken, bufferKB: Int = bufferKBPerCPU
  ) throws(TracefsError) -> TracefsSession {
    try mountIfNeeded(root)
    removeStale(root: root)
    let path = root + "/instances/" + instancePrefix + token
    // The guard first (the pipeline's own, started early), told before the folder exists: a
    // bench killed with SIGKILL at any moment after the mkdir leaves it to the guard to remove.
    _ = try? ProcessGuard.start()
    ProcessGuard.running?.removeDirectoryOnExit(path)
    do {
      try FileSystem.createDirectory(atPath: path, mode: 0o700)
    } catch {
      if error != .fileExists {
        ProcessGuard.running?.keep(path)
        throw TracefsError("cannot make the tracefs instance \(path): \(error.message)")
      }
    }
    let main = TracefsSession(root: root, path: path)
    do {
      try main.configure(bufferKB: bufferKB, events: Self.events, namespaced: Self.probeNamespace(path))
    } catch {
      main.close()
      throw error
    }
    main.sizes.withLock { $0 = [path: bufferKB] }
    let device = openDevice(root: root, path: path)
    // The companion: without it the breakdown still stands, with the kernel's gaps counted.
    guard FileSystem.isDirectory(root + "/events/sched/" + runtimeEvent) else {
      return main.with(device: device, runtimePath: nil)
    }
    let runtimePath = path + runtimeSuffix
    ProcessGuard.running?.removeDirectoryOnExit(runtimePath)
    let session = TracefsSession(root: root, path: path, runtimePath: runtimePath, device: device)
    session.namespaced.withLock { $0 = main.namespaced.withLock { $0 } }
    session.sizes.withLock { $0 = [path: bufferKB] }
    do {
      try FileSystem.createDirectory(atPath: runtimePath, mode: 0o700)
      try TracefsSession(root: root, path: runtimePath).configure(
        bufferKB: runtimeBufferKBPerCPU, events: [runtimeEvent], namespaced: main.namespaced.withLock { $0 })
    } catch {
      try? FileSystem.removeDirectory(atPath: runtimePath)
      ProcessGuard.running?.keep(runtimePath)
      return main.with(device: device, runtimePath: nil)
    }
    session.sizes.withLock { $0[runtimePath] = runtimeBufferKBPerCPU }
    return session
  }

  /// Mounts tracefs at `root` unless it is mounted there (its `instances` folder exists).
  static func mountIfNeeded(_ root: String) throws(TracefsError) {
    guard !FileSystem.isDirectory(root + "/instances") else { return }
    do {
      try FileSystem.mountPseudoFileSystem(type: "tracefs", atPath: root)
    } catch {
      throw TracefsError("tracefs is not mounted at \(root) and cannot be: \(error.message)")
    }
    guard FileSystem.isDirectory(root + "/instances") else {
      throw TracefsError("tracefs at \(root) has no instances folder")
    }
  }

  /// Whether the calling thread's id in the trace differs from its id here: a marker written to
  /// the fresh instance at `path` (tracing on only for it, the buffer emptied after). False when
  /// the marker cannot be written or read: bench's ids are then taken as the trace's.
  static func probeNamespace(_ path: String) -> Bool {
    guard let task = writeMarker(in: path) else { return false }
    try? FileSystem.writeControlFile("", atPath: path + "/trace")
    return task.tid != Int(SystemThread.currentID())
  }

  /// Writes a marker unique to this call to `path`'s `trace_marker` with tracing on (and leaves
  /// it as it was), and returns the task the trace says wrote it.
  private static func writeMarker(in path: String, tracingOn: Bool = false) -> TraceMarker.Task? {
    let marker =
      "firstframe-self \(MachineClaim.currentToken) \(SystemThread.currentID()) \(MonotonicClock.now())"
    if !tracingOn { try? FileSystem.writeControlFile("1", atPath: path + "/tracing_on") }
    defer { if !tracingOn { try? FileSystem.writeControlFile("0", atPath: path + "/tracing_on") } }
    guard (try? FileSystem.writeControlFile(marker + "\n", atPath: path + "/trace_marker")) != nil else {
      return nil
    }
    let text = FileSystem.readText(atPath: path + "/trace", maxBytes: Self.maxTraceText) ?? ""
    return TraceMarker.writer(of: marker, in: text)
  }

  private func configure(bufferKB: Int, events: [String], namespaced: Bool) throws(TracefsError) {
    self.namespaced.withLock { $0 = namespaced }
    try write("0", "tracing_on")
    try write("mono", "trace_clock")
    try write(String(bufferKB), "buffer_size_kb")
    try write("0", "options/overwrite")
    try write("1", "options/record-tgid")
    try write("1", "options/event-fork")
    try trackOwnThreads()
    for event in events { try write("1", "events/sched/\(event)/enable") }
  }

  /// The instances' folders: the main one, then the companion's when there is one.
  var paths: [String] { [path] + (runtimePath.map { [$0] } ?? []) }

  /// Adds every thread of bench (`/proc/self/task`) to the traced tasks; those it makes later
  /// are added by `event-fork` as they are made.
  private func trackOwnThreads() throws(TracefsError) {
    try track(ProcessControl.currentProcessID, descendants: false)
  }

  /// Adds the threads of `pid` and, unless `descendants` is false, of its descendants (as `/proc`
  /// lists them now) to the traced tasks: for a tree bench did not start while tracing (an app
  /// started in an earlier run, a display server bench did not start). What they fork from then on is
  /// added by `event-fork`.
  /// - Throws: ``TracefsError`` when `set_event_pid` cannot be written.
  /// In another pid namespace it adds nothing: `/proc`'s ids there name other tasks of the
  /// machine (1 is its init); ``begin()`` adds its calling thread by its marker instead.
  package func track(_ pid: Int32, descendants: Bool = true, proc: String = "/proc") throws(TracefsError) {
    guard !namespaced.withLock({ $0 }) else { return }
    var tids: [Int] = []
    var pending = [Int(pid)]
    var seen = Set<Int>()
    while let next = pending.popLast(), tids.count < Self.maxTrackedAtOnce {
      guard seen.insert(next).inserted else { continue }
      let tasks = "\(proc)/\(next)/task"
      for name in (try? FileSystem.contentsOfDirectory(atPath: tasks)) ?? [] {
        guard let tid = Int(name) else { continue }
        tids.append(tid)
        guard descendants else { continue }
        let children = FileSystem.readText(atPath: "\(tasks)/\(name)/children", maxBytes: 65536) ?? ""
        pending += children.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
      }
    }
    guard !tids.isEmpty else { return }
    for folder in paths {
      do {
        try FileSystem.appendControlFile(
          tids.map(String.init).joined(separator: " ") + "\n", atPath: folder + "/set_event_pid")
      } catch {
        throw TracefsError("cannot add \(pid)'s threads to \(folder)/set_event_pid: \(error.message)")
      }
    }
  }

  /// Leaves `pids` (processes bench started that are not the launch: the loaded condition's
  /// burners) out of the trace from now on. `event-fork` put them in `set_event_pid` when bench
  /// forked them, and there a switch between one of them and any task of the machine is an
  /// event (either side traced); so the list is written again without them (read, then
  /// replaced: between runs, when only bench's own threads fork, and ``begin()`` adds those
  /// again), and they go into `set_event_notrace_pid` so that what they fork stays out too. A
  /// switch between one of them and a task still traced (the app's) stays in the trace. In
  /// another pid namespace it does nothing: `/proc`'s ids there are not the trace's.
  /// - Throws: ``TracefsError`` when the lists cannot be written (a kernel before 5.8 has no
  ///   `set_event_notrace_pid`: the pids are then out of `set_event_pid` only).
  package func untrack(_ pids: [Int32]) throws(TracefsError) {
    guard !pids.isEmpty, !namespaced.withLock({ $0 }) else { return }
    let leaving = Set(pids.map(Int.init))
    for folder in paths {
      let listed = (FileSystem.readText(atPath: folder + "/set_event_pid", maxBytes: 1 << 20) ?? "")
        .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
      let kept = listed.filter { !leaving.contains($0) }
      // An empty list would trace every task of the machine: bench's own threads are always in it.
      if !kept.isEmpty, kept.count < listed.count {
        do {
          try FileSystem.writeControlFile(
            kept.map(String.init).joined(separator: " ") + "\n", atPath: folder + "/set_event_pid")
        } catch {
          throw TracefsError("cannot write \(folder)/set_event_pid without \(pids): \(error.message)")
        }
      }
      guard FileSystem.exists(atPath: folder + "/set_event_notrace_pid") else { continue }
      do {
        try FileSystem.appendControlFile(
          pids.map { String($0) }.joined(separator: " ") + "\n", atPath: folder + "/set_event_notrace_pid")
      } catch {
        throw TracefsError("cannot leave \(pids) out of \(folder)'s trace: \(error.message)")
      }
    }
  }

  /// The most threads ``track(_:)`` adds at once: a tree of thousands cannot stall bench.
  package static let maxTrackedAtOnce = 4096

  private func write(_ value: String, _ file: String, in folder: String? = nil) throws(TracefsError) {
    let folder = folder ?? path
    do {
      try FileSystem.writeControlFile(value, atPath: folder + "/" + file)
    } catch {
      throw TracefsError("cannot set \(file) of \(folder) to \(value): \(error.message)")
    }
  }

  /// Clears the buffer, adds bench's threads to the traced tasks, and turns tracing on.
  package func begin() throws(TracefsError) {
    // Bench's threads again: any made while the instance was idle (event-fork adds them too;
    // this is the belt to its braces).
    try trackOwnThreads()
    let clear = !cleared.withLock { was in
      defer { was = false }
      return was
    }
    for folder in allFolders {
      if clear { try write("", "trace", in: folder) }
      try write("1", "tracing_on", in: folder)
    }
    guard namespaced.withLock({ $0 }) else { return }
    // The app is spawned by this thread: traced by the id the trace knows it by, `event-fork`
    // follows it into the app.
    guard let task = Self.writeMarker(in: path, tracingOn: true) else {
      throw TracefsError("cannot find bench's own thread in \(path)'s trace (another pid namespace)")
    }
    beganBy.withLock { $0 = task }
    for folder in paths {
      do {
        try FileSystem.appendControlFile("\(task.tid)\n", atPath: folder + "/set_event_pid")
      } catch {
        throw TracefsError(
          "cannot add bench's thread \(task.tid) to \(folder)/set_event_pid: \(error.message)")
      }
    }
  }

  /// The thread that called the last ``begin()``, as the trace names it, in another pid
  /// namespace; nil in the machine's (bench's ids are the trace's).
  package var spawner: TraceMarker.Task? { beganBy.withLock { $0 } }

  /// Turns tracing off and reads what the run recorded; then, for the next run, grows a buffer
  /// this run came near filling or overflowed (``TraceBufferSizing``).
  package func end() -> Capture {
    for folder in allFolders { try? write("0", "tracing_on", in: folder) }
    let main = Self.usage(path)
    let mainKB = bufferKB(of: path)
    let text = Self.readTrace(path, kbPerCPU: mainKB, cpus: main.cpus)
    var capture = Capture(
      text: text.text, lostEvents: main.lost, bytes: main.bytes, bufferKBPerCPU: mainKB,
      truncated: text.truncated)
    var usages = [(path, main)]
    if let runtimePath {
      let companion = Self.usage(runtimePath)
      let read = Self.readTrace(runtimePath, kbPerCPU: bufferKB(of: runtimePath), cpus: companion.cpus)
      capture.runtimeText = read.text
      capture.runtimeLostEvents = companion.lost
      capture.bytes += companion.bytes
      usages.append((runtimePath, companion))
    }
    if let device = readDevice(into: &capture) { usages.append(device) }
    // Empty for the next run (tracing is off until then).
    let emptied = allFolders.allSatisfy { (try? write("", "trace", in: $0)) != nil }
    cleared.withLock { $0 = emptied }
    for (folder, usage) in usages { grow(folder, after: usage) }
    return capture
  }

  /// Turns tracing off and removes the instances (the kernel frees their buffers). An instance
  /// the kernel still holds busy is retried for up to a second, then left to the guard (and,
  /// were the guard gone too, to the next bench's sweep): the guard forgets only what is gone.
  package func close() {
    for folder in allFolders.reversed() {
      try? write("0", "tracing_on", in: folder)
      if Self.removeInstance(folder) { ProcessGuard.running?.keep(folder) }
    }
  }

  /// Removes the instances of benches that are gone (`firstframe-<token>` and its companion
  /// `firstframe-<token>-runtime`, whose claim is free: `MachineClaim.isFree(token:folders:)`,
  /// whatever pid namespace the owner ran in): what a bench killed with SIGKILL left when its
  /// guard could not remove it either. Returns the folders removed.
  @discardableResult
  package static func removeStale(
    root: String = defaultRoot, claims: [String] = MachineClaim.searchFolders
  ) -> [String] {
    let instances = root + "/instances"
    let names = (try? FileSystem.contentsOfDirectory(atPath: instances)) ?? []
    return MachineClaim.removeLeftovers(names, prefix: instancePrefix, folders: claims) {
      (try? FileSystem.removeDirectory(atPath: instances + "/" + $0)) != nil
    }.map { instances + "/" + $0 }
  }
}

/// Why tracefs cannot be used; one line a person can act on.
package struct TracefsError: Error, Sendable {
  /// The line.
  package var message: String
  init(_ message: String) { self.message = message }
}
