extension BenchResults {
  /// Where a run's device phases came from (issue 40; docs/kernel-device-phases.md):
  /// `RunRecord.devicePhases`, written as `device_phases`. Each phase is taken from the first
  /// source that has it — the kernel's trace, then the preload library's events (for apps it is
  /// loaded into) or the app's own trace — and every source's phases are kept, so that the
  /// sources can be compared run by run.
  public struct DevicePhasesRecord: Codable, Sendable, Equatable {
    /// Which source one phase came from, and the process that did it.
    public struct Source: Codable, Sendable, Equatable {
      /// `kernel`, `preload` or `app`.
      public var source: String
      /// The process that did it (the kernel's: whichever process streamed the camera).
      public var pid: Int
      /// The process's name, where the source says (the kernel does).
      public var process: String?
      /// The name of its thread that did it, where the source says (the kernel does).
      public var comm: String?
      /// Creates one.
      public init(source: String, pid: Int, process: String? = nil, comm: String? = nil) {
        self.source = source
        self.pid = pid
        self.process = process
        self.comm = comm
      }
    }

    /// Each device phase in the run's `phases` → its source.
    public var sources: [String: Source]
    /// Each source that had device phases in the run → its phases, ms.
    public var bySource: [String: [String: Double]]
    /// The first capture buffer the driver completed after stream-on (`vb2:vb2_buf_done`), ms
    /// since the run's origin; absent without the kernel's trace.
    public var driverFirstBufferMs: Double?
    /// Why the kernel gave no device phases in this run (no tracefs, no V4L2 tracepoints, no
    /// buffer dequeued from the camera); absent when it gave them.
    public var kernelAbsent: String?
    /// Events the kernel's device trace dropped in the run (its buffer was full).
    public var kernelLostEvents: Int?

    enum CodingKeys: String, CodingKey {
      case sources
      case bySource = "by_source"
      case driverFirstBufferMs = "driver_first_buffer_ms"
      case kernelAbsent = "kernel_absent"
      case kernelLostEvents = "kernel_lost_events"
    }

    /// Creates a record.
    public init(
      sources: [String: Source], bySource: [String: [String: Double]], driverFirstBufferMs: Double? = nil,
      kernelAbsent: String? = nil, kernelLostEvents: Int? = nil
    ) {
      self.sources = sources
      self.bySource = bySource
      self.driverFirstBufferMs = driverFirstBufferMs
      self.kernelAbsent = kernelAbsent
      self.kernelLostEvents = kernelLostEvents
    }
  }
}
