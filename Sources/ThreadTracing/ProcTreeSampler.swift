import SystemCalls
import ThreadStates

/// Reads a process tree's per-thread counters from `/proc` (``ProcThreadSample``): the root's
/// threads (`/proc/PID/task/*`) and, through each thread's `children` file, every descendant
/// process's, as many levels down as there are.
enum ProcTreeSampler {
  /// The most threads read per sample: an app that makes thousands cannot stall the sampler.
  static let maxThreads = 512

  /// One sample of `root`'s tree, stamped with the middle of its reads (CLOCK_MONOTONIC ns).
  /// Threads that end while it reads are left out. With `children` false, only `root`'s own
  /// threads (bench itself, whose children are the app's tree; the display server).
  static func sample(root: Int32, children followChildren: Bool = true, proc: String = "/proc") -> ProcSample
  {
    let before = MonotonicClock.now()
    var threads: [Int: ProcThreadSample] = [:]
    var pending = [Int(root)]
    var seen = Set<Int>()
    while let pid = pending.popLast(), threads.count < maxThreads {
      guard seen.insert(pid).inserted else { continue }
      let tasks = "\(proc)/\(pid)/task"
      for tid in (try? FileSystem.contentsOfDirectory(atPath: tasks)) ?? [] {
        let folder = tasks + "/" + tid
        guard let id = Int(tid),
          let schedstat = FileSystem.readText(atPath: folder + "/schedstat", maxBytes: 256),
          let stat = FileSystem.readText(atPath: folder + "/stat", maxBytes: 4096),
          let status = FileSystem.readText(atPath: folder + "/status", maxBytes: 16384),
          let thread = ProcThreadSample(schedstat: schedstat, stat: stat, status: status)
        else { continue }
        threads[id] = thread
        guard followChildren else { continue }
        let children = FileSystem.readText(atPath: folder + "/children", maxBytes: 65536) ?? ""
        pending += children.split(separator: " ").compactMap { Int($0.filter { $0 != "\n" }) }
      }
    }
    let after = MonotonicClock.now()
    return ProcSample(ts: before + (after - before) / 2, threads: threads)
  }
}
