#!/usr/bin/env bash
# weft-uts-dist under mpirun (scripts/mpirun.sh, loopback only), one check per mode:
#   counts     exact counts for T1..T5 at 1 to 8 ranks, chunk 1 and a chunk larger
#              than any stack, and T1L at 2 ranks (the program exits 1 on a wrong count)
#   spread     only rank 0 starts with the root: under half every other rank of 2 to 8
#              receives chunks
#   bad_input  each bad option: exit 2 on every rank, one line on stderr, no --json file
#   singleton  the program alone, without mpirun, is one rank
#   failure    a rank that fails (WEFT_DIST_FAIL_RANK) ends the job non-zero within 10 s
#   tiny       more ranks than nodes (a tree of the root alone): exact
#   profile    every rank's busy, serve, steal and idle shares sum to 1; round trips and
#              chunk transfers are measured; rank 0 prints the table and the latency line
#   slow       a rank made slower per node (WEFT_DIST_SLOW_RANK) expands fewer nodes, exactly
#   skewed     a root with 20 children, one a UTS tree and 19 leaves, on 2 ranks: each rank
#              expands at least 20 % of the nodes (a static split of the root could not)
#   nqueens    weft-nqueens-dist (tree_search over a user node): 12 at 1..4 ranks, 13 at 2,
#              and its bad input
#   judge      scripts/dist_table.py (no MPI): bench_dist.sh's criteria on hand-made runs, a
#              target met by the whole interval PASS, missed by all of it FAIL, straddled or
#              under 5 repetitions UNDECIDED, and its repetitions' order as tools/bench/stats' own
# Usage: tests/tools/dist/dist_mpi_test.sh MODE MPIRUN_SH PYTHON WEFT_UTS_DIST WEFT_NQUEENS_DIST SKEWED
set -euo pipefail
mode="$1" mpirun="$2" python="$3" prog="$4" nqueens="$5" skewed="$6"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "dist_mpi_test $mode: $*" >&2; exit 1; }

case "$mode" in
  counts)
    for tree in T1 T2 T3 T4 T5; do
      for np in 1 2 3 4 5 6 7 8; do
        "$mpirun" "$np" "$prog" --tree "$tree" --steal half --repeat 1 >"$work/out" ||
          fail "$tree at $np ranks: exit $?"
        grep -q '(exact)' "$work/out" || fail "$tree at $np ranks: $(cat "$work/out")"
      done
    done
    "$mpirun" 2 "$prog" --tree T5 --chunk 1 --repeat 1 >/dev/null || fail "chunk 1"
    "$mpirun" 2 "$prog" --tree T5 --chunk 1048576 --repeat 1 >/dev/null || fail "a huge chunk"
    "$mpirun" 2 "$prog" --tree T1L --steal half --chunk 64 --repeat 1 >"$work/out" ||
      fail "T1L at 2 ranks"
    cat "$work/out" ;;
  spread)
    # Whether every rank gets a chunk depends on the OS running each rank in time (8 ranks
    # share 2 cores here): each np has 3 attempts, each checked in full, and one must spread.
    for np in 2 3 4 5 6 7 8; do
      spread=0
      for attempt in 1 2 3; do
        "$mpirun" "$np" "$prog" --tree T3 --steal half --repeat 1 --json "$work/r.json" \
          >/dev/null || fail "T3 at $np ranks"
        if "$python" - "$work/r.json" "$np" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
ranks = d["ranks"]
assert d["verified"] and len(ranks) == int(sys.argv[2]), d
for i, r in enumerate(ranks[1:], 1):
    if r["chunks_received"] < 1 or r["nodes"] == 0:
        sys.exit(f"attempt at {sys.argv[2]} ranks: rank {i} got no work: {r}")
