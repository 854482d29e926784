#!/usr/bin/env python3
"""Tabulates scripts/bench_dist.sh's raw runs: per tree the median of each configuration over
the repetitions, the best weft and the best dist configuration, T_dist / T_weft and the
efficiency E = T_seq / (2 T_dist), each also as the median of its paired repetitions with a
95 % bootstrap interval (docs/MEASURING.md's rule, scripts/verdict_table.py's summary()); for
the best dist configuration, mpirun's wall time, the request round trip and chunk transfer
times (the medians over the repetitions of each run's median and p90), the termination
token's last round and the ranks' busy, serve, steal and idle shares in its median run.
Usage: dist_table.py OUT REPEAT TREE...
       dist_table.py --order SEED STREAM COUNT   (one repetition's order, for bench_dist.sh)
       dist_table.py --criteria                  (prints the criteria below)

Criteria (fixed before the script runs; docs/DISTRIBUTED.md's targets, applied by judge() to
the paired intervals, never by hand). The pairs are the repetitions: repetition r's best
dist configuration over its best weft configuration (the best of each: the lowest median
over the repetitions), and its T_seq over twice that dist time. Per tree with a target:
  T_dist / T_weft <= target (T1L 1.10, T3L 1.15):
    PASS       the interval's upper end is at most the target
    FAIL       its lower end is above the target
    UNDECIDED  otherwise, or fewer than 5 repetitions
  E = T_seq / (2 T_dist) >= target (T1L 0.85, T3L 0.80):
    PASS       the interval's lower end is at least the target
    FAIL       its upper end is below the target
    UNDECIDED  otherwise, or fewer than 5 repetitions
A tree without a target (not T1L or T3L) has its intervals printed and no criterion. The
verdict of tools/dist/weft against parity (ahead, level, behind, undecided) is printed beside it.
"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verdict_table import MIN_PAIRS, summary  # noqa: E402

# The docstring's targets: tree -> (T_dist / T_weft at most, E at least).
TARGETS = {"T1L": (1.10, 0.85), "T3L": (1.15, 0.80)}


def judge(pair, target, at_most):
    """PASS, FAIL or UNDECIDED: the interval of `pair` against `target` (an upper bound when
    at_most, else a lower one)."""
    if pair["n"] < MIN_PAIRS:
        return "UNDECIDED"
    lo, hi = pair["ci_low"], pair["ci_high"]
    if at_most:
        return "PASS" if hi <= target else "FAIL" if lo > target else "UNDECIDED"
    return "PASS" if lo >= target else "FAIL" if hi < target else "UNDECIDED"


MASK64 = (1 << 64) - 1


def derive_seed(seed, stream):
    """tools/bench/stats/randomized_blocks.hpp's derive_seed (SplitMix64's finaliser)."""
    z = (seed + 0x9E3779B97F4A7C15 * (stream + 1)) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def mt19937_64(seed):
    """std::mt19937_64's outputs, seeded as its constructor seeds it."""
    n, m = 312, 156
    state = [seed & MASK64]
    for i in range(1, n):
        state.append((6364136223846793005 * (state[-1] ^ (state[-1] >> 62)) + i) & MASK64)
    i = n
    while True:
        if i >= n:
            for k in range(n):
                y = (state[k] & 0xFFFFFFFF80000000) | (state[(k + 1) % n] & 0x7FFFFFFF)
                state[k] = state[(k + m) % n] ^ (y >> 1) ^ (0xB5026F5AA96619E9 if y & 1 else 0)
            i = 0
        y = state[i]
        i += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        y ^= y >> 43
        yield y & MASK64


def block_order(count, seed, repetition):
    """tools/bench/stats/randomized_blocks.hpp's block_order: the same permutation for the same
    (count, seed, repetition), so that a sitting's order can be replayed from its seed."""
    order = list(range(count))
    rng = mt19937_64(derive_seed(seed, repetition))
    for i in range(count, 1, -1):
        j = (next(rng) * i) >> 64
        order[i - 1], order[j] = order[j], order[i - 1]
    return order


