#!/usr/bin/env python3
"""weft-sim's validation table: the real runs (weft-bench JSON) beside the simulated ones
(weft-sim JSON), configuration by configuration, and the summary figures
docs/SIMULATOR.md states its targets in.

Usage: sim_validation_table.py DIR WORKLOAD...   (files DIR/real_X.json and DIR/sim_X.json,
X the workload with ':' as '_'); writes DIR/validation.md and DIR/validation.json.
"""
import json
import statistics
import sys
from pathlib import Path


def load_runs(path, impl):
    runs = {}
    for r in json.loads(Path(path).read_text())["runs"]:
        if r.get("impl") != impl:
            continue
        runs[(r["mechanism"], r["steal"], r["workers"])] = r
    return runs


def shares(run):
    total = run["profile"]["total"]
    return {k: total[k] for k in ("r_busy", "r_steal", "r_idle")}


def total_variation(a, b):
    sa, sb = sum(a), sum(b)
    if sa == 0 or sb == 0:
        return None
    return 0.5 * sum(abs(x / sa - y / sb) for x, y in zip(a, b))


def percentile(values, q):
    values = sorted(values)
    if not values:
        return None
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    rows = []
    for workload in sys.argv[2:]:
        name = workload.replace(":", "_")
        real = load_runs(out / f"real_{name}.json", "weft")
        sim = load_runs(out / f"sim_{name}.json", "sim")
        for key in sorted(real):
            if key not in sim:
                continue
            r, s = real[key], sim[key]
            rc, sc = r["counters_per_run"], s["counters_per_run"]
            rs, ss = shares(r), shares(s)
            rows.append({
                "workload": workload, "mechanism": key[0], "steal": key[1], "workers": key[2],
                "real_s": r["median_s"], "sim_s": s["median_s"],
                "error": s["median_s"] / r["median_s"] - 1,
                "real_steals": rc["steals"], "sim_steals": sc["steals"],
                "d_busy": ss["r_busy"] - rs["r_busy"], "d_steal": ss["r_steal"] - rs["r_steal"],
                "d_idle": ss["r_idle"] - rs["r_idle"],
                "tv": total_variation(rc.get("steal_sizes_seen", []), sc["steal_sizes_seen"]),
            })
    p1 = [abs(x["error"]) for x in rows if x["workers"] == 1]
    p2 = [abs(x["error"]) for x in rows if x["workers"] == 2]
    stealy = [x for x in rows if x["workers"] == 2 and x["real_steals"] >= 20]
    within2 = [x for x in stealy if 0.5 <= x["sim_steals"] / x["real_steals"] <= 2]
    shares_ok = [x for x in rows if x["workers"] == 2 and
                 max(abs(x["d_busy"]), abs(x["d_steal"]), abs(x["d_idle"])) <= 0.05]
    tvs = [x["tv"] for x in rows if x["workers"] == 2 and x["tv"] is not None]
    summary = {
        "configurations": len(rows),
        "p1_median_abs_error": statistics.median(p1) if p1 else None,
        "p1_max_abs_error": max(p1) if p1 else None,
        "p2_median_abs_error": statistics.median(p2) if p2 else None,
        "p2_p90_abs_error": percentile(p2, 0.9),
        "steals_within_2x": f"{len(within2)}/{len(stealy)}",
        "shares_within_0.05": f"{len(shares_ok)}/{len([x for x in rows if x['workers'] == 2])}",
        "histogram_tv_median": statistics.median(tvs) if tvs else None,
        "histogram_tv_max": max(tvs) if tvs else None,
    }
    (out / "validation.json").write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))

    def f(v, fmt):
        return "-" if v is None else format(v, fmt)

    lines = ["# weft-sim against real runs", "",
             "Made by `scripts/validate_sim.sh`: costs calibrated first (`costs.json`), then "
             "each configuration measured by `weft-bench --profile` (median of the alternated "
             "runs) and simulated with those costs. Error = T_sim / T_real - 1; the shares' "
             "differences are simulated minus real; TV is the total variation distance "
             "between the histograms of n seen at steal attempts.", "",
             "| summary | value |", "|---|---|"]
    for k, v in summary.items():
        lines.append(f"| {k} | {f(v, '.3f') if isinstance(v, float) else v} |")
    lines += ["", "| workload | mechanism | steal | P | real s | sim s | error | real steals | "
              "sim steals | dR_busy | dR_steal | dR_idle | TV |",
              "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for x in rows:
        lines.append(
            f"| {x['workload']} | {x['mechanism']} | {x['steal']} | {x['workers']} | "
            f"{x['real_s']:.4f} | {x['sim_s']:.4f} | {x['error']:+.3f} | "
            f"{x['real_steals']:.0f} | {x['sim_steals']:.0f} | {x['d_busy']:+.3f} | "
            f"{x['d_steal']:+.3f} | {x['d_idle']:+.3f} | {f(x['tv'], '.3f')} |")
    (out / "validation.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines[6:6 + len(summary) + 2]))


if __name__ == "__main__":
    main()
