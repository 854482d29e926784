#!/usr/bin/env bash
# weft-uts-dist under mpirun (scripts/mpirun.sh, loopback only), one check per mode:
#   counts     exact counts for T1..T5 at 1, 2, 3, 4 and 8 ranks, chunk 1 and a chunk larger
#              than any stack, and T1L at 2 ranks (the program exits 1 on a wrong count)
#   spread     only rank 0 starts with the root: under half every other rank receives chunks
#   bad_input  each bad option: exit 2 on every rank, one line on stderr, no --json file
#   singleton  the program alone, without mpirun, is one rank
#   failure    a rank that fails (WEFT_DIST_FAIL_RANK) ends the job non-zero within 10 s
#   tiny       more ranks than nodes (a tree of the root alone): exact
# Usage: tests/dist_mpi_test.sh MODE WEFT_UTS_DIST MPIRUN_SH PYTHON
set -euo pipefail
mode="$1" prog="$2" mpirun="$3" python="$4"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "dist_mpi_test $mode: $*" >&2; exit 1; }

case "$mode" in
  counts)
    for tree in T1 T2 T3 T4 T5; do
      for np in 1 2 3 4 8; do
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
    for np in 2 4 8; do
      "$mpirun" "$np" "$prog" --tree T3 --steal half --repeat 1 --json "$work/r.json" >/dev/null ||
        fail "T3 at $np ranks"
      "$python" - "$work/r.json" "$np" <<'PY' || fail "at $np ranks"
import json, sys
d = json.load(open(sys.argv[1]))
ranks = d["ranks"]
assert d["verified"] and len(ranks) == int(sys.argv[2]), d
for i, r in enumerate(ranks[1:], 1):
    assert r["chunks_received"] >= 1 and r["nodes"] > 0, f"rank {i}: {r}"
PY
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
  *) fail "unknown mode" ;;
esac
