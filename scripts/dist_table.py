#!/usr/bin/env python3
"""Tabulates scripts/bench_dist.sh's raw runs: per tree the median of each configuration over
the repetitions, the best weft and the best dist configuration, T_dist / T_weft and the
efficiency E = T_seq / (2 T_dist); for the best dist configuration, mpirun's wall time, the
request round trip and chunk transfer times (the medians over the repetitions of each run's
median and p90), the termination token's last round and the ranks' busy, serve, steal and idle shares in its median run.
Usage: dist_table.py OUT REPEAT TREE..."""
import json
import statistics
import sys


def main():
    out, repeat, trees = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
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
        median_run = sorted(runs, key=lambda d: d["median_s"])[len(runs) // 2]
        latency = {
            what: {q: statistics.median(d[what][q] for d in runs) for q in ("median", "p90")}
            for what in ("round_trip_us", "transfer_us")}
        rows.append({
            "tree": tree, "medians_s": med, "spread_s": {k: [min(v), max(v)] for k, v in times.items()},
            "best_weft": best_weft, "best_dist": best_dist,
            "dist_over_weft": med[best_dist] / med[best_weft],
            "efficiency": med["seq"] / (2 * med[best_dist]),
            "mpirun_wall_s": statistics.median(d["mpirun_wall_s"] for d in runs),
            "last_token_round_us": statistics.median(d["last_token_round_us"] for d in runs),
            "latency_us": latency,
            "profile": [{k: rank[k] for k in ("busy", "serve", "steal", "idle", "nodes",
                                              "requests_sent", "failed_steals", "chunks_received")}
                        for rank in median_run["ranks"]],
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
    open(f"{out}/bench_dist.md", "w").write("\n".join(lines))


if __name__ == "__main__":
    main()