PY
          spread=1
          break
        fi
      done
      [[ "$spread" -eq 1 ]] || fail "at $np ranks some rank got no work in 3 attempts"
    done ;;
  bad_input)
    for args in '--chunk 0' '--tree T9' '--steal adaptive' '--steal fixed:0' '--repeat 0' \
      '--poll x' '-q 2' '--frobnicate 1' '--repeat'; do
      rc=0
      # shellcheck disable=SC2086  # the arguments are meant to be split
      "$mpirun" 2 "$prog" $args --json "$work/bad.json" >"$work/out" 2>"$work/err" || rc=$?
      [[ "$rc" -eq 2 ]] || fail "'$args' exited $rc"
      [[ "$(grep -c 'weft-uts-dist:' "$work/err")" -eq 1 ]] || fail "'$args': $(cat "$work/err")"
      [[ ! -e "$work/bad.json" ]] || fail "'$args' wrote its --json"
    done ;;
  singleton)
    "$prog" --tree T5 --repeat 1 | grep -q 'on 1 ranks.*(exact)' || fail "one rank" ;;
  failure)
    rc=0
    WEFT_DIST_FAIL_RANK=1 timeout 10 "$mpirun" 2 "$prog" --tree T3 >/dev/null 2>&1 || rc=$?
    [[ "$rc" -ne 0 && "$rc" -ne 124 ]] || fail "exit $rc (124: not within 10 s)" ;;
  tiny)
    "$mpirun" 8 "$prog" --tree T3 -b 0.5 --repeat 2 | grep -q ': 1 nodes, 1 leaves.*(exact)' ||
      fail "the root alone on 8 ranks" ;;
  profile)
    "$mpirun" 3 "$prog" --tree T3 --steal half --chunk 8 --repeat 1 --json "$work/p.json" \
      >"$work/out" || fail "T3 at 3 ranks"
    grep -q 'busy%.*serve%.*steal%.*idle%' "$work/out" || fail "no table: $(cat "$work/out")"
    grep -q '^request round trip: median' "$work/out" || fail "no latencies: $(cat "$work/out")"
    "$python" - "$work/p.json" <<'PY' || fail "$(cat "$work/p.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verified"] and len(d["ranks"]) == 3, d
assert sum(r["nodes"] for r in d["ranks"]) == d["nodes"], d
for r in d["ranks"]:
    total = r["busy"] + r["serve"] + r["steal"] + r["idle"]
    assert abs(total - 1) < 1e-6, f"shares sum to {total}: {r}"
    # Every answer is timed: nothing, or work whose transfer is timed too; at most one
    # request is still out when the search ends.
    answers = r["round_trip_us"]["count"]
    assert answers == r["failed_steals"] + r["transfer_us"]["count"], r
    assert r["requests_sent"] - answers in (0, 1), r
rt, tr = d["round_trip_us"], d["transfer_us"]
assert rt["count"] > 0 and tr["count"] > 0, d
assert 0 < rt["median"] <= rt["p90"] and 0 <= tr["median"] <= tr["p90"], d
PY
    ;;
  slow)
    WEFT_DIST_SLOW_RANK=1 "$mpirun" 2 "$prog" --tree T3 --steal half --chunk 8 --repeat 1 \
      --json "$work/s.json" >/dev/null || fail "T3 with rank 1 slow"
    "$python" - "$work/s.json" <<'PY' || fail "$(cat "$work/s.json")"
import json, sys
d = json.load(open(sys.argv[1]))
fast, slow = d["ranks"][0]["nodes"], d["ranks"][1]["nodes"]
assert d["verified"] and 0 < slow and 10 * slow < fast, (fast, slow)  # even: about 1:1
PY
    ;;
  skewed)
    # Each attempt is checked in full; the shares depend on the OS scheduling both ranks, so
    # one of three attempts must share.
    shared=0
    for attempt in 1 2 3; do
      "$mpirun" 2 "$skewed" T5 half 8 >"$work/out" || fail "exit $?: $(cat "$work/out")"
      grep -q '(exact)' "$work/out" || fail "$(cat "$work/out")"
      if awk '/share/ { if ($4 < 0.20) low = 1 } END { exit low }' "$work/out"; then
        shared=1
        break
      fi
      echo "attempt $attempt: $(tr '\n' ' ' <"$work/out")" >&2
    done
    [[ "$shared" -eq 1 ]] || fail "a rank expanded under 20 % in 3 attempts" ;;
  nqueens)
    for np in 1 2 3 4; do
      "$mpirun" "$np" "$nqueens" --n 12 --steal half --repeat 1 >"$work/out" ||
        fail "12 at $np ranks: exit $?"
      grep -q ': 14200 solutions (exact)' "$work/out" || fail "12 at $np: $(cat "$work/out")"
    done
    "$mpirun" 2 "$nqueens" --n 13 --chunk 8 --repeat 1 | grep -q ': 73712 solutions (exact)' ||
      fail "13 at 2 ranks"
    for args in '--n 0' '--n 21' '--n x' '--chunk 0' '--bogus 1' '--n'; do
      rc=0
      # shellcheck disable=SC2086  # the arguments are meant to be split
      "$mpirun" 2 "$nqueens" $args >"$work/out" 2>"$work/err" || rc=$?
      [[ "$rc" -eq 2 ]] || fail "'$args' exited $rc"
      [[ "$(grep -c 'weft-nqueens-dist:' "$work/err")" -eq 1 ]] || fail "'$args': $(cat "$work/err")"
    done ;;
  judge)
    # scripts/dist_table.py's criteria on hand-made raw runs (no MPI, no timing), and the
    # repetitions' order that scripts/bench_dist.sh takes from it.
    table="$(cd "$(dirname "$0")/../../.." && pwd)/scripts/dist_table.py"
    # tools/bench/stats' block_order for these (seed, repetition, count), as the C++ computes them.
    [[ "$("$python" "$table" --order 42 0 8)" == "3 0 4 2 7 5 6 1" ]] || fail "order 42 0 8"
    [[ "$("$python" "$table" --order 42 1 8)" == "4 1 2 6 0 3 7 5" ]] || fail "order 42 1 8"
    [[ "$("$python" "$table" --order 18446744073709551615 7 5)" == "3 1 4 0 2" ]] ||
      fail "order 2^64-1 7 5"
    # sitting DIR REPEAT TREE:DIST_TIMES...: weft's best takes 1 s and seq 2 s in every
    # repetition; dist one takes the listed times, dist half 1.5 s.
    "$python" - "$work" <<'EOF' || fail "could not write the runs"
