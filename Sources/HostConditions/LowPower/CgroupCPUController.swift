#if canImport(Glibc)
  import Glibc
#endif
import SystemCalls

/// The cgroup hierarchy that carries the `cpu` controller, and bench's own place in it: where the
/// `low-power` condition makes each run's cgroup.
///
/// cgroup v1 mounts the controller on its own (`/sys/fs/cgroup/cpu`, or `cpu,cpuacct`) with the
/// bandwidth files `cpu.cfs_quota_us` and `cpu.cfs_period_us`; cgroup v2 has one tree
/// (`/sys/fs/cgroup`) with `cpu.max` where `cgroup.controllers` lists `cpu`. v1 is preferred
/// where both are mounted: it is the one that holds the controller.
package struct CgroupCPUController: Sendable, Hashable {
  /// Which cgroup version.
  package enum Version: String, Sendable, Hashable {
    /// The controller's own hierarchy.
    case v1
    /// The unified hierarchy.
    case v2
  }

  /// Which cgroup version.
  package var version: Version
  /// Where the hierarchy is mounted (`/sys/fs/cgroup/cpu` for v1, `/sys/fs/cgroup` for v2).
  package var mount: String
  /// Bench's own cgroup in it, from `/proc/self/cgroup` (`/` at the root).
  package var ownPath: String

  /// Bench's own cgroup's folder: the parent of every run's cgroup.
  package var ownDirectory: String { ownPath == "/" ? mount : mount + ownPath }

  /// `cgroup-v1-quota` or `cgroup-v2-quota`, as results name the method.
  package var methodName: String { "cgroup-\(version.rawValue)-quota" }

  /// Whether bench may make cgroups under its own (write access to its folder).
  package var isWritable: Bool { access(ownDirectory, W_OK) == 0 }

  /// The hierarchy under `root` (default `/sys/fs/cgroup`), with bench's place read from
  /// `procSelfCgroup` (default: `/proc/self/cgroup`); nil when no hierarchy carries `cpu`.
  package static func detect(root: String = "/sys/fs/cgroup", procSelfCgroup: String? = nil) -> Self? {
    let membership =
      procSelfCgroup ?? FileSystem.readText(atPath: "/proc/self/cgroup", maxBytes: 64 * 1024) ?? ""
    for name in ["cpu", "cpu,cpuacct", "cpuacct,cpu"]
    where FileSystem.readText(atPath: "\(root)/\(name)/cpu.cfs_quota_us", maxBytes: 64) != nil {
      return Self(version: .v1, mount: "\(root)/\(name)", ownPath: ownPath(membership, version: .v1) ?? "/")
    }
    let controllers = FileSystem.readText(atPath: root + "/cgroup.controllers", maxBytes: 4096) ?? ""
    guard controllers.split(whereSeparator: { $0 == " " || $0 == "\n" }).contains("cpu") else { return nil }
    return Self(version: .v2, mount: root, ownPath: ownPath(membership, version: .v2) ?? "/")
  }

  /// cgroup v2: makes sure bench's own cgroup hands the `cpu` controller to its children (its
  /// `cgroup.subtree_control` lists `cpu`; if not, `+cpu` is written there), without which a run's
  /// group has no `cpu.max`. Nothing to do on v1.
  /// - Throws: `CPUCapError` when the kernel refuses it — v2 does in a cgroup other than the root
  ///   that has processes of its own: start bench in a cgroup of its own (`systemd-run --scope`).
  package func enableCPUForChildren() throws(CPUCapError) {
    guard version == .v2 else { return }
    let file = ownDirectory + "/cgroup.subtree_control"
    let listed = FileSystem.readText(atPath: file, maxBytes: 4096) ?? ""
    guard !listed.split(whereSeparator: { $0 == " " || $0 == "\n" }).contains("cpu") else { return }
    do {
      try FileSystem.writeControlFile("+cpu\n", atPath: file)
    } catch {
      throw CPUCapError(
        "cannot hand the cpu controller to the run's cgroup (cgroup v2 refuses it in a cgroup that has processes of its own, other than the root: start bench in a cgroup of its own, e.g. with systemd-run --scope)",
        path: file, errno: error)
    }
  }

  /// A process's path in the hierarchy from its `/proc/PID/cgroup`: the line whose controllers
  /// include `cpu` (v1), or the `0::` line (v2); nil when there is none.
  package static func ownPath(_ procCgroup: String, version: Version) -> String? {
    for line in procCgroup.split(separator: "\n") {
      let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3 else { continue }
      switch version {
      case .v1 where fields[1].split(separator: ",").contains("cpu"): return String(fields[2])
      case .v2 where fields[0] == "0" && fields[1].isEmpty: return String(fields[2])
      default: continue
      }
    }
    return nil
  }

  /// The name of a run's cgroup: `firstframe-<owner>-<run>`, `owner` bench's claim token
  /// (`MachineClaim`), so that the next bench can tell a dead bench's leftovers from a live
  /// one's in any pid namespace.
  package static func runGroupName(owner: String = MachineClaim.currentToken, run: String) -> String {
    "firstframe-\(owner)-\(run)"
  }

  /// Removes the `firstframe-<token>-…` cgroups whose claim is free
  /// (`MachineClaim.isFree(token:folders:)`, claims looked up in `claims`) anywhere in the
  /// hierarchy — a bench in another cgroup (a systemd scope, a container's) made its runs' groups
  /// under its own —, moving any task left in one to the cgroup above it first. Returns the
  /// names removed.
  @discardableResult
  package func removeStaleGroups(claims: [String] = MachineClaim.searchFolders) -> [String] {
    var removed: [String] = []
    for parent in groupFolders() {
      guard let names = try? FileSystem.contentsOfDirectory(atPath: mount + parent) else { continue }
      let groups = names.sorted().filter {
        $0.hasPrefix("firstframe-") && $0.split(separator: "-").count >= 3
      }
      let above = Self(version: version, mount: mount, ownPath: parent.isEmpty ? "/" : parent)
      removed += MachineClaim.removeLeftovers(groups, prefix: "firstframe-", folders: claims) {
        RunCgroup(controller: above, name: $0).remove()
      }
    }
    return removed
  }

  /// The hierarchy's cgroups, as paths under ``mount`` (`""` for the root, `/system.slice`, …),
  /// breadth first, down to 8 levels and at most 10,000 of them, without descending into a
  /// run's group (`firstframe-…`): the folders where a run's group may have been made.
  func groupFolders() -> [String] {
    var found: [String] = [""]
    var next = 0
    var depth: [Int] = [0]
    while next < found.count, found.count < 10_000 {
      let parent = found[next]
      let level = depth[next]
      next += 1
      guard level < 8, let names = try? FileSystem.contentsOfDirectory(atPath: mount + parent) else {
        continue
      }
      for name in names.sorted() where !name.hasPrefix("firstframe-") && !name.hasPrefix(".") {
        let path = parent + "/" + name
        guard FileSystem.isDirectory(mount + path) else { continue }
        found.append(path)
        depth.append(level + 1)
      }
    }
    return found
  }
}
