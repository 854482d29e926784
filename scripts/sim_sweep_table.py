#!/usr/bin/env python3
"""weft-sim's sweep to P = 1024, tabulated beside what work-stealing theory predicts.

Usage: sim_sweep_table.py DIR NAME...   (files DIR/sweep_NAME.json from scripts/sim_sweep.sh,
and the parts DIR/sweep_NAME+PART.json its --part added); writes DIR/sweep.md and
DIR/sweep.json.

The theory each table is read against:
- no schedule beats max(T1/P, T_inf): checked on every run;
- Blumofe and Leiserson: work stealing takes T1/P + O(T_inf) time with O(P T_inf) steal
  attempts, so c_inf in T_P = T1/P + c_inf T_inf and the attempts per worker per microsecond
  of span should stay bounded as P grows;
- steal-half against steal-one (Hendler and Shavit; Tchiboukdjian, Gast and Trystram): taking
  half of a victim's tasks spreads a bag of tasks in O(log) steals where taking one needs
  many more, so half should need fewer steals wherever victims hold several tasks; where the
  oldest task already holds half the work (fib), one steal already takes half, and the two
  should be close.
"""
import json
import sys
from pathlib import Path

POLICIES = ["one", "fixed:2", "fixed:20", "half", "adaptive"]
MECHANISMS = ["concurrent", "request"]


def load(out_dir, name):
    """A workload's runs: DIR/sweep_NAME.json and any parts DIR/sweep_NAME+PART.json that
    scripts/sim_sweep.sh --part added to it, which must share its costs, seed and barrier."""
    paths = sorted(out_dir.glob(f"sweep_{name}+*.json"))
    if (out_dir / f"sweep_{name}.json").exists():
        paths.insert(0, out_dir / f"sweep_{name}.json")
    if not paths:
        sys.exit(f"sim_sweep_table.py: no {out_dir}/sweep_{name}.json nor any part of it")
    doc, runs = None, {}
    for path in paths:
        part = json.loads(path.read_text())
        if doc is None:
            doc = part
        elif any(part.get(k) != doc.get(k) for k in ("workload", "costs_ns", "seed", "barrier")):
            sys.exit(f"sim_sweep_table.py: {path} has another workload, costs, seed or barrier "
                     f"than {paths[0]}")
        for r in part["runs"]:
            key = (r["mechanism"], r["steal"], r["workers"])
            if key in runs and runs[key]["median_s"] != r["median_s"]:
                sys.exit(f"sim_sweep_table.py: {path} has {key} with another time than "
                         f"an earlier file: not the same simulation")
            runs[key] = r
    return doc, runs


def base_run(runs, m, s):
    """The one-worker run a speedup is over: the policy's own, or, where the sweep ran P = 1
    under other policies only, the mechanism's first (with one worker nothing is stolen, so
    every policy's run is the same; the committed sweeps show it to the last digit)."""
    return runs.get((m, s, 1)) or next(
        (r for (mm, _, p), r in sorted(runs.items()) if mm == m and p == 1), None)