def main():
    if sys.argv[1:2] == ["--criteria"]:
        print(__doc__[__doc__.index("Criteria"):].strip())
        return
    if sys.argv[1:2] == ["--order"]:
        seed, stream, count = (int(v) for v in sys.argv[2:5])
        print(" ".join(str(k) for k in block_order(count, seed, stream)))
        return
    out, repeat, trees = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    seed = None
    if os.path.exists(f"{out}/raw/seed"):
        seed = int(open(f"{out}/raw/seed").read())
    rows = []
    for tree in trees:
        times, dist_runs = {}, {}
        for r in range(1, repeat + 1):
            weft = json.load(open(f"{out}/raw/{tree}_weft_{r}.json"))
            for run in weft["runs"]:
                name = "seq" if run["impl"] == "seq" else f"weft {run['mechanism']}/{run['steal']}"
                times.setdefault(name, []).append(run["median_s"])
            for steal in ("one", "half"):
                d = json.load(open(f"{out}/raw/{tree}_dist_{steal}_{r}.json"))
                if not d["verified"]:
                    sys.exit(f"dist_table.py: {tree} repetition {r} ({steal}) is not verified")
                with open(f"{out}/raw/{tree}_dist_{steal}_{r}.wall") as w:
                    start, end = map(float, w.read().split())  # seconds since the epoch
                d["mpirun_wall_s"] = end - start
                times.setdefault(f"dist {steal}", []).append(d["median_s"])
                dist_runs.setdefault(f"dist {steal}", []).append(d)
        med = {k: statistics.median(v) for k, v in times.items()}
        best_weft = min((k for k in med if k.startswith("weft")), key=med.get)
        best_dist = min((k for k in med if k.startswith("dist")), key=med.get)
        runs = dist_runs[best_dist]
        # The repetitions as pairs: each ran the dist and weft configurations in one block.
        ratio = summary(times[best_dist], times[best_weft])
        eff = summary(times["seq"], [2 * t for t in times[best_dist]])
        target = TARGETS.get(tree)
        criteria = [] if target is None else [
            {"criterion": f"T_dist / T_weft <= {target[0]:.2f}", "outcome":
             judge(ratio, target[0], True)},
            {"criterion": f"E >= {target[1]:.2f}", "outcome": judge(eff, target[1], False)}]
        median_run = sorted(runs, key=lambda d: d["median_s"])[len(runs) // 2]
        latency = {
            what: {q: statistics.median(d[what][q] for d in runs) for q in ("median", "p90")}
            for what in ("round_trip_us", "transfer_us")}
        rows.append({
            "tree": tree, "medians_s": med, "spread_s": {k: [min(v), max(v)] for k, v in times.items()},
            "best_weft": best_weft, "best_dist": best_dist,
            "dist_over_weft": med[best_dist] / med[best_weft],
            "efficiency": med["seq"] / (2 * med[best_dist]),
            "dist_over_weft_paired": ratio, "efficiency_paired": eff, "criteria": criteria,
            "mpirun_wall_s": statistics.median(d["mpirun_wall_s"] for d in runs),
            "last_token_round_us": statistics.median(d["last_token_round_us"] for d in runs),
            "latency_us": latency,
            "profile": [{k: rank[k] for k in ("busy", "serve", "steal", "idle", "nodes",
                                              "requests_sent", "failed_steals", "chunks_received")}
                        for rank in median_run["ranks"]],
        })
    with open(f"{out}/bench_dist.json", "w") as f:
        json.dump({"repeat": repeat, "seed": seed, "trees": rows}, f, indent=1)
    order = ("each in an order shuffled from seed " + str(seed) if seed is not None
             else "alternated")
    lines = ["# weft-uts-dist at 2 ranks against weft at 2 workers", "",
             f"Made by `scripts/bench_dist.sh`, {repeat} repetitions, {order}; medians in "
             "seconds (min-max); E = T_seq / (2 T_dist); paired: the median of the "
             "repetitions' ratios [95 % bootstrap interval] (`dist_table.py --criteria`).", ""]
    for row in rows:
        lines += [f"## {row['tree']}", "", "| configuration | median s | min-max |", "|---|---:|---:|"]
        for k, v in sorted(row["medians_s"].items()):
            lo, hi = row["spread_s"][k]
            lines.append(f"| {k} | {v:.4f} | {lo:.4f}-{hi:.4f} |")
        lines += ["", f"best weft: {row['best_weft']}; best dist: {row['best_dist']}; "
                  f"T_dist / T_weft = {row['dist_over_weft']:.3f}; E = {row['efficiency']:.3f}", "",
                  f"paired: T_dist / T_weft {interval_text(row['dist_over_weft_paired'])} "
                  f"{row['dist_over_weft_paired']['verdict']}; E "
                  f"{interval_text(row['efficiency_paired'])} "
                  f"(n = {row['dist_over_weft_paired']['n']})", ""]
        lines += [f"criterion {c['criterion']}: {c['outcome']}" for c in row["criteria"]] or \
            [f"criteria: none ({row['tree']} has no target)"]
        lines.append("")
        lat = row["latency_us"]
        lines += [f"{row['best_dist']}: mpirun's wall time {row['mpirun_wall_s']:.2f} s (start-up "
                  f"included); request round trip median {lat['round_trip_us']['median']:.1f} us, "
                  f"p90 {lat['round_trip_us']['p90']:.1f} us; chunk transfer median "
                  f"{lat['transfer_us']['median']:.1f} us, p90 {lat['transfer_us']['p90']:.1f} us; "
                  f"last token round {row['last_token_round_us']:.1f} us (medians over the "
                  "repetitions)", "",
                  "| rank | nodes | busy | serve | steal | idle | requests | failed | chunks in |",
                  "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for q, p in enumerate(row["profile"]):
            lines.append(f"| {q} | {p['nodes']} | {p['busy']:.3f} | {p['serve']:.4f} | "
                         f"{p['steal']:.4f} | {p['idle']:.4f} | {p['requests_sent']} | "
                         f"{p['failed_steals']} | {p['chunks_received']} |")
        lines.append("")
    outcomes = [c["outcome"] for row in rows for c in row["criteria"]]
    lines.append("criteria: " + ", ".join(f"{outcomes.count(o)} {o}"
                                          for o in ("PASS", "FAIL", "UNDECIDED")))
    open(f"{out}/bench_dist.md", "w").write("\n".join(lines) + "\n")
    for row in rows:
        for c in row["criteria"]:
            print(f"{row['tree']}: {c['criterion']}: {c['outcome']}")
    print(lines[-1])


def interval_text(p):
    return f"{p['ratio_median']:.3f} [{p['ci_low']:.3f}, {p['ci_high']:.3f}]"


if __name__ == "__main__":
    main()
