/// What a killed bench left of the `low-power` condition, undone by the next bench before it
/// runs anything: cpufreq settings a SIGKILLed bench left capped (its state file names a dead
/// pid), and `firstframe-<token>-<run>` cgroups whose claim is free (`MachineClaim`).
package enum LowPowerCleanup {
  /// Restores the leftovers on this machine (`cpufreq`, the cgroup hierarchy that carries `cpu`).
  /// Returns how many cpufreq values were written back and which cgroups were removed.
  @discardableResult
  package static func restoreLeftovers(
    cpufreq: CPUFrequencyCap = CPUFrequencyCap(), cgroups: CgroupCPUController? = .detect()
  ) -> (restoredValues: Int, removedGroups: [String]) {
    let values = cpufreq.restoreLeftovers()
    let groups = cgroups?.removeStaleGroups() ?? []
    return (values, groups)
  }
}
