/// One look at the system's pressure sources and the level they add up to.
public struct SystemPressureReading: Sendable, Hashable {
  /// `/proc/pressure/cpu` "some avg10": percent of the last 10 s some task waited for CPU; nil when absent.
  public var cpuSomeAvg10: Double?
  /// `/proc/pressure/io` "some avg10", percent; nil when absent.
  public var ioSomeAvg10: Double?
  /// `/proc/pressure/memory` "some avg10", percent; nil when absent.
  public var memorySomeAvg10: Double?
  /// The hottest thermal zone, degrees Celsius; nil when there are none.
  public var maxThermalCelsius: Double?
  /// The worst of the PSI level and the thermal level.
  public var level: SystemPressureLevel
  /// Which sources raised the level above nominal, for example `["cpu", "thermal"]`.
  public var factors: [String]

  /// Creates a reading.
  public init(
    cpuSomeAvg10: Double?, ioSomeAvg10: Double?, memorySomeAvg10: Double?, maxThermalCelsius: Double?,
    level: SystemPressureLevel, factors: [String]
  ) {
    self.cpuSomeAvg10 = cpuSomeAvg10
    self.ioSomeAvg10 = ioSomeAvg10
    self.memorySomeAvg10 = memorySomeAvg10
    self.maxThermalCelsius = maxThermalCelsius
    self.level = level
    self.factors = factors
  }

  /// Whether any pressure source could be read at all.
  public var hasAnySource: Bool {
    cpuSomeAvg10 != nil || ioSomeAvg10 != nil || memorySomeAvg10 != nil || maxThermalCelsius != nil
  }
}
