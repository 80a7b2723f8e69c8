import Subprocess
import SystemCalls

extension TracefsSession {
  /// The device instance's name after the main instance's.
  package static let deviceSuffix = "-device"
  /// The device instance's events, each as `group/event` (docs/kernel-device-phases.md): the
  /// system calls that open, set up and stream a V4L2 node, and the buffers dequeued and completed.
  package static let deviceEvents = [
    "syscalls/sys_enter_openat", "syscalls/sys_exit_openat", "syscalls/sys_enter_ioctl",
    "syscalls/sys_exit_ioctl",
    "syscalls/sys_enter_mmap", "syscalls/sys_exit_mmap", "v4l2/v4l2_dqbuf", "vb2/vb2_buf_done",
  ]
  /// Its ring buffer per CPU, KiB: every process's `openat`, `ioctl` and file `mmap` for a run.
  package static let deviceBufferKBPerCPU = 4096
  /// The device instance's folder (``deviceEvents``, every process: docs/kernel-device-phases.md);
  /// nil when the kernel lacks the events or the instance could not be made.
  package var devicePath: String? { device.path }
  /// Why there is no device instance; nil when there is one.
  package var deviceAbsence: String? { device.absence }
  /// Its event filters: `mmap` of a file only (an anonymous map's descriptor is -1).
  static let deviceFilters = ["syscalls/sys_enter_mmap": "fd < 65536"]

  /// Makes the device instance beside the main one at `path`: every process of the machine (no
  /// `set_event_pid`: the camera may be streamed by a daemon bench did not start), the `mono`
  /// clock, tracing off. Returns its folder, or why there is none (a kernel without V4L2's
  /// tracepoints or syscall tracing, a folder that cannot be made).
  static func openDevice(root: String, path: String) -> (path: String?, absence: String?) {
    let missing = deviceEvents.filter { !FileSystem.isDirectory(root + "/events/" + $0) }
    guard missing.isEmpty else {
      return (
        nil, "the kernel's tracefs has no \(missing.joined(separator: ", ")) (no V4L2 or no syscall tracing)"
      )
    }
    let devicePath = path + deviceSuffix
    ProcessGuard.running?.removeDirectoryOnExit(devicePath)
    do {
      try FileSystem.createDirectory(atPath: devicePath, mode: 0o700)
      let device = TracefsSession(root: root, path: devicePath)
      try device.configureDevice()
    } catch {
      try? FileSystem.removeDirectory(atPath: devicePath)
      ProcessGuard.running?.keep(devicePath)
      return (nil, "cannot make the device instance \(devicePath): \(error.message)")
    }
    return (devicePath, nil)
  }

  private func configureDevice() throws(Errno) {
    for (file, value) in [
      ("tracing_on", "0"), ("trace_clock", "mono"), ("buffer_size_kb", String(Self.deviceBufferKBPerCPU)),
      ("options/overwrite", "0"), ("options/record-tgid", "1"),
    ] {
      try FileSystem.writeControlFile(value, atPath: path + "/" + file)
    }
    for event in Self.deviceEvents {
      if let filter = Self.deviceFilters[event] {
        try FileSystem.writeControlFile(filter, atPath: path + "/events/" + event + "/filter")
      }
      try FileSystem.writeControlFile("1", atPath: path + "/events/" + event + "/enable")
    }
  }

  /// This session with `device` (its instance, or why there is none) and `runtimePath`.
  func with(device: (path: String?, absence: String?), runtimePath: String?) -> TracefsSession {
    let session = TracefsSession(root: root, path: path, runtimePath: runtimePath, device: device)
    session.namespaced.withLock { $0 = namespaced.withLock { $0 } }
    session.sizes.withLock { $0 = sizes.withLock { $0 } }
    if let devicePath = device.path { session.sizes.withLock { $0[devicePath] = Self.deviceBufferKBPerCPU } }
    return session
  }

  /// Every instance's folder: the main one, the companion's, the device instance's.
  var allFolders: [String] { paths + (devicePath.map { [$0] } ?? []) }

  /// Reads the device instance's text and lost events into `capture` (tracing is off); returns
  /// its folder and usage, for the buffer's growth.
  func readDevice(into capture: inout Capture) -> (String, Usage)? {
    guard let devicePath else { return nil }
    let usage = Self.usage(devicePath)
    capture.deviceText = Self.readTrace(devicePath, kbPerCPU: bufferKB(of: devicePath), cpus: usage.cpus).text
    capture.deviceLostEvents = usage.lost
    return (devicePath, usage)
  }
}
