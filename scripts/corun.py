#!/usr/bin/env python3
"""How much slower a single-threaded run gets when a second copy runs beside it.

usage: scripts/corun.py [--repeat 11] [--copies 2] [--seed S] [--json FILE] -- COMMAND [ARG...]

COMMAND is one timed, single-threaded run that prints one JSON line with "seconds" and
"verified" (a weft-bench peer does: `build/tools/peers/weft-peer-gomp --workload
sparselu:50x100 --workers 1`). Each repetition is a block of two runs in an order shuffled
from the seed: COMMAND alone, and --copies copies of it started together (one per core).
The claim is the copies' mean time over the lone run's of the same block, the median of
those paired ratios with a 95 % percentile bootstrap interval (10,000 resamples, inverted-CDF
quantiles) and the verdict every paired comparison here gets (docs/MEASURING.md): above 1
(behind) when running beside another copy slows the program down.

This measures the machine, not a runtime: no scheduler is involved, each copy has its own
data, and each is single-threaded. A parallel run's work inflation (its workers' busy time
over the serial run's) that matches it is the price of the cores' shared cache and memory
bandwidth, paid by every runtime alike. (Each copy holds its own input, so the copies
together use more of the shared cache than one parallel run does: an upper bound.)

A run that fails, or prints "verified": false or no time, stops the script (exit 1). Exit
status 0 otherwise, whatever the verdict; 2 on a bad argument.
"""

import json
import math
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verdict_table import median, verdict  # noqa: E402  (the project's one verdict rule)

RESAMPLES = 10000
CONFIDENCE = 0.95
TIMEOUT_S = 600  # one run; a hung copy must not hang the sitting


def fail(message, status=2):
    print(f"corun.py: {message}", file=sys.stderr)
    sys.exit(status)


def parse(argv):
    if "--" not in argv:
        fail("expected -- COMMAND [ARG...] (--help)")
    split = argv.index("--")
    options, command = argv[:split], argv[split + 1:]
    if not command:
        fail("no COMMAND after --")
    args = {"repeat": 11, "copies": 2, "seed": None, "json": None}
    i = 0
    while i < len(options):
        key = options[i].lstrip("-")
        if options[i] in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(0)
        if key not in args or not options[i].startswith("--") or i + 1 >= len(options):
            fail(f"bad option '{options[i]}' (--help)")
        value = options[i + 1]
        if key == "json":
            args[key] = value
        else:
            try:
                args[key] = int(value)
            except ValueError:
                fail(f"--{key} '{value}': expected a whole number")
        i += 2
    if args["repeat"] < 1 or args["copies"] < 2:
        fail("--repeat must be at least 1 and --copies at least 2")
    if args["seed"] is None:
        args["seed"] = random.SystemRandom().randrange(2**32)
    return args, command


def seconds_of(output, command):
    lines = [line for line in output.splitlines() if line.strip()]
    try:
        record = json.loads(lines[-1])
        seconds = float(record["seconds"])
    except (IndexError, ValueError, KeyError, TypeError):
        fail(f"{' '.join(command)}: no JSON line with \"seconds\": {output!r}", 1)
    if record.get("verified") is not True:
        fail(f"{' '.join(command)}: the run was not verified: {lines[-1]}", 1)
    return seconds


def run_together(command, copies):
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(copies)]
    times = []
    for p in procs:
        try:
            out, err = p.communicate(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            fail(f"{' '.join(command)}: no answer in {TIMEOUT_S} s", 1)
        if p.returncode != 0:
            fail(f"{' '.join(command)}: exit {p.returncode}: {err.strip()}", 1)
        times.append(seconds_of(out, command))
    return times


def quantile(sorted_values, q):
    return sorted_values[max(math.ceil(q * len(sorted_values) - 1e-9) - 1, 0)]


def summary(ratios):
    rng = random.Random(1)
    medians = sorted(median([ratios[rng.randrange(len(ratios))] for _ in ratios])
                     for _ in range(RESAMPLES))
    alpha = 1 - CONFIDENCE
    lo, hi = quantile(medians, alpha / 2), quantile(medians, 1 - alpha / 2)
    return {"ratio_median": median(ratios), "ci_low": lo, "ci_high": hi,
            "confidence": CONFIDENCE, "verdict": verdict(lo, hi, len(ratios)), "n": len(ratios)}


def main(argv):
    args, command = parse(argv)
    order_rng = random.Random(args["seed"])
    alone, together, ratios = [], [], []
    print(f"seed {args['seed']}; {args['repeat']} blocks of: alone, {args['copies']} together")
    for rep in range(1, args["repeat"] + 1):
        print(f"\rblock {rep}/{args['repeat']} ...", end="", file=sys.stderr, flush=True)
        block = {}
        for kind in order_rng.sample(["alone", "together"], 2):
            block[kind] = (run_together(command, 1)[0] if kind == "alone" else
                           run_together(command, args["copies"]))
        alone.append(block["alone"])
        together.append(block["together"])
        ratios.append(sum(block["together"]) / len(block["together"]) / block["alone"])
    print("\r" + " " * 40 + "\r", end="", file=sys.stderr)
    claim = summary(ratios)
    flat = [t for ts in together for t in ts]
    print(f"alone: median {median(alone):.4f} s; {args['copies']} together: median "
          f"{median(flat):.4f} s a copy")
    print(f"a copy's time beside {args['copies'] - 1} other(s) over its time alone: "
          f"{claim['ratio_median']:.3f} [{claim['ci_low']:.3f}, {claim['ci_high']:.3f}] "
          f"{claim['verdict']} (n={claim['n']}, 95 %)")
    if args["json"]:
        with open(args["json"], "w") as f:
            json.dump({"benchmark": "corun", "command": command, "seed": args["seed"],
                       "copies": args["copies"], "alone_s": alone, "together_s": together,
                       "together_over_alone": claim}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
