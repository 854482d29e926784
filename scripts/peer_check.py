#!/usr/bin/env python3
"""weft's best configuration against each peer's best series, measured in two stages.

usage: scripts/peer_check.py [--peers LIST] [--bench PATH] [--workloads W,...] [--workers N]
           [--mechanism LIST] [--steal LIST] [--schedule LIST]
           [--sweep-repeat R] [--confirm-repeat R] [--confirm-budget S] [--limit X]
           [--json FILE]

Per workload and peer: how weft at its best compares with the peer at its best, in two
stages of `weft-bench compare`, as scripts/defaults_check.py does for weft's defaults:

  1. sweep    one run of every workload: weft under every mechanism x policy (x schedule on
              the loop workloads), each peer under each of its loop variants and schedules.
              Its bests are weft's configuration and each peer's series with the lowest median.
  2. confirm  per workload, one more run of that workload alone with just weft's best and
              each peer's best series (their schedules, where they differ, run on both sides),
              alternated, --repeat --confirm-repeat.

Why two stages: the best of many noisy medians falls below a typical one by about the noise,
and the side with more series gains the more from it (on a loop workload a peer has up to 8
variants per schedule, weft 6 configurations). The confirming run picks nothing.

Criteria (fixed before the script runs; applied by defaults_check.judge(), never by hand):
  One criterion per workload and peer, "weft at its best is level with or faster than the
  peer at its best", judged from the confirming run's weft/peer pair (docs/MEASURING.md:
  the median of the paired ratios weft/peer with its bootstrap interval and verdict):
    PASS       the verdict is ahead or level
    FAIL       the verdict is behind
    UNDECIDED  the verdict is undecided
  The pair is the one compare wrote for weft's best and the peer's series (at the look that
  decided it, under --until-decided); where compare paired that peer series with another weft
  series, the interval is computed here from the two runs' raw times by the rule of
  scripts/verdict_table.py's summary() (95 %, the same bounds), and marked "recomputed".
  A skipped peer has no criterion.

The confirming run uses `--until-decided --budget S` with S = --confirm-budget (default 120;
0 runs a fixed --repeat --confirm-repeat), its first look after --confirm-repeat repetitions.

Per workload and peer the table prints the sweep's ratio (weft's best median over the peer's),
the confirming run's ratio of medians, its paired ratio with its interval and verdict, the
ratio of medians against --limit (default 1.00: "within" or "OVER"; it decides nothing) and
the criterion's PASS/FAIL/UNDECIDED; a last line counts each outcome. A peer that ran no
series of a workload (not built, or not implementing it) is reported as skipped.

Options: as scripts/defaults_check.py's (see its --help; --confirm-budget likewise), and
  --peers LIST          the peers, as weft-bench compare names them (default gomp,libomp,tbb):
                        a name sweeps all of that peer's loop variants, NAME/VARIANT only
                        that one (gomp/outer,gomp/taskloop,tbb leaves libgomp's nested
                        loops out, which take tens of seconds a repetition on the matmul
                        orders with N^2 inner loops); each peer's best is taken among the
                        variants listed for it
  --limit X             default 1.00

Exit status: 0 done (whatever the verdicts), 1 weft-bench failed, 2 a bad argument.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from defaults_check import (LAST_SITTING, BenchError, UsageError, compare,  # noqa: E402
                            find, interval, join_values, judge, outcome_line, pair_text,
                            paired_ratios, parse_args, run_checks, settings, weft_runs)


def peer_runs(workload, peer):
    return [r for r in workload["runs"] if r["impl"] == peer and "times_s" in r]


def peer_spec(run):
    """The --peers entry that runs just this series' variant ("gomp/outer", or "tbb")."""
    return run["impl"] + ("/" + run["variant"] if run["variant"] else "")


def same_series(a, b):
    return all(a[k] == b[k] for k in ("impl", "variant", "schedule"))