import json, os, sys
def sitting(name, repeat, trees):
    raw = os.path.join(sys.argv[1], name, "raw")
    os.makedirs(raw)
    for tree, dist in trees.items():
        for r in range(1, repeat + 1):
            runs = [{"impl": "seq", "median_s": 2.0}] + [
                {"impl": "weft", "mechanism": m, "steal": s, "median_s": t}
                for m, s, t in (("concurrent", "one", 1.0), ("request", "half", 1.3))]
            json.dump({"runs": runs}, open(f"{raw}/{tree}_weft_{r}.json", "w"))
            for steal, t in (("one", dist[r - 1]), ("half", 1.5)):
                rank = {k: 0.25 for k in ("busy", "serve", "steal", "idle")}
                rank.update(nodes=10, requests_sent=1, failed_steals=0, chunks_received=1)
                json.dump({"verified": True, "median_s": t, "last_token_round_us": 5.0,
                           "round_trip_us": {"median": 1.0, "p90": 2.0},
                           "transfer_us": {"median": 1.0, "p90": 2.0}, "ranks": [rank, rank]},
                          open(f"{raw}/{tree}_dist_{steal}_{r}.json", "w"))
                open(f"{raw}/{tree}_dist_{steal}_{r}.wall", "w").write("100.0 101.5\n")
    open(f"{raw}/seed", "w").write("7\n")
sitting("decided", 5, {"T1L": [1.05, 1.04, 1.06, 1.05, 1.05],   # ratio 1.05, E 0.95: PASS
                       "T3L": [1.3, 1.32, 1.28, 1.3, 1.31],     # ratio 1.3, E 0.77: FAIL
                       "T5": [1.0] * 5})                        # no target
sitting("wide", 5, {"T1L": [1.0, 1.2, 1.0, 1.2, 1.1]})          # both intervals straddle
sitting("few", 4, {"T1L": [1.05] * 4})                          # under 5 pairs
EOF
    outcomes() {  # outcomes DIR REPEAT TREE...: every criterion's outcome, one line
      local dir="$work/$1"; shift
      "$python" "$table" "$dir" "$@" >"$dir/out" || fail "$dir: exited $?"
      "$python" -c 'import json, sys; print(" ".join(t["tree"] + ":" + c["outcome"]
        for t in json.load(open(sys.argv[1]))["trees"] for c in t["criteria"]))' \
        "$dir/bench_dist.json"
    }
    got="$(outcomes decided 5 T1L T3L T5)"
    [[ "$got" == "T1L:PASS T1L:PASS T3L:FAIL T3L:FAIL" ]] || fail "decided: $got"
    grep -qx 'T3L: T_dist / T_weft <= 1.15: FAIL' "$work/decided/out" || fail "no FAIL line"
    grep -qx 'criteria: 2 PASS, 2 FAIL, 0 UNDECIDED' "$work/decided/out" || fail "no count"
    grep -q 'criteria: none (T5 has no target)' "$work/decided/bench_dist.md" ||
      fail "T5 judged without a target"
    grep -q 'shuffled from seed 7;' "$work/decided/bench_dist.md" || fail "no seed"
    got="$(outcomes wide 5 T1L)"
    [[ "$got" == "T1L:UNDECIDED T1L:UNDECIDED" ]] || fail "wide: $got"
    got="$(outcomes few 4 T1L)"
    [[ "$got" == "T1L:UNDECIDED T1L:UNDECIDED" ]] || fail "few: $got"
    ;;
  *) fail "unknown mode" ;;
esac
