#!/usr/bin/env python3
"""Writes the seed inputs of every fuzz target into Fuzz/Corpus/<target>/seed-*.

Seeds are small, valid-looking inputs that reach deep into each parser; the fuzzer mutates
them. Inputs that once failed are kept next to them as crash-* / check-* files (never rewritten
here). Run from anywhere: python3 Fuzz/make-seeds.py
"""
import json
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus")


def write(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(folder, "seed-" + name), "wb") as f:
        f.write(data)


def num(value, lo, hi):
    """FuzzInput.int(in: lo...hi): little-endian, as few bytes as the span needs."""
    span = hi - lo + 1
    n = 1 if span <= 0x100 else 2 if span <= 0x10000 else 4 if span <= 0x100000000 else 8
    return (value - lo).to_bytes(n, "little")


def u(value, n):
    return value.to_bytes(n, "little")


# trace: JSON lines as an app writes them.
def event(ts, name, kind="event", pid=4242, **fields):
    e = {"ts": ts, "name": name, "kind": kind, "pid": pid}
    if fields:
        e["fields"] = fields
    return json.dumps(e)


launch = [
    event(1_000_000, "launch.spawn", pid=1),
    event(3_000_000, "app.main"),
    event(3_500_000, "ui.ready"),
    event(3_600_000, "session.configure", "begin"),
    event(4_000_000, "output.init", "begin", output="preview"),
    event(4_100_000, "output.init", "end", output="preview"),
    event(4_200_000, "session.configure", "end"),
    event(4_300_000, "session.start_running", "begin"),
    event(9_000_000, "session.start_running", "end"),
    event(12_000_000, "preview.first_present", capture_time_ns=11_000_000),
    event(13_000_000, "display.first_live_frame", pid=1),
    event(13_500_000, "deferred_start.will"),
    event(20_000_000, "deferred_start.did", seconds=0.0065, ok=True),
    event(21_000_000, "shutter.tap"),
    event(23_000_000, "photo.delivered"),
    event(24_000_000, "ui.secondary_visible"),
]
write("trace", "launch.jsonl", "\n".join(launch) + "\n")
write("trace", "device.jsonl", "\n".join([
    event(5, "device.open", "begin", device="/dev/video0"), event(9, "device.open", "end"),
    event(10, "device.stream_on", "end"), event(15, "device.first_buffer", width=640, height=480)]) + "\n")
write("trace", "malformed.jsonl",
      '{"ts": 1, "name": "a"}\nnot json\n{"ts": -1, "name": "x", "kind": "event"}\n'
      + '{"ts": 18446744073709551615, "name": "app.main", "kind": "begin", "fields": {"k": [1]}}\n'
      + "x" * 300 + "\n" + event(7, "ui.ready") + "\n" + '{"ts": 2, "name": "cut", "kind": "ev')

# surface: FuzzInput programs. ops: 0 present(w,h,value) 1 black 2/3 scribble 4 latch 5 open.
def present(w, h, v):
    return bytes([0]) + num(w, 1, 300) + num(h, 1, 300) + bytes([v])


def scribble(anywhere, writes):
    out = bytes([2, 1 if anywhere else 0]) + num(len(writes), 1, 8)
    for offset, value in writes:
        out += num(offset, 0, 64 * 48 * 3 + 4096 - 1 if anywhere else 64 + 64 * 3 - 1) + bytes([value])
    return out


LATCH, OPEN, BLACK = bytes([4]), bytes([5]), bytes([1])
write("surface", "present-latch", present(64, 48, 200) + LATCH + LATCH + present(32, 24, 7) + LATCH)
write("surface", "scaled", present(300, 7, 90) + LATCH + BLACK + LATCH + present(5, 290, 33) + LATCH + OPEN)
write("surface", "scribbled-header", present(64, 48, 1) + scribble(False, [(12, 9), (48, 3)]) + LATCH + OPEN)
write("surface", "scribbled-pixels", present(64, 48, 2) + scribble(True, [(5000, 1), (4096, 255)]) + LATCH)
write("surface", "odd-slot", present(64, 48, 3) + scribble(False, [(64, 1)]) + LATCH + present(64, 48, 4) + LATCH)

# control: what the runner sends, and what it never sends.
write("control", "commands", "tap\nlock\nunlock\nquit\n")
write("control", "spaces", " tap \r\n\tlock\t\nunlock\r\n\n   \nquit")
write("control", "unknown", "bogus\nTAP\nta p\n" + "q" * 1500 + "\nunlock\n")

# profile: the committed profiles.
for name in ["default", "fast", "noisy"]:
    with open(os.path.join(ROOT, "Benchmarks", "profiles", name + ".json"), "rb") as f:
        write("profile", name + ".json", f.read())

