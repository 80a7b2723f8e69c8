import SystemCalls

/// How big a tracefs buffer the next run gets: sized from what the runs so far put in it, so
/// that a machine where events come faster than bench expected (another tracer waking its
/// reader for every event it records, a flood of CPU-clock reads, a loaded machine) loses none
/// after the first run that came near the edge. A run that lost events stays incomplete (its
/// breakdown is not shown); the runs after it get room. Pure: no I/O.
package enum TraceBufferSizing {
  /// A run's busiest CPU may fill at most this fraction of its buffer (1 / headroom): a run can
  /// record several times the events of the one before it (a loaded run's switches vary 2–3×).
  package static let headroom = 4
  /// The largest buffer per CPU bench asks for, KiB (64 MiB): beyond it the text of one run
  /// would take seconds to read and parse between runs, long enough for a warm device to cool.
  package static let ceilingKBPerCPU = 65536

  /// The size per CPU, KiB, for the next run of a buffer of `currentKB` whose busiest CPU
  /// needed `busiestCPUBytes` in the last run (the bytes it held plus an estimate of those it
  /// lost), capped at `ceilingKB`; nil when the current size leaves the headroom (never shrinks).
  package static func next(currentKB: Int, busiestCPUBytes: Int, ceilingKB: Int = ceilingKBPerCPU) -> Int? {
    let (wanted, overflow) = busiestCPUBytes.multipliedReportingOverflow(by: headroom)
    let wantKB = overflow ? Int.max / 1024 : (wanted / 1024 + (wanted % 1024 == 0 ? 0 : 1))
    guard wantKB > currentKB, currentKB < ceilingKB else { return nil }
    var kb = max(currentKB, 1)
    while kb < wantKB, kb < ceilingKB { kb *= 2 }
    return min(kb, ceilingKB)
  }

  /// The bytes one CPU's buffer would have needed for every event of the run: what it holds
  /// plus its lost events at the run's average size (64 bytes each when it held none).
  package static func neededBytes(held bytes: Int, entries: Int, lost: Int) -> Int {
    let perEvent = entries > 0 ? max(1, bytes / entries) : 64
    return bytes + lost * perEvent
  }

  /// The ceiling for this machine, KiB per CPU: ``ceilingKBPerCPU``, or a sixteenth of the
  /// memory available (`MemAvailable` of `meminfo`) shared by the `cpus` when that is less.
  package static func ceiling(meminfo: String, cpus: Int) -> Int {
    for line in meminfo.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
      let kb = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
      guard kb > 0 else { break }
      return max(1024, min(ceilingKBPerCPU, kb / 16 / max(1, cpus)))
    }
    return ceilingKBPerCPU
  }
}

extension TracefsSession {
  /// What one instance's buffers held after a run: its events lost, its bytes, all CPUs, and the
  /// bytes its busiest CPU would have needed to lose none.
  struct Usage {
    var lost = 0
    var bytes = 0
    var busiestCPUBytes = 0
    var cpus = 0
  }

  /// `folder`'s usage from its per-CPU `stats` files.
  static func usage(_ folder: String) -> Usage {
    var usage = Usage()
    for cpu in (try? FileSystem.contentsOfDirectory(atPath: folder + "/per_cpu")) ?? [] {
      let stats = TracefsStats(FileSystem.readText(atPath: folder + "/per_cpu/\(cpu)/stats") ?? "")
      let lost = stats.overrun + stats.droppedEvents
      usage.lost += lost
      usage.bytes += stats.bytes
      usage.cpus += 1
      usage.busiestCPUBytes = max(
        usage.busiestCPUBytes,
        TraceBufferSizing.neededBytes(held: stats.bytes, entries: stats.entries, lost: lost))
    }
    return usage
  }

  /// The most trace text bench reads from an instance of `kbPerCPU` on `cpus` CPUs: three times
  /// its binary size (a line of text is about twice an event's bytes), at least ``maxTraceText``.
  package static func readLimit(kbPerCPU: Int, cpus: Int) -> Int {
    max(maxTraceText, 3 * kbPerCPU * 1024 * max(1, cpus))
  }

  /// `folder`'s `trace` text, and whether it was cut at ``readLimit(kbPerCPU:cpus:)``.
  static func readTrace(_ folder: String, kbPerCPU: Int, cpus: Int) -> (text: String, truncated: Bool) {
    let limit = readLimit(kbPerCPU: kbPerCPU, cpus: cpus)
    let bytes = FileSystem.readFile(atPath: folder + "/trace", maxBytes: limit) ?? []
    return (String(decoding: bytes, as: UTF8.self), bytes.count >= limit)
  }

  /// `folder`'s buffer size per CPU now, KiB.
  func bufferKB(of folder: String) -> Int {
    sizes.withLock { $0[folder] } ?? Self.bufferKBPerCPU
  }

  /// Grows `folder`'s buffer when the run just read left it less than the headroom
  /// (``TraceBufferSizing``); tracing is off. A size the kernel refuses (no memory) keeps the old one.
  func grow(_ folder: String, after usage: Usage) {
    let current = bufferKB(of: folder)
    let ceiling = TraceBufferSizing.ceiling(
      meminfo: FileSystem.readText(atPath: "/proc/meminfo", maxBytes: 65536) ?? "", cpus: usage.cpus)
    guard
      let next = TraceBufferSizing.next(
        currentKB: current, busiestCPUBytes: usage.busiestCPUBytes, ceilingKB: ceiling),
      (try? FileSystem.writeControlFile(String(next), atPath: folder + "/buffer_size_kb")) != nil
    else { return }
    sizes.withLock { $0[folder] = next }
  }
}

/// A per-CPU `stats` file of a tracefs instance.
struct TracefsStats {
  var entries = 0
  var overrun = 0
  var droppedEvents = 0
  var bytes = 0

  /// Reads `key: value` lines (`entries: 12`, `overrun: 0`, `dropped events: 0`, `bytes: 3516`).
  init(_ text: String) {
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      guard parts.count == 2, let value = Int(parts[1].filter { $0 != " " }) else { continue }
      switch parts[0] {
      case "entries": entries = value
      case "overrun": overrun = value
      case "dropped events": droppedEvents = value
      case "bytes": bytes = value
      default: break
      }
    }
  }
}
