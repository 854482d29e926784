#!/usr/bin/env python3
"""The claims of one or more `weft-bench compare --json` sittings as a Markdown table.

usage: scripts/verdict_table.py SITTING.json [SITTING.json ...] [--kind KIND,...] [--out FILE]

Each sitting's claims are the "pairs" weft-bench compare wrote: a/b as the median of the
paired repetitions, its bootstrap interval and its verdict (docs/MEASURING.md). With one
sitting the table has a row per pair: workload, pair, a, b, n, "ratio [low, high]" and the
verdict. With several (the same workloads and pairs, e.g. one command run at different
hours on one build) it has a column per sitting and a last column that says whether the
verdicts agree, judged by the rule fixed here before any sitting is read:

    FLIP       one sitting says ahead and another behind: the intervals lie, fix the method
    agree      every sitting gives the same verdict
    compatible no flip, but the verdicts differ (e.g. level and undecided, ahead and level)

A pair missing from a sitting is shown as "-". A document written before weft-bench compare
gave intervals (no "pairs") has its pairs recomputed here from its raw times by compare's
rule (docs/MEASURING.md): each weft series over serial, each peer under weft's series for it
(the one marked "defaults" at the peer's worker count, else the first listed there; never the
fastest), the median of the paired ratios with a 95 % percentile bootstrap interval (10,000
resamples, inverted-CDF quantiles, Python's random seeded with 1) and the same verdict bounds;
such rows say "recomputed" in the pair column. Loop workloads' schedule matching and setting
pairs are not recomputed. Below the table, per sitting: its date,
commit, seed, repetitions and host steadiness (an unsteady host is flagged), and the count of
each verdict; then the number of FLIPs, which makes the exit status 1 when it is not 0.

--kind limits the rows to these pair kinds (weft/peer, weft/serial, setting; default all).
--out FILE writes the table there instead of standard output.

Exit status: 0 no flip, 1 at least one flip, 2 a bad argument or input.
"""

import json
import math
import random
import sys

KINDS = ("weft/peer", "weft/serial", "setting")


class InputError(Exception):
    pass


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: {e}") from e
    if not isinstance(doc, dict) or doc.get("command") != "compare":
        raise InputError(f'{path}: not the output of weft-bench compare --json (no "command":"compare")')
    for w in doc.get("workloads", []):
        if "pairs" not in w:
            if not isinstance(w.get("runs"), list):
                raise InputError(f"{path}: workload {w.get('spec')} has neither \"pairs\" nor "
                                 "\"runs\"")
            w["pairs"] = recomputed_pairs(w)
    return doc


# The rule of tools/bench/stats/paired.hpp, for documents written before compare gave intervals.
LEVEL_LOW, LEVEL_HIGH, MIN_PAIRS, RESAMPLES = 0.97, 1.03, 5, 10000


def median(values):
    s = sorted(values)
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


def verdict(lo, hi, n):
    if n < MIN_PAIRS:
        return "undecided"
    if hi < 1:
        return "ahead"
    if lo > 1:
        return "behind"
    if lo >= LEVEL_LOW and hi <= LEVEL_HIGH:
        return "level"
    return "undecided"


def summary(a_times, b_times):
    ratios = [a / b for a, b in zip(a_times, b_times)]
    n = len(ratios)
    rng = random.Random(1)
    medians = sorted(median([ratios[rng.randrange(n)] for _ in range(n)])
                     for _ in range(RESAMPLES))
    lo = medians[max(math.ceil(0.025 * RESAMPLES - 1e-9) - 1, 0)]
    hi = medians[min(math.ceil(0.975 * RESAMPLES - 1e-9), RESAMPLES) - 1]
    return {"ratio_median": median(ratios), "ci_low": lo, "ci_high": hi, "confidence": 0.95,
            "verdict": verdict(lo, hi, n), "n": n}


def recomputed_pairs(w):
    runs = [r for r in w["runs"] if "times_s" in r]
    serial = next((r for r in runs if r["impl"] == "serial"), None)
    weft = [r for r in runs if r["impl"] == "weft"]
    pairs = []
    if serial:
        for r in weft:
            pairs.append(dict(kind="weft/serial", name="weft/serial (recomputed)", a=r["label"],
                              b=serial["label"], **summary(r["times_s"], serial["times_s"])))
    for peer in runs:
        if peer["impl"] in ("serial", "weft"):
            continue
        here = [r for r in weft if r["workers"] == peer["workers"]]
        chosen = next((r for r in here if r.get("defaults")), here[0] if here else None)
        if chosen is None:
            continue
        pairs.append(dict(kind="weft/peer", name=f"weft/{peer['impl']} (recomputed)",
                          a=chosen["label"], b=peer["label"],
                          **summary(chosen["times_s"], peer["times_s"])))
    return pairs


