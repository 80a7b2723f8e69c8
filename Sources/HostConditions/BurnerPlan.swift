#if canImport(Glibc)
  import Glibc
#endif
import ResultsSchema
import SystemCalls

/// `--load`: what the loaded condition's burners do.
package enum LoadKind: String, Sendable, Hashable, CaseIterable {
  /// Spin on the CPU (`CPUSpin`): compute pressure only.
  case cpu
  /// Stream over a buffer bigger than the last-level cache (`memcpy` between its halves, back
  /// and forth): memory-bandwidth and cache pressure on top of the CPU's.
  case memory
}

/// A cgroup v2 CPU limit (`cpu.max`: `QUOTA PERIOD` in µs, or `max PERIOD` for none).
package struct CPUQuota: Sendable, Hashable {
  /// CPU time the group may use per period, µs.
  package var quotaMicroseconds: Int
  /// The period, µs.
  package var periodMicroseconds: Int
  /// How many CPUs' worth of time the quota allows (quota ÷ period).
  package var cpus: Double { Double(quotaMicroseconds) / Double(periodMicroseconds) }
  /// `QUOTA PERIOD`, as `cpu.max` says it.
  package var text: String { "\(quotaMicroseconds) \(periodMicroseconds)" }

  /// Parses one `cpu.max`: nil for `max …` (no limit) or text that is not a limit.
  package static func parse(cpuMax: String) -> CPUQuota? {
    let words = cpuMax.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
    guard words.count >= 1, let quota = Int(words[0]), quota > 0 else { return nil }
    let period = words.count >= 2 ? Int(words[1]) ?? 100_000 : 100_000
    guard period > 0 else { return nil }
    return CPUQuota(quotaMicroseconds: quota, periodMicroseconds: period)
  }

  /// The tightest of the limits along a cgroup's path (each `cpu.max` from the group up to the
  /// root; the kernel enforces every one), or nil when none limits.
  package static func effective(cpuMaxFiles: [String]) -> CPUQuota? {
    cpuMaxFiles.compactMap(parse(cpuMax:)).min { $0.cpus < $1.cpus }
  }

  /// The cgroup v2 path of a process from its `/proc/PID/cgroup` (the `0::PATH` line), or nil.
  package static func cgroupPath(procCgroup: String) -> String? {
    for line in procCgroup.split(separator: "\n") where line.hasPrefix("0::") {
      return String(line.dropFirst(3))
    }
    return nil
  }

  /// This process's effective quota: the `cpu.max` of its cgroup and of every ancestor under
  /// `/sys/fs/cgroup`; nil when none limits or cgroup v2 is not mounted.
  package static func current() -> CPUQuota? {
    guard let text = FileSystem.readText(atPath: "/proc/self/cgroup", maxBytes: 64 * 1024),
      let path = cgroupPath(procCgroup: text)
    else { return nil }
    var files: [String] = []
    var parts = path.split(separator: "/").map(String.init)
    while true {
      let dir = "/sys/fs/cgroup" + (parts.isEmpty ? "" : "/" + parts.joined(separator: "/"))
      if let cpuMax = FileSystem.readText(atPath: dir + "/cpu.max", maxBytes: 256) { files.append(cpuMax) }
      if parts.isEmpty { break }
      parts.removeLast()
    }
    return effective(cpuMaxFiles: files)
  }
}

