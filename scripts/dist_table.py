#!/usr/bin/env python3
"""Tabulates scripts/bench_dist.sh's raw runs: per tree the median of each configuration over
the repetitions, the best weft and the best dist configuration, T_dist / T_weft and the
efficiency E = T_seq / (2 T_dist). Usage: dist_table.py OUT REPEAT TREE..."""
import json
import statistics
import sys


def main():
    out, repeat, trees = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    rows = []
    for tree in trees:
        times = {}
        for r in range(1, repeat + 1):
            weft = json.load(open(f"{out}/raw/{tree}_weft_{r}.json"))
            for run in weft["runs"]:
                name = "seq" if run["impl"] == "seq" else f"weft {run['mechanism']}/{run['steal']}"
                times.setdefault(name, []).append(run["median_s"])
            for steal in ("one", "half"):
                d = json.load(open(f"{out}/raw/{tree}_dist_{steal}_{r}.json"))
                if not d["verified"]:
                    sys.exit(f"dist_table.py: {tree} repetition {r} ({steal}) is not verified")
                times.setdefault(f"dist {steal}", []).append(d["median_s"])
        med = {k: statistics.median(v) for k, v in times.items()}
        best_weft = min((k for k in med if k.startswith("weft")), key=med.get)
        best_dist = min((k for k in med if k.startswith("dist")), key=med.get)
        rows.append({
            "tree": tree, "medians_s": med, "spread_s": {k: [min(v), max(v)] for k, v in times.items()},
            "best_weft": best_weft, "best_dist": best_dist,
            "dist_over_weft": med[best_dist] / med[best_weft],
            "efficiency": med["seq"] / (2 * med[best_dist]),
        })
    with open(f"{out}/bench_dist.json", "w") as f:
        json.dump({"repeat": repeat, "trees": rows}, f, indent=1)
    lines = ["# weft-uts-dist at 2 ranks against weft at 2 workers", "",
             f"Made by `scripts/bench_dist.sh`, {repeat} alternated repetitions; medians in seconds "
             "(min-max); E = T_seq / (2 T_dist).", ""]
    for row in rows:
        lines += [f"## {row['tree']}", "", "| configuration | median s | min-max |", "|---|---:|---:|"]
        for k, v in sorted(row["medians_s"].items()):
            lo, hi = row["spread_s"][k]
            lines.append(f"| {k} | {v:.4f} | {lo:.4f}-{hi:.4f} |")
        lines += ["", f"best weft: {row['best_weft']}; best dist: {row['best_dist']}; "
                  f"T_dist / T_weft = {row['dist_over_weft']:.3f}; E = {row['efficiency']:.3f}", ""]
    open(f"{out}/bench_dist.md", "w").write("\n".join(lines))


if __name__ == "__main__":
    main()
