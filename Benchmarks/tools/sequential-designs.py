#!/usr/bin/env python3
"""Sequential A/B designs against CI's fixed step, on recorded runs (issue 39, item 2).

    python3 Benchmarks/tools/sequential-designs.py [Benchmarks/sequential-design-runs.json] [--failed PCT]

Resamples each recorded cell (first_frame_observed, both sides of an unchanged comparison pooled)
with replacement, plants a uniform shift of 0, 2, 5, 10 and 20 % on the new side (and a failure
rate: a failed run is +inf and ranks slowest), and runs
  - CI's fixed step: 30 runs a side, failing a cell whose ratio of medians is beyond 1.05
    (bench gate --inconclusive fail: beyond the threshold fails whatever p);
  - group-sequential designs as bench ab runs them (Sources/Gates/SequentialDesign.swift: the rank
    z at each look against Lan-DeMets spending bounds found on 200,000 paths of the canonical
    process, alpha = 0.01 split over the cells, alpha/2 a cell for the two recorded cells as CI's
    step runs them, and the unsplit alpha a cell for comparison; SLOWER/FASTER need the ratio
    beyond 1 +/- 5 %; SAME is both one-sided rank tests
    against the reference scaled by 1 +/- 10 % crossing the beta bound), and the step's reading
    of them (scripts/ab-gate: SLOWER fails, UNKNOWN fails beyond 5 %).
Prints Markdown tables: per recorded set, design and shift; a noise sweep on log-normal draws;
bench bisect's probe design on the bisect set (one cell: alpha unsplit). Pocock 9x4 rows match `bench power --sequential`
on the same runs (the Swift implementation) within resampling error. numpy; about a minute.
"""
import argparse, json, math
from statistics import NormalDist
import numpy as np

NORMAL = NormalDist()


def spent(total, t, kind):
    if t <= 0:
        return 0.0
    if kind == "obf":
        return min(total, 2 * (1 - NORMAL.cdf(NORMAL.inv_cdf(1 - total / 2) / math.sqrt(t))))
    return min(total, total * math.log(1 + (math.e - 1) * min(t, 1)))  # Pocock type


def bounds(looks, total, kind, paths=200_000):
    rng = np.random.default_rng(12345)
    sums, alive, stopped, out = np.zeros(paths), np.ones(paths, bool), 0, []
    for look in range(1, looks + 1):
        sums += rng.standard_normal(paths)
        z = sums / math.sqrt(look)
        share = spent(total, look / looks, kind)
        more = int(round(share * paths)) - stopped
        if look == 1:
            bound = NORMAL.inv_cdf(1 - share) if share > 0 else math.inf
        else:
            ordered = np.sort(z[alive])[::-1]
            if more <= 0 or more >= len(ordered):
                out.append(math.inf)
                continue
            bound = (ordered[more - 1] + ordered[more]) / 2
        out.append(bound)
        hit = alive & (z > bound)
        stopped += int(hit.sum())
        alive &= ~hit
    return out


def rank_z(ref, new):
    n1, n2 = ref.shape[1], new.shape[1]
    u = (new[:, :, None] > ref[:, None, :]).sum((1, 2)) + 0.5 * (new[:, :, None] == ref[:, None, :]).sum((1, 2))
    return (u - n1 * n2 / 2) / math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)


