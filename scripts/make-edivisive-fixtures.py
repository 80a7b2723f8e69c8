#!/usr/bin/env python3
"""Generates Tests/StatisticsTests/Fixtures/edivisive-reference.json: E-divisive means computed
ONCE with MongoDB's signal-processing-algorithms (PyPI, version recorded in the file) for the Swift
implementation in Sources/Statistics/EDivisive.swift. Nothing runs Python at test
time; rerun this by hand only when the cases change:

    python3 -m venv /tmp/spa && /tmp/spa/bin/pip install signal-processing-algorithms
    /tmp/spa/bin/python scripts/make-edivisive-fixtures.py

For each series the file holds:
  - t_statistics: the reference's test statistic t(tau) for every split of the whole series
    (energy_statistics._calculate_t_stats over the distance matrix): deterministic, so Swift
    must match each to 1e-9 relative;
  - candidate, candidate_t: the first round's candidate (argmax of t_statistics);
  - change_points: energy_statistics.e_divisive(series, pvalue=0.05, permutations=100), sorted.
    The permutation p-values are random (NumPy's generator, seeded here), so Swift, with its own
    generator, is held to the same locations only on series flagged clear_cut: series whose
    changes are so large (or absent) that the significance decision does not depend on the
    shuffles. To check that, e_divisive runs with 20 different seeds and a series is clear_cut
    only when all 20 give the same change points.
"""
import json
import os
from importlib.metadata import version

import numpy as np
from signal_processing_algorithms.energy_statistics import energy_statistics as es

rng = np.random.default_rng(20261203)
OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "StatisticsTests", "Fixtures",
                   "edivisive-reference.json")


def noisy(levels, lengths, sigma):
    """Piecewise-constant medians (ms) with Gaussian noise of relative size sigma."""
    out = []
    for level, length in zip(levels, lengths):
        out += list(level * (1 + rng.normal(0, sigma, length)))
    return [float(round(v, 4)) for v in out]


cases = [
    ("flat-30", noisy([100], [30], 0.01)),
    ("flat-60", noisy([250], [60], 0.02)),
    ("step-5pct-at-15", noisy([100, 105], [15, 15], 0.005)),
    ("step-20pct-at-10", noisy([80, 96], [10, 20], 0.01)),
    ("two-steps", noisy([100, 130, 90], [12, 12, 12], 0.01)),
    ("drop-at-25", noisy([300, 240], [25, 15], 0.01)),
    ("small-step-noisy", noisy([100, 101], [20, 20], 0.02)),
    ("three-changes", noisy([50, 70, 50, 80], [10, 10, 10, 10], 0.02)),
    ("short-8", noisy([100, 150], [4, 4], 0.01)),
    ("spikes", [100.0, 101.0, 99.0, 180.0, 100.0, 102.0, 98.0, 101.0, 100.0, 175.0, 99.0, 100.0]),
]

series_out = []
for name, series in cases:
    arr = es._get_valid_input(series)
    distances = es._get_distance_matrix(arr)
    t = es._calculate_t_stats(distances)
    candidate = int(np.argmax(t))
    runs = []
    for seed in range(20):
        np.random.seed(1000 + seed)
        runs.append(sorted(es.e_divisive(series, pvalue=0.05, permutations=100)))
    clear_cut = all(r == runs[0] for r in runs)
    series_out.append({
        "name": name,
        "series": series,
        "t_statistics": [float(v) for v in t],
        "candidate": candidate,
        "candidate_t": float(t[candidate]),
        "change_points": runs[0],
        "clear_cut": clear_cut,
    })

with open(OUT, "w") as f:
    json.dump({
        "generator": "scripts/make-edivisive-fixtures.py",
        "reference": "signal-processing-algorithms " + version("signal-processing-algorithms"),
        "pvalue": 0.05,
        "permutations": 100,
        "cases": series_out,
    }, f, indent=1)
    f.write("\n")
for c in series_out:
    print(c["name"], c["candidate"], c["change_points"], "clear-cut" if c["clear_cut"] else "NOT clear-cut")
