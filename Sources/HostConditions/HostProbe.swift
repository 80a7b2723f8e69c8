#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import ResultsSchema
import SystemCalls

/// What the results record about the machine.
package enum HostProbe {
  /// The host record for results.json (real-time priority is filled in after the runs).
  package static func current() -> BenchResults.HostInfo {
    var u = utsname()
    uname(&u)
    let release = withUnsafeBytes(of: &u.release) {
      String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
    let governor =
      FileSystem.readText(atPath: "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")?
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return .init(
      hostname: ProcessInfo.processInfo.hostName, kernel: release,
      cpus: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), realtimeCompositor: false,
      cacheEviction: CacheEvictor.method, governor: governor, machineId: machineID(), cpuModel: cpuModel())
  }

  /// `/etc/machine-id` (systemd), else `/var/lib/dbus/machine-id`, trimmed; nil when neither.
  static func machineID() -> String? {
    for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
      let id = FileSystem.readText(atPath: path)?.trimmingCharacters(
        in: .whitespacesAndNewlines)
      if let id, !id.isEmpty { return id }
    }
    return nil
  }

  /// The first `model name` line of `/proc/cpuinfo`, nil when there is none.
  static func cpuModel() -> String? {
    guard let text = FileSystem.readText(atPath: "/proc/cpuinfo") else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("model name") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return nil
  }
}
