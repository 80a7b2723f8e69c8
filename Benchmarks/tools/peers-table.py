#!/usr/bin/env python3
"""The peers table (Benchmarks/peers): medians and p90s per phase and per app, from one VM boot.

usage: peers-table.py OUT_DIR [--require-board [all|each-app]]

OUT_DIR holds bench's results folder (OUT_DIR/bench/results.json: camera-app's deferred and eager
configurations, the apps given as --app-config, and the C floor given as --headless-app-config, which
ran beside them under the same feeder, probe and X server) and the C floor's preload traces from runs
on its own before bench started (OUT_DIR/c-floor/*.jsonl, one per run). When OUT_DIR/bench-wayland/
results.json is there too (the same apps on a headless sway, issue 36), its configurations are columns
"… on Wayland" beside the X11 ones, and a second table sets each app's window and first frame on
X11 beside Wayland's: what each display server costs the first frame. With bench's
--preload-camera-app (settings.preloadCameraApp) every app's device phases come from one instrument,
the preload library, and camera-app's own trace phases (from the same runs' timelines) are extra
rows labelled as such. Each app's pixel format is read from the library's device.format end event.
camera-app's device phases are given as ratios to the floor's medians (in bench, the same conditions,
and, for reference, the floor alone) and to the other apps', with the formats and the emulation caveat
beside them. Prints the table in Markdown
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


# What each app does to the frames before the screen (the commands Benchmarks/peers gives).
CONVERSION = {"camera-app": "none: GREY shown as grey", "gst": "videoconvert to colour (ximagesink)",
              "ffplay": "swscale to colour (SDL, software)", "floor": "none: no display",
              "floor-dlopen": "none: no display",
              "C floor alone (libv4l2)": "none: no display",
              "camera-app/wayland": "none: GREY shown as grey (wl_shm)",
              "gst/wayland": "videoconvert to colour (waylandsink)",
              "mpv/wayland": "swscale to colour, scaled to the window between bars (mpv, wlshm)",
              "ffplay/wayland": "swscale to colour (SDL Wayland, software)",
              "xgst/wayland": "videoconvert to colour (ximagesink on Xwayland)",
              "xffplay/wayland": "swscale to colour (SDL X11 on Xwayland, software)"}
EMULATION = ("under QEMU TCG (every guest instruction emulated, 2 emulated CPUs, debug builds): "
             "absolute times are many times a real machine's; compare within this table only")


def own_trace_phases(timeline):
    """The five device phases from the app's own events in a run's timeline (no source field)."""
    first = {}
    for e in timeline:
        if (e.get("fields") or {}).get("source") == "preload" or e.get("t_ms", -1) < 0:
            continue
        first.setdefault((e.get("name"), e.get("kind")), []).append(e["t_ms"])
    out = {}
    for p in ["open", "format", "buffers", "stream_on"]:
        begins = sorted(first.get((f"device.{p}", "begin"), []))
        if begins:
            ends = sorted(t for t in first.get((f"device.{p}", "end"), []) if t >= begins[0])
            if ends:
                out[f"device_{p}"] = ends[0] - begins[0]
    ons = sorted(first.get(("device.stream_on", "end"), []))
    if ons:
        bufs = sorted(t for t in first.get(("device.first_buffer", "event"), []) if t >= ons[0])
        if bufs:
            out["device_first_buffer"] = bufs[0] - ons[0]
    return out


def formats_in(events):
    """What the preload library saw in one run ({"GREY via syscall": 1}): the pixel format set
    (device.format end) and the path the app's calls took to the device (its device.open's api:
    libc, syscall — libv4l2 loaded privately, as camera-app does — or libv4l2, whose v4l2_open
    also asks QUERYCAP and ENUM_FMT, so that device_open is more than the open call there)."""
    fourcc = api = None
    for e in events:
        fields = e.get("fields") or {}
        if fields.get("source") != "preload":
            continue
        if api is None and e.get("name") == "device.open":
            api = fields.get("api")
        if fourcc is None and e.get("name") == "device.format" and e.get("kind") == "end":
            fourcc = fields.get("pixelformat")
    if fourcc is None and api is None:
        return {}
    return {f"{fourcc or '?'} via {api or '?'}": 1}


def column(label, key, phases=None, ok=0, failed=0, methods=None, why=None, own=None, formats=None,
           display="x11", config=None):
    """One app's column: its label, the key of its conversion, its phases ({phase: [ms]}), its runs,
    the display it ran on and its configuration's name."""
    return {"label": label, "key": key, "phases": phases or {}, "ok": ok, "failed": failed,
            "methods": methods or {}, "why": why, "own": own or {}, "formats": formats or {},
            "display": display, "config": config or key, "after_buffer": []}


