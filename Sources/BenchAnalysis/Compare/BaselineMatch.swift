import ResultsSchema

/// Whether a baseline was made the same way as the results it gates, on the same machine.
///
/// Compared: the tool version; how the launches were made (camera, cost profile name and
/// contents hash, app command, outputs, refresh rate, tap, lock seconds, injected delay, the
/// loaded condition's load kind); what
/// the machine allowed (real-time priority of the compositor and of the camera thread, the
/// cache-eviction method); and the machine itself (machine id, kernel, CPU model and count). A
/// value recorded on one side only is a difference: it cannot be shown to match.
public enum BaselineMatch {
  /// Each difference as `what baseline vs results`, in a fixed order; empty when they match.
  public static func differences(baseline: BenchResults, results: BenchResults) -> [String] {
    let (b, r) = (baseline, results)
    var out: [String] = []
    func compare(_ what: String, _ x: String?, _ y: String?) {
      if x != y { out.append("\(what) \(x ?? "(not recorded)") vs \(y ?? "(not recorded)")") }
    }
    func text(_ v: Bool?) -> String? { v.map { $0 ? "granted" : "not granted" } }
    func number(_ v: Double) -> String { v.rounded() == v ? String(Int(v)) : String(v) }
    compare("tool version", b.tool.version, r.tool.version)
    compare("camera", b.settings.camera, r.settings.camera)
    compare("profile", b.settings.profileName, r.settings.profileName)
    compare("profile contents", b.settings.profileHash, r.settings.profileHash)
    compare("app", b.settings.app, r.settings.app)
    compare(
      "outputs", b.settings.outputs.joined(separator: ","), r.settings.outputs.joined(separator: ","))
    compare("refresh Hz", number(b.settings.refreshHz), number(r.settings.refreshHz))
    compare("tap", String(b.settings.tap), String(r.settings.tap))
    compare("lock seconds", number(b.settings.lockSeconds), number(r.settings.lockSeconds))
    compare(
      "injected delay ms", b.settings.injectDelayMs.map(String.init) ?? "none",
      r.settings.injectDelayMs.map(String.init) ?? "none")
    // Results from before --load all loaded the CPU only.
    compare("load", b.settings.load?.kind ?? "cpu", r.settings.load?.kind ?? "cpu")
    compare("real-time compositor", text(b.host.realtimeCompositor), text(r.host.realtimeCompositor))
    compare("real-time camera", text(b.host.realtimeCamera), text(r.host.realtimeCamera))
    // Results from before the X11 path were all made on the shared-memory surface.
    compare("display", b.settings.display ?? "shm", r.settings.display ?? "shm")
    compare("cache eviction", b.host.cacheEviction, r.host.cacheEviction)
    compare("machine id", b.host.machineId, r.host.machineId)
    compare("kernel", b.host.kernel, r.host.kernel)
    compare("CPU model", b.host.cpuModel, r.host.cpuModel)
    compare("CPUs", String(b.host.cpus), String(r.host.cpus))
    return out
  }
}
