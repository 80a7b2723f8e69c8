import Foundation
import TestSupport
import Testing

@testable import HostConditions

/// The `hot` condition's readings: thermal zones, CPU frequencies and PSI where the machine has
/// them (a fake tree), and a record of what it lacks where it does not.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct HostSensorsTests {
  @Test("thermal zones (°C, named by type), CPU frequencies and PSI some avg10 are read from the tree")
  func readings() throws {
    let sys = FakeSysfs()
    defer { sys.remove() }
    try sys.addCPUs(2)
    try sys.write("thermal/thermal_zone0/temp", "54000\n")
    try sys.write("thermal/thermal_zone0/type", "x86_pkg_temp\n")
    try sys.write("thermal/thermal_zone1/temp", "47500\n")
    try sys.write(
      "pressure/cpu",
      "some avg10=12.50 avg60=3.00 avg300=1.00 total=5\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
    try sys.write("pressure/io", "some avg10=0.10 avg60=0.00 avg300=0.00 total=1\n")
    let sensors = HostSensors(
      thermalRoot: sys.thermalRoot, cpuRoot: sys.cpuRoot, pressureRoot: sys.pressureRoot)
    let reading = sensors.read()
    #expect(reading.thermalCelsius == ["thermal_zone0:x86_pkg_temp": 54, "thermal_zone1": 47.5])
    #expect(reading.frequenciesKHz == ["cpu0": 2_800_000, "cpu1": 2_800_000])
    #expect(reading.psiCPU == 12.5 && reading.psiIO == 0.1 && reading.psiMemory == nil)
    #expect(sensors.missing().isEmpty)
  }

  @Test("a machine without thermal zones, cpufreq or PSI says so")
  func missing() {
    let sys = FakeSysfs()
    defer { sys.remove() }
    let sensors = HostSensors(
      thermalRoot: sys.thermalRoot, cpuRoot: sys.cpuRoot, pressureRoot: sys.pressureRoot)
    let reading = sensors.read()
    #expect(reading.thermalCelsius == nil && reading.frequenciesKHz == nil && reading.psiCPU == nil)
    let missing = sensors.missing()
    #expect(missing.count == 3)
    #expect(missing.first?.hasPrefix("no thermal zones") == true)
  }
}