def bench_columns(folder, name, display="x11"):
    """One column per configuration in folder/results.json (labelled "… on Wayland" there)."""
    path = os.path.join(folder, "results.json")
    suffix = " on Wayland" if display == "wayland" else ""
    if not os.path.exists(path):
        return [column(name + suffix, name, failed=1, why="no results.json", display=display)], False
    results = json.load(open(path))
    columns = []
    settings = results.get("settings", {})
    third_party = set(settings.get("appConfigs") or {})
    headless = set(settings.get("headlessAppConfigs") or [])
    preload_all = bool(settings.get("preloadCameraApp"))
    for cell in results.get("cells", []):
        config = cell["config"]
        key = config if config in third_party else "camera-app"
        label = config if config in third_party else f"camera-app {config}"
        if config in headless:
            label = f"{config} (headless, in bench)"
        if preload_all and key == "camera-app":
            label += " (preload)"
        c = column(label + suffix, key, display=display, config=config)
        for record in cell.get("records", []):
            if not record.get("ok"):
                c["failed"] += 1
                c["why"] = c["why"] or record.get("error")
                continue
            c["ok"] += 1
            for phase, ms in record.get("phases", {}).items():
                c["phases"].setdefault(phase, []).append(ms)
            timeline = record.get("timeline") or []
            # From the first buffer the app dequeued to its first frame on the screen: the
            # display path's share of the first frame (the app's conversion, the server's copy).
            buffers = [e["t_ms"] for e in timeline if e.get("name") == "device.first_buffer" and e.get("t_ms", -1) >= 0]
            shown = record.get("phases", {}).get("first_frame_observed")
            if buffers and shown is not None:
                c["after_buffer"].append(shown - min(buffers))
            for fourcc, n in formats_in(timeline).items():
                c["formats"][fourcc] = c["formats"].get(fourcc, 0) + n
            if preload_all and key == "camera-app":
                for phase, ms in own_trace_phases(timeline).items():
                    c["own"].setdefault(phase, []).append(ms)
            for event in timeline:
                if event.get("name") == "display.first_live_frame":
                    method = (event.get("fields") or {}).get("method")
                    if method:
                        c["methods"][method] = c["methods"].get(method, 0) + 1
        columns.append(c)
    return (columns or [column(name + suffix, name, failed=1, why="no runs", display=display)]), preload_all


def trace_events(path):
    """The events of one trace file (lines that are not JSON skipped)."""
    events = []
    for line in open(path):
        try:
            events.append(json.loads(line))
        except ValueError:
            continue
    return events


def trace_phases(events):
    """The five device phases of one preload trace, ms (begin → end; stream-on end → first buffer)."""
    first = {}
    for e in events:
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
    label = "C floor alone (libv4l2)"
    c = column(label, label)
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".jsonl"):
                continue
            events = trace_events(os.path.join(folder, name))
            p = trace_phases(events)
            if len(p) == len(DEVICE):
                c["ok"] += 1
                for k, v in p.items():
                    c["phases"].setdefault(k, []).append(v)
                for fourcc, n in formats_in(events).items():
                    c["formats"][fourcc] = c["formats"].get(fourcc, 0) + n
            else:
                c["failed"] += 1
    status = os.path.join(folder, "failed")
    if os.path.exists(status):
        c["failed"] += sum(1 for _ in open(status))
    c["why"] = None if c["ok"] else "no complete trace"
    return c


def fmt(values):
    if not values:
        return "–"
    return f"{percentile(values, 0.5):.1f} / {percentile(values, 0.9):.1f}"


def format_and_conversion(c):
    """`GREY; none: GREY shown as grey`: the format the library saw set, and the app's conversion."""
    fourccs = ", ".join(f"{k}" if len(c["formats"]) == 1 else f"{k} ×{v}" for k, v in sorted(c["formats"].items()))
    conversion = CONVERSION.get(f"{c['key']}/{c['display']}", CONVERSION.get(c["key"], "?"))
    return f"{fourccs or '?'}; {conversion}"


def ratio(r):
    """`0.84`, `0.003`, `147`: two decimals, or two significant digits below 0.1."""
    return f"{r:.2f}" if 0.1 <= r < 100 else f"{r:.2g}" if r < 0.1 else f"{r:.0f}"


def ratio_line(a, b, phases_a, phases_b):
    """`a ÷ b (medians): device_open 0.93×, …` over the device phases both have."""
    ratios = []
    for phase in DEVICE:
        x, y = percentile(phases_a.get(phase, []), 0.5), percentile(phases_b.get(phase, []), 0.5)
        ratios.append(f"{phase} {ratio(x / y)}×" if x is not None and y else f"{phase} –")
    return f"{a} ÷ {b} (medians): " + ", ".join(ratios)


