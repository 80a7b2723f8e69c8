#!/usr/bin/env python3
"""Generates Tests/StatisticsTests/Fixtures/stats-reference.json: reference values computed ONCE
with SciPy/NumPy for the Swift statistics in Sources/Statistics. Nothing runs Python at
test time; rerun this by hand (pip install scipy numpy) only when the cases change.

Mann-Whitney: scipy.stats.mannwhitneyu(x, y, alternative="two-sided", method=...,
use_continuity=True). U is SciPy's statistic (U of the first sample). Swift must match to 1e-6.

Bootstrap: the percentile-bootstrap 95 % CI of median(b)/median(a) (independent resampling of each
sample). The reference interval is scipy.stats.bootstrap(method="percentile") with 100000 resamples
(Monte-Carlo error negligible). Swift uses its own generator with 4000 resamples, so its endpoints
differ from the reference by Monte-Carlo error only. The tolerance for each endpoint is measured, not
guessed: 4 x the standard deviation of that endpoint across 40 NumPy runs of 4000 resamples with
different seeds (so a correct implementation fails with probability ~1e-4 per endpoint), plus
0.002 x the ratio as a floor for lumpy cases where the spread is near zero.
"""
import json
import os
import numpy as np
from scipy import stats

rng = np.random.default_rng(20240611)
OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "StatisticsTests", "Fixtures", "stats-reference.json")
SWIFT_RESAMPLES = 4000


def launch_times(n, median, sigma, tail=0.1, rounding=None):
    x = median * np.exp(rng.normal(0, sigma, n))
    spikes = rng.random(n) < tail
    x = x + spikes * rng.exponential(median * 0.15, n)
    if rounding:
        x = np.round(x / rounding) * rounding
    return [float(v) for v in x]


mw_cases = []


def add_mw(name, x, y, method="auto"):
    r = stats.mannwhitneyu(x, y, alternative="two-sided", method=method, use_continuity=True)
    mw_cases.append({"name": name, "x": list(map(float, x)), "y": list(map(float, y)), "method": method,
                     "u": float(r.statistic), "p": float(r.pvalue)})


add_mw("exact 3 vs 3 separated", [1.0, 2.0, 3.0], [4.0, 5.0, 6.0])
add_mw("exact 4 vs 5 interleaved", [1.1, 3.3, 5.5, 7.7], [2.2, 4.4, 6.6, 8.8, 9.9])
add_mw("exact 8 vs 8 launch times", launch_times(8, 250, 0.08), launch_times(8, 270, 0.08))
add_mw("exact 5 vs 12 unequal", launch_times(5, 250, 0.1), launch_times(12, 250, 0.1))
add_mw("exact 7 vs 3 first larger", launch_times(7, 300, 0.05), launch_times(3, 250, 0.05))
add_mw("ties small asymptotic", [1.0, 2.0, 2.0, 3.0], [2.0, 3.0, 3.0, 4.0, 5.0])
add_mw("all equal", [5.0, 5.0, 5.0], [5.0, 5.0, 5.0, 5.0])
add_mw("asymptotic 10 vs 10 no ties", launch_times(10, 250, 0.08), launch_times(10, 260, 0.08))
add_mw("asymptotic 10 vs 10 shift 60 ms", launch_times(10, 250, 0.08), launch_times(10, 310, 0.08))
add_mw("asymptotic 20 vs 20 rounded to 1 ms (ties)", launch_times(20, 250, 0.06, rounding=1.0),
       launch_times(20, 255, 0.06, rounding=1.0))
add_mw("asymptotic 20 vs 20 heavy ties", launch_times(20, 250, 0.05, rounding=10.0),
       launch_times(20, 250, 0.05, rounding=10.0))
add_mw("asymptotic 12 vs 30", launch_times(12, 120, 0.1), launch_times(30, 100, 0.1))
add_mw("forced exact 12 vs 15", launch_times(12, 250, 0.08), launch_times(15, 265, 0.08), method="exact")
add_mw("forced asymptotic 6 vs 6", launch_times(6, 250, 0.08), launch_times(6, 290, 0.08), method="asymptotic")

boot_cases = []


def ratio_stat(a, b, axis=-1):
    return np.median(b, axis=axis) / np.median(a, axis=axis)


def numpy_percentile_boot(a, b, resamples, seed):
    g = np.random.default_rng(seed)
    a = np.asarray(a)
    b = np.asarray(b)
    ia = g.integers(0, len(a), (resamples, len(a)))
    ib = g.integers(0, len(b), (resamples, len(b)))
    r = np.median(b[ib], axis=1) / np.median(a[ia], axis=1)
    return np.percentile(r, [2.5, 97.5])


def add_boot(name, a, b):
    ref = stats.bootstrap((a, b), ratio_stat, vectorized=True, paired=False, n_resamples=100000,
                          confidence_level=0.95, method="percentile", rng=np.random.default_rng(7))
    lo, hi = float(ref.confidence_interval.low), float(ref.confidence_interval.high)
    runs = np.array([numpy_percentile_boot(a, b, SWIFT_RESAMPLES, s) for s in range(40)])
    ratio = float(np.median(b) / np.median(a))
    floor = 0.002 * ratio
    boot_cases.append({"name": name, "a": list(map(float, a)), "b": list(map(float, b)),
                       "ratio": ratio, "ci_low": lo, "ci_high": hi,
                       "tolerance_low": float(4 * runs[:, 0].std() + floor),
                       "tolerance_high": float(4 * runs[:, 1].std() + floor),
                       "resamples": SWIFT_RESAMPLES})


add_boot("10 vs 10 similar", launch_times(10, 250, 0.08), launch_times(10, 255, 0.08))
add_boot("20 vs 20 deferred vs eager", launch_times(20, 250, 0.06), launch_times(20, 520, 0.06))
add_boot("15 vs 25 skewed", launch_times(15, 180, 0.15, tail=0.2), launch_times(25, 170, 0.15, tail=0.2))

summary_cases = []
for name, xs in [("launch 20", launch_times(20, 250, 0.08)), ("odd 7", [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0]),
                 ("with outlier", [100.0, 101.0, 99.0, 102.0, 98.0, 100.5, 99.5, 250.0])]:
    a = np.asarray(xs)
    med = np.median(a)
    mad = np.median(np.abs(a - med))
    summary_cases.append({"name": name, "samples": xs, "p50": float(np.percentile(a, 50)),
                          "p90": float(np.percentile(a, 90)), "p99": float(np.percentile(a, 99)),
                          "mean": float(a.mean()), "stddev": float(a.std(ddof=1)),
                          "outliers": int(np.sum(np.abs(a - med) / (1.4826 * mad) > 3.5))})

doc = {"generator": "scripts/make-stats-fixtures.py", "scipy": __import__("scipy").__version__,
       "numpy": np.__version__, "mann_whitney": mw_cases, "bootstrap": boot_cases, "summaries": summary_cases}
with open(OUT, "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
print(f"wrote {OUT}: {len(mw_cases)} Mann-Whitney, {len(boot_cases)} bootstrap, {len(summary_cases)} summary cases")
