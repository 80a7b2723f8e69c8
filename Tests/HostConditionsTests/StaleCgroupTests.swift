#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import SystemCalls
import TestSupport
import Testing

@testable import HostConditions

/// A dead bench's run cgroups are removed wherever that bench ran (its own cgroup, a systemd
/// scope, a container's), not only under the sweeping bench's own: on a fake cgroup v2 tree of
/// plain folders.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct StaleCgroupTests {
  @Test("a dead bench's groups go from anywhere in the hierarchy; a live bench's stay, wherever they are")
  func machineWide() throws {
    let sys = FakeSysfs()
    defer { sys.remove() }
    try sys.write("cgroup/cgroup.controllers", "cpu io memory\n")
    let claims = sys.root + "/claims"
    try FileManager.default.createDirectory(atPath: claims, withIntermediateDirectories: true)
    let dead = "\(getpid())x" + String(format: "%016llx", UInt64.random(in: 0...UInt64.max))
    FileDescriptorIO.close(try FileSystem.createFile(atPath: claims + "/" + dead))
    let live = try MachineClaim(folder: claims)
    let mount = sys.root + "/cgroup"
    let groups = [
      "mine.scope/firstframe-\(dead)-a", "system.slice/ci.scope/firstframe-\(dead)-b",
      "firstframe-\(dead)-c", "system.slice/ci.scope/firstframe-\(live.token)-d", "mine.scope/other-group",
    ]
    for group in groups {
      try FileManager.default.createDirectory(atPath: mount + "/" + group, withIntermediateDirectories: true)
    }
    let controller = CgroupCPUController(version: .v2, mount: mount, ownPath: "/mine.scope")
    let removed = controller.removeStaleGroups(claims: [claims])
    #expect(
      Set(removed) == ["firstframe-\(dead)-a", "firstframe-\(dead)-b", "firstframe-\(dead)-c"], "\(removed)")
    for group in groups.prefix(3) {
      #expect(!FileManager.default.fileExists(atPath: mount + "/" + group), "\(group)")
    }
    for group in groups.suffix(2) {
      #expect(FileManager.default.fileExists(atPath: mount + "/" + group), "\(group)")
    }
    withExtendedLifetime(live) {}
  }
}