def table(columns, preload_all):
    """The Markdown table and, below it, camera-app's ratios with the formats and the caveat."""
    labels = [c["label"] for c in columns]
    lines = ["| phase (ms, median / p90) | " + " | ".join(labels) + " |", "|---|" + "---|" * len(columns)]
    for phase in PHASES:
        lines.append(f"| {phase} | " + " | ".join(fmt(c["phases"].get(phase)) for c in columns) + " |")
        if preload_all and phase in DEVICE:
            lines.append(f"| {phase}, camera-app's own trace | " + " | ".join(
                fmt(c["own"].get(phase)) if c["key"] == "camera-app" else "" for c in columns) + " |")
    lines.append("| pixel format set, calls via; conversion for the screen | " + " | ".join(
        format_and_conversion(c) for c in columns) + " |")
    lines.append("| runs ok / failed | " + " | ".join(f"{c['ok']} / {c['failed']}" for c in columns) + " |")
    lines.append("| first frame found by | " + " | ".join(
        ", ".join(f"{k} {v}" for k, v in sorted(c["methods"].items())) or "–" for c in columns) + " |")
    lines.append("")
    instrument = ("Device phases: every column from the preload library (the `open` call alone for "
                  "device_open); camera-app's own trace rows from its device.* spans in the same runs "
                  "(its device.open also loads libv4l2 and asks QUERYCAP and ENUM_FMT)."
                  if preload_all else
                  "Device phases: camera-app's from its own trace, the others' from the preload library "
                  "(two instruments: not comparable phase by phase).")
    lines.append(instrument + " All " + EMULATION + ".")
    for c in columns:
        if c["key"] != "camera-app":
            continue
        # The apps on camera-app's display, and the floors (no display).
        references = [r for r in columns if r["key"] != "camera-app"
                      and (r["display"] == c["display"] or r["key"] in NO_DISPLAY)]
        for r in references:
            lines.append("")
            lines.append(ratio_line(c["label"], r["label"], c["phases"], r["phases"])
                         + f" [{format_and_conversion(c)} against {format_and_conversion(r)}]")
        if preload_all:
            for r in references:
                if r["key"] in NO_DISPLAY:
                    lines.append("")
                    lines.append(ratio_line(c["label"].replace(" (preload)", "") + ", its own trace",
                                            r["label"] + " by the preload library",
                                            c["own"], r["phases"]) + " [two instruments, as before issue 28]")
    return "\n".join(lines) + "\n"


NO_DISPLAY = ("floor", "floor-dlopen", "C floor alone (libv4l2)")


def median(values):
    return percentile(values, 0.5) if values else None


def displays_table(columns):
    """Each app that ran on both displays: its window and first frame on X11 beside Wayland's
    (medians), and Wayland's ÷ X11's; "–" where a side has no finished run."""
    x11 = {c["config"]: c for c in columns if c["display"] == "x11" and c["key"] not in NO_DISPLAY}
    wayland = {c["config"]: c for c in columns if c["display"] == "wayland"}
    both = [k for k in x11 if k in wayland]
    if not both:
        return ""
    lines = ["", "Peers, display by display: the same configuration on X11 (a private Xvfb) and on Wayland "
             "(a private headless sway), medians in ms; the display server's cost is Wayland's less X11's "
             "(the device phases are the same device's).", "",
             "| app | window_mapped X11 | on Wayland | first_frame_observed X11 | on Wayland | Wayland ÷ X11 | "
             "first frame after the first buffer X11 | on Wayland |",
             "|---|---|---|---|---|---|---|---|"]

    def show(v):
        return "–" if v is None else f"{v:.1f}"

    for k in both:
        a, b = x11[k], wayland[k]
        fa, fb = median(a["phases"].get("first_frame_observed", [])), median(b["phases"].get("first_frame_observed", []))
        ra = f"{ratio(fb / fa)}×" if fa and fb else "–"
        lines.append(f"| {k} | {show(median(a['phases'].get('window_mapped', [])))} | "
                     f"{show(median(b['phases'].get('window_mapped', [])))} | {show(fa)} | {show(fb)} | {ra} | "
                     f"{show(median(a['after_buffer']))} | {show(median(b['after_buffer']))} |")
    return "\n".join(lines) + "\n"


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
    columns, preload_all = bench_columns(os.path.join(out, "bench"), "bench")
    wayland_folder = os.path.join(out, "bench-wayland")
    if os.path.isdir(wayland_folder):
        wayland_columns, _ = bench_columns(wayland_folder, "bench", display="wayland")
        columns += wayland_columns
    columns.append(floor_column(os.path.join(out, "c-floor")))
    text = table(columns, preload_all) + displays_table(columns)
    sys.stdout.write(text)
    with open(os.path.join(out, "peers.md"), "w") as f:
        f.write(text)
    bad = [f"{c['label']}: {c['failed']} failed" + (f" ({c['why']})" if c["why"] else "")
           for c in columns if c["failed"] or not c["ok"]]
    shown = [c for c in columns[:-1] if not c["label"].endswith("(headless, in bench)")]
    otherwise = [f"{c['label']}: {sum(v for k, v in c['methods'].items() if k != 'board')} first frames not found by the light board"
                 for c in shown if any(k != "board" for k in c["methods"])]
    if require_board == "all":
        bad += otherwise
    else:
        for o in otherwise:
            print(f"peers: {o}", file=sys.stderr)
    if require_board == "each-app":
        bad += [f"{c['label']}: no first frame found by the light board" for c in shown if not c["methods"].get("board")]
    for b in bad:
        print(f"peers: {b}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