def fmt(x, digits=3):
    if x is None:
        return "-"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.{digits}g}"


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: sim_sweep_table.py DIR NAME...")
    out_dir = Path(sys.argv[1])
    md = ["# weft-sim beyond two cores: P = 16 to 1024", "",
          "Made by `scripts/sim_sweep.sh` with this machine's calibrated costs; deterministic "
          "(the same costs and seed give the same figures). Speedup is over the same mechanism "
          "and policy on one simulated worker, or, where the sweep ran one worker under other "
          "policies only, over the mechanism's one-worker run, the same run (nothing is stolen "
          "at one worker); - marks a configuration not run. A workload's runs may come from "
          "several parts (sweep_NAME+PART.json, sim_sweep.sh --part) of the same costs, seed "
          "and barrier.", ""]
    summary = {"workloads": {}}
    for name in sys.argv[2:]:
        doc, runs = load(out_dir, name)
        workers = sorted({p for (_, _, p) in runs})
        big = [p for p in workers if p >= 16]
        any_run = next(iter(runs.values()))
        t1, tinf = any_run["work_s"], any_run["span_s"]
        md += [f"## {doc['workload']}", "",
               f"T1 = {fmt(t1, 4)} s, T_inf = {fmt(tinf, 4)} s, parallelism T1/T_inf = "
               f"{fmt(t1 / tinf if tinf else None, 4)}; costs: `{doc['costs']}`.", ""]
        # Speedups.
        md += ["| mechanism/steal | " + " | ".join(f"P={p}" for p in workers) + " |",
               "|---|" + "---:|" * len(workers)]
        bound_ok = True
        for m in MECHANISMS:
            for s in POLICIES:
                base = base_run(runs, m, s)
                if base is None or not any((m, s, p) in runs for p in workers):
                    continue  # not in this sweep
                cells = []
                for p in workers:
                    r = runs.get((m, s, p))
                    if r is None:
                        cells.append("-")
                        continue
                    lower = max(r["work_s"] / p, r["span_s"])
                    bound_ok &= r["median_s"] >= lower * (1 - 1e-12) and r["verified"]
                    cells.append(fmt(base["median_s"] / r["median_s"]))
                md.append(f"| {m}/{s} | " + " | ".join(cells) + " |")
        md += ["", f"Every run verified and at least max(T1/P, T_inf): "
               f"**{'yes' if bound_ok else 'NO'}**.", ""]
        # At the largest P: shares, steals, theory figures.
        top = max(workers)
        md += [f"At P = {top}:", "",
               "| mechanism/steal | T_P (ms) | R_busy | R_steal | R_idle | steals | fenced "
               "| tasks/steal | attempts | c_inf | attempts/(P us of T_inf) | s_1 | s_2 | success "
               "| s_thr |",
               "|---|" + "---:|" * 14]
        for m in MECHANISMS:
            for s in POLICIES:
                r = runs.get((m, s, top))
                if r is None:
                    continue
                c, t = r["counters_per_run"], r["profile"]["total"]
                occ = r["occupancy"]["s_mean"]
                success = c["steals"] / c["steal_attempts"] if c["steal_attempts"] else None
                # The fraction of workers a thief can take from: n >= D for fixed:D, else n >= 1.
                threshold = int(s.split(":")[1]) if s.startswith("fixed:") else 1
                s_thr = occ[threshold] if threshold < len(occ) else None
                md.append(
                    f"| {m}/{s} | {fmt(r['median_s'] * 1e3, 4)} | {t['r_busy']:.3f} | "
                    f"{t['r_steal']:.3f} | {t['r_idle']:.3f} | {fmt(c['steals'])} | "
                    f"{fmt(c.get('fenced_steals', 0))} | "
                    f"{fmt(c['tasks_stolen'] / c['steals'] if c['steals'] else None)} | "
                    f"{fmt(c['steal_attempts'])} | {fmt(r['c_inf'])} | "
                    f"{fmt(r['attempts_per_worker_span_us'])} | {occ[0]:.3f} | {occ[1]:.3f} | "
                    f"{fmt(success)} | {fmt(s_thr)} |")
        md += ["", "`fenced`: the steals whose claim fenced rather than paid a membarrier "
               "(the concurrent mechanism's barrier switching). "
               "`success` is steals over attempts; `s_thr` the time-averaged fraction of "
               "workers a thief could take from, s_2 (one task waiting) for one, half and "
               "adaptive and s_(D+1) for fixed:D. Adnan & Sato's Sect. 3.4 reads a steal's "
               "chance of success as this fraction; attempts come when work is scarce, and "
               "the two part where attempts bunch in time.", ""]
        # Theory: c_inf and attempts/(P T_inf) over P; half against one.
        findings = []
        for m in MECHANISMS:
            cinf = [runs[(m, "one", p)]["c_inf"] for p in big if (m, "one", p) in runs]
            att = [runs[(m, "one", p)]["attempts_per_worker_span_us"] for p in big
                   if (m, "one", p) in runs]
            if cinf:
                findings.append(
                    f"- {m}/one, P = {big[0]}..{big[-1]}: c_inf {fmt(min(cinf))} to "
                    f"{fmt(max(cinf))}; attempts per worker per us of span {fmt(min(att))} to "
                    f"{fmt(max(att))}.")
            fewer, faster, total = 0, 0, 0
            ratios = []
            for p in big:
                one, half = runs.get((m, "one", p)), runs.get((m, "half", p))
                if not one or not half:
                    continue
                total += 1
                so, sh = one["counters_per_run"]["steals"], half["counters_per_run"]["steals"]
                fewer += sh < so
                faster += half["median_s"] <= one["median_s"]
                ratios.append(f"P={p}: steals {fmt(sh / so if so else None)}x, "
                              f"T_P {fmt(half['median_s'] / one['median_s'])}x")
            if total:
                findings.append(
                    f"- {m}, half against one: fewer steals at {fewer} of {total} worker "
                    f"counts, as fast or faster at {faster} of {total} ({'; '.join(ratios)}).")
        md += ["Against the theory:", ""] + findings + [""]
        summary["workloads"][doc["workload"]] = {
            "t1_s": t1, "tinf_s": tinf, "bounds_hold": bound_ok,
            "runs": [{"mechanism": m, "steal": s, "workers": p,
                      "speedup": base_run(runs, m, s)["median_s"] / runs[(m, s, p)]["median_s"],
                      "steals": runs[(m, s, p)]["counters_per_run"]["steals"],
                      "c_inf": runs[(m, s, p)]["c_inf"],
                      "r_steal": runs[(m, s, p)]["profile"]["total"]["r_steal"],
                      "s_mean": runs[(m, s, p)]["occupancy"]["s_mean"][:4]}
                     for (m, s, p) in sorted(runs) if base_run(runs, m, s)]}
    (out_dir / "sweep.md").write_text("\n".join(md) + "\n")
    (out_dir / "sweep.json").write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
