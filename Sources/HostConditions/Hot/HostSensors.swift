import ResultsSchema
import SystemCalls

/// What the `hot` condition reads about the machine: thermal zones, CPU frequencies and pressure
/// stall information. Each folder can be pointed at a fake tree for tests.
package struct HostSensors: Sendable, Hashable {
  /// The folder standing for `/sys/class/thermal`.
  package var thermalRoot: String
  /// The folder standing for `/sys/devices/system/cpu`.
  package var cpuRoot: String
  /// The folder standing for `/proc/pressure`.
  package var pressureRoot: String

  /// Sensors under the given folders (default: the machine's).
  package init(
    thermalRoot: String = "/sys/class/thermal", cpuRoot: String = "/sys/devices/system/cpu",
    pressureRoot: String = "/proc/pressure"
  ) {
    self.thermalRoot = thermalRoot
    self.cpuRoot = cpuRoot
    self.pressureRoot = pressureRoot
  }

  /// Everything readable now; a source the machine lacks is absent.
  package func read() -> BenchResults.HostReading {
    let psi = { (name: String) in
      FileSystem.readText(atPath: "\(pressureRoot)/\(name)", maxBytes: 4096).flatMap(Self.someAvg10)
    }
    let thermal = thermalZones()
    let frequencies = CPUFrequencyCap(root: cpuRoot).readBack().compactMapValues(\.currentKHz)
    return BenchResults.HostReading(
      thermalCelsius: thermal.isEmpty ? nil : thermal,
      frequenciesKHz: frequencies.isEmpty ? nil : frequencies,
      psiCPU: psi("cpu"), psiIO: psi("io"), psiMemory: psi("memory"))
  }

  /// What this machine cannot read at all (`no thermal zones`, `no cpufreq`, `no PSI`).
  package func missing() -> [String] {
    let reading = read()
    var missing: [String] = []
    if reading.thermalCelsius == nil {
      missing.append("no thermal zones (\(thermalRoot)/thermal_zone*/temp)")
    }
    if reading.frequenciesKHz == nil {
      missing.append("no cpufreq (\(cpuRoot)/cpuN/cpufreq/scaling_cur_freq)")
    }
    if reading.psiCPU == nil && reading.psiIO == nil && reading.psiMemory == nil {
      missing.append("no PSI (\(pressureRoot))")
    }
    return missing
  }

  /// `thermal_zoneN[:type]` → °C for every zone with a readable `temp` (millidegrees).
  func thermalZones() -> [String: Double] {
    let names = (try? FileSystem.contentsOfDirectory(atPath: thermalRoot)) ?? []
    var zones: [String: Double] = [:]
    for name in names where name.hasPrefix("thermal_zone") {
      let dir = "\(thermalRoot)/\(name)"
      guard let text = FileSystem.readText(atPath: dir + "/temp", maxBytes: 64),
        let milli = Double(text.trimmingWhitespace())
      else { continue }
      let type = FileSystem.readText(atPath: dir + "/type", maxBytes: 256)?.trimmingWhitespace()
      zones[type.map { "\(name):\($0)" } ?? name] = milli / 1000
    }
    return zones
  }

  /// The `some avg10=` figure of a PSI file, %; nil when absent.
  static func someAvg10(_ text: String) -> Double? {
    for line in text.split(separator: "\n") where line.hasPrefix("some ") {
      for word in line.split(separator: " ") where word.hasPrefix("avg10=") {
        return Double(word.dropFirst("avg10=".count))
      }
    }
    return nil
  }
}
