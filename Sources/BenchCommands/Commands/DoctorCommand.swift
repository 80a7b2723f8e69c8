import BenchKit
import Foundation
import Synchronization
import SystemCalls
import V4L2Camera

#if canImport(Glibc)
  import Glibc
#endif

/// `bench doctor`: what this machine offers a launch benchmark — cameras (V4L2 devices with
/// formats, sizes and rates, and whether this user may open them), page-cache dropping,
/// real-time priority, PSI, the CPU governor and thermal zones. Always exits 0.
package enum DoctorCommand: Command {
  /// Doctor takes no options.
  package typealias Options = Void

  /// The option table (only `--help`).
  package static let spec = CommandLineSpec(
    command: "bench doctor", synopsis: "",
    summary: "Checks what this machine offers a camera launch benchmark: V4L2 cameras (formats, sizes, rates,"
      + " access), page-cache dropping (cold runs), real-time priority, PSI, CPU governor, thermal zones, the X11 display path.",
    options: [], epilogue: "exit status: 0 (findings are reported, not judged); 2 for a usage error")

  /// Checks the command line: no arguments.
  package static func options(from o: ParsedOptions) throws(UsageError) {
    try o.expectNoArguments()
  }

  /// Writes the report to `output`; always 0.
  package static func execute(
    _ options: Void, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) -> Int32 {
    output.write(report())
    return 0
  }

  /// The whole report, as printed.
  static func report() -> String {
    var out = "libv4l2 (V4L2 cameras): "
    if let why = LibV4L2.load() {
      out += "cannot be loaded (\(why)); install the package \(LibV4L2.package)\n"
    } else {
      out += "loads (\(LibV4L2.soname))\n"
    }
    out += "cameras (V4L2):\n"
    let devices = V4L2Camera.enumerate()
    if devices.isEmpty { out += "  none (no /dev/video* capture device)\n" }
    for d in devices {
      if d.mayOpen {
        out += "  \(d.path): \(d.card) (driver \(d.driver), bus \(d.bus)) — may open: yes\n"
        for f in d.formats {
          out += "    \(f.fourCC)\(f.isEmulated ? " (converted by libv4l2)" : "") \(f.name)\n"
          for s in f.sizes { out += "      \(s)\n" }
        }
      } else {
        out += "  \(d.path): may open: no — \(d.problem ?? "unknown reason")\n"
      }
    }
    out += "drop page caches: \(dropCaches())\n"
    out += "real-time priority (SCHED_FIFO): \(realTimePriority())\n"
    out += "PSI: \(pressure())\n"
    out += "CPU governor: \(governor())\n"
    out += "thermal zones: \(thermalZones())\n"
    for server in DisplayCommands.servers {
      if let line = server.doctorLine() { out += line + "\n" }
    }
    return out
  }

  static func dropCaches() -> String {
    let path = "/proc/sys/vm/drop_caches"
    if geteuid() != 0 { return "no (not root; cold runs use posix_fadvise DONTNEED only)" }
    return access(path, W_OK) == 0 ? "yes (root, \(path) writable)" : "no (\(path) not writable)"
  }

  /// Tries `SCHED_FIFO` priority 1 on a fresh thread (the process's own policy is untouched).
  static func realTimePriority() -> String {
    let result = ResultBox()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      var param = sched_param()
      param.sched_priority = 1
      let rc = pthread_setschedparam(pthread_self(), SCHED_FIFO, &param)
      result.value.withLock { $0 = rc }
      done.signal()
    }
    thread.start()
    done.wait()
    let rc = result.value.withLock { $0 }
    return rc == 0 ? "yes" : "no (\(String(cString: strerror(rc))); needs CAP_SYS_NICE or an RLIMIT_RTPRIO)"
  }

  static func pressure() -> String {
    let present = ["cpu", "memory", "io"].filter { access("/proc/pressure/\($0)", R_OK) == 0 }
    return present.isEmpty
      ? "no (/proc/pressure missing: kernel without CONFIG_PSI or psi=0)"
      : "yes (" + present.map { "/proc/pressure/\($0)" }.joined(separator: ", ") + ")"
  }

  static func governor() -> String {
    let text = try? String(
      contentsOfFile: "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", encoding: .utf8)
    return text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
  }

  static func thermalZones() -> String {
    let base = "/sys/class/thermal"
    let zones = ((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [])
      .filter { $0.hasPrefix("thermal_zone") }.sorted()
    if zones.isEmpty { return "none" }
    return zones.map { zone in
      let type =
        (try? String(contentsOfFile: "\(base)/\(zone)/type", encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
      let milli = (try? String(contentsOfFile: "\(base)/\(zone)/temp", encoding: .utf8))
        .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
      return "\(zone) \(type)" + (milli.map { " \(Double($0) / 1000) °C" } ?? "")
    }.joined(separator: ", ")
  }
}

/// The real-time probe's result, written by the probe thread.
private final class ResultBox: Sendable {
  let value = PThreadMutex<Int32>(-1)
}
