#!/usr/bin/env python3
"""The path-by-path table of Benchmarks/pipewire-peers: one GStreamer pipeline straight from V4L2
and through bench's private PipeWire, cold and warm, medians per phase, and when the device was
opened and gave its first buffer (ms since the spawn), with the difference PipeWire makes.

usage: pipewire-table.py DIRECT_RESULTS.json PIPEWIRE_RESULTS.json
       pipewire-table.py --check PIPEWIRE_RESULTS.json   (the checks alone, for one PipeWire bench:
                                                          CI's VM step)

Exit status 1 when a run failed, a first frame was not found by the light board, a device phase
did not come from the kernel in the process expected (gst-launch-1.0 directly, pipewire through
PipeWire), or a PipeWire run's daemon state was not verified; 0 otherwise.
"""
import json
import statistics
import sys

PHASES = ["process_launch", "window_mapped", "device_open", "device_format", "device_buffers",
          "device_stream_on", "device_first_buffer", "first_frame_observed"]
DEVICE = [p for p in PHASES if p.startswith("device_")]
EXPECTED = {"direct": "gst-launch-1.0", "pipewire": "pipewire"}
# Points in time (ms since the spawn) read from the timeline: the kernel's device events.
POINTS = {"device opened at": ("device.open", "begin"), "first buffer at": ("device.first_buffer", None)}


def records(path):
    results = json.load(open(path))
    out = {}
    for cell in results["cells"]:
        out[cell["condition"]] = cell["records"]
    return results, out


def point(record, name, kind):
    for event in record.get("timeline") or []:
        if event["name"] == name and (kind is None or event.get("kind") == kind):
            return event["t_ms"]
    return None


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(value):
    return "—" if value is None else f"{value:.1f}"


def delta(a, b):
    return "—" if a is None or b is None else f"{b - a:+.1f}"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: pipewire-table.py DIRECT_RESULTS.json PIPEWIRE_RESULTS.json | --check PIPEWIRE_RESULTS.json")
    if sys.argv[1] == "--check":
        loaded = {"pipewire": records(sys.argv[2])}
        problems = check(loaded)
        runs = sum(len(r) for r in loaded["pipewire"][1].values())
        for p in problems:
            print(f"pipewire: {p}", file=sys.stderr)
        print(f"pipewire: {runs} runs, {'every one ok' if not problems else str(len(problems)) + ' problems'}")
        sys.exit(1 if problems else 0)
    paths = {"direct": sys.argv[1], "pipewire": sys.argv[2]}
    loaded = {name: records(path) for name, path in paths.items()}
    problems = []
    conditions = [c for c in ("cold", "warm") if all(c in loaded[n][1] for n in paths)]
    if not conditions:
        problems.append("no condition ran on both paths")
    print("| phase (ms, median) | " + " | ".join(
        f"{c} direct | {c} PipeWire | {c} Δ" for c in conditions) + " |")
    print("|---|" + "---|---|---|" * len(conditions))
    rows = PHASES + list(POINTS)
    for row in rows:
        cells = []
        for condition in conditions:
            values = {}
            for name in paths:
                ok = [r for r in loaded[name][1][condition] if r["ok"]]
                if row in POINTS:
                    values[name] = median([point(r, *POINTS[row]) for r in ok])
                else:
                    values[name] = median([r["phases"].get(row) for r in ok])
            cells += [fmt(values["direct"]), fmt(values["pipewire"]), delta(values["direct"], values["pipewire"])]
        print(f"| {row} | " + " | ".join(cells) + " |")
    # The daemon's own numbers, beside the launch.
    for condition in conditions:
        daemon = [r.get("camera_daemon") or {} for r in loaded["pipewire"][1][condition]]
        ready = median([d.get("start_to_ready_ms") for d in daemon])
        wait = median([d.get("suspend_wait_ms") for d in daemon])
        states = sorted({d.get("state", "?") for d in daemon})
        print(f"\n{condition}, PipeWire's daemon: {'/'.join(states)}; start to node listed {fmt(ready)} ms "
              f"(before the spawn, not in the launch); waited {fmt(wait)} ms for the node's suspend")
    problems += check(loaded)
    for p in problems:
        print(f"pipewire-peers: {p}", file=sys.stderr)
    print(f"\npipewire-peers: {'every run ok' if not problems else str(len(problems)) + ' problems'}")
    sys.exit(1 if problems else 0)


def check(loaded):
    """Every run ok, found by the board, each device phase from the kernel in the process
    expected, each PipeWire run's daemon in the state its condition asks for."""
    problems = []
    if not any(loaded[name][1] for name in loaded):
        problems.append("no runs")
    for name in loaded:
        for condition, runs in loaded[name][1].items():
            for r in runs:
                what = f"{name} {condition} run {r['run']}"
                if not r["ok"]:
                    problems.append(f"{what} failed: {r.get('error')}")
                    continue
                if r.get("detection") != "board":
                    problems.append(f"{what}: first frame found by {r.get('detection')}, not the board")
                sources = (r.get("device_phases") or {}).get("sources", {})
                for phase in DEVICE:
                    s = sources.get(phase) or {}
                    if s.get("source") != "kernel":
                        problems.append(f"{what}: {phase} from {s.get('source', 'nowhere')}, not the kernel")
                    elif s.get("process") != EXPECTED[name]:
                        problems.append(f"{what}: {phase} in {s.get('process')}, not {EXPECTED[name]}")
                if name == "pipewire":
                    d = r.get("camera_daemon") or {}
                    want = "started" if condition == "cold" else "running"
                    if not d.get("verified") or d.get("state") != want or not d.get("device_closed"):
                        problems.append(f"{what}: daemon {d.get('state')} (want {want}), verified {d.get('verified')}, "
                                        f"device closed {d.get('device_closed')}")
    return problems


if __name__ == "__main__":
    main()
