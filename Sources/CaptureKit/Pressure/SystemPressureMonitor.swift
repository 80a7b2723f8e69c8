import Dispatch
import Synchronization
import SystemCalls

/// Linux system pressure as capture-pressure levels: PSI (`/proc/pressure/{cpu,io,memory}`, the
/// "some avg10" figure) and thermal zones (`/sys/class/thermal/thermal_zone*/temp`) where present.
///
/// Thresholds (the level is the worse of the two):
///
/// | level    | PSI some avg10 (max of cpu, io, memory) | hottest thermal zone |
/// |----------|------------------------------------------|----------------------|
/// | nominal  | < 10 %                                   | < 70 °C              |
/// | fair     | 10 – < 30 %                              | 70 – < 80 °C         |
/// | serious  | 30 – < 60 %                              | 80 – < 90 °C         |
/// | critical | ≥ 60 %                                   | 90 – < 100 °C        |
/// | shutdown | (PSI never says shutdown)                | ≥ 100 °C             |
///
/// Missing files count as no pressure (a kernel without PSI, a VM without thermal zones).
public final class SystemPressureMonitor: Sendable {
  /// The folder standing for `/`: tests point it at a fixture tree.
  public let root: String

  /// Creates a monitor reading below `root` (default `/`).
  public init(root: String = "/") {
    self.root = root
  }

  /// The level for a PSI "some avg10" percentage.
  public static func level(psiSomeAvg10 percent: Double) -> SystemPressureLevel {
    switch percent {
    case ..<10: .nominal
    case ..<30: .fair
    case ..<60: .serious
    default: .critical
    }
  }

  /// The level for a temperature in degrees Celsius.
  public static func level(thermalCelsius celsius: Double) -> SystemPressureLevel {
    switch celsius {
    case ..<70: .nominal
    case ..<80: .fair
    case ..<90: .serious
    case ..<100: .critical
    default: .shutdown
    }
  }

  /// The "some avg10" value of a PSI file's text (`some avg10=1.23 avg60=… avg300=… total=…`), or nil.
  public static func parseSomeAvg10(_ text: String) -> Double? {
    for line in text.split(whereSeparator: \.isNewline) {
      let words = line.split(separator: " ")
      guard words.first == "some" else { continue }
      for word in words.dropFirst() where word.hasPrefix("avg10=") {
        return Double(word.dropFirst("avg10=".count))
      }
    }
    return nil
  }

  /// A thermal zone's `temp` text as degrees Celsius (the kernel writes millidegrees; small values are
  /// taken as degrees already), or nil.
  public static func parseThermal(_ text: String) -> Double? {
    guard let raw = Double(text.trimmingWhitespace()) else { return nil }
    return abs(raw) >= 1000 ? raw / 1000 : raw
  }

  /// Reads every source now.
  public func currentReading() -> SystemPressureReading {
    let cpu = read("proc/pressure/cpu").flatMap(SystemPressureMonitor.parseSomeAvg10)
    let io = read("proc/pressure/io").flatMap(SystemPressureMonitor.parseSomeAvg10)
    let memory = read("proc/pressure/memory").flatMap(SystemPressureMonitor.parseSomeAvg10)
    let thermal = thermalZoneTemperatures().max()
    var level = SystemPressureLevel.nominal
    var factors: [String] = []
    for (name, value) in [("cpu", cpu), ("io", io), ("memory", memory)] {
      guard let value else { continue }
      let sourceLevel = SystemPressureMonitor.level(psiSomeAvg10: value)
      if sourceLevel > .nominal { factors.append(name) }
      level = max(level, sourceLevel)
    }
    if let thermal {
      let sourceLevel = SystemPressureMonitor.level(thermalCelsius: thermal)
      if sourceLevel > .nominal { factors.append("thermal") }
      level = max(level, sourceLevel)
    }
    return SystemPressureReading(
      cpuSomeAvg10: cpu, ioSomeAvg10: io, memorySomeAvg10: memory, maxThermalCelsius: thermal, level: level,
      factors: factors)
  }

  /// The level now.
  public func currentLevel() -> SystemPressureLevel { currentReading().level }

  /// Reads the sources every `interval` on `queue` and calls `handler` (on `queue`) with the first
  /// reading and then whenever the level changes. Keep the returned poll; `cancel()` it to stop.
  public func poll(
    interval: Duration, queue: DispatchQueue, handler: @escaping @Sendable (SystemPressureReading) -> Void
  ) -> SystemPressurePoll {
    let poll = SystemPressurePoll()
    let timer = DispatchSource.makeTimerSource(queue: queue)
    let (seconds, attoseconds) = interval.components
    let nanoseconds = max(1_000_000, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    let last = PThreadMutex<SystemPressureLevel?>(nil)
    timer.setEventHandler { [self] in
      let reading = currentReading()
      let changed = last.withLock { previous -> Bool in
        defer { previous = reading.level }
        return previous != reading.level
      }
      if changed { handler(reading) }
    }
    timer.schedule(deadline: .now(), repeating: .nanoseconds(nanoseconds))
    timer.resume()
    poll.install(SystemPressurePoll.TimerBox(source: timer))
    return poll
  }

  private func path(_ relative: String) -> String {
    root.hasSuffix("/") ? root + relative : root + "/" + relative
  }

  private func read(_ relative: String) -> String? {
    // /proc files report size 0: read to the end rather than by size.
    FileSystem.readText(atPath: path(relative), maxBytes: 64 * 1024)
  }

  private func thermalZoneTemperatures() -> [Double] {
    let folder = "sys/class/thermal"
    guard let entries = try? FileSystem.contentsOfDirectory(atPath: path(folder)) else { return [] }
    return entries.filter { $0.hasPrefix("thermal_zone") }.sorted().compactMap { zone in
      read("\(folder)/\(zone)/temp").flatMap(SystemPressureMonitor.parseThermal)
    }
  }
}
