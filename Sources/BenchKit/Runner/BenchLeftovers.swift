import CameraServices
import Display
import DisplayServers
import SystemCalls
import ThreadTracing

/// What benches that are gone left on the machine, removed by the next bench before it runs
/// anything, whatever its options (a `--thread-states off` bench too): tracefs instances,
/// shared-memory surfaces, private Wayland compositors' and PipeWire daemons' runtime folders
/// (the compositor or daemon still running in one killed) whose claim is free (`MachineClaim`: their owner is gone, in whatever
/// pid namespace it ran), and the claim files freed more than a day ago.
package enum BenchLeftovers {
  /// Removes the leftovers; returns what was removed (instance folders, surface names,
  /// compositors' folders, claim files).
  @discardableResult
  package static func removeStale(
    tracefs: String = TracefsSession.defaultRoot, sharedMemory: String = "/dev/shm",
    compositors: String = "/tmp", claims: [String] = MachineClaim.searchFolders
  ) -> [String] {
    var removed = TracefsSession.removeStale(root: tracefs, claims: claims)
    removed += DisplaySurface.removeStale(directory: sharedMemory, claims: claims)
    removed += WaylandCompositor.removeStale(in: compositors, claims: claims)
    removed += PipeWireService.removeStale(in: compositors, claims: claims)
    for folder in claims {
      removed += MachineClaim.removeFreeClaims(in: folder).map { folder + "/" + $0 }
    }
    return removed
  }
}
