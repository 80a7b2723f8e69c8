import BenchKit
import Foundation
import LaunchContract
import ResultsSchema
import SystemCalls
import TestSupport
import Testing

/// Faults of the app under test: it exits, is killed, hangs, floods or forges its trace, tampers
/// with the display surface, or ignores its control pipe.
extension FaultCase {
  static let appFaults: [FaultCase] = [
    FaultCase(
      name: "app exits at once",
      expected: "each run fails with the app's exit status; bench exits 1"
    ) { ws in
      let out = ws.path + "/out"
      let o = try BenchProcess(hostile("/bin/true", out: out)).finish(deadline: 60)
      expectCalmEnd(o)
      let records = records(out)
      #expect(
        records.count == 2
          && records.allSatisfy { !$0.ok && ($0.error ?? "").contains("exited with status 0") })
      return FaultReport("app exits at once", outcome: o, out: out)
    },
    FaultCase(
      name: "app SIGKILLed mid-launch",
      expected: "camera-app killed 50 ms after spawn: each run fails with SIGKILL; bench exits 1"
    ) { ws in
      let out = ws.path + "/out"
      // The fast profile, but its first frame waits 4 s of simulated hardware latency (a wait, not
      // CPU work): with the fast profile itself a quick machine finished a run within the 50 ms,
      // before the kill; with this one no run can reach its first frame before it.
      let profile = ws.path + "/slow-first-frame.json"
      let fast = String(decoding: try #require(FileSystem.readFile(atPath: fastProfile)), as: UTF8.self)
      let slow = fast.replacingOccurrences(
        of: #""first_frame_latency": { "kind": "hardware", "ms": 2 }"#,
        with: #""first_frame_latency": { "kind": "hardware", "ms": 4000 }"#)
      try #require(slow != fast, "the fast profile's first_frame_latency line changed: update this case")
      try FileSystem.replaceAtomically(slow, atPath: profile)
      let app = try ws.script(
        "killed.sh",
        """
        (sleep 0.05; kill -KILL $$) &
        exec '\(cameraApp)' --config "$1" --profile '\(profile)'
        """)
      let o = try BenchProcess(hostile(app, out: out, timeout: "10")).finish(deadline: 60)
      expectCalmEnd(o)
      let records = records(out)
      #expect(records.count == 2 && records.allSatisfy { ($0.error ?? "").contains("SIGKILL") }, "\(records)")
      return FaultReport("app SIGKILLed mid-launch", outcome: o, out: out)
    },
    FaultCase(
      name: "app hangs, ignoring SIGTERM",
      expected: "each run fails after --run-timeout 1; bench kills the app and its children; exits 1"
    ) { ws in
      let out = ws.path + "/out"
      let app = try ws.script("hang.sh", "trap '' TERM\nsleep 300 &\nwhile :; do sleep 1; done")
      let o = try BenchProcess(hostile(app, out: out)).finish(deadline: 60)
      expectCalmEnd(o)
      #expect(records(out).allSatisfy { ($0.error ?? "").contains("no live frame within 1") })
      return FaultReport("app hangs, ignoring SIGTERM", outcome: o, out: out)
    },
    FaultCase(
      name: "app floods its trace (120 MB)",
      expected:
        "the run fails on its timeout, bench reads at most 16 MiB and 2000 events of it and counts the rest; memory stays small"
    ) { ws in
      let out = ws.path + "/out"
      let line = #"{"ts":1,"name":"app.flood","kind":"event","pid":1,"fields":{"pad":"xxxxxxxxxxxxxxxx"}}"#
      let app = try ws.script(
        "flood.sh", "yes '\(line)' | head -c 120000000 >> \"$FIRSTFRAME_TRACE\"\nexec sleep 300")
      let o = try BenchProcess(hostile(app, out: out, runs: 1, timeout: "3")).finish(
        deadline: 90)
      expectCalmEnd(o)
      let record = records(out).first
      #expect((record?.counts["dropped_trace_lines"] ?? 0) > 0, "\(String(describing: record?.counts))")
      #expect((record?.counts["unread_trace_bytes"] ?? 0) > 0)
      #expect((record?.timeline?.count ?? 0) <= 2_100)
      let trace = (try? FileManager.default.attributesOfItem(atPath: out + "/traces/warm-deferred-1.jsonl"))?[
        .size]
      #expect(((trace as? Int) ?? 0) <= 16 << 20, "the kept trace was not cut")
      #expect(o.peakKB < 200 * 1024, "peak \(o.peakKB) KiB")
      return FaultReport("app floods its trace (120 MB)", outcome: o, out: out)
    },
    FaultCase(
      name: "app writes garbage to its trace",
      expected: "binary noise and broken lines are counted as malformed; the run fails on its timeout"
    ) { ws in
      let out = ws.path + "/out"
      let app = try ws.script(
        "garbage.sh",
        """
        head -c 1000000 /dev/urandom >> "$FIRSTFRAME_TRACE"
        printf '\\n{"ts":\\n{"ts":-1,"name":"x","kind":"event","pid":1}\\n[1,2]\\nnull\\n{"ts":1e400}\\n' >> "$FIRSTFRAME_TRACE"
        exec sleep 300
        """)
      let o = try BenchProcess(hostile(app, out: out, runs: 1)).finish(deadline: 60)
      expectCalmEnd(o)
      #expect((records(out).first?.counts["malformed_trace_lines"] ?? 0) > 5)
      return FaultReport("app writes garbage to its trace", outcome: o, out: out)
    },
    FaultCase(
      name: "app swaps its trace for a FIFO or /dev/zero",
      expected:
        "the trace is refused as not a regular file, without blocking or reading forever; the runs fail"
    ) { ws in
      let out = ws.path + "/out"
      let app = try ws.script(
        "swap.sh",
        """
        rm -f "$FIRSTFRAME_TRACE"
        case "$1" in
          deferred) mkfifo "$FIRSTFRAME_TRACE" ;;
          *) ln -s /dev/zero "$FIRSTFRAME_TRACE" ;;
        esac
        exec sleep 300
        """)
      let o = try BenchProcess(hostile(app, out: out, runs: 1, configs: "deferred,eager"))
        .finish(deadline: 60)
      expectCalmEnd(o)
      #expect(records(out).count == 2)
      return FaultReport("app swaps its trace for a FIFO or /dev/zero", outcome: o, out: out)
    },
    FaultCase(
      name: "app forges runner and probe events",
      expected:
        "issue 11: a display.first_live_frame written by the app is ignored and counted (forged_events); the run fails"
    ) { ws in
      let out = ws.path + "/out"
      // CLOCK_MONOTONIC from the shell: /proc/uptime (boot time; equal while the machine never slept).
      let app = try ws.script(
        "forge.sh",
        """
        ts=$(awk '{printf "%.0f", ($1 + 0.05) * 1e9}' /proc/uptime)
        sleep 0.1
        printf '{"ts":%s,"name":"display.first_live_frame","kind":"event","pid":1,"fields":{}}\\n' "$ts" >> "$FIRSTFRAME_TRACE"
        printf '{"ts":%s,"name":"launch.spawn","kind":"event","pid":1,"fields":{}}\\n' "$ts" >> "$FIRSTFRAME_TRACE"
        exec sleep 300
        """)
      let o = try BenchProcess(hostile(app, out: out, runs: 1)).finish(deadline: 60)
      expectCalmEnd(o)
      var r = FaultReport(name: "app forges runner and probe events")
      let forgedHeadline = records(out).contains { $0.ok || $0.phases[PhaseName.firstFrameObserved] != nil }
      #expect(!forgedHeadline, "the forged display.first_live_frame became the run's headline")
      #expect(
        records(out).contains { ($0.counts["forged_events"] ?? 0) > 0 }, "the forged events were not counted")
      r.add(o, runsOnDisk: FaultReport.runsOnDisk(out))
      return r
    },
    FaultCase(
      name: "app shrinks or scribbles on the display surface",
      expected:
        "bench keeps running (no SIGBUS: the surface is a size-sealed memory file; no trap) and records the runs"
    ) { ws in
      let out = ws.path + "/out"
      let app = try ws.script(
        "surface.sh",
        """
        case "$FIRSTFRAME_DISPLAY" in
          fd:*) surface=/proc/$$/fd/${FIRSTFRAME_DISPLAY#fd:} ;;
          *) surface=/dev/shm$FIRSTFRAME_DISPLAY ;;
        esac
        case "$1" in
          deferred) head -c 1000000 /dev/urandom | dd of="$surface" conv=notrunc bs=65536 2>/dev/null ;;
          *) truncate -s 0 "$surface" 2>/dev/null ;;
        esac
        exec sleep 300
        """)
      let o = try BenchProcess(hostile(app, out: out, runs: 1, configs: "deferred,eager"))
        .finish(deadline: 60)
      var r = FaultReport(name: "app shrinks or scribbles on the display surface")
      r.add(o, runsOnDisk: FaultReport.runsOnDisk(out))
      expectCalmEnd(o)
      #expect(records(out).count == 2)
      return r
    },
    FaultCase(
      name: "app closes or never reads its control pipe",
      expected:
        "the runs succeed; the quit that cannot be written is dropped and counted; bench never waits on the pipe"
    ) { ws in
      let out = ws.path + "/out"
      let app = try ws.script(
        "control.sh",
        """
        case "$1" in
          deferred) exec 3<&- ;;
        esac
        exec env -u FIRSTFRAME_CONTROL '\(cameraApp)' --config "$1" --profile '\(fastProfile)'
        """)
      let o = try BenchProcess(
        // The app reads no control pipe, so only SIGTERM ends it: a sanitizer-built camera-app
        // took more than the default second to quit after it (the run failed, killed). The quit
        // that never arrives is waited for in full each run, so the grace stays short.
        hostile(app, out: out, runs: 1, configs: "deferred,eager", timeout: "10")
          + ["--no-tap", "--quit-grace", "\(min(3 * TestTime.scale, 15))"]
      ).finish(deadline: 90)
      expectCalmEnd(o, status: 0)
      let byConfig = Dictionary(
        uniqueKeysWithValues: ((try? ResultsFile.load(path: out + "/results.json", timelines: .none))?.cells
          ?? []).map {
            ($0.config, $0.records)
          })
      #expect(byConfig["deferred"]?.first?.counts["control_commands_dropped"] == 1)
      #expect(byConfig["eager"]?.first?.ok == true)
      return FaultReport("app closes or never reads its control pipe", outcome: o, out: out)
    },
  ]
}
