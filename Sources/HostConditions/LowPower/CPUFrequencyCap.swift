#if canImport(Glibc)
  import Glibc
#endif
import Subprocess
import SystemCalls

/// The `low-power` condition's cap where cpufreq is writable: every CPU's governor set to
/// `powersave`, its `energy_performance_preference` to `power` (where it has one and offers it),
/// and its `scaling_max_freq` lowered — what a laptop's power-saver profile does.
///
/// The original values are written to a state file (`statePath`, one `PATH<TAB>VALUE` line each,
/// after a `pid N` and an `owner TOKEN` line naming bench and its `MachineClaim`) before anything
/// is changed, and written back by ``restore()`` when the condition ends — normally, on Ctrl-C or
/// SIGTERM (the runner's interrupt flag ends the condition the ordinary way). A bench killed with
/// SIGKILL cannot restore: its guard does (`ProcessGuard.restoreOnExit(_:)`), and were the guard
/// killed too, the next bench finds the file of a free claim and restores it
/// (``restoreLeftovers(isAlive:)``).
package struct CPUFrequencyCap: Sendable, Hashable {
  /// The folder standing for `/sys/devices/system/cpu`: tests point it at a fake sysfs tree.
  package var root: String
  /// Where the original values are kept while the cap is on.
  package var statePath: String

  /// The default state file (`/run` is a tmpfs root can write, emptied at boot, when the
  /// original values are back anyway).
  package static let defaultStatePath = "/run/firstframe-cpufreq-originals"

  /// A cap on the CPUs under `root`, remembering originals in `statePath`.
  package init(root: String = "/sys/devices/system/cpu", statePath: String = Self.defaultStatePath) {
    self.root = root
    self.statePath = statePath
  }

  /// Every CPU's cpufreq folder (`cpuN/cpufreq`), by CPU name (`cpuN`), in CPU order.
  package func policies() -> [(cpu: String, directory: String)] {
    let names = (try? FileSystem.contentsOfDirectory(atPath: root)) ?? []
    let cpus = names.filter { $0.hasPrefix("cpu") && Int($0.dropFirst(3)) != nil }
      .sorted { Int($0.dropFirst(3))! < Int($1.dropFirst(3))! }
    return cpus.map { ($0, "\(root)/\($0)/cpufreq") }.filter {
      FileSystem.readText(atPath: $0.directory + "/scaling_max_freq", maxBytes: 64) != nil
    }
  }

  /// Whether every CPU's `scaling_max_freq` is writable by bench (false without cpufreq).
  package var isWritable: Bool {
    let all = policies()
    return !all.isEmpty && all.allSatisfy { access($0.directory + "/scaling_max_freq", W_OK) == 0 }
  }

  /// What ``apply(fraction:)`` wrote.
  package struct Applied: Sendable, Hashable {
    /// The ceiling written into every `scaling_max_freq`, kHz.
    package var maxFrequencyKHz: Int
    /// The governor written, when every CPU offered `powersave`.
    package var governor: String?
    /// The preference written, when every CPU has one and offers `power`.
    package var energyPerformancePreference: String?
  }

  /// The ceiling for `fraction` of `cpuinfo_max_freq`, never below `cpuinfo_min_freq`, kHz.
  package static func ceiling(fraction: Double, minKHz: Int, maxKHz: Int) -> Int {
    max(minKHz, Int((Double(maxKHz) * fraction).rounded()))
  }

  /// Saves the originals to the state file, then caps every CPU: `powersave` (if offered),
  /// `power` (if offered) and `scaling_max_freq` at `fraction` of `cpuinfo_max_freq`. A state
  /// file already there is a gone bench's (written back first) or a live one's cap (refused).
  /// - Throws: `CPUCapError` when another bench's cap is on, the state file cannot be written or
  ///   a file refuses its value (what was already changed is restored).
  package func apply(fraction: Double) throws(CPUCapError) -> Applied {
    let all = policies()
    guard let first = all.first else { throw CPUCapError("no cpufreq", path: root) }
    let read = { (dir: String, file: String) in
      FileSystem.readText(atPath: dir + "/" + file, maxBytes: 4096)?.trimmingWhitespace()
    }
    let offersPowersave = all.allSatisfy {
      read($0.directory, "scaling_available_governors")?.split(separator: " ").contains("powersave") == true
    }
    let offersPower = all.allSatisfy {
      read($0.directory, "energy_performance_available_preferences")?.split(separator: " ").contains("power")
        == true
        && read($0.directory, "energy_performance_preference") != nil
    }
    let minKHz = read(first.directory, "cpuinfo_min_freq").flatMap { Int($0) } ?? 0
    let maxKHz = read(first.directory, "cpuinfo_max_freq").flatMap { Int($0) } ?? 0
    guard maxKHz > 0 else { throw CPUCapError("no cpuinfo_max_freq", path: first.directory) }
    let ceiling = Self.ceiling(fraction: fraction, minKHz: minKHz, maxKHz: maxKHz)
    var writes: [(path: String, value: String)] = []
    for policy in all {
      if offersPowersave { writes.append((policy.directory + "/scaling_governor", "powersave")) }
      if offersPower { writes.append((policy.directory + "/energy_performance_preference", "power")) }
      writes.append((policy.directory + "/scaling_max_freq", String(ceiling)))
    }
    // Another cap's originals: written back when their bench is gone, else never overwritten
    // (saving the capped values as the originals would leave the machine capped for good).
    if FileSystem.exists(atPath: statePath) {
      restoreLeftovers()
      if FileSystem.exists(atPath: statePath) {
        throw CPUCapError(
          "another bench's cpufreq cap is on (its originals are kept here): not capping over it",
          path: statePath)
      }
    }
    try saveOriginals(of: writes.map(\.path))
    ProcessGuard.running?.restoreOnExit(statePath)
    for write in writes {
      do {
        try FileSystem.writeControlFile(write.value + "\n", atPath: write.path)
      } catch {
        restore()
        throw CPUCapError("cannot write \(write.value)", path: write.path, errno: error)
      }
    }
    return Applied(
      maxFrequencyKHz: ceiling, governor: offersPowersave ? "powersave" : nil,
      energyPerformancePreference: offersPower ? "power" : nil)
  }

  /// Writes the state file: `pid N`, then each path with its current value.
  func saveOriginals(of paths: [String]) throws(CPUCapError) {
    var text = "pid \(getpid())\nowner \(MachineClaim.currentToken)\n"
    for path in paths {
      guard let value = FileSystem.readText(atPath: path, maxBytes: 4096)?.trimmingWhitespace() else {
        throw CPUCapError("cannot read the original value", path: path)
      }
      text += "\(path)\t\(value)\n"
    }
    do {
      try FileSystem.replaceAtomically(text, atPath: statePath, mode: 0o600)
    } catch {
      throw CPUCapError("cannot save the original cpufreq settings", path: statePath, errno: error)
    }
  }

  /// Writes the saved originals back and removes the state file. Returns how many values were
  /// written back (0 when there was no state file).
  @discardableResult
  package func restore() -> Int {
    // The governor first: some drivers clamp scaling_max_freq to what the governor allows.
    let restored = SavedControlValues.writeBack(from: statePath, first: "/scaling_governor")
    ProcessGuard.running?.keep(statePath)
    return restored
  }

  /// The bench that wrote the state file, when there is one.
  package func stateOwner() -> pid_t? {
    guard let text = FileSystem.readText(atPath: statePath, maxBytes: 1 << 20),
      let line = text.split(separator: "\n").first, line.hasPrefix("pid ")
    else { return nil }
    return pid_t(line.dropFirst(4))
  }

  /// Restores what a bench that is gone left capped: one whose claim (the `owner` line) is free,
  /// in whatever pid namespace it ran; for a state file without one (or naming a bare pid),
  /// whose pid is no longer
  /// alive (`isAlive`). Returns how many values were written back (0 when nothing was left, or
  /// its bench still runs).
  @discardableResult
  package func restoreLeftovers(isAlive: (pid_t) -> Bool = ProcessControl.isAlive) -> Int {
    let text = FileSystem.readText(atPath: statePath, maxBytes: 1 << 20) ?? ""
    if let token = SavedControlValues.owner(in: text), token.contains("x") {
      guard token != MachineClaim.currentToken, MachineClaim.isFree(token: token) else { return 0 }
    } else {
      guard let owner = stateOwner(), owner != getpid(), !isAlive(owner) else { return 0 }
    }
    return restore()
  }

  /// Every CPU's settings now, for the record: `cpuN` → (`scaling_cur_freq` kHz,
  /// `scaling_max_freq` kHz, governor).
  package func readBack() -> [String: (currentKHz: Int?, maxKHz: Int?, governor: String?)] {
    var out: [String: (Int?, Int?, String?)] = [:]
    for policy in policies() {
      let read = { (file: String) in
        FileSystem.readText(atPath: policy.directory + "/" + file, maxBytes: 256)?.trimmingWhitespace()
      }
      out[policy.cpu] = (
        read("scaling_cur_freq").flatMap { Int($0) }, read("scaling_max_freq").flatMap { Int($0) },
        read("scaling_governor")
      )
    }
    return out
  }
}
