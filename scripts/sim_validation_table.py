#!/usr/bin/env python3
"""weft-sim's validation table: the real runs (weft-bench JSON) beside the simulated ones
(weft-sim JSON), configuration by configuration, and the summary figures
docs/SIMULATOR.md states its targets in.

Usage: sim_validation_table.py DIR WORKLOAD... [--orderings WORKLOAD...]
(files DIR/real_X.json and DIR/sim_X.json, X the workload with ':' as '_'); writes
DIR/validation.md and DIR/validation.json. The workloads after --orderings are runs made for
docs/STRATEGIES.md's orderings at the sizes it states them (fib(40)): an ordering reads them in
place of the grid's workload of the same kind, and they count in no other figure.
`sim_validation_table.py --criteria` prints the criteria below and exits.

Criteria (fixed before the script runs; docs/SIMULATOR.md's nine targets, applied by judge()
to the summary's figures, never by hand):
  1. P = 1, median |error|                          <= 0.08
  2. P = 1, largest |error|                         <= 0.15
  3. P = 2, median |error|                          <= 0.15
  4. P = 2, 90th percentile |error|                 <= 0.30
  5. steals within x2 (rows with >= 20 real steals) >= 80 %
  6. shares within 0.05, P = 2                      >= 80 %
  7. histogram total variation, median              <= 0.2
  8. the same pick where the best leads by >= 10 %  all (none led: PASS)
  9. the orderings (real / sim)                     every one measured holds on both sides
Each prints PASS or FAIL; UNDECIDED where the sitting has no figure for it (no row at that
P, no configuration with 20 real steals, no ordering's workload in the grid). The criteria
go below the summary in validation.md, to stdout, and to validation.json ("criteria").
"""
import json
import statistics
import sys
from pathlib import Path


def load_runs(path, impl):
    runs = {}
    doc = json.loads(Path(path).read_text())
    # weft-bench compare nests its runs under the workload; fib, uts and weft-sim do not.
    listed = doc["workloads"][0]["runs"] if "workloads" in doc else doc["runs"]
    for r in listed:
        if r.get("impl") != impl:
            continue
        runs[(r["mechanism"], r["steal"], r["workers"])] = r
    return runs


def shares(run):
    total = run["profile"].get("total", run["profile"])  # compare's profile is flat
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


def file_name(workload):
    """A workload's part of its files' names, as scripts/validate_sim.sh writes them."""
    return workload.replace(":", "_").replace("^", "_")


def steadiness(out, workloads):
    """Per workload, how far apart its one-worker real runs fell. At one worker every
    configuration runs nearly the same program (nothing is stolen; the mechanisms differ by a
    few instructions a spawn), so a wide spread of those samples is the host's, not weft's: a
    one-worker error within it says little about the simulator."""
    rows = []
    for workload in workloads:
        name = file_name(workload)
        real = load_runs(out / f"real_{name}.json", "weft")
        samples = [t for key, r in real.items() if key[2] == 1 for t in r.get("times_s", [])]
        medians = [r["median_s"] for key, r in real.items() if key[2] == 1]
        if not samples:
            continue
        fastest = min(samples)
        rows.append({
            "workload": workload, "samples": len(samples),
            "max_over_min": max(samples) / fastest,
            "over_1.15_min": sum(t > 1.15 * fastest for t in samples) / len(samples),
            "medians_max_over_min": max(medians) / min(medians),
        })
    return rows


def load_rows(out, workloads):
    rows = []
    for workload in workloads:
        name = file_name(workload)
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
                "real_fenced_steals": rc.get("fenced_steals", 0),
                "sim_fenced_steals": sc.get("fenced_steals", 0),
                "d_busy": ss["r_busy"] - rs["r_busy"], "d_steal": ss["r_steal"] - rs["r_steal"],
                "d_idle": ss["r_idle"] - rs["r_idle"],
                "real_r_steal": rs["r_steal"], "sim_r_steal": ss["r_steal"],
                "tv": total_variation(rc.get("steal_sizes_seen", []), sc["steal_sizes_seen"]),
                # weft's running estimate of a membarrier after the run (absent before weft
                # reported it, 0 where it does not apply).
                "real_membarrier_ns": r.get("membarrier_ns"),
            })
    return rows


def fraction(text):
    """"k/n" -> k / n, None when n is 0."""
    k, n = (int(v) for v in text.split("/"))
    return k / n if n else None


def at_most(limit):
    return lambda v: None if v is None else v <= limit


def at_least(limit):
    return lambda v: None if v is None else v >= limit


