/// `--low-power`: how the `low-power` condition caps the CPU.
package enum LowPowerRequest: Sendable, Hashable, CustomStringConvertible {
  /// cpufreq where writable, else a CPU quota of ``defaultFraction``.
  case auto
  /// cpufreq only, at ``defaultFraction`` of the top frequency; not run where cpufreq is not writable.
  case cpufreq
  /// A CPU quota on each run's own cgroup: this fraction of one CPU's time (0 < f ≤ 1), shared
  /// by all the app's threads.
  case quota(Double)

  /// Half: the frequency ceiling is half of `cpuinfo_max_freq`; the quota half of one CPU's time
  /// (a single-threaded launch is slowed about as much by either).
  package static let defaultFraction = 0.5

  /// `auto`, `cpufreq` or `quota:FRACTION`; nil for anything else (a fraction outside 0 < f ≤ 1).
  package init?(parsing text: String) {
    switch text {
    case "auto": self = .auto
    case "cpufreq": self = .cpufreq
    default:
      guard text.hasPrefix("quota:"), let f = Double(text.dropFirst("quota:".count)), f > 0, f <= 1 else {
        return nil
      }
      self = .quota(f)
    }
  }

  /// As on the command line.
  package var description: String {
    switch self {
    case .auto: "auto"
    case .cpufreq: "cpufreq"
    case .quota(let f): "quota:\(f)"
    }
  }
}

/// How this machine carries out the `low-power` condition: the method chosen for the request,
/// or why the condition cannot run here.
package enum LowPowerPlan: Sendable, Hashable, CustomStringConvertible {
  /// cpufreq, capped once for the condition and read back per run.
  case cpufreq(CPUFrequencyCap, fraction: Double)
  /// A quota on each run's own cgroup under `controller`.
  case quota(CgroupCPUController, CPUQuota)

  /// As `settings.lowPower` records it: `cpufreq at 0.5 of cpuinfo_max_freq` or
  /// `cgroup-v1-quota 50000 100000` (quota and period, µs).
  package var description: String {
    switch self {
    case .cpufreq(_, let fraction): "cpufreq at \(fraction) of cpuinfo_max_freq"
    case .quota(let controller, let quota): "\(controller.methodName) \(quota.text)"
    }
  }

  /// `results`' name of the method: `cpufreq`, `cgroup-v1-quota` or `cgroup-v2-quota`.
  package var methodName: String {
    switch self {
    case .cpufreq: "cpufreq"
    case .quota(let controller, _): controller.methodName
    }
  }

  /// The quota for `fraction` of one CPU over a 100 ms period, µs (at least 1 ms, the kernel's
  /// smallest).
  package static func quota(fraction: Double) -> CPUQuota {
    let period = 100_000
    return CPUQuota(
      quotaMicroseconds: max(1000, Int((Double(period) * fraction).rounded())), periodMicroseconds: period)
  }

  /// The plan for `request` on a machine with `cpufreq` and `cgroups` (nil: no hierarchy
  /// carries `cpu`), or the reason the condition cannot run
  /// (the table prints it).
  package static func resolve(
    _ request: LowPowerRequest, cpufreq: CPUFrequencyCap, cgroups: CgroupCPUController?
  ) -> Result<LowPowerPlan, LowPowerUnavailable> {
    let fraction = LowPowerRequest.defaultFraction
    switch request {
    case .quota(let asked):
      return quotaPlan(fraction: asked, cgroups: cgroups)
    case .cpufreq where cpufreq.isWritable, .auto where cpufreq.isWritable:
      return .success(.cpufreq(cpufreq, fraction: fraction))
    case .cpufreq:
      return .failure(
        LowPowerUnavailable(
          "--low-power cpufreq: cpufreq is not writable here (no \(cpufreq.root)/cpuN/cpufreq/scaling_max_freq bench may write)"
        ))
    case .auto:
      return quotaPlan(fraction: fraction, cgroups: cgroups)
    }
  }

  /// A quota of `fraction` on `cgroups`, or why there can be none.
  static func quotaPlan(fraction: Double, cgroups: CgroupCPUController?) -> Result<
    LowPowerPlan, LowPowerUnavailable
  > {
    guard let cgroups else {
      return .failure(
        LowPowerUnavailable(
          "neither cpufreq nor a cgroup cpu controller is writable here (no writable scaling_max_freq; no cgroup hierarchy with cpu)"
        ))
    }
    guard cgroups.isWritable else {
      return .failure(
        LowPowerUnavailable(
          "neither cpufreq nor the cgroup cpu controller is writable by bench (\(cgroups.ownDirectory): no write access)"
        ))
    }
    return .success(.quota(cgroups, quota(fraction: fraction)))
  }
}

/// Why the `low-power` condition cannot run on this machine.
package struct LowPowerUnavailable: Error, Sendable, Hashable {
  /// One line, for the table and `settings.notRun`.
  package var reason: String
  /// Creates the reason.
  package init(_ reason: String) { self.reason = reason }
}