class Design:
    def __init__(self, pairs, looks, efficacy="pocock", futility=None, alpha=0.01, beta=0.05, threshold=0.05, power_shift=0.10,
                 cells=1):
        # alpha is family-wise over `cells` cells: each spends alpha / cells (Bonferroni); beta is a cell's.
        self.pairs, self.looks, self.threshold, self.power_shift = pairs, looks, threshold, power_shift
        self.efficacy = bounds(looks, alpha / cells / 2, efficacy)
        self.equivalence = bounds(looks, beta, futility or efficacy)
        self.most = pairs * looks

    def run(self, ref, new):
        count = ref.shape[0]
        verdict = np.full(count, "", dtype=object)
        runs, ratio_end, open_ = np.zeros(count, int), np.zeros(count), np.ones(count, bool)
        with np.errstate(invalid="ignore"):
            for look in range(1, self.looks + 1):
                n = look * self.pairs
                r, w = ref[:, :n], new[:, :n]
                ratio = np.median(w, axis=1) / np.median(r, axis=1)
                z = rank_z(r, w)
                same = np.minimum(-rank_z(r * (1 + self.power_shift), w), rank_z(r * (1 - self.power_shift), w))
                i = look - 1
                slower = (z > self.efficacy[i]) & (ratio > 1 + self.threshold)
                faster = (-z > self.efficacy[i]) & (ratio < 1 - self.threshold) & ~slower
                same = (same > self.equivalence[i]) & ~slower & ~faster
                for mask, name in ((slower, "SLOWER"), (faster, "FASTER"), (same, "SAME")):
                    hit = mask & open_
                    verdict[hit], runs[hit], ratio_end[hit] = name, n, ratio[hit]
                    open_ &= ~hit
                if look == self.looks:
                    verdict[open_], runs[open_], ratio_end[open_] = "UNKNOWN", n, ratio[open_]
        return verdict, runs, ratio_end


def draws(pool, count, n, shift, failed, rng):
    x = rng.choice(pool, size=(count, n)) * (1 + shift)
    if failed > 0:
        x[rng.random((count, n)) < failed] = np.inf
    return x


def fixed_fails(pool, count, shift, failed, rng, n=30):
    with np.errstate(invalid="ignore"):
        ref, new = draws(pool, count, n, 0, failed, rng), draws(pool, count, n, shift, failed, rng)
        return np.median(new, axis=1) / np.median(ref, axis=1) > 1.05


def noise(x):
    m = np.median(x)
    return 1.4826 * np.median(abs(x - m)) / m


SHIFTS = [0, 0.02, 0.05, 0.10, 0.20]
DESIGNS = [
    ("Pocock 9×4, α/2 a cell (bench ab's)", Design(4, 9, cells=2)),
    ("Pocock 9×4, α a cell (before the split)", Design(4, 9)),
    ("O'Brien–Fleming 6×6", Design(6, 6, "obf")),
    ("OBF efficacy, Pocock futility, 4×9", Design(9, 4, "obf", "pocock")),
]

# The noise sweep (one cell): the split's cost a cell for CI's 2 cells and for --conditions warm,cold's 4.
SWEEP = DESIGNS[:2] + [("Pocock 9×4, α/4 a cell (warm,cold)", Design(4, 9, cells=4))]


