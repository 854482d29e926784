#!/usr/bin/env python3
"""Projects weft-uts-dist to 1024 ranks from what scripts/bench_dist.sh measured at 2 ranks
(docs/DISTRIBUTED.md, "To 1024 ranks", gives the model and its limits).

    T(P) = T_seq / (P * E2) + 2 * log2(P) * RT + 2 * P * h

T_seq / (P * E2): the work shared perfectly, at the 2-rank efficiency E2 (the protocol's
per-node cost: polling, the stack); 2 log2(P) RT: the work spreading from rank 0 by
successful steals, each round of them doubling the busy ranks at best and taking a request
round trip RT (a victim's poll delay included), and the same again as work runs out; 2 P h:
termination, at most two rounds of the token ring once every rank is passive, h a hop (the
measured last round at 2 ranks over 2). E(P) = T_seq / (P T(P)).

Usage: dist_projection.py BENCH_DIST_JSON OUT_MD"""
import json
import math
import sys

RANKS = (2, 16, 64, 256, 1024)
# The UTS papers' larger geometric trees, the T1L family, for a tree that fills 1024 ranks:
# T1XL and T1XXL, with the node counts the UTS reference's sample workloads publish.
LARGER = (("T1XL", 1_635_119_272), ("T1XXL", 4_230_646_601))


def project(t_seq, e2, rt, h, p, termination_hops=None):
    hops = 2 * p if termination_hops is None else termination_hops
    return t_seq / (p * e2) + 2 * math.log2(p) * rt + hops * h


def efficiency(t_seq, e2, rt, h, p, termination_hops=None):
    return t_seq / (p * project(t_seq, e2, rt, h, p, termination_hops))


def main():
    bench, out = sys.argv[1], sys.argv[2]
    rows = json.load(open(bench))["trees"]
    lines = ["# weft-uts-dist projected to 1024 ranks", "",
             f"Made by `scripts/dist_projection.py {bench}` from the 2-rank measurements there; "
             "the model and its limits are in docs/DISTRIBUTED.md. RT: the request round trip's "
             "median; h: the token ring's hop (the last round at 2 ranks, over 2).", "",
             "| tree | nodes | T_seq s | E2 | RT us | h us | "
             + " | ".join(f"E({p})" for p in RANKS) + " | T(1024) ms |",
             "|---|---:|---:|---:|---:|---:|" + "---:|" * len(RANKS) + "---:|"]
    cases = []  # (name, nodes, T_seq, E2, RT, h)
    for row in rows:
        nodes = sum(r["nodes"] for r in row["profile"])
        rt = row["latency_us"]["round_trip_us"]["median"] * 1e-6
        h = row["last_token_round_us"] * 1e-6 / 2
        cases.append((row["tree"], nodes, row["medians_s"]["seq"], row["efficiency"], rt, h))
    t1l = [c for c in cases if c[0] == "T1L"]
    if t1l:
        _, nodes, t_seq, e2, rt, h = t1l[0]
        for name, n in LARGER:
            cases.append((f"{name} (T1L's node time, E2, RT, h)", n, t_seq * n / nodes, e2, rt, h))
    for name, n, t_seq, e2, rt, h in cases:
        es = [efficiency(t_seq, e2, rt, h, p) for p in RANKS]
        lines.append(f"| {name} | {n:,} | {t_seq:.2f} | {e2:.3f} | {rt * 1e6:.0f} | {h * 1e6:.1f} | "
                     + " | ".join(f"{e:.2f}" for e in es)
                     + f" | {project(t_seq, e2, rt, h, 1024) * 1e3:.1f} |")
    # The ring's O(P) term against termination over a tree of ranks (2 log2 P hops).
    lines += ["", "Termination over a tree of ranks instead of the ring (2 log2(P) hops, not 2 P):",
              "", "| tree | E(1024), ring | E(1024), tree |", "|---|---:|---:|"]
    for name, n, t_seq, e2, rt, h in cases:
        ring = efficiency(t_seq, e2, rt, h, 1024)
        tree = efficiency(t_seq, e2, rt, h, 1024, 2 * math.log2(1024))
        lines.append(f"| {name} | {ring:.2f} | {tree:.2f} |")
    open(out, "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
