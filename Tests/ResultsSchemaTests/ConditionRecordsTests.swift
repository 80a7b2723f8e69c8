import Foundation
import ResultsSchema
import Testing

/// The `low-power` and `hot` records of a run survive results.json: written and read back whole
/// (they are additions: older files, without them, read as before).
@Suite struct ConditionRecordsTests {
  @Test("a run's lowPower and hot records are written to results.json and read back unchanged")
  func roundTrip() throws {
    var record = BenchResults.RunRecord(
      run: 1, ok: true, error: nil, phases: ["first_frame_observed": 420], counts: [:])
    var cap = BenchResults.LowPowerRecord(method: "cgroup-v1-quota", verified: true)
    cap.cgroup = "/firstframe-10-low-power-deferred-1"
    (cap.quotaMicroseconds, cap.periodMicroseconds, cap.placement) = (50_000, 100_000, "before-exec")
    (cap.periods, cap.throttledPeriods, cap.throttledMs) = (18, 4, 102.25)
    record.lowPower = cap
    record.hot = BenchResults.HotRecord(
      soakSeconds: 10, burners: 2, cpus: [0, 1], beforeSoak: .init(psiCPU: 1.5),
      atSpawn: .init(
        thermalCelsius: ["thermal_zone0:x86_pkg_temp": 71], frequenciesKHz: ["cpu0": 1_200_000], psiCPU: 97),
      atFirstFrame: .init(psiCPU: 98, psiIO: 0.5, psiMemory: 0), missing: ["no PSI (/proc/pressure)"],
      appPressureLevel: "critical")
    let data = try JSONEncoder().encode(record)
    let back = try JSONDecoder().decode(BenchResults.RunRecord.self, from: data)
    #expect(back.lowPower == record.lowPower)
    #expect(back.hot == record.hot)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["lowPower"] != nil && object["hot"] != nil)
    let plain = try JSONDecoder().decode(
      BenchResults.RunRecord.self, from: Data(#"{"run":1,"ok":true,"phases":{},"counts":{}}"#.utf8))
    #expect(plain.lowPower == nil && plain.hot == nil)
  }
}
