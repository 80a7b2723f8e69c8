import Foundation

/// A fake `/sys/devices/system/cpu` (and thermal, PSI) tree in a temporary folder, for the paths
/// this machine does not have: regular files that take writes as sysfs attributes do.
package struct FakeSysfs {
  /// A new, empty tree.
  package init() {}
  /// The tree's folder.
  package let root = temporaryFolder("fake-sysfs")
  /// The CPUs' folder (`cpuN/cpufreq/…`).
  package var cpuRoot: String { root + "/cpu" }
  /// The thermal zones' folder.
  package var thermalRoot: String { root + "/thermal" }
  /// The PSI folder.
  package var pressureRoot: String { root + "/pressure" }

  /// Writes `text` at `path` under the tree, making its folders.
  package func write(_ path: String, _ text: String) throws {
    let full = root + "/" + path
    try FileManager.default.createDirectory(
      atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: full, atomically: false, encoding: .utf8)
  }

  /// A file's contents, trimmed.
  package func read(_ path: String) -> String? {
    (try? String(contentsOfFile: root + "/" + path, encoding: .utf8))?.trimmingCharacters(
      in: .whitespacesAndNewlines)
  }

  /// `count` CPUs with cpufreq (a `performance` governor, `balance_performance`, 400–3000 MHz),
  /// `cpuN/cpufreq/scaling_cur_freq` at 2.8 GHz.
  package func addCPUs(_ count: Int, energyPreference: Bool = true) throws {
    for n in 0..<count {
      let dir = "cpu/cpu\(n)/cpufreq/"
      try write(dir + "scaling_governor", "performance\n")
      try write(dir + "scaling_available_governors", "performance powersave\n")
      try write(dir + "cpuinfo_min_freq", "400000\n")
      try write(dir + "cpuinfo_max_freq", "3000000\n")
      try write(dir + "scaling_max_freq", "3000000\n")
      try write(dir + "scaling_cur_freq", "2800000\n")
      if energyPreference {
        try write(dir + "energy_performance_preference", "balance_performance\n")
        try write(
          dir + "energy_performance_available_preferences",
          "default performance balance_performance balance_power power\n")
      }
    }
  }

  /// Removes the tree.
  package func remove() { try? FileManager.default.removeItem(atPath: root) }
}
