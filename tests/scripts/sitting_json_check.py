#!/usr/bin/env python3
"""Runs a benchmark program tiny and checks its JSON document: it parses, carries the
sitting (sitting_info.hpp's members), the host (host_json) and a summary per variant, and
its randomized blocks are replayed by the seed: two runs with one seed write the same
"order", one row per repetition, each a permutation of the variants; another seed gives
another order. No figure is judged: the host is shared and the runs are tiny.

Usage: sitting_json_check.py KIND PROGRAM [ARG...]
  KIND is fib-demo, idle or lace: which members to expect. The program is run as
  PROGRAM ARG... --seed S --json FILE (three times).
"""
import json
import os
import subprocess
import sys
import tempfile

SITTING = ["commit", "compiler", "flags", "build_type", "cpu_model", "kernel", "date", "seed",
           "command_line"]
SUMMARY = ["ratio_median", "ci_low", "ci_high", "confidence", "verdict", "n"]
VERDICTS = {"ahead", "behind", "level", "undecided"}


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def run(program, args, seed, path):
    command = [program] + args + ["--seed", str(seed), "--json", path]
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=600, check=False)
    if done.returncode != 0:
        fail("%s exited %d\n%s%s" % (" ".join(command), done.returncode, done.stdout,
                                     done.stderr))
    lines = done.stdout.strip().splitlines()
    if not lines or not lines[-1].startswith(("host: ", "HOST UNSTEADY (")):
        fail("the output does not end with the host's line:\n" + done.stdout)
    with open(path, encoding="utf-8") as f:
        try:
            return json.load(f)
        except json.JSONDecodeError as e:
            fail("%s is not JSON: %s" % (path, e))


def check_summary(where, s, repeat):
    for key in SUMMARY:
        if key not in s:
            fail("%s: no %r in %s" % (where, key, s))
    if s["verdict"] not in VERDICTS:
        fail("%s: verdict %r" % (where, s["verdict"]))
    if s["n"] != repeat:
        fail("%s: n = %s, expected %d pairs" % (where, s["n"], repeat))
    if not s["ci_low"] <= s["ratio_median"] <= s["ci_high"]:
        fail("%s: the median %s lies outside its interval" % (where, s["ratio_median"]))


def check_median_interval(where, s, repeat):
    for key in ("median", "ci_low", "ci_high", "samples"):
        if key not in s:
            fail("%s: no %r" % (where, key))
    if len(s["samples"]) != repeat:
        fail("%s: %d samples, expected %d" % (where, len(s["samples"]), repeat))
    if not min(s["samples"]) <= s["ci_low"] <= s["median"] <= s["ci_high"] <= max(s["samples"]):
        fail("%s: interval [%s, %s] around %s" % (where, s["ci_low"], s["ci_high"], s["median"]))


def check(kind, doc, seed):
    for key in SITTING:
        if key not in doc:
            fail("no sitting member %r" % key)
    if doc["seed"] != seed:
        fail("seed %s, run with %d" % (doc["seed"], seed))
    if "host" not in doc or "calibration_samples" not in doc["host"]:
        fail("no host")
    if not isinstance(doc.get("host_unsteady"), bool):
        fail("no host_unsteady")
    repeat = doc["repeat"]
    variants = doc["variants"]
    order = doc["order"]
    if len(order) != repeat:
        fail("%d rows of order for %d repetitions" % (len(order), repeat))
    for row in order:
        if sorted(row) != list(range(len(variants))):
            fail("order row %s is not a permutation of %d variants" % (row, len(variants)))
    if kind == "fib-demo":
        if len(doc["runs"]) != len(variants) - 1:
            fail("%d runs for %d variants (serial first)" % (len(doc["runs"]), len(variants)))
        for r in doc["runs"]:
            check_summary("run %s %s vs_serial" % (r["steal"], r["workers"]), r["vs_serial"],
                          repeat)
    elif kind == "idle":
        if [r["workers"] for r in doc["results"]] != variants:
            fail("results do not follow the variants")
        for r in doc["results"]:
            for figure in ("spawn_to_start_us", "submit_to_root_us", "idle_cpu_percent"):
                check_median_interval("%s workers %s" % (r["workers"], figure), r[figure],
                                      repeat)
    elif kind == "lace":
        if [f["form"] for f in doc["forms"]] != variants:
            fail("forms do not follow the variants")
        for f in doc["forms"]:
            for pair, against in (("vs_lace", "lace"), ("vs_serial", "serial")):
                if f["form"] == against:
                    continue
                if pair not in f:
                    fail("%s has no %s" % (f["form"], pair))
                check_summary("%s %s" % (f["form"], pair), f[pair], repeat)
    else:
        fail("unknown kind " + kind)


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    kind, program, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    with tempfile.TemporaryDirectory() as tmp:
        docs = []
        for i, seed in enumerate((12345, 12345, 999)):
            doc = run(program, args, seed, os.path.join(tmp, "run%d.json" % i))
            check(kind, doc, seed)
            docs.append(doc)
    if docs[0]["order"] != docs[1]["order"]:
        fail("one seed gave two orders: %s and %s" % (docs[0]["order"], docs[1]["order"]))
    if docs[0]["order"] == docs[2]["order"]:
        fail("seeds 12345 and 999 gave the same order %s" % docs[0]["order"])
    print("ok: %s, %d variants, %d repetitions, order replayed by its seed"
          % (kind, len(docs[0]["variants"]), docs[0]["repeat"]))


if __name__ == "__main__":
    main()