# gates: the committed gates file, and a baseline section with per-phase thresholds.
with open(os.path.join(ROOT, "Benchmarks", "gates.json"), "rb") as f:
    write("gates", "gates.json", f.read())
write("gates", "baseline.json", json.dumps({
    "schema": "firstframe.gates/1",
    "baseline": {"alpha": 0.05, "default_threshold_pct": 3,
                 "phases": {"first_frame_observed": {"threshold_pct": 5}, "start_running": {}}},
    "relative": [{"name": "max", "phase": "first_frame_observed", "condition": "warm",
                  "numerator": "deferred", "denominator": "eager", "max_ratio": 0.9}]}))

# results: the fixture cut down to two cells of three runs.
with open(os.path.join(ROOT, "Tests", "BenchKitTests", "Fixtures", "results-before.json")) as f:
    results = json.load(f)
results["cells"] = results["cells"][:2]
for cell in results["cells"]:
    cell["records"] = cell["records"][:3]
    for record in cell["records"]:
        record["timeline"] = record.get("timeline", [])[:6]
    cell["runs"] = 3
    for summary in cell["phases"].values():
        summary["samples"] = summary["samples"][:3]
        summary["n"] = len(summary["samples"])
        summary.pop("outliers", None)
results["comparisons"] = results["comparisons"][:2]
write("results", "small.json", json.dumps(results, indent=1, sort_keys=True))
write("results", "wrong-schema.json", '{"schema": "firstframe.results/2", "cells": []}')

# photo: first byte = side - 1 (bit 7: a well-formed file of width, height and grey).
pgm = b"P5\n8 4\n255\n" + bytes(range(0, 256, 8))
write("photo", "file", bytes([7]) + pgm)
write("photo", "comment-like", bytes([15]) + b"P5 3\t2\r255 " + bytes(6))
write("photo", "uniform", bytes([0x80 | 9]) + num(17, 1, 300) + num(5, 1, 300) + bytes([128]))

# lightboard: mode byte, then an image (width, height, extra stride), then the mode's fields.
def image(w, h, extra, max_w=640, max_h=480):
    return num(w, 1, max_w) + num(h, 1, max_h) + num(extra, 0, 64)


write("lightboard", "rendered", bytes([1]) + image(320, 240, 0) + u(1_234_567_890, 6) + bytes([5]) + num(0, 0, 8))
write("lightboard", "rendered-patched", bytes([1]) + image(160, 120, 16) + u(99_000, 6) + bytes([31]) + num(2, 0, 8)
      + num(80, 0, 159) + num(60, 0, 119) + bytes([0]) + num(10, 0, 159) + num(100, 0, 119) + bytes([255]))
write("lightboard", "rectangles", bytes([2]) + image(640, 360, 0) + u(5, 6) + bytes([0]) + num(1, 0, 4)
      + num(0, 0, 639) + num(0, 0, 359) + num(320, 1, 640) + num(20, 1, 360) + bytes([235]))
write("lightboard", "noise", bytes([0]) + image(200, 150, 3) + bytes(range(256)))
detector = bytes([3]) + u(33_333_333, 4) + u(16_666_667, 4) + u(1000, 4) + bytes([0])
for k in range(6):
    detector += image(160, 120, 0, 320, 240) + bytes([0 if k else 2]) + (u(1000 + k * 33, 6) + bytes([k]) if k else b"") + u(16_666_667, 4)
write("lightboard", "detector", detector)

# v4l2: formats (count, then fourCC, emulated, sizes), the steps byte, then rewrites.
FOURCCS = ["YUYV", "GREY", "UYVY", "NV12", "YU12", "MJPG", "YVYU", "422P"]
REQUESTS = ["VIDIOC_QUERYCAP", "VIDIOC_ENUM_FMT", "VIDIOC_G_FMT", "VIDIOC_S_FMT", "VIDIOC_ENUM_FRAMESIZES",
            "VIDIOC_ENUM_FRAMEINTERVALS", "VIDIOC_G_PARM", "VIDIOC_S_PARM", "VIDIOC_REQBUFS", "VIDIOC_QUERYBUF",
            "VIDIOC_QBUF", "VIDIOC_DQBUF", "VIDIOC_STREAMON", "VIDIOC_STREAMOFF", "VIDIOC_QUERYCTRL",
            "VIDIOC_QUERY_EXT_CTRL", "VIDIOC_G_CTRL", "VIDIOC_S_CTRL"]


def fmt(fourcc, sizes, emulated=False):
    out = num(FOURCCS.index(fourcc), 0, len(FOURCCS) - 1) + bytes([1 if emulated else 0]) + num(len(sizes), 1, 3)
    for w, h, rate in sizes:
        out += num(w, 1, 160) + num(h, 1, 120) + num(rate, 1, 120)
    return out


