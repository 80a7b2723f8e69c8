#if canImport(Glibc)
  import Glibc
#endif
import BenchAnalysis
import Foundation

/// What the results record about the machine.
public enum HostProbe {
  /// The host record for results.json (real-time priority is filled in after the runs).
  public static func current() -> BenchResults.HostInfo {
    var u = utsname()
    uname(&u)
    let release = withUnsafeBytes(of: &u.release) {
      String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
    let governor =
      (try? String(contentsOfFile: "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", encoding: .utf8))?
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return .init(
      hostname: ProcessInfo.processInfo.hostName, kernel: release,
      cpus: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), realtimeCompositor: false,
      cacheEviction: CacheEvictor.method, governor: governor)
  }
}
