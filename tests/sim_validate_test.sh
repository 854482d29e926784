#!/usr/bin/env bash
# weft-sim validate on real weft-bench files:
#   runs       fib and UTS files (workload read from the file) and a compare file (simulated
#              as its recording, --workload dag:FILE): a JSON row per weft run, every row
#              verified, the real figures copied from the file, shares compared where the
#              real runs were profiled (and not where they were not), the table on stdout
#   bad_input  exit 2 with a message, writing no --json file: no --real, a missing or
#              non-JSON file, a file without weft runs, a compare file without --workload, a
#              bad --workload, --barrier or --seed, an unknown option
# Usage: tests/sim_validate_test.sh MODE PYTHON WEFT_SIM WEFT_BENCH
set -euo pipefail
mode="$1" python="$2" sim="$3" bench="$4"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "sim_validate_test $mode: $*" >&2; exit 1; }

case "$mode" in
  runs)
    "$bench" fib 14 --workers 1,2 --steal one,half --mechanism concurrent,request --repeat 1 \
      --profile --json "$work/fib.json" >/dev/null || fail "weft-bench fib exited $?"
    "$bench" uts --tree T5 --impl seq,weft --workers 2 --steal half --repeat 1 \
      --json "$work/uts.json" >/dev/null || fail "weft-bench uts exited $?"
    "$bench" compare --workloads nqueens:6 --peers none --workers 1,2 --steal one \
      --mechanism concurrent --repeat 1 --profile --json "$work/cmp.json" >/dev/null ||
      fail "weft-bench compare exited $?"
    "$sim" record --workload nqueens:6 --out "$work/nq.wdag" >/dev/null 2>&1 ||
      fail "weft-sim record exited $?"
    "$sim" validate --real "$work/fib.json" --json "$work/v_fib.json" >"$work/table.txt" ||
      fail "validate fib exited $?"
    grep -q "^concurrent/half .* 2 " "$work/table.txt" || fail "no concurrent/half row"
    grep -q "^median |error| at 2 workers: " "$work/table.txt" || fail "no median line"
    "$sim" validate --real "$work/uts.json" --json "$work/v_uts.json" >/dev/null ||
      fail "validate uts exited $?"
    "$sim" validate --real "$work/cmp.json" --workload "dag:$work/nq.wdag" --barrier auto \
      --json - >"$work/v_cmp.json" 2>/dev/null || fail "validate compare exited $?"
    "$python" - "$work" <<'EOF' || fail "wrong rows"
import json, sys
w = sys.argv[1]
def rows(name, real_name, workload, count, profiled):
    v = json.load(open(f"{w}/{name}"))
    assert v["format"] == "weft-sim validate" and v["workload"] == workload, v
    real = json.load(open(f"{w}/{real_name}"))
    runs = real["workloads"][0]["runs"] if "workloads" in real else real["runs"]
    weft = [r for r in runs if r["impl"] == "weft"]
    assert len(v["rows"]) == len(weft) == count, (name, len(v["rows"]), len(weft))
    for row, r in zip(v["rows"], weft):
        assert row["verified"], row
        assert (row["mechanism"], row["steal"], row["workers"]) == \
            (r["mechanism"], r["steal"], r["workers"]), (row, r)
        assert row["real_s"] == r["median_s"] and row["sim_s"] > 0, row
        assert abs(row["error"] - (row["sim_s"] / row["real_s"] - 1)) < 1e-9, row
        assert row["real_steals"] == r["counters_per_run"]["steals"], row
        assert (row["d_busy"] is not None) == profiled, row
    assert set(v["median_abs_error"]) == {str(r["workers"]) for r in weft}, v
rows("v_fib.json", "fib.json", "fib:14", 8, True)
rows("v_uts.json", "uts.json", "uts:T5", 1, False)
rows("v_cmp.json", "cmp.json", "dag:" + w + "/nq.wdag", 2, True)
EOF
    ;;
  bad_input)
    "$bench" fib 12 --workers 1 --repeat 1 --json "$work/fib.json" >/dev/null ||
      fail "weft-bench fib exited $?"
    "$bench" compare --workloads nqueens:5 --peers none --workers 1 --repeat 1 \
      --json "$work/cmp.json" >/dev/null || fail "weft-bench compare exited $?"
    printf 'not json' >"$work/text.json"
    printf '{"benchmark":"fib","n":12,"runs":[{"impl":"serial"}]}' >"$work/none.json"
    cd "$work"
    for a in '' '--real /nonexistent.json' '--real text.json' '--real none.json' \
      '--real cmp.json' '--real fib.json --workload heap:3' \
      '--real fib.json --workload dag:/nonexistent.wdag' '--real fib.json --barrier sometimes' \
      '--real fib.json --seed x' '--real fib.json --cost x' '--real'; do
      set +e
      # shellcheck disable=SC2086 # each case is a list of arguments
      "$sim" validate $a --json bad.json >/dev/null 2>err.txt
      r=$?
      set -e
      test "$r" -eq 2 || fail "'$a' exited $r"
      test ! -e bad.json || fail "'$a' wrote bad.json"
      grep -q "weft-sim validate: " err.txt || fail "'$a' said nothing"
    done
    grep -q "name the simulated workload with --workload" <("$sim" validate --real cmp.json 2>&1) ||
      fail "a compare file without --workload does not say what to do"
    ;;
  *) fail "unknown mode" ;;
esac