def table(name, cells, failed):
    print(f"\n#### {name}, failed runs {failed * 100:.0f} %\n")
    print("| design | shift | SLOWER d / e | SAME d / e | UNKNOWN d / e | verdict false alarms (SLOWER or FASTER, any cell) "
          "| step fails (any cell) | step fails (both cells) | mean runs a side d / e | worst |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for shift in SHIFTS:
        rng = np.random.default_rng(int(shift * 100) + 7)
        count = 2000 if shift == 0 else 1000
        f = [fixed_fails(x, count, shift, failed, rng).mean() for x in cells.values()]
        print(f"| fixed N = 30 | {shift * 100:.0f} % | – | – | – | – | {1 - np.prod([1 - v for v in f]):.3f} | {np.prod(f):.3f} | 30 / 30 | 30 |")
    for label, design in DESIGNS:
        for shift in SHIFTS:
            rng = np.random.default_rng(int(shift * 100) + 11)
            count = 2000 if shift == 0 else 1000
            rows = []
            for x in cells.values():
                v, r, q = design.run(draws(x, count, design.most, 0, failed, rng), draws(x, count, design.most, shift, failed, rng))
                fails = (v == "SLOWER") | ((v == "UNKNOWN") & (q > 1.05))
                rows.append(dict(sl=(v == "SLOWER").mean(), fa=(v == "FASTER").mean(), sa=(v == "SAME").mean(),
                                 un=(v == "UNKNOWN").mean(), fail=fails.mean(), mean=r.mean(), worst=r.max()))
            d, e = rows
            alarms = 1 - (1 - d["sl"] - d["fa"]) * (1 - e["sl"] - e["fa"])
            print(f"| {label} | {shift * 100:.0f} % | {d['sl']:.3f} / {e['sl']:.3f} | {d['sa']:.3f} / {e['sa']:.3f} "
                  f"| {d['un']:.3f} / {e['un']:.3f} | {alarms:.4f} | {1 - (1 - d['fail']) * (1 - e['fail']):.3f} "
                  f"| {d['fail'] * e['fail']:.3f} | {d['mean']:.1f} / {e['mean']:.1f} | {max(d['worst'], e['worst'])} |")


def sweep():
    print("\n#### Noise sweep: one cell, log-normal draws around 341 ms, 2,000 comparisons\n")
    print("| noise | design | A/A verdict false alarms | A/A step fails | +10 % SLOWER | +10 % step fails | mean runs 0 % / +10 % | worst |")
    print("|---|---|---|---|---|---|---|---|")
    for sigma in [0.025, 0.05, 0.075, 0.10, 0.125, 0.15]:
        rng = np.random.default_rng(int(sigma * 1000))
        pool = 341 * np.exp(sigma * rng.standard_normal(5000))
        f0, f10 = fixed_fails(pool, 2000, 0, 0, rng).mean(), fixed_fails(pool, 2000, 0.10, 0, rng).mean()
        print(f"| {sigma * 100:.1f} % | fixed 30 | – | {f0:.3f} | – | {f10:.3f} | 30 / 30 | 30 |")
        for label, design in SWEEP:
            v0, r0, q0 = design.run(draws(pool, 2000, 36, 0, 0, rng), draws(pool, 2000, 36, 0, 0, rng))
            v1, r1, q1 = design.run(draws(pool, 2000, 36, 0, 0, rng), draws(pool, 2000, 36, 0.10, 0, rng))
            s0 = ((v0 == "SLOWER") | ((v0 == "UNKNOWN") & (q0 > 1.05))).mean()
            s1 = ((v1 == "SLOWER") | ((v1 == "UNKNOWN") & (q1 > 1.05))).mean()
            print(f"| {sigma * 100:.1f} % | {label} | {((v0 == 'SLOWER') | (v0 == 'FASTER')).mean():.4f} | {s0:.3f} "
                  f"| {(v1 == 'SLOWER').mean():.3f} | {s1:.3f} | {r0.mean():.1f} / {r1.mean():.1f} | {max(r0.max(), r1.max())} |")


def bisect(sets):
    probe = Design(4, 12, alpha=0.01, beta=0.01, threshold=0.20, power_shift=0.20)
    print("\n#### bench bisect's probe (Gate.bisectDesign: at most 48 a side, threshold 20 %, SAME at α), 2,000 comparisons\n")
    print("| runs | shift | SLOWER | SAME | FASTER | UNKNOWN | mean runs | worst |")
    print("|---|---|---|---|---|---|---|---|")
    for name, cell in sets:
        for shift in (0, 0.5):
            rng = np.random.default_rng(5)
            v, r, _ = probe.run(draws(cell, 2000, 48, 0, 0, rng), draws(cell, 2000, 48, shift, 0, rng))
            print(f"| {name} ({len(cell)} runs, noise {noise(cell) * 100:.0f} %) | {shift * 100:.0f} % | {(v == 'SLOWER').mean():.3f} "
                  f"| {(v == 'SAME').mean():.3f} | {(v == 'FASTER').mean():.3f} | {(v == 'UNKNOWN').mean():.3f} | {r.mean():.1f} | {r.max()} |")


def main():
    parser = argparse.ArgumentParser(description="sequential A/B designs against CI's fixed step, on recorded runs")
    parser.add_argument("runs", nargs="?", default="Benchmarks/sequential-design-runs.json")
    parser.add_argument("--failed", type=float, default=0, help="failed runs, in %% (default 0)")
    options = parser.parse_args()
    sets = json.load(open(options.runs))["sets"]
    for name, s in sets.items():
        cells = {k: np.array(v) for k, v in s["cells"].items()}
        if len(cells) == 2:
            shown = ", ".join(f"{k} {np.median(v):.0f} ms ± {noise(v) * 100:.1f} %" for k, v in cells.items())
            table(f"{name}: {s['what']} ({shown})", cells, options.failed / 100)
    sweep()
    bisect([(f"{n} {c}", np.array(v)) for n, s in sets.items() for c, v in s["cells"].items()])


if __name__ == "__main__":
    main()