def pair_key(workload, pair):
    return (workload["spec"], pair["kind"], pair["name"], pair["a"], pair["b"])


def cell(pair):
    text = f"{pair['ratio_median']:.3f} [{pair['ci_low']:.3f}, {pair['ci_high']:.3f}]"
    if abs(pair["confidence"] - 0.95) > 1e-9:
        text += f" @{pair['confidence'] * 100:.2f}%"
    return text


def agreement(verdicts):
    present = [v for v in verdicts if v is not None]
    if "ahead" in present and "behind" in present:
        return "FLIP"
    if len(set(present)) <= 1:
        return "agree"
    return "compatible"


def sitting_line(path, doc):
    if "commit" not in doc:
        return (f"- `{path}`: written before compare recorded its sitting (no commit, seed or "
                f"host); --repeat {doc.get('repeat')}; pairs recomputed from the raw times")
    host = doc.get("host", {})
    steadiness = (f"calibration CV {host.get('calibration_cv', float('nan')):.3f}, steal "
                  f"{(host.get('steal_share') or 0) * 100:.2f} %")
    flag = " **HOST UNSTEADY**" if doc.get("host_unsteady") else ""
    reps = {w["spec"]: w.get("repetitions") for w in doc["workloads"]}
    rep_text = ", ".join(f"{s} {n}" for s, n in reps.items())
    mode = (f"--until-decided, {doc.get('looks')} looks in {doc.get('elapsed_s', 0):.0f} s"
            if doc.get("until_decided") else f"--repeat {doc.get('repeat')}")
    return (f"- `{path}`: {doc.get('date')}, commit `{str(doc.get('commit'))[:12]}`, seed "
            f"{doc.get('seed')}, {mode}; repetitions: {rep_text}; {steadiness}{flag}")


def table(paths, docs, kinds):
    rows = {}
    order = []
    for k, doc in enumerate(docs):
        for w in doc["workloads"]:
            for p in w["pairs"]:
                if p["kind"] not in kinds:
                    continue
                key = pair_key(w, p)
                if key not in rows:
                    rows[key] = [None] * len(docs)
                    order.append(key)
                rows[key][k] = p
    out = []
    several = len(docs) > 1
    if several:
        head = ["workload", "pair", "a", "b"] + [f"sitting {k + 1}" for k in range(len(docs))] + \
            ["verdicts"]
    else:
        head = ["workload", "pair", "a", "b", "n", "ratio [interval]", "verdict"]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "|".join("---" for _ in head) + "|")
    flips = 0
    for key in order:
        spec, kind, name, a, b = key
        pairs = rows[key]
        if several:
            cells = [f"{cell(p)} {p['verdict']} n={p['n']}" if p else "-" for p in pairs]
            verdict = agreement([p["verdict"] if p else None for p in pairs])
            flips += verdict == "FLIP"
            out.append("| " + " | ".join([spec, name, a, b] + cells + [verdict]) + " |")
        else:
            p = pairs[0]
            out.append(f"| {spec} | {name} | {a} | {b} | {p['n']} | {cell(p)} | {p['verdict']} |")
    out.append("")
    for path, doc in zip(paths, docs):
        out.append(sitting_line(path, doc))
        counts = {}
        for key in order:
            p = rows[key][docs.index(doc)]
            if p:
                counts[p["verdict"]] = counts.get(p["verdict"], 0) + 1
        out.append("  verdicts: " + ", ".join(f"{counts.get(v, 0)} {v}" for v in
                                               ("ahead", "level", "behind", "undecided")))
    if several:
        out.append("")
        out.append(f"flips (ahead in one sitting, behind in another): {flips}")
    return "\n".join(out) + "\n", flips


def main(argv):
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__.strip())
        return 0
    paths, kinds, out = [], list(KINDS), None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--kind", "--out"):
            if i + 1 >= len(argv):
                raise InputError(f"{a}: missing value")
            if a == "--kind":
                kinds = argv[i + 1].split(",")
                bad = [k for k in kinds if k not in KINDS]
                if bad:
                    raise InputError(f"--kind {argv[i + 1]}: unknown kind {bad[0]} "
                                     f"(known: {', '.join(KINDS)})")
            else:
                out = argv[i + 1]
            i += 2
            continue
        if a.startswith("-"):
            raise InputError(f"{a}: unknown option")
        paths.append(a)
        i += 1
    if not paths:
        raise InputError("no SITTING.json given (see --help)")
    docs = [load(p) for p in paths]
    text, flips = table(paths, docs, kinds)
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 1 if flips else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except InputError as e:
        print(f"verdict_table.py: {e}", file=sys.stderr)
        sys.exit(2)
