#!/usr/bin/env python3
"""The peers table (Benchmarks/peers): medians and p90s per phase and per app, from one VM boot.

usage: peers-table.py OUT_DIR [--require-board [all|each-app]]

OUT_DIR holds bench's results folder (OUT_DIR/bench/results.json: camera-app's deferred and eager
configurations, the apps given as --app-config, and the C floor given as --headless-app-config, which
ran beside them under the same feeder, probe and X server) and the C floor's preload traces from runs
on its own before bench started (OUT_DIR/c-floor/*.jsonl, one per run). camera-app's device phases are
given as ratios to the floor's medians: to the floor in bench (the same conditions) and, for
reference, to the floor alone. Prints the table in Markdown
(also written to OUT_DIR/peers.md) and exits 1 when any app's run failed or an app has no runs, and
with --require-board (or --require-board all) also when a run's first live frame was not found by
decoding the light board in the app's window (vivid's loop fed by bench) but by change detection;
with --require-board each-app only when an app has no run whose first frame was found by the board
(the board never reached its window). The runs found otherwise are always listed.
"""
import json
import os
import sys

PHASES = ["process_launch", "window_mapped", "device_open", "device_format", "device_buffers",
          "device_stream_on", "device_first_buffer", "first_frame_observed"]
DEVICE = PHASES[2:7]


def percentile(values, q):
    v = sorted(values)
    if not v:
        return None
    pos = (len(v) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def bench_columns(folder, name):
    """One column per configuration in folder/results.json: {phase: [ms]}, ok, failed, methods."""
    path = os.path.join(folder, "results.json")
    if not os.path.exists(path):
        return [(name, {}, 0, 1, {}, "no results.json")]
    results = json.load(open(path))
    columns = []
    third_party = set(results.get("settings", {}).get("appConfigs", {}))
    headless = set(results.get("settings", {}).get("headlessAppConfigs", []))
    for cell in results.get("cells", []):
        label = cell["config"] if cell["config"] in third_party else f"camera-app {cell['config']}"
        if cell["config"] in headless:
            label = f"{cell['config']} (headless, in bench)"
        phases, ok, failed, methods, why = {}, 0, 0, {}, None
        for record in cell.get("records", []):
            if not record.get("ok"):
                failed += 1
                why = why or record.get("error")
                continue
            ok += 1
            for phase, ms in record.get("phases", {}).items():
                phases.setdefault(phase, []).append(ms)
            for event in record.get("timeline") or []:
                if event.get("name") == "display.first_live_frame":
                    method = (event.get("fields") or {}).get("method")
                    if method:
                        methods[method] = methods.get(method, 0) + 1
        columns.append((label, phases, ok, failed, methods, why))
    return columns or [(name, {}, 0, 1, {}, "no runs")]


def trace_phases(path):
    """The five device phases of one preload trace, ms (begin → end; stream-on end → first buffer)."""
    first = {}
    for line in open(path):
        try:
            e = json.loads(line)
        except ValueError:
            continue
        first.setdefault((e.get("name"), e.get("kind")), e.get("ts"))
    out = {}
    for p in ["open", "format", "buffers", "stream_on"]:
        b, e = first.get((f"device.{p}", "begin")), first.get((f"device.{p}", "end"))
        if b is not None and e is not None:
            out[f"device_{p}"] = (e - b) / 1e6
    s, f = first.get(("device.stream_on", "end")), first.get(("device.first_buffer", "event"))
    if s is not None and f is not None:
        out["device_first_buffer"] = (f - s) / 1e6
    return out


def floor_column(folder):
    phases, ok, failed = {}, 0, 0
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".jsonl"):
                continue
            p = trace_phases(os.path.join(folder, name))
            if len(p) == len(DEVICE):
                ok += 1
                for k, v in p.items():
                    phases.setdefault(k, []).append(v)
            else:
                failed += 1
    status = os.path.join(folder, "failed")
    if os.path.exists(status):
        failed += sum(1 for _ in open(status))
    return ("C floor alone (libv4l2)", phases, ok, failed, {}, None if ok else "no complete trace")


def fmt(values):
    if not values:
        return "–"
    return f"{percentile(values, 0.5):.1f} / {percentile(values, 0.9):.1f}"


def main():
    args = sys.argv[1:]
    require_board = None
    if "--require-board" in args:
        i = args.index("--require-board")
        require_board = "all"
        if i + 1 < len(args) and args[i + 1] in ("all", "each-app"):
            require_board = args.pop(i + 1)
        args.pop(i)
    if len(args) != 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    out = args[0]
    columns = []
    columns += bench_columns(os.path.join(out, "bench"), "bench")
    columns.append(floor_column(os.path.join(out, "c-floor")))
    lines = ["| phase (ms, median / p90) | " + " | ".join(c[0] for c in columns) + " |",
             "|---|" + "---|" * len(columns)]
    for phase in PHASES:
        lines.append(f"| {phase} | " + " | ".join(fmt(c[1].get(phase)) for c in columns) + " |")
    lines.append("| runs ok / failed | " + " | ".join(f"{c[2]} / {c[3]}" for c in columns) + " |")
    lines.append("| first frame found by | " + " | ".join(
        ", ".join(f"{k} {v}" for k, v in sorted(c[4].items())) or "–" for c in columns) + " |")
    floors = [c for c in columns if c[0].endswith("(headless, in bench)")] + [columns[-1]]
    for label, phases, *_ in columns[:-1]:
        if not label.startswith("camera-app"):
            continue
        for floor_label, floor, *_ in floors:
            ratios = []
            for phase in DEVICE:
                a, b = percentile(phases.get(phase, []), 0.5), percentile(floor.get(phase, []), 0.5)
                ratios.append(f"{phase} {a / b:.2f}×" if a is not None and b else f"{phase} –")
            lines.append("")
            lines.append(f"{label} ÷ {floor_label} (medians): " + ", ".join(ratios))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    with open(os.path.join(out, "peers.md"), "w") as f:
        f.write(text)
    bad = [f"{c[0]}: {c[3]} failed" + (f" ({c[5]})" if c[5] else "") for c in columns if c[3] or not c[2]]
    shown = [c for c in columns[:-1] if not c[0].endswith("(headless, in bench)")]
    otherwise = [f"{c[0]}: {sum(v for k, v in c[4].items() if k != 'board')} first frames not found by the light board"
                 for c in shown if any(k != "board" for k in c[4])]
    if require_board == "all":
        bad += otherwise
    else:
        for o in otherwise:
            print(f"peers: {o}", file=sys.stderr)
    if require_board == "each-app":
        bad += [f"{c[0]}: no first frame found by the light board" for c in shown if not c[4].get("board")]
    for b in bad:
        print(f"peers: {b}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
