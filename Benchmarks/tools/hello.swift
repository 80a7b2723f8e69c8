// hello.swift — the Swift floor of launch stage one for `bench launch-floor`: the standard library
// and Glibc only (no Foundation). First thing in main it reads CLOCK_MONOTONIC and writes it as an
// `app.main` trace line to FIRSTFRAME_TRACE (`fd:N` or a path), then waits for a signal so that
// the runner can read its mappings. Built with a static Swift runtime by Benchmarks/launch-floor,
// as bench builds camera-app.
#if ESSENTIALS
  import FoundationEssentials
#endif
import Glibc

var now = timespec()
clock_gettime(CLOCK_MONOTONIC, &now)
let ns = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
guard let trace = getenv("FIRSTFRAME_TRACE").map({ String(cString: $0) }) else { exit(0) }
let fd =
  trace.hasPrefix("fd:")
  ? Int32(trace.dropFirst(3)) ?? -1 : open(trace, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
guard fd >= 0 else { exit(1) }
var line = "{\"ts\":\(ns),\"name\":\"app.main\",\"kind\":\"event\",\"pid\":\(getpid()),\"fields\":{}}"
#if ESSENTIALS
  // Uses FoundationEssentials as an app would (JSON, dates): the size and load cost of the
  // ICU-free Foundation.
  let decoded = try? JSONDecoder().decode([Double].self, from: Data("[\(Date.now.timeIntervalSince1970)]".utf8))
  line += decoded == nil ? " " : ""
#endif
line += "\n"
_ = line.withUTF8 { write(fd, $0.baseAddress, $0.count) }
pause()
