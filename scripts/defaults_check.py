#!/usr/bin/env python3
"""weft's defaults against its best configuration, measured without the winner's curse.

usage: scripts/defaults_check.py [--bench PATH] [--workloads W,...] [--workers N]
           [--mechanism LIST] [--steal LIST] [--schedule LIST]
           [--sweep-repeat R] [--confirm-repeat R] [--confirm-budget S] [--limit X]
           [--json FILE]

A user who sets nothing runs weft's defaults (a default weft::Config). This script asks, per
workload, how far they are from weft's best mechanism x policy (x schedule, on the loop
workloads), in two stages of `weft-bench compare --peers none`:

  1. sweep    one run of every workload under every configuration (--repeat --sweep-repeat).
              Its best is the configuration with the lowest median.
  2. confirm  per workload whose best is not the defaults, one more run of that workload
              alone, with just the defaults and that best (the cross product of their
              settings: at most 8 series, alternated), --repeat --confirm-repeat.

Why two stages: the sweep's ratio, defaults' median over the lowest of N medians, is biased
against the defaults. Where N configurations run equally fast, the lowest of N noisy medians
falls below a typical one by about the noise (the winner's curse). The confirming run picks
nothing: it measures the two chosen configurations side by side, so its ratio is unbiased.

Criteria (fixed before the script runs; applied by judge() below, never by hand):
  One criterion per workload, "the defaults are within 3 % of the best or faster", judged
  from the confirming run's paired interval of defaults/best (docs/MEASURING.md: the median
  of the paired ratios, 95 % percentile bootstrap, 10,000 resamples; verdicts ahead, level
  within [0.97, 1.03], behind, undecided, undecided also under 5 pairs):
    PASS       the verdict is level or ahead
    FAIL       the verdict is behind
    UNDECIDED  the verdict is undecided
  A workload whose sweep best is the defaults themselves has nothing to confirm: PASS.
  compare pairs weft's series only where they differ in one setting, and the defaults and
  the best may differ in two or three, so the defaults/best interval is computed here from
  the confirming run's raw times ("times_s") by the rule of
  scripts/verdict_table.py's summary() (the same rule as tools/bench/stats/paired.hpp).

The confirming run uses `--until-decided --budget S` with S = --confirm-budget (default 120
seconds; 0 runs a fixed --repeat --confirm-repeat instead): its first look comes after
--confirm-repeat repetitions. compare's looks stop on its own pairs (weft/serial, and the
one-setting pairs of the cross product), not on defaults/best, so the interval above is
taken once, at 95 %, from all the repetitions run.

Per workload the table prints both ratios: the sweep's, and the confirming run's ratio of
medians (defaults over best), its paired ratio with its interval and verdict, the ratio of
medians against --limit (default 1.05: "within" or "OVER", kept for comparison with older
documents; it decides nothing), and the criterion's PASS/FAIL/UNDECIDED. A last line counts
each outcome. Progress goes to stderr; the table to stdout; --json FILE writes every figure,
the confirming runs' seeds and host steadiness, the criteria and the commands.

Options (lists are comma-separated, as weft-bench takes them):
  --bench PATH          weft-bench (default: build/tools/bench/cli/weft-bench beside this script)
  --workloads LIST      default: weft-bench compare's own default list
  --workers N           one worker count (default 2)
  --mechanism LIST      default concurrent,request
  --steal LIST          default one,half,adaptive
  --schedule LIST       the loop workloads' schedules (default static,dynamic:4,guided:1,
                        factoring,auto); the fork-join workloads ignore them
  --sweep-repeat R      default 7
  --confirm-repeat R    default 21 (the first look under --confirm-budget, at least 5)
  --confirm-budget S    seconds per confirming run under --until-decided (default 120;
                        0: no --until-decided, a fixed --confirm-repeat)
  --limit X             default 1.05 (the "within"/"OVER" column only)

The sweep must include the defaults' settings. No WEFT_* variable may be set: the defaults
are what a user who sets nothing gets.

Exit status: 0 done (whatever the verdicts), 1 weft-bench failed (its message is passed on),
2 a bad argument or environment.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verdict_table import summary  # noqa: E402

PROG = os.path.basename(sys.argv[0]) or "defaults_check.py"  # also peer_check.py's
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class UsageError(Exception):
    pass


class BenchError(Exception):
    pass


def parse_args(argv, doc=__doc__, extra=None):
    """The options (--help prints `doc`); `extra` adds options with their defaults."""
    opts = {
        "bench": os.path.join(ROOT, "build", "tools", "bench", "cli", "weft-bench"),
        "workloads": None,
        "workers": "2",
        "mechanism": "concurrent,request",
        "steal": "one,half,adaptive",
        "schedule": "static,dynamic:4,guided:1,factoring,auto",
        "sweep-repeat": "7",
        "confirm-repeat": "21",
        "confirm-budget": "120",
        "limit": "1.05",
        "json": None,
        **(extra or {}),
    }
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-h", "--help"):
            print(doc.strip())
            sys.exit(0)
        if not arg.startswith("--") or arg[2:] not in opts:
            raise UsageError(f"unknown option '{arg}' (see --help)")
        if i + 1 >= len(argv):
            raise UsageError(f"{arg} needs a value")
        opts[arg[2:]] = argv[i + 1]
        i += 2
    for key in ("workers", "sweep-repeat", "confirm-repeat"):
        if not opts[key].isdigit() or int(opts[key]) < 1:
            raise UsageError(f"--{key} '{opts[key]}': expected a positive whole number")
    if not opts["confirm-budget"].isdigit():
        raise UsageError(f"--confirm-budget '{opts['confirm-budget']}': expected a whole number "
                         "of seconds (0: a fixed --confirm-repeat)")
    try:
        limit = float(opts["limit"])
    except ValueError:
        limit = 0.0
    if not limit >= 1.0:
        raise UsageError(f"--limit '{opts['limit']}': expected a number of at least 1")
    opts["limit"] = limit
    if not opts["schedule"].strip(","):
        raise UsageError("--schedule: expected at least one schedule (the loop workloads run "
                         "under each)")
    if not os.access(opts["bench"], os.X_OK):
        raise UsageError(f"--bench '{opts['bench']}': not an executable (build weft first)")
    return opts


def check_environment():
    set_vars = sorted(k for k in os.environ if k.startswith("WEFT_") and k != "WEFT_PEER_DIR")
    if set_vars:
        raise UsageError("the defaults are what a user who sets nothing gets; unset " +
                         ", ".join(set_vars))


def compare(opts, workloads, mechanisms, steals, schedules, repeat, stage, peers="none",
            budget=0):
    """Runs weft-bench compare (with --until-decided --budget when budget > 0); returns its
    arguments (less --json) and its JSON's workloads. The sitting's seed, host steadiness and
    looks are kept in LAST_SITTING for the confirming rows."""
    with tempfile.TemporaryDirectory(prefix="weft-defaults-") as tmp:
        out = os.path.join(tmp, "compare.json")
        args = ["compare", "--peers", peers, "--workers", opts["workers"], "--mechanism",
                mechanisms, "--steal", steals, "--repeat", str(repeat)]
        if workloads:
            args += ["--workloads", workloads]
        if schedules:
            args += ["--schedule", schedules]
        if budget > 0:
            # compare's first look needs at least 5 repetitions (its fewest for a verdict).
            args[args.index("--repeat") + 1] = str(max(repeat, 5))
            args += ["--until-decided", "--budget", str(budget)]
        print(f"{PROG}: {stage}: weft-bench {' '.join(args)}", file=sys.stderr, flush=True)
        done = subprocess.run([opts["bench"], *args, "--json", out], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            raise BenchError(f"{stage}: weft-bench exited with {done.returncode}: " +
                             done.stderr.strip())
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
        LAST_SITTING.clear()
        LAST_SITTING.update({k: doc.get(k) for k in ("seed", "commit", "date", "host_unsteady",
                                                      "until_decided", "looks", "elapsed_s")})
        return args, doc["workloads"]


LAST_SITTING = {}


# The criteria of the docstring, as code: a paired verdict -> the criterion's outcome.
OUTCOME = {"ahead": "PASS", "level": "PASS", "behind": "FAIL", "undecided": "UNDECIDED"}


def judge(verdict):
    return OUTCOME.get(verdict, "UNDECIDED")


def interval(a_times, b_times):
    """a/b's paired summary by the documented rule (scripts/verdict_table.py's summary())."""
    n = min(len(a_times), len(b_times))
    return {**summary(a_times[:n], b_times[:n]), "source": "times_s"}


def pair_text(p):
    return (f"{p['ratio_median']:.3f} [{p['ci_low']:.3f}, {p['ci_high']:.3f}] {p['verdict']}"
            if p else "-")


def outcome_line(outcomes):
    return "criteria: " + ", ".join(f"{outcomes.count(o)} {o}"
                                    for o in ("PASS", "FAIL", "UNDECIDED"))


def weft_runs(workload):
    return [r for r in workload["runs"] if r["impl"] == "weft" and "times_s" in r]


def settings(run):
    return {"mechanism": run["mechanism"], "steal": run["steal"], "schedule": run["schedule"]}


def join_values(*values):
    """The distinct values, in order, comma-separated; None when they are all None."""
    distinct = [v for k, v in enumerate(values) if v is not None and v not in values[:k]]
    return ",".join(distinct) if distinct else None


def find(runs, wanted, where):
    for r in runs:
        if settings(r) == wanted:
            return r
    raise BenchError(f"{where}: no weft run with {wanted}")


def paired_ratios(a_times, b_times):
    """The ratios a/b of repetitions run side by side: their median, min and max."""
    paired = [a / b for a, b in zip(a_times, b_times)]
    return {"paired_median": statistics.median(paired), "paired_min": min(paired),
            "paired_max": max(paired)}


def defaults_of(workload):
    found = [r for r in weft_runs(workload) if r.get("defaults")]
    if not found:
        raise UsageError(f"{workload['spec']}: the sweep has no run with weft's defaults; "
                         "add the default policy, mechanism and schedule to the lists")
    return found[0]


def check_workload(opts, w):
    runs = weft_runs(w)
    dflt = defaults_of(w)
    best = min(runs, key=lambda r: r["median_s"])
    row = {"spec": w["spec"], "defaults": dflt["label"], "best": best["label"],
           "sweep_defaults_median_s": dflt["median_s"], "sweep_best_median_s": best["median_s"],
           "sweep_ratio": dflt["median_s"] / best["median_s"], "confirm": None, "pair": None}
    if best is dflt:
        row["ratio"] = 1.0
    else:
        d, b = settings(dflt), settings(best)
        cmd, confirmed = compare(opts, w["spec"], join_values(d["mechanism"], b["mechanism"]),
                                 join_values(d["steal"], b["steal"]),
                                 join_values(d["schedule"], b["schedule"]),
                                 int(opts["confirm-repeat"]), "confirm " + w["spec"],
                                 budget=int(opts["confirm-budget"]))
        cruns = weft_runs(confirmed[0])
        cd = find(cruns, d, "confirm " + w["spec"])
        cb = find(cruns, b, "confirm " + w["spec"])
        row["confirm"] = {"command": cmd, "defaults_median_s": cd["median_s"],
                          "best_median_s": cb["median_s"], "sitting": dict(LAST_SITTING),
                          **paired_ratios(cd["times_s"], cb["times_s"])}
        row["ratio"] = cd["median_s"] / cb["median_s"]
        row["pair"] = interval(cd["times_s"], cb["times_s"])
    row["verdict"] = "within" if row["ratio"] <= opts["limit"] else "OVER"
    row["criterion"] = judge(row["pair"]["verdict"]) if row["pair"] else "PASS"
    return row


def print_table(rows, limit):
    print(f"weft's defaults over its best configuration (criterion: the confirming run's "
          f"defaults/best level or ahead)")
    head = (f"{'workload':<26} {'best in the sweep':<36} {'sweep':>6} {'confirmed':>9} "
            f"{'paired [95% interval] verdict':<34} {'<=' + format(limit, '.2f'):<7} criterion")
    print(head)
    for r in rows:
        best = r["best"].removeprefix("weft ")
        paired = pair_text(r["pair"]) if r["confirm"] else "- (the best is the defaults)"
        print(f"{r['spec']:<26} {best:<36} {r['sweep_ratio']:>6.3f} {r['ratio']:>9.3f} "
              f"{paired:<34} {r['verdict']:<7} {r['criterion']}")
    print(outcome_line([r["criterion"] for r in rows]))


CRITERIA = {v: o for v, o in OUTCOME.items()}


def run_checks(checks, table):
    """Runs checks() -> (options, the sweep's arguments, rows), prints table(rows, limit) and
    writes --json; returns the exit status (also peer_check.py's)."""
    try:
        opts, cmd, rows = checks()
    except UsageError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except (BenchError, OSError, json.JSONDecodeError, KeyError) as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    table(rows, opts["limit"])
    if opts["json"]:
        with open(opts["json"], "w", encoding="utf-8") as f:
            json.dump({"workers": int(opts["workers"]), "limit": opts["limit"],
                       "criteria": CRITERIA, "sweep_command": cmd, "workloads": rows,
                       "outcomes": {o: sum(r.get("criterion") == o for r in rows)
                                    for o in ("PASS", "FAIL", "UNDECIDED")}}, f, indent=1)
            f.write("\n")
    return 0


def main(argv):
    def checks():
        opts = parse_args(argv)
        check_environment()
        cmd, swept = compare(opts, opts["workloads"], opts["mechanism"], opts["steal"],
                             opts["schedule"], int(opts["sweep-repeat"]), "sweep")
        return opts, cmd, [check_workload(opts, w) for w in swept]
    return run_checks(checks, print_table)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
