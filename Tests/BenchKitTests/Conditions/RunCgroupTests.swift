#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Subprocess
import SystemCalls
import TestSupport
import TestThreads
import Testing

@testable import BenchKit
@testable import HostConditions

/// The `low-power` condition's quota path on this machine's real cgroup files (cgroup v1 with a
/// writable `cpu` controller here; skipped, saying why, where bench may not write them), and on a
/// fake cgroup v2 tree.
@Suite(.serialized, .blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct RunCgroupTests {
  /// The machine's hierarchy with `cpu`, when bench may make groups in it.
  static let real: CgroupCPUController? = {
    guard let c = CgroupCPUController.detect(), c.isWritable else { return nil }
    return c
  }()
  static let noRealCgroup = "no cgroup hierarchy with a cpu controller that this process may write"

  @Test(
    "a run's cgroup gets its quota, the app spawned into it runs capped from its first instruction, the throttling is read back and the group removed",
    .disabled(if: real == nil, Comment(rawValue: noRealCgroup)))
  func realQuota() throws {
    let controller = try #require(Self.real)
    let runner = try BenchRunner(settings: RunSettings(), appBinary: nil)
    let name = CgroupCPUController.runGroupName(run: "test-\(UInt32.random(in: 0...UInt32.max))")
    let quota = CPUQuota(quotaMicroseconds: 5_000, periodMicroseconds: 100_000)
    let group = try RunCgroup.create(in: controller, name: name, quota: quota)
    defer { group.remove() }
    #expect(group.readQuota() == quota)
    // About 40 ms of CPU work against 5 ms per 100 ms: throttled in several periods.
    let (child, placement) = try runner.spawn(
      argv: ["/bin/sh", "-c", "i=0; while [ $i -lt 40000 ]; do i=$((i+1)); done"], environment: [:],
      inheritedFDs: [:], into: group)
    let how = try #require(placement)
    #expect(how.failure == nil, "\(how.failure ?? "")")
    #expect(how.how == Self.expectedPlacement(controller) && how.delayMicroseconds == nil)
    #expect(child.wait(timeout: 60 * Double(TestTime.scale)) != nil)
    let stat = try #require(group.throttling())
    #expect(stat.periods > 0 && stat.throttledPeriods > 0 && stat.throttledNanoseconds > 0, "\(stat)")
    // This thread went back to bench's own cgroup: its next child is not in the run's group.
    let tid = SystemThread.currentID()
    let tasks = (try? String(contentsOfFile: group.directory + "/tasks", encoding: .utf8)) ?? ""
    #expect(!tasks.split(separator: "\n").contains(Substring(String(tid))))
    #expect(
      LowPowerCondition.quotaFailure(asked: quota, readBack: group.readQuota(), placement: how, stat: stat)
        == nil)
    #expect(group.remove())
    #expect(!FileManager.default.fileExists(atPath: group.directory))
  }

  @Test(
    "spawned into the cgroup, not moved after: an app that forks at once has every process in the run's group, and no thread of bench ever entered it",
    .disabled(if: real == nil, Comment(rawValue: noRealCgroup)))
  func forkAtOnceIsInGroup() throws {
    let controller = try #require(Self.real)
    let runner = try BenchRunner(settings: RunSettings(), appBinary: nil)
    let group = try Self.halfCPUGroup(in: controller)
    defer { group.remove() }
    // The shell forks a sleeper before anything else, then waits.
    let (child, placement) = try runner.spawn(
      argv: ["/bin/sh", "-c", "sleep 30 & sleep 30 & wait"], environment: [:], inheritedFDs: [:], into: group)
    defer { _ = child.terminate(grace: 0) }
    #expect(placement?.failure == nil, "\(placement?.failure ?? "")")
    #expect(placement?.delayMicroseconds == nil, "the app was moved after its spawn")
    // Born in the group on cgroup v2 (clone3 with CLONE_INTO_CGROUP), joined before exec on v1.
    #expect(placement?.how == Self.expectedPlacement(controller))
    // Every process in the app's process group (the shell and its two sleepers), once all three are up.
    let deadline = MonotonicClock.now() + UInt64(60 * TestTime.scale) * 1_000_000_000
    var tree: [pid_t] = []
    while tree.count < 3 && MonotonicClock.now() < deadline {
      tree = Self.processGroup(child.pid)
      guard tree.count < 3 else { break }
      MonotonicClock.sleep(nanoseconds: 10_000_000)  // not a timing assertion: polling
    }
    #expect(tree.count == 3, "the app's tree: \(tree)")
    let inGroup = Set(group.processIDs())
    #expect(Set(tree).isSubset(of: inGroup), "outside the run's cgroup: \(Set(tree).subtracting(inGroup))")
    let tasks = FileSystem.readText(atPath: group.directory + "/cgroup.procs") ?? ""
    #expect(
      !tasks.split(separator: "\n").contains(Substring(String(getpid()))), "bench itself is in the group")
  }

  /// A new run group with half a CPU (50 ms per 100 ms), named for a test.
  static func halfCPUGroup(in controller: CgroupCPUController) throws -> RunCgroup {
    let name = CgroupCPUController.runGroupName(run: "test-\(UInt32.random(in: 0...UInt32.max))")
    return try RunCgroup.create(
      in: controller, name: name, quota: CPUQuota(quotaMicroseconds: 50_000, periodMicroseconds: 100_000))
  }

  /// How the app enters its group on `controller`'s hierarchy: cloned into it on cgroup v2
  /// (Linux ≥ 5.7, as every kernel the project runs on), written in before exec on v1.
  static func expectedPlacement(_ controller: CgroupCPUController) -> String {
    controller.version == .v2 ? "clone-into-cgroup" : "before-exec"
  }

  @Test(
    "cgroup v2: the app is born in its group (clone-into-cgroup) and reads the group as its own cgroup; an exec that fails is reported and leaves nothing in the group",
    .disabled(if: real?.version != .v2, "no writable cgroup v2 hierarchy here (v1 joins before exec)"))
  func clonedIntoGroupOnV2() throws {
    let controller = try #require(Self.real)
    let runner = try BenchRunner(settings: RunSettings(), appBinary: nil)
    let group = try Self.halfCPUGroup(in: controller)
    defer { group.remove() }
    // The app's first act is to write down its own cgroup (`$$`: the app, not a child of it).
    let folder = temporaryFolder("cgroup-v2")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (child, placement) = try runner.spawn(
      argv: ["/bin/sh", "-c", "cat /proc/$$/cgroup > \(folder)/cgroup"], environment: [:], inheritedFDs: [:],
      into: group)
    defer { _ = child.terminate(grace: 0) }
    #expect(placement?.how == "clone-into-cgroup")
    #expect(placement?.failure == nil, "\(placement?.failure ?? "")")
    #expect(child.wait(timeout: 60 * Double(TestTime.scale)) == .exited(0))
    let said = FileSystem.readText(atPath: folder + "/cgroup") ?? ""
    #expect(said.contains("0::" + group.path + "\n"), "the app's /proc/self/cgroup: \(said)")
    // The exec's failure comes back through the close-on-exec pipe with its errno.
    #expect(throws: RunnerError.self) {
      _ = try runner.spawn(
        argv: ["/nonexistent/firstframe-app"], environment: [:], inheritedFDs: [:], into: group)
    }
    #expect(group.processIDs().isEmpty, "left in the group: \(group.processIDs())")
  }

  /// The pids whose process group is `pgid` (`/proc/<pid>/stat` field 5).
  static func processGroup(_ pgid: pid_t) -> [pid_t] {
    ((try? FileSystem.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
      guard let pid = pid_t(name), let text = FileSystem.readText(atPath: "/proc/\(name)/stat"),
        let close = text.lastIndex(of: ")")
      else { return nil }
      let fields = text[text.index(after: close)...].split(separator: " ")
      return fields.count > 2 && pid_t(fields[2]) == pgid ? pid : nil
    }
  }

  @Test(
    "the next bench removes run cgroups whose claim is free, though their pid lives, and keeps a claimed one's",
    .disabled(if: real == nil, Comment(rawValue: noRealCgroup)))
  func staleGroups() throws {
    let controller = try #require(Self.real)
    let quota = CPUQuota(quotaMicroseconds: 50_000, periodMicroseconds: 100_000)
    let claims = temporaryFolder("claims")
    defer { try? FileManager.default.removeItem(atPath: claims) }
    // A dead bench's claim, free, whose token holds this live process's pid (reused since).
    let token = "\(getpid())x" + String(format: "%016llx", UInt64.random(in: 0...UInt64.max))
    FileDescriptorIO.close(try FileSystem.createFile(atPath: claims + "/" + token))
    let live = try MachineClaim(folder: claims)
    let dead = try RunCgroup.create(
      in: controller, name: CgroupCPUController.runGroupName(owner: token, run: "stale"), quota: quota)
    let kept = try RunCgroup.create(
      in: controller, name: CgroupCPUController.runGroupName(owner: live.token, run: "live"), quota: quota)
    defer { kept.remove() }
    let removed = controller.removeStaleGroups(claims: [claims])
    #expect(removed.contains(dead.name))
    #expect(!removed.contains(kept.name))
    #expect(!FileManager.default.fileExists(atPath: dead.directory))
    #expect(FileManager.default.fileExists(atPath: kept.directory))
    withExtendedLifetime(live) {}
  }

  @Test("a cap that did not take effect is the run's failure, with the reason")
  func verification() {
    let asked = CPUQuota(quotaMicroseconds: 50_000, periodMicroseconds: 100_000)
    let placed = CgroupPlacement(how: "before-exec", delayMicroseconds: nil, failure: nil)
    let ran = CPUThrottling(periods: 3, throttledPeriods: 0, throttledNanoseconds: 0)
    #expect(
      LowPowerCondition.quotaFailure(asked: asked, readBack: asked, placement: placed, stat: ran) == nil)
    let other = LowPowerCondition.quotaFailure(asked: asked, readBack: nil, placement: placed, stat: ran)
    #expect(other?.contains("reads unlimited, not 50000 100000") == true)
    let idle = CPUThrottling(periods: 0, throttledPeriods: 0, throttledNanoseconds: 0)
    #expect(
      LowPowerCondition.quotaFailure(asked: asked, readBack: asked, placement: placed, stat: idle)?.contains(
        "no bandwidth period") == true)
    let outside = CgroupPlacement(
      how: "after-spawn", delayMicroseconds: 12, failure: "the app (pid 7) was not in /g after the spawn")
    #expect(
      LowPowerCondition.quotaFailure(asked: asked, readBack: asked, placement: outside, stat: ran)?.contains(
        "pid 7") == true)
  }

  @Test(
    "a run is verified by the CPU its capped app got: more than the quota allows in the periods it ran fails it, naming both"
  )
  func verifiedByThroughput() {
    let asked = CPUQuota(quotaMicroseconds: 25_000, periodMicroseconds: 100_000)
    let placed = CgroupPlacement(how: "before-exec", delayMicroseconds: nil, failure: nil)
    let ran = CPUThrottling(periods: 10, throttledPeriods: 8, throttledNanoseconds: 600_000_000)
    // 10 periods of 25 ms: 240 ms of CPU over 1 s is within the cap.
    let capped = CgroupCPUUsage(
      cpuNanoseconds: 240_000_000, wallNanoseconds: 1_000_000_000, periods: 10, source: "cpu.stat usage_usec",
      processes: 1)
    #expect(capped.percentOfOneCPU == 24)
    #expect(
      LowPowerCondition.quotaFailure(
        asked: asked, readBack: asked, placement: placed, stat: ran, usage: capped)
        == nil)
    // More CPU than the same 10 periods allow (whatever slack this machine's CPUs add): the quota
    // did not hold the app.
    let budget = capped.budgetNanoseconds(asked)
    let uncapped = CgroupCPUUsage(
      cpuNanoseconds: budget + 50_000_000, wallNanoseconds: budget + 50_000_000, periods: 10,
      source: "cpu.stat usage_usec", processes: 1)
    let reason = LowPowerCondition.quotaFailure(
      asked: asked, readBack: asked, placement: placed, stat: ran, usage: uncapped)
    #expect(
      reason?.contains("\(budget / 1_000_000 + 50) ms of CPU in 10 periods") == true, "\(reason ?? "nil")")
    #expect(reason?.contains("100 % of a CPU") == true, "\(reason ?? "nil")")
    #expect(
      reason?.contains("the quota of 25 % allows (\(budget / 1_000_000) ms)") == true, "\(reason ?? "nil")")
    // The record carries the measured figure.
    #expect(
      CPUThrottling.parse("usage_usec 5000\nnr_periods 3\nnr_throttled 1\nthrottled_usec 7\n")?
        .usageNanoseconds == 5_000_000)
  }

  @Test(
    "a spinning app in a 10 % quota: bench measures the CPU its cgroup got while it runs, within the quota over the periods it ran",
    .disabled(if: real == nil, Comment(rawValue: noRealCgroup)))
  func measuredShare() throws {
    let controller = try #require(Self.real)
    let runner = try BenchRunner(settings: RunSettings(), appBinary: nil)
    let name = CgroupCPUController.runGroupName(run: "test-\(UInt32.random(in: 0...UInt32.max))")
    let quota = CPUQuota(quotaMicroseconds: 10_000, periodMicroseconds: 100_000)
    let group = try RunCgroup.create(in: controller, name: name, quota: quota)
    defer { group.remove() }
    let start = MonotonicClock.now()
    // The spinner forks a second spinner at once: both are the app's, both in the group.
    let (child, placement) = try runner.spawn(
      argv: ["/bin/sh", "-c", "(while :; do :; done) & while :; do :; done"], environment: [:],
      inheritedFDs: [:], into: group)
    defer { _ = child.terminate(grace: 0) }
    let deadline = MonotonicClock.now() + UInt64(60 * TestTime.scale) * 1_000_000_000
    while (group.throttling()?.throttledPeriods ?? 0) < 5 && MonotonicClock.now() < deadline {
      MonotonicClock.sleep(nanoseconds: 10_000_000)  // not a timing assertion: polling until throttled
    }
    let usage = try #require(group.measureCPU(since: start))
    #expect(usage.cpuNanoseconds > 0, "\(usage)")
    #expect(usage.processes == 2 || usage.source != "/proc/<pid>/stat", "\(usage)")
    let stat = try #require(group.throttling())
    #expect(stat.throttledPeriods >= 5, "\(stat)")
    #expect(
      LowPowerCondition.quotaFailure(
        asked: quota, readBack: group.readQuota(), placement: placement, stat: stat, usage: usage) == nil,
      "\(usage)")
  }

  @Test("cgroup v1 and v2 found from the mounts and /proc/self/cgroup; cpu.stat parsed for both")
  func detection() throws {
    let sys = FakeSysfs()
    defer { sys.remove() }
    try sys.write("cgroup.controllers", "cpuset cpu io memory\n")
    let v2 = CgroupCPUController.detect(root: sys.root, procSelfCgroup: "0::/user.slice/bench\n")
    #expect(v2 == CgroupCPUController(version: .v2, mount: sys.root, ownPath: "/user.slice/bench"))
    try sys.write("cpu,cpuacct/cpu.cfs_quota_us", "-1\n")
    let v1 = CgroupCPUController.detect(root: sys.root, procSelfCgroup: "5:cpu,cpuacct:/jobs\n0::/\n")
    #expect(v1 == CgroupCPUController(version: .v1, mount: sys.root + "/cpu,cpuacct", ownPath: "/jobs"))
    #expect(
      CPUThrottling.parse("nr_periods 12\nnr_throttled 4\nthrottled_time 9000000\n")
        == CPUThrottling(periods: 12, throttledPeriods: 4, throttledNanoseconds: 9_000_000))
    #expect(
      CPUThrottling.parse("usage_usec 1\nnr_periods 5\nnr_throttled 2\nthrottled_usec 300\n")
        == CPUThrottling(
          periods: 5, throttledPeriods: 2, throttledNanoseconds: 300_000, usageNanoseconds: 1000))
  }

  @Test("cgroup v2 on a fake tree: cpu.max written and read back, the app's pid written into cgroup.procs")
  func fakeV2() throws {
    let sys = FakeSysfs()
    defer { sys.remove() }
    let controller = CgroupCPUController(version: .v2, mount: sys.root, ownPath: "/")
    try sys.write("cgroup.subtree_control", "cpu\n")
    try sys.write("firstframe-1-run/cpu.max", "max 100000\n")
    try sys.write("firstframe-1-run/cgroup.procs", "")
    let group = try RunCgroup.create(
      in: controller, name: "firstframe-1-run",
      quota: CPUQuota(quotaMicroseconds: 30_000, periodMicroseconds: 100_000))
    #expect(sys.read("firstframe-1-run/cpu.max") == "30000 100000")
    #expect(group.readQuota() == CPUQuota(quotaMicroseconds: 30_000, periodMicroseconds: 100_000))
    try group.adopt(4242)
    #expect(group.processIDs() == [4242])
    #expect(group.path == "/firstframe-1-run")
  }

  @Test(
    "cgroup v2: a run's group gets cpu.max only when its parent's subtree_control lists cpu, so bench enables it there once"
  )
  func v2EnablesCPUForChildren() throws {
    let sys = FakeSysfs()
    defer { sys.remove() }
    let controller = CgroupCPUController(version: .v2, mount: sys.root, ownPath: "/")
    try sys.write("cgroup.subtree_control", "memory\n")
    try sys.write("firstframe-1-run/cpu.max", "max 100000\n")
    _ = try RunCgroup.create(
      in: controller, name: "firstframe-1-run",
      quota: CPUQuota(quotaMicroseconds: 30_000, periodMicroseconds: 100_000))
    #expect(sys.read("cgroup.subtree_control") == "+cpu")
    // Already listed: left as it is.
    try sys.write("cgroup.subtree_control", "cpu memory\n")
    _ = try RunCgroup.create(
      in: controller, name: "firstframe-1-run",
      quota: CPUQuota(quotaMicroseconds: 30_000, periodMicroseconds: 100_000))
    #expect(sys.read("cgroup.subtree_control") == "cpu memory")
  }
}
