import LaunchContract
import PhaseTrace

/// The device phases (`device.open` … `device.first_buffer`) from the kernel's events
/// (``KernelDeviceEvent``), for whichever process streamed the camera: the app, a child, a
/// daemon. The events are the preload library's (docs/any-app-and-trace-protocol.md) with
/// `source` = `kernel`, and each names the process (`pid`, its name as `process`) and the thread
/// (`tid`, its `comm`) that did it; the rules follow the library's, by what the kernel shows:
///
/// - The owner is the process of the first buffer dequeued from the camera's node (`minor`,
///   capture type; `v4l2:v4l2_dqbuf`). Every phase is that process's.
/// - `device.open`: its first `openat` whose descriptor then gets a V4L2 request (`VIDIOC_*`)
///   before another `openat` returns the same number (the trace prints no file name).
/// - `device.format`: the first `VIDIOC_S_FMT`/`S_PARM` → the end of the last before the buffers.
/// - `device.buffers`: the `VIDIOC_REQBUFS` (or `CREATE_BUFS`) the buffers were granted by → the
///   end of the last `QUERYBUF`, `EXPBUF`, `REQBUFS` or `mmap` of a V4L2 descriptor before
///   `VIDIOC_STREAMON`. The trace does not show the request's count: one counts when a successful
///   `QUERYBUF`, `EXPBUF`, `QBUF` or an `mmap` follows it (a count of 0 frees or probes — GStreamer
///   probes with REQBUFS and CREATE_BUFS of 0 — and is followed by none).
/// - `device.stream_on`: the first successful `VIDIOC_STREAMON`.
/// - `device.first_buffer`: the return of the first `VIDIOC_DQBUF` after it that dequeued a
///   capture buffer of the node.
///
/// The first buffer the driver completed after stream-on (`vb2:vb2_buf_done`, in the driver's
/// thread; the event names no node) is ``Result/driverFirstBuffer``.
package enum KernelDevicePhases {
  /// The `source` field of the events made here.
  package static let source = "kernel"

  /// The phases found.
  package struct Result: Sendable {
    /// The device events, `source` = `kernel`.
    package var events: [PhaseEvent]
    /// The process that dequeued the first buffer, and its name (its main thread's, when the
    /// trace shows that thread; else the dequeuing thread's); nil when none did.
    package var owner: (pid: Int, comm: String)?
    /// The first capture buffer the driver completed at or after stream-on, CLOCK_MONOTONIC ns.
    package var driverFirstBuffer: UInt64?
    /// Why there are no events, when there are none.
    package var absent: String?
  }

  struct Call {
    enum What { case open, ioctl(UInt32), mmap }
    var what: What
    var fd: Int
    var begin: UInt64
    var end: UInt64
    var result: Int
    var tid: Int
    var comm: String
    /// A capture buffer of the node came out of this call (a `VIDIOC_DQBUF`).
    var dequeued = false
  }

  /// The `VIDIOC_*` requests read (x86-64 and every 64-bit architecture's sizes).
  package enum Request {
    /// `VIDIOC_S_FMT`.
    package static let setFormat: UInt32 = 0xc0d0_5605
    /// `VIDIOC_S_PARM`.
    package static let setParameters: UInt32 = 0xc0cc_5616
    /// `VIDIOC_REQBUFS`.
    package static let requestBuffers: UInt32 = 0xc014_5608
    /// `VIDIOC_CREATE_BUFS`.
    package static let createBuffers: UInt32 = 0xc100_565c
    /// `VIDIOC_QUERYBUF`.
    package static let queryBuffer: UInt32 = 0xc058_5609
    /// `VIDIOC_EXPBUF`.
    package static let exportBuffer: UInt32 = 0xc040_5610
    /// `VIDIOC_QBUF`.
    package static let queueBuffer: UInt32 = 0xc058_560f
    /// `VIDIOC_STREAMON`.
    package static let streamOn: UInt32 = 0x4004_5612
    /// Whether `request` is a V4L2 one (type `'V'`).
    static func isV4L2(_ request: UInt32) -> Bool { (request >> 8) & 0xff == 0x56 }
  }

  /// The phases in `events` at or after `start` (CLOCK_MONOTONIC ns) for the node with
  /// char-device `minor` (nil: any node), leaving out the processes in `excluding` (bench's
  /// own: its light-board feeder streams an output node).
  package static func phases(
    from events: [KernelDeviceEvent], minor: Int?, start: UInt64, excluding: Set<Int> = []
  ) -> Result {
    let (calls, owner, done) = self.calls(in: events, minor: minor, start: start, excluding: excluding)
    guard let owner else {
      return Result(
        events: [], owner: nil, driverFirstBuffer: nil,
        absent: "no process dequeued a capture buffer of the camera's node in the run's trace")
    }
    let mine = calls[owner.pid] ?? []
    var out: [PhaseEvent] = []
    func emit(_ name: EventName, _ kind: PhaseEventKind, _ ts: UInt64, _ call: Call) {
      out.append(
        PhaseEvent(
          ts: ts, name: name.rawValue, kind: kind, pid: Int32(truncatingIfNeeded: owner.pid),
          fields: [
            "source": .string(source), "process": .string(owner.comm), "comm": .string(call.comm),
            "tid": .int(Int64(call.tid)),
          ]))
    }
    if let open = firstOpen(in: mine) {
      emit(.deviceOpen, .begin, open.begin, open)
      emit(.deviceOpen, .end, open.end, open)
    }
    let v4l2Descriptors = Set(mine.compactMap { $0.request.map(Request.isV4L2) == true ? $0.fd : nil })
    var format: (begin: Call, end: Call)?
    var granted: Call?
    var buffers: (begin: Call, end: Call)?
    var streamOn: Call?
    for call in mine {
      guard v4l2Descriptors.contains(call.fd), !call.isOpen else { continue }
      if let on = streamOn {
        guard call.dequeued, call.begin >= on.end else { continue }
        emit(.deviceFirstBuffer, .event, call.end, call)
        break
      }
      switch call.request {
      case Request.setFormat?, Request.setParameters?:
        guard buffers == nil else { continue }
        format = (format?.begin ?? call, call)
      case Request.requestBuffers?, Request.createBuffers?:
        if let open = buffers {
          buffers = (open.begin, call)
        } else if call.result == 0 {
          granted = call
        }
      case Request.queryBuffer?, Request.exportBuffer?, Request.queueBuffer?, nil:
        // Only a call that succeeded shows buffers exist (GStreamer probes with counts of 0).
        guard call.result == 0 || call.request == nil else { continue }
        if buffers == nil, let granted { buffers = (granted, granted) }
        if let open = buffers, call.request != Request.queueBuffer, call.end > open.end.end {
          buffers = (open.begin, call)
        }
      case Request.streamOn?:
        guard call.result == 0 else { continue }
        if buffers == nil, let granted { buffers = (granted, granted) }
        streamOn = call
      default: continue
      }
    }
    if let format {
      emit(.deviceFormat, .begin, format.begin.begin, format.begin)
      emit(.deviceFormat, .end, format.end.end, format.end)
    }
    if let buffers {
      emit(.deviceBuffers, .begin, buffers.begin.begin, buffers.begin)
      emit(.deviceBuffers, .end, buffers.end.end, buffers.end)
    }
    if let streamOn {
      emit(.deviceStreamOn, .begin, streamOn.begin, streamOn)
      emit(.deviceStreamOn, .end, streamOn.end, streamOn)
    }
    let driverFirst = streamOn.flatMap { on in done.first { $0 >= on.begin } }
    return Result(
      events: out.sorted { $0.ts < $1.ts }, owner: owner, driverFirstBuffer: driverFirst, absent: nil)
  }

  /// The first open in `calls` (one process's) whose descriptor gets a V4L2 request before
  /// another open returns the same number.
  private static func firstOpen(in calls: [Call]) -> Call? {
    for (index, call) in calls.enumerated() where call.isOpen && call.result >= 0 {
      let later = calls[(index + 1)...]
      let reopened = later.firstIndex { $0.isOpen && $0.result == call.fd } ?? calls.endIndex
      if later[..<reopened].contains(where: { $0.fd == call.fd && $0.request.map(Request.isV4L2) == true }) {
        return call
      }
    }
    return nil
  }

  /// Each process's calls (entry and exit paired by thread), in the order they began; the
  /// process of the first capture buffer dequeued from the node; the driver's completions.
  private static func calls(
    in events: [KernelDeviceEvent], minor: Int?, start: UInt64, excluding: Set<Int>
  ) -> (calls: [Int: [Call]], owner: (pid: Int, comm: String)?, done: [UInt64]) {
    var pending: [Int: Call] = [:]
    var calls: [Int: [Call]] = [:]
    var owner: (pid: Int, comm: String)?
    var done: [UInt64] = []
    for event in events where event.ts >= start && !excluding.contains(event.process) {
      func enter(_ what: Call.What, _ fd: Int) {
        pending[event.tid] = Call(
          what: what, fd: fd, begin: event.ts, end: event.ts, result: 0, tid: event.tid, comm: event.comm)
      }
      func exit(_ result: Int, open: Bool) {
        guard var call = pending.removeValue(forKey: event.tid), call.isOpen == open else { return }
        call.end = event.ts
        call.result = result
        if open { call.fd = result }
        calls[event.process, default: []].append(call)
      }
      switch event.kind {
      case .openEnter: enter(.open, -1)
      case .ioctlEnter(let fd, let request): enter(.ioctl(request), fd)
      case .mmapEnter(let fd): enter(.mmap, fd)
      case .openExit(let result): exit(result, open: true)
      case .ioctlExit(let result): exit(result, open: false)
      case .mmapExit: exit(0, open: false)
      case .dequeued(let node, let capture):
        // Inside the thread's VIDIOC_DQBUF: the call is marked, and counts when it returns.
        guard capture, minor == nil || node == minor, pending[event.tid]?.request != nil else { continue }
        pending[event.tid]?.dequeued = true
        if owner == nil { owner = (event.process, event.comm) }
      case .bufferDone(let capture): if capture { done.append(event.ts) }
      }
    }
    // The process's name: its main thread's (the thread whose id is the process's).
    if let found = owner, let main = events.first(where: { $0.tid == found.pid && $0.tgid == found.pid }) {
      owner = (found.pid, main.comm)
    }
    for key in calls.keys { calls[key]?.sort { $0.begin < $1.begin } }
    return (calls, owner, done)
  }
}

extension KernelDevicePhases.Call {
  var isOpen: Bool { if case .open = what { true } else { false } }
  /// The ioctl's request; nil for an open or an mmap.
  var request: UInt32? { if case .ioctl(let request) = what { request } else { nil } }
}
