import Dispatch
import Foundation
import Testing
import TestSupport

@testable import CaptureKit

@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct SystemPressureMonitorTests {
  static let psi = """
    some avg10=35.50 avg60=12.00 avg300=3.10 total=123456
    full avg10=1.00 avg60=0.00 avg300=0.00 total=42
    """

  /// A fixture root with PSI files and thermal zones.
  func fixture(cpu: String?, io: String?, memory: String?, zones: [String]) throws -> String {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ck-psi-\(UInt64.random(in: 0...UInt64.max))")
    let pressure = root.appendingPathComponent("proc/pressure")
    try FileManager.default.createDirectory(at: pressure, withIntermediateDirectories: true)
    for (name, text) in [("cpu", cpu), ("io", io), ("memory", memory)] {
      if let text {
        try text.write(to: pressure.appendingPathComponent(name), atomically: true, encoding: .utf8)
      }
    }
    for (index, temp) in zones.enumerated() {
      let zone = root.appendingPathComponent("sys/class/thermal/thermal_zone\(index)")
      try FileManager.default.createDirectory(at: zone, withIntermediateDirectories: true)
      try temp.write(to: zone.appendingPathComponent("temp"), atomically: true, encoding: .utf8)
    }
    return root.path
  }

  @Test("PSI text parses to its some avg10 figure")
  func parsePSI() {
    #expect(SystemPressureMonitor.parseSomeAvg10(Self.psi) == 35.5)
    #expect(SystemPressureMonitor.parseSomeAvg10("full avg10=9.00 avg60=0 avg300=0 total=0") == nil)
    #expect(SystemPressureMonitor.parseSomeAvg10("garbage") == nil)
    #expect(SystemPressureMonitor.parseThermal("82000\n") == 82)
    #expect(SystemPressureMonitor.parseThermal("45") == 45)
  }

  @Test("thresholds map PSI and temperature to levels")
  func thresholds() {
    #expect(SystemPressureMonitor.level(psiSomeAvg10: 9.99) == .nominal)
    #expect(SystemPressureMonitor.level(psiSomeAvg10: 10) == .fair)
    #expect(SystemPressureMonitor.level(psiSomeAvg10: 30) == .serious)
    #expect(SystemPressureMonitor.level(psiSomeAvg10: 60) == .critical)
    #expect(SystemPressureMonitor.level(psiSomeAvg10: 100) == .critical)
    #expect(SystemPressureMonitor.level(thermalCelsius: 69) == .nominal)
    #expect(SystemPressureMonitor.level(thermalCelsius: 75) == .fair)
    #expect(SystemPressureMonitor.level(thermalCelsius: 85) == .serious)
    #expect(SystemPressureMonitor.level(thermalCelsius: 95) == .critical)
    #expect(SystemPressureMonitor.level(thermalCelsius: 100) == .shutdown)
    #expect(SystemPressureLevel.nominal < .fair && .critical < .shutdown)
  }

  @Test("a fixture tree reads as the worst of its sources")
  func fixtureLevels() throws {
    let root = try fixture(
      cpu: Self.psi, io: "some avg10=2.00 avg60=0 avg300=0 total=1\n",
      memory: "some avg10=0.00 avg60=0 avg300=0 total=0\n",
      zones: ["45000\n", "82000\n"])
    defer { try? FileManager.default.removeItem(atPath: root) }
    let reading = SystemPressureMonitor(root: root).currentReading()
    #expect(reading.cpuSomeAvg10 == 35.5 && reading.ioSomeAvg10 == 2 && reading.memorySomeAvg10 == 0)
    #expect(reading.maxThermalCelsius == 82)
    #expect(reading.level == .serious)
    #expect(reading.factors == ["cpu", "thermal"])

    let hot = try fixture(cpu: nil, io: nil, memory: nil, zones: ["101000"])
    defer { try? FileManager.default.removeItem(atPath: hot) }
    #expect(SystemPressureMonitor(root: hot).currentLevel() == .shutdown)
  }

  @Test("missing sources read as nominal")
  func missingSources() throws {
    let root = try fixture(cpu: nil, io: nil, memory: nil, zones: [])
    defer { try? FileManager.default.removeItem(atPath: root) }
    let reading = SystemPressureMonitor(root: root).currentReading()
    #expect(reading.level == .nominal && !reading.hasAnySource)
  }

  @Test("poll reports the first reading and then level changes")
  func poll() async throws {
    let root = try fixture(cpu: "some avg10=1.00 avg60=0 avg300=0 total=0\n", io: nil, memory: nil, zones: [])
    defer { try? FileManager.default.removeItem(atPath: root) }
    let levels = Collector<SystemPressureLevel>()
    let poll = SystemPressureMonitor(root: root).poll(
      interval: .milliseconds(5), queue: DispatchQueue(label: "test.poll")
    ) {
      levels.append($0.level)
    }
    #expect(await levels.waitForCount(1))
    try "some avg10=70.00 avg60=0 avg300=0 total=0\n".write(
      toFile: root + "/proc/pressure/cpu", atomically: true, encoding: .utf8)
    #expect(await levels.waitForCount(2))
    poll.cancel()
    #expect(levels.values.prefix(2) == [.nominal, .critical])
  }
}
