#!/usr/bin/env python3
"""Whether a weft form scales from 1 to 2 workers as well as Lace, from two weft-lace-fib tables.

usage: scripts/lace_scaling.py ONE_WORKER.json TWO_WORKERS.json [--form invoke] [--json FILE]

Both tables are `weft-lace-fib --json` documents of the same n, one at 1 worker and one at 2,
taken in one sitting (scripts/bench_lace.sh runs fib(39) at both). Each gives, repetition by
repetition, the form's time over Lace's of the same block: r1 at 1 worker, r2 at 2. The
claim is

    scaling = median(r2) / median(r1)
            = (form's 2-worker time / its 1-worker time) / (Lace's 2-worker / Lace's 1-worker)

below 1 when the form gains more from the second worker than Lace does. Pairing within each
table removes the noise both runtimes share in a block; the two tables' blocks are not paired
with each other (one runs after the other), so the interval is a percentile bootstrap that
resamples each table's blocks on its own (10,000 resamples, Python's random seeded with 1,
inverted-CDF quantiles, 95 %) and takes the quotient of the two resampled medians. The verdict
reads the interval as every paired comparison here does (docs/MEASURING.md): ahead (< 1: the
form scales better), behind, level (inside [0.97, 1.03]) or undecided; fewer than 5
repetitions in either table is undecided.

Prints one line per runtime (its 1- and 2-worker medians and its own speedup) and the claim;
--json FILE writes the same as JSON. Exit status: 0 (whatever the verdict), 2 on a bad
argument or input.
"""

import json
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verdict_table import median, verdict  # noqa: E402  (the project's one verdict rule)

RESAMPLES = 10000
CONFIDENCE = 0.95


def fail(message):
    print(f"lace_scaling.py: {message}", file=sys.stderr)
    sys.exit(2)


def load(path, workers):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")
    if doc.get("benchmark") != "fib-lace":
        fail(f"{path}: not a weft-lace-fib table")
    if doc.get("workers") != workers:
        fail(f"{path}: ran at {doc.get('workers')} workers, expected {workers}")
    forms = {f["form"]: f for f in doc.get("forms", [])}
    if any("times_s" not in f for f in forms.values()):
        fail(f"{path}: no per-repetition times (written before weft-lace-fib recorded them)")
    return doc, forms


def times(forms, name, path):
    if name not in forms:
        fail(f"{path}: no form '{name}'")
    return forms[name]["times_s"]


def quantile(sorted_values, q):
    return sorted_values[max(math.ceil(q * len(sorted_values) - 1e-9) - 1, 0)]


def scaling(r1, r2):
    rng = random.Random(1)
    quotients = sorted(
        median([r2[rng.randrange(len(r2))] for _ in r2]) /
        median([r1[rng.randrange(len(r1))] for _ in r1]) for _ in range(RESAMPLES))
    alpha = 1 - CONFIDENCE
    lo, hi = quantile(quotients, alpha / 2), quantile(quotients, 1 - alpha / 2)
    n = min(len(r1), len(r2))
    return {"ratio_median": median(r2) / median(r1), "ci_low": lo, "ci_high": hi,
            "confidence": CONFIDENCE, "verdict": verdict(lo, hi, n), "n": n}


def main(argv):
    args, form, out = [], "invoke", None
    i = 0
    while i < len(argv):
        if argv[i] in ("--form", "--json"):
            if i + 1 >= len(argv):
                fail(f"{argv[i]} needs a value")
            form, out = (argv[i + 1], out) if argv[i] == "--form" else (form, argv[i + 1])
            i += 2
        elif argv[i] in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        elif argv[i].startswith("-"):
            fail(f"unknown option '{argv[i]}'")
        else:
            args.append(argv[i])
            i += 1
    if len(args) != 2:
        fail("expected ONE_WORKER.json TWO_WORKERS.json (--help)")
    doc1, forms1 = load(args[0], 1)
    doc2, forms2 = load(args[1], 2)
    if doc1.get("n") != doc2.get("n"):
        fail(f"the tables ran different n ({doc1.get('n')} and {doc2.get('n')})")
    result = {"n": doc1["n"], "form": form, "runtimes": {}}
    for name in ("lace", form):
        t1, t2 = median(times(forms1, name, args[0])), median(times(forms2, name, args[1]))
        result["runtimes"][name] = {"median_1_worker_s": t1, "median_2_workers_s": t2,
                                    "speedup": t1 / t2}
        print(f"{name:9s} fib({doc1['n']}) 1 worker {t1:.4f} s, 2 workers {t2:.4f} s, "
              f"speedup {t1 / t2:.3f}")
    r1 = [a / b for a, b in zip(times(forms1, form, args[0]), times(forms1, "lace", args[0]))]
    r2 = [a / b for a, b in zip(times(forms2, form, args[1]), times(forms2, "lace", args[1]))]
    claim = scaling(r1, r2)
    result["scaling_vs_lace"] = claim
    print(f"{form}'s 2-worker/1-worker time over Lace's: {claim['ratio_median']:.3f} "
          f"[{claim['ci_low']:.3f}, {claim['ci_high']:.3f}] {claim['verdict']} "
          f"(n={claim['n']}, 95 %; < 1: {form} gains more from the second worker)")
    if out:
        with open(out, "w") as f:
            json.dump(result, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