# The docstring's criteria as code: (name, the summary's figure, its test -> True, False or
# None for no figure).
CRITERIA = [
    ("P = 1, median abs. error <= 0.08", "p1_median_abs_error", at_most(0.08)),
    ("P = 1, largest abs. error <= 0.15", "p1_max_abs_error", at_most(0.15)),
    ("P = 2, median abs. error <= 0.15", "p2_median_abs_error", at_most(0.15)),
    ("P = 2, 90th percentile abs. error <= 0.30", "p2_p90_abs_error", at_most(0.30)),
    ("steals within x2 >= 80 %", "steals_within_2x", lambda v: at_least(0.8)(fraction(v))),
    ("shares within 0.05 >= 80 %", "shares_within_0.05", lambda v: at_least(0.8)(fraction(v))),
    ("histogram TV median <= 0.2", "histogram_tv_median", at_most(0.2)),
    ("the same pick where the best leads by >= 10 %: all",
     "same_best_policy_where_it_leads_by_10pct",
     lambda v: fraction(v) is None or fraction(v) == 1),
]


def judge(summary):
    """The criteria's outcomes: [(name, figure as text, PASS/FAIL/UNDECIDED)]."""
    def outcome(ok):
        return "UNDECIDED" if ok is None else "PASS" if ok else "FAIL"

    def text(v):
        return "-" if v is None else format(v, ".3f") if isinstance(v, float) else str(v)
    out = [(name, text(summary.get(key)), outcome(test(summary.get(key))))
           for name, key, test in CRITERIA]
    orderings = {k: v for k, v in summary.items() if k.startswith("ordering (real/sim): ")}
    held = None if not orderings else all(v == "True/True" for v in orderings.values())
    out.append(("the orderings hold (real / sim)",
                ", ".join(orderings.values()) if orderings else "-", outcome(held)))
    return out