/// How many burners the loaded condition starts, on which CPUs, and what each does.
///
/// One burner per CPU bench may run on (`sched_getaffinity`), but no more than the cgroup's CPU
/// quota allows (quota ÷ period, rounded up): more burners than the quota would only queue
/// behind each other while the app waits behind them all, a load no real machine shows. Each
/// burner is pinned to its CPU (`sched_setaffinity`). Not `_SC_NPROCESSORS_ONLN`: a container
/// or `taskset` may allow fewer CPUs than are online.
package struct BurnerPlan: Sendable, Hashable {
  /// What each burner does.
  package var kind: LoadKind
  /// The CPU each burner is pinned to, one burner per entry.
  package var cpus: [Int]
  /// The cgroup CPU quota the count was limited by, when there is one.
  package var quota: CPUQuota?
  /// `memory`: the buffer each burner streams over, bytes (twice the last-level cache).
  package var bufferBytes: Int?
  /// `memory`: the last-level cache size read from sysfs, bytes (nil: not readable, fallback used).
  package var lastLevelCacheBytes: Int?

  /// How many burners.
  package var count: Int { cpus.count }

  /// The CPUs to put one burner each on: the first `ceil(quota)` of `allowed` (all of them
  /// without a quota), at least one.
  package static func cpus(allowed: [Int], quota: CPUQuota?) -> [Int] {
    let cpus = allowed.isEmpty ? [0] : allowed.sorted()
    guard let quota else { return cpus }
    let limit = max(1, Int(quota.cpus.rounded(.up)))
    return Array(cpus.prefix(limit))
  }

  /// The buffer a memory burner streams over: twice `lastLevelCache` (32 MiB when unknown),
  /// within 8 MiB … 1 GiB.
  package static func bufferBytes(lastLevelCache: Int?) -> Int {
    min(max(2 * (lastLevelCache ?? 16 << 20), 8 << 20), 1 << 30)
  }

  /// The plan for this process now: its affinity, its cgroup's quota and, for `memory`, the
  /// cache size of cpu0.
  package static func current(kind: LoadKind) -> BurnerPlan {
    let allowed = (try? CPUAffinity.get()) ?? []
    let quota = CPUQuota.current()
    let cache = kind == .memory ? LastLevelCache.bytes() : nil
    return BurnerPlan(
      kind: kind, cpus: cpus(allowed: allowed, quota: quota), quota: quota,
      bufferBytes: kind == .memory ? bufferBytes(lastLevelCache: cache) : nil,
      lastLevelCacheBytes: cache)
  }

  /// The record in results (`settings.load`).
  package var info: BenchResults.LoadInfo {
    BenchResults.LoadInfo(
      kind: kind.rawValue, burners: count, cpus: cpus, cpuQuota: quota?.text, bufferBytes: bufferBytes,
      lastLevelCacheBytes: lastLevelCacheBytes)
  }
}

/// The last-level cache's size, from sysfs.
package enum LastLevelCache {
  /// The size of the highest-level data or unified cache of cpu0
  /// (`/sys/devices/system/cpu/cpu0/cache/indexN/{level,type,size}`), bytes; nil when unreadable.
  package static func bytes(root: String = "/sys/devices/system/cpu/cpu0/cache") -> Int? {
    var best: (level: Int, bytes: Int)?
    for index in 0..<16 {
      let dir = "\(root)/index\(index)"
      guard
        let level = FileSystem.readText(atPath: dir + "/level", maxBytes: 64).flatMap({
          Int($0.trimmingWhitespace())
        }),
        let type = FileSystem.readText(atPath: dir + "/type", maxBytes: 64)?.trimmingWhitespace(),
        type != "Instruction",
        let size = FileSystem.readText(atPath: dir + "/size", maxBytes: 64).flatMap({ parseSize($0) })
      else { continue }
      if level > best?.level ?? Int.min { best = (level, size) }
    }
    return best?.bytes
  }

  /// `32768K`, `1M`, `512` (bytes) → bytes; nil when not a size.
  package static func parseSize(_ text: String) -> Int? {
    let t = text.trimmingWhitespace()
    guard let last = t.last else { return nil }
    let scale: Int
    switch last {
    case "K", "k": scale = 1 << 10
    case "M", "m": scale = 1 << 20
    case "G", "g": scale = 1 << 30
    default: return Int(t).flatMap { $0 > 0 ? $0 : nil }
    }
    guard let n = Int(t.dropLast()), n > 0 else { return nil }
    return n * scale
  }
}