def check_workload(opts, w, peers):
    weft = min(weft_runs(w), key=lambda r: r["median_s"])
    bests = {}
    for peer in peers:
        runs = peer_runs(w, peer)
        if runs:
            bests[peer] = min(runs, key=lambda r: r["median_s"])
    rows = [{"spec": w["spec"], "peer": p, "skipped": True} for p in peers if p not in bests]
    if not bests:
        return rows
    ws = settings(weft)
    schedules = join_values(ws["schedule"], *(b["schedule"] for b in bests.values()))
    # The sweep always names its schedules (parse_args), so no peer series ran under its own
    # "default" and every schedule here is one weft takes too.
    cmd, confirmed = compare(opts, w["spec"], ws["mechanism"], ws["steal"], schedules,
                             int(opts["confirm-repeat"]), "confirm " + w["spec"],
                             peers=",".join(peer_spec(b) for b in bests.values()),
                             budget=int(opts["confirm-budget"]))
    sitting = dict(LAST_SITTING)
    cw = confirmed[0]
    cweft = find(weft_runs(cw), ws, "confirm " + w["spec"])
    for peer, best in bests.items():
        cpeer = next((r for r in peer_runs(cw, peer) if same_series(r, best)), None)
        if cpeer is None:
            raise BenchError(f"confirm {w['spec']}: no run of {best['label']}")
        ratio = cweft["median_s"] / cpeer["median_s"]
        pair = next((dict(p, source="compare") for p in cw.get("pairs", [])
                     if p["kind"] == "weft/peer" and p["a"] == cweft["label"]
                     and p["b"] == cpeer["label"]), None)
        if pair is None:
            pair = dict(interval(cweft["times_s"], cpeer["times_s"]), source="recomputed")
        rows.append({"spec": w["spec"], "peer": peer, "skipped": False, "weft": weft["label"],
                     "peer_series": best["label"],
                     "sweep_ratio": weft["median_s"] / best["median_s"],
                     "weft_median_s": cweft["median_s"], "peer_median_s": cpeer["median_s"],
                     "ratio": ratio, **paired_ratios(cweft["times_s"], cpeer["times_s"]),
                     "confirm_command": cmd, "confirm_sitting": sitting, "pair": pair,
                     "verdict": "within" if ratio <= opts["limit"] else "OVER",
                     "criterion": judge(pair["verdict"])})
    return rows


def print_table(rows, limit):
    print("weft's best over each peer's best series (criterion: the confirming run's weft/peer "
          "ahead or level)")
    print(f"{'workload':<24} {'weft best':<30} {'peer best':<28} {'sweep':>6} {'confirmed':>9} "
          f"{'paired [interval] verdict':<34} {'<=' + format(limit, '.2f'):<7} criterion")
    for r in rows:
        if r["skipped"]:
            print(f"{r['spec']:<24} {'':<30} {r['peer'] + ': skipped':<28}")
            continue
        paired = pair_text(r["pair"]) + (" (recomputed)" if r["pair"]["source"] == "recomputed"
                                         else "")
        print(f"{r['spec']:<24} {r['weft'].removeprefix('weft '):<30} {r['peer_series']:<28} "
              f"{r['sweep_ratio']:>6.3f} {r['ratio']:>9.3f} {paired:<34} {r['verdict']:<7} "
              f"{r['criterion']}")
    print(outcome_line([r["criterion"] for r in rows if not r["skipped"]]))


def main(argv):
    def checks():
        opts = parse_args(argv, __doc__, {"peers": "gomp,libomp,tbb", "limit": "1.00"})
        entries = opts["peers"].split(",")
        # Each entry is NAME or NAME/VARIANT, no part empty ("" splits to [""]).
        if any(e == "none" or e.count("/") > 1 or not all(e.split("/")) for e in entries):
            raise UsageError(f"--peers '{opts['peers']}': expected peer names or NAME/VARIANT, "
                             "e.g. gomp/outer,tbb")
        peers = list(dict.fromkeys(e.split("/")[0] for e in entries))  # names, in order
        cmd, swept = compare(opts, opts["workloads"], opts["mechanism"], opts["steal"],
                             opts["schedule"], int(opts["sweep-repeat"]), "sweep",
                             peers=",".join(entries))
        return opts, cmd, [row for w in swept for row in check_workload(opts, w, peers)]
    return run_checks(checks, print_table)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