def main():
    args = sys.argv[1:]
    if args == ["--criteria"]:
        print(__doc__[__doc__.index("Criteria"):].strip())
        return
    grid, extra = (args[1:args.index("--orderings")], args[args.index("--orderings") + 1:]) \
        if "--orderings" in args else (args[1:], [])
    if not args or not grid:
        sys.exit(__doc__)
    out = Path(args[0])
    try:
        rows = load_rows(out, grid)
        ordering_rows = load_rows(out, extra)
        steady = steadiness(out, grid)
    except (OSError, ValueError, KeyError) as e:
        print(f"sim_validation_table.py: {e.__class__.__name__}: {e}", file=sys.stderr)
        sys.exit(2)
    p1 = [abs(x["error"]) for x in rows if x["workers"] == 1]
    p2 = [abs(x["error"]) for x in rows if x["workers"] == 2]
    stealy = [x for x in rows if x["workers"] == 2 and x["real_steals"] >= 20]
    within2 = [x for x in stealy if 0.5 <= x["sim_steals"] / x["real_steals"] <= 2]
    shares_ok = [x for x in rows if x["workers"] == 2 and
                 max(abs(x["d_busy"]), abs(x["d_steal"]), abs(x["d_idle"])) <= 0.05]
    tvs = [x["tv"] for x in rows if x["workers"] == 2 and x["tv"] is not None]
    # Where the measured best policy leads the next by >= 10 %, the simulator should pick it.
    picks, picks_same = 0, 0
    for (wl, mech) in sorted({(x["workload"], x["mechanism"]) for x in rows}):
        group = [x for x in rows if x["workload"] == wl and x["mechanism"] == mech
                 and x["workers"] == 2]
        if len(group) < 2:
            continue
        by_real = sorted(group, key=lambda x: x["real_s"])
        if by_real[1]["real_s"] < 1.1 * by_real[0]["real_s"]:
            continue
        picks += 1
        # The simulator's pick: every policy at its fastest time (exact ties are common where
        # policies take the same steals, e.g. half and adaptive on Sparse-LU).
        fastest = min(x["sim_s"] for x in group)
        picks_same += by_real[0]["steal"] in {x["steal"] for x in group if x["sim_s"] == fastest}

    def pick(wl, mech, steal):
        return next((x for x in ordering_rows + rows if x["workload"] == wl
                     and x["mechanism"] == mech and x["steal"] == steal and x["workers"] == 2),
                    None)

    # docs/STRATEGIES.md's orderings, measured and simulated: each "real/sim" holds or not.
    # (name, workload prefix, (mechanism, steal) of a and of b, what a and b must satisfy on
    # one side, "real" or "sim").
    checks = [
        ("T3 concurrent: half faster than one", "uts:T3", ("concurrent", "half"),
         ("concurrent", "one"), lambda a, b, side: a[side + "_s"] < b[side + "_s"]),
        ("fib concurrent: half >= 10x one's steals", "fib:", ("concurrent", "half"),
         ("concurrent", "one"),
         lambda a, b, side: a[side + "_steals"] >= 10 * b[side + "_steals"]),
        ("Sparse-LU one: R_steal request > concurrent", "sparselu", ("request", "one"),
         ("concurrent", "one"), lambda a, b, side: a[side + "_r_steal"] > b[side + "_r_steal"]),
    ]
    orderings = {}
    for name, prefix, key_a, key_b, holds in checks:
        # The runs made for the orderings first, then the grid's.
        wl = next((x["workload"] for x in ordering_rows + rows
                   if x["workload"].startswith(prefix)), None)
        a, b = pick(wl, *key_a), pick(wl, *key_b)
        if a and b:
            orderings[f"{name} ({wl})"] = f"{holds(a, b, 'real')}/{holds(a, b, 'sim')}"
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
        "same_best_policy_where_it_leads_by_10pct": f"{picks_same}/{picks}",
    }
    for k, v in orderings.items():
        summary["ordering (real/sim): " + k] = v
    # The membarrier's cost as weft estimated it in the concurrent runs at P = 2 (its switching
    # windows are 4 and 16 of it) beside the simulator's calibrated claim_ns (its windows').
    estimates = [x["real_membarrier_ns"] for x in rows if x["workers"] == 2
                 and x["mechanism"] == "concurrent" and x["real_membarrier_ns"]]
    costs = out / "costs.json"
    claim = json.loads(costs.read_text())["costs"]["claim_ns"]["median"] if costs.exists() else None
    if estimates:
        summary["membarrier_us: weft's estimate (min-max, concurrent, P = 2) / sim claim_ns"] = (
            f"{min(estimates) / 1000:.1f}-{max(estimates) / 1000:.1f} / "
            + ("-" if claim is None else f"{claim / 1000:.1f}"))
    criteria = judge(summary)
    (out / "validation.json").write_text(json.dumps(
        {"summary": summary, "rows": rows, "ordering_rows": ordering_rows,
         "one_worker_real_spread": steady,
         "criteria": [{"criterion": n, "figure": v, "outcome": o} for n, v, o in criteria]},
        indent=1))

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
    criteria_lines = ["", "Criteria, fixed before the sitting (`sim_validation_table.py "
                      "--criteria`):", "", "| criterion | figure | outcome |", "|---|---|---|"]
    criteria_lines += [f"| {n} | {v} | {o} |" for n, v, o in criteria]
    criteria_lines += ["", "criteria: " + ", ".join(
        f"{sum(o == k for _, _, o in criteria)} {k}" for k in ("PASS", "FAIL", "UNDECIDED"))]
    lines += criteria_lines
    header = ["| workload | mechanism | steal | P | real s | sim s | error | real steals | "
              "sim steals | fenced (real/sim) | dR_busy | dR_steal | dR_idle | TV |",
              "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    lines += [""] + header
    for x in rows + ([None] if ordering_rows else []) + ordering_rows:
        if x is None:
            lines += ["", "Runs made for the orderings only (in no figure above):", ""] + header
            continue
        lines.append(
            f"| {x['workload']} | {x['mechanism']} | {x['steal']} | {x['workers']} | "
            f"{x['real_s']:.4f} | {x['sim_s']:.4f} | {x['error']:+.3f} | "
            f"{x['real_steals']:.0f} | {x['sim_steals']:.0f} | "
            f"{x['real_fenced_steals']:.0f}/{x['sim_fenced_steals']:.0f} | {x['d_busy']:+.3f} | "
            f"{x['d_steal']:+.3f} | {x['d_idle']:+.3f} | {f(x['tv'], '.3f')} |")
    if steady:
        lines += ["", "The host's steadiness: each workload's one-worker real runs, where "
                  "every configuration runs nearly the same program and nothing is stolen, so "
                  "a wide spread is the machine's (samples more than 15 % above the fastest, "
                  "the largest over the fastest, and the configurations' medians' largest over "
                  "smallest).", "",
                  "| workload | samples | > 1.15 x fastest | largest / fastest | medians' "
                  "largest / smallest |", "|---|---:|---:|---:|---:|"]
        lines += [f"| {x['workload']} | {x['samples']} | {x['over_1.15_min']:.0%} | "
                  f"{x['max_over_min']:.3f} | {x['medians_max_over_min']:.3f} |" for x in steady]
    (out / "validation.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines[6:6 + len(summary) + len(criteria_lines)]))


if __name__ == "__main__":
    main()
