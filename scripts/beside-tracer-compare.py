#!/usr/bin/env python3
"""beside-tracer-compare.py RESULTS_DIR USER_TRACE USER_LOST — the half of
scripts/beside-tracer-check that reads: bench's results (thread_states of every run) against the
kernel's own CPU accounting, the sched_stat_runtime events a second tracefs instance recorded.

For each run: the app's tree is its root pid (the timeline's app.main) and every task forked from
it during the run (the second instance's sched_process_fork); a phase's window is the timeline's
(first_frame_observed from the spawn to display.first_live_frame, start_running and
session_configure from their begin to their end), placed on CLOCK_MONOTONIC by the app's own
trace (ts of app.main less its t_ms). Each sched_stat_runtime covers [ts - runtime, ts] of its
thread (the scheduler counts a thread's time when it switches out and at ticks): the kernel's tree
CPU in a window is the overlap summed over the tree's threads, the main thread's over the root's.
Exit 0 when every run is complete, lost nothing and agrees within max(2 ms, 5 %); 1 otherwise.
"""
import json
import os
import re
import sys

TOLERANCE_MS, TOLERANCE_SHARE = 2.0, 0.05
PHASES = {
    "first_frame_observed": (None, "display.first_live_frame"),
    "start_running": ("session.start_running", "session.start_running"),
    "session_configure": ("session.configure", "session.configure"),
}
LINE = re.compile(r"\s(\d+)\.(\d+): (sched_stat_runtime|sched_process_fork): (.*)$")
FIELD = re.compile(r"(\w+)=(\S+)")


def load_user_trace(path):
    """sched_stat_runtime as (end_ns, tid, runtime_ns) and forks as (ns, parent, child)."""
    runtimes, forks = [], []
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.search(line)
            if not m:
                continue
            ns = int(m.group(1)) * 1_000_000_000 + int(m.group(2).ljust(9, "0")[:9])
            fields = dict(FIELD.findall(m.group(4)))
            if m.group(3) == "sched_stat_runtime":
                runtimes.append((ns, int(fields["pid"]), int(fields["runtime"])))
            else:
                forks.append((ns, int(fields["pid"]), int(fields["child_pid"])))
    return runtimes, forks


def windows(record, folder):
    """The run's root pid, spawn (ns) and phase windows (ns), or None when they cannot be placed."""
    timeline = record.get("timeline") or []
    main = next((e for e in timeline if e["name"] == "app.main"), None)
    if main is None or not record.get("trace"):
        return None
    spawn = None
    with open(os.path.join(folder, record["trace"]), errors="replace") as f:
        for line in f:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("name") == "app.main" and isinstance(event.get("ts"), int):
                spawn = event["ts"] - round(main["t_ms"] * 1e6)
                break
    if spawn is None:
        return None
    out = {}
    for phase, (begin, end) in PHASES.items():
        start = 0.0 if begin is None else next(
            (e["t_ms"] for e in timeline if e["name"] == begin and e["kind"] == "begin"), None)
        stop = next((e["t_ms"] for e in timeline if e["name"] == end and e["kind"] in ("end", "event")), None)
        if start is not None and stop is not None and stop >= start:
            out[phase] = (spawn + round(start * 1e6), spawn + round(stop * 1e6))
    return main["pid"], spawn, out


def tree_of(root, spawn, end, forks):
    tids = {root}
    for ns, parent, child in forks:  # in time order
        if spawn - 5_000_000 <= ns <= end and parent in tids:
            tids.add(child)
    return tids


def cpu_ms(runtimes, tids, window):
    lo, hi = window
    total = 0
    for end, tid, runtime in runtimes:
        if tid in tids and end >= lo and end - runtime <= hi:
            total += max(0, min(end, hi) - max(end - runtime, lo))
    return total / 1e6


def main():
    folder, user_trace, user_lost = sys.argv[1], sys.argv[2], int(sys.argv[3])
    results = json.load(open(os.path.join(folder, "results.json")))
    runtimes, forks = load_user_trace(user_trace)
    runtimes.sort()
    forks.sort()
    failures, checked, worst = [], 0, 0.0
    if user_lost:
        failures.append(f"the other tracer lost {user_lost} events: its accounting cannot be compared")
    for cell in results["cells"]:
        name = f'{cell["condition"]}/{cell["config"]}'
        for record in cell["records"]:
            states = record.get("thread_states")
            label = f'{name} run {record["run"]}'
            if not states or states.get("method") != "tracefs":
                failures.append(f"{label}: no tracefs thread states")
                continue
            if states["lost_events"] or states["incomplete"]:
                failures.append(f'{label}: lost {states["lost_events"]} events, incomplete {states["incomplete"]}')
                continue
            placed = windows(record, folder)
            if placed is None:
                failures.append(f"{label}: cannot place the run on the clock (no app.main with a ts)")
                continue
            root, spawn, phase_windows = placed
            last = max((w[1] for w in phase_windows.values()), default=spawn)
            tids = tree_of(root, spawn, last, forks)
            for phase, window in sorted(phase_windows.items()):
                pairs = [
                    ("tree cpu", states["tree"].get(phase, {}).get("cpu_ms"), cpu_ms(runtimes, tids, window)),
                    ("main running", states["main"].get(phase, {}).get("running"), cpu_ms(runtimes, {root}, window)),
                ]
                for what, bench, kernel in pairs:
                    if bench is None:
                        failures.append(f"{label}: no {what} for {phase}")
                        continue
                    diff = abs(bench - kernel)
                    bound = max(TOLERANCE_MS, TOLERANCE_SHARE * kernel)
                    worst = max(worst, diff)
                    checked += 1
                    ok = diff <= bound
                    print(f"  {label:28} {phase:21} {what:13} bench {bench:8.2f}  kernel {kernel:8.2f}  "
                          f"diff {diff:6.2f} ms (bound {bound:.2f}){'' if ok else '  DISAGREE'}"
                          f"  buffer {states.get('buffer_kb_per_cpu', '?')} KiB/CPU, {states['events']} events")
                    if not ok:
                        failures.append(f"{label} {phase} {what}: bench {bench:.2f} ms, kernel {kernel:.2f} ms")
    print(f"beside-tracer-check: {checked} figures compared, worst difference {worst:.2f} ms")
    if failures or checked == 0:
        print("beside-tracer-check: " + ("; ".join(failures[:5]) or "nothing compared"), file=sys.stderr)
        sys.exit(1)
    print("beside-tracer-check: ok")


main()