def formats(*fs):
    return num(len(fs), 1, 3) + b"".join(fs)


def rewrite(request, kind, payload):
    return num(REQUESTS.index(request), 0, len(REQUESTS) - 1) + bytes([kind]) + payload


yuyv = fmt("YUYV", [(160, 120, 30), (64, 48, 30)])
write("v4l2", "stream", formats(yuyv) + bytes([0x3F]))
write("v4l2", "formats", formats(fmt("GREY", [(160, 120, 60)]), fmt("MJPG", [(128, 96, 15)]),
                                 fmt("YU12", [(128, 96, 15), (33, 17, 120)], emulated=True)) + bytes([0x37]))
write("v4l2", "rewritten", formats(yuyv) + bytes([0x3F])
      + rewrite("VIDIOC_DQBUF", 0, num(2, 0, 9))             # EAGAIN once
      + rewrite("VIDIOC_S_FMT", 1, num(6, 0, 208 // 4 - 1) + u(400, 4))   # bytesperline
      + rewrite("VIDIOC_QUERYBUF", 1, num(18, 0, 88 // 4 - 1) + u(4096, 4)))  # length

# sched: a tracefs `trace` text (record-tgid) as bench reads it. The kernel writes it; the app
# names its threads (comm, ≤ 15 bytes: spaces, keys, the marker, a newline).
def sched_line(ms, cpu, comm, tid, tgid, event, body, flags="d..2."):
    group = "-------" if tgid is None else "%7d" % tgid
    return "%16s-%-7d (%s) [%03d] %s %d.%06d: %s: %s" % (
        comm, tid, group, cpu, flags, 100 + ms // 1000, (ms % 1000) * 1000, event, body)


def switch(ms, cpu, prev, prev_tid, state, nxt, next_tid, tgid):
    return sched_line(ms, cpu, prev, prev_tid, tgid, "sched_switch",
                      "prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%d next_prio=120"
                      % (prev, prev_tid, state, nxt, next_tid))


launch = [
    "# tracer: nop",
    "#",
    sched_line(0, 0, "bench", 100, 100, "sched_process_fork", "comm=bench pid=100 child_comm=bench child_pid=500", "....."),
    sched_line(0, 0, "bench", 100, 100, "sched_wakeup_new", "comm=bench pid=500 prio=120 target_cpu=001"),
    switch(1, 0, "bench", 100, "S", "bench", 500, 100),
    sched_line(2, 0, "camera-app", 500, 500, "sched_process_exec", "filename=/x/camera-app pid=500 old_pid=500", "....."),
    sched_line(3, 0, "camera-app", 500, 500, "sched_process_fork", "comm=camera-app pid=500 child_comm=camera-app child_pid=501", "....."),
    sched_line(4, 0, "camera-app", 500, 500, "sched_stat_runtime", "comm=camera-app pid=500 runtime=3000000 [ns]"),
    switch(4, 0, "camera-app", 500, "D", "swapper/0", 0, 500),
    sched_line(6, 1, "<idle>", 0, None, "sched_wakeup", "comm=camera-app pid=500 prio=120 target_cpu=001", "dNh4."),
    sched_line(9, 1, "camera-app", 500, 500, "sched_stat_runtime", "comm=camera-app pid=500 runtime=2500000 [ns]", "d.h1."),
    switch(10, 1, "camera-app", 500, "R+", "kworker/1:0", 7, 500),
    sched_line(12, 1, "camera-app", 500, 500, "sched_stat_runtime", "comm=camera-app pid=500 runtime=1000000 [ns]"),
    switch(12, 1, "camera-app", 500, "S", "swapper/1", 0, 500),
    sched_line(13, 0, "camera-app", 501, 500, "sched_process_exit", "comm=camera-app pid=501 prio=120 group_dead=false", "....."),
]
write("sched", "launch.txt", "\n".join(launch) + "\n")
write("sched", "hostile-comms.txt", "\n".join([
    sched_line(1, 0, "x: sched_", 77, 77, "sched_stat_runtime", "comm=x: sched_ pid=77 runtime=486414 [ns]"),
    sched_line(1, 0, "a", 77, 77, "sched_wakeup", "comm=a pid=9 prio=1 pid=10 prio=120 target_cpu=000"),
    sched_line(1, 1, "a", 77, 77, "sched_process_exec", "filename=/x pid=1 old_pid=1 pid=77 old_pid=77", "....."),
    switch(2, 0, "a\nb sched_x: c", 77, "S", "swapper/0", 0, 77),
    sched_line(3, 1, "a", 77, 77, "sched_stat_runtime", "comm=a pid=77 runtime=999999999999 [ns]"),
    switch(3, 1, "a", 77, "X", "swapper/1", 0, 77),
]) + "\n")
