#!/usr/bin/env bash
# weft-sim validate on real weft-bench files:
#   runs       fib and UTS files (workload read from the file) and a compare file (simulated
#              as its recording, --workload dag:FILE): a JSON row per weft run, every row
#              verified, the real figures copied from the file, shares compared where the
#              real runs were profiled (and not where they were not), the table on stdout
#   bad_input  exit 2 with a message, writing no --json file: no --real, a missing or
#              non-JSON file, a file without weft runs, a compare file without --workload, a
#              bad --workload, --barrier or --seed, an unknown option
#   criteria   scripts/sim_validation_table.py's PASS/FAIL/UNDECIDED per criterion, from
#              hand-made real and simulated files
# Usage: tests/tools/sim/sim_validate_test.sh MODE PYTHON WEFT_SIM WEFT_BENCH
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
  criteria)
    # scripts/sim_validation_table.py's criteria on hand-made real and simulated files (no
    # timing): a sitting within every target passes all nine; one whose one-worker errors are
    # 0.20 fails those two; a sitting with no 20-steal configuration and no ordering's
    # workload leaves those two undecided.
    table="$(cd "$(dirname "$0")/../../.." && pwd)/scripts/sim_validation_table.py"
    "$python" - "$work" <<'EOF' || fail "could not write the files"
import json, os, sys
def run(impl, mech, steal, p, t, steals):
    return {"impl": impl, "mechanism": mech, "steal": steal, "workers": p, "median_s": t,
            "times_s": [t], "counters_per_run": {"steals": steals, "steal_sizes_seen": [steals, 1]},
            "profile": {"r_busy": 0.9, "r_steal": 0.05, "r_idle": 0.05}}
def sitting(name, p1_error, steals):
    d = os.path.join(sys.argv[1], name)
    os.makedirs(d)
    real, sim = [], []
    for mech in ("concurrent", "request"):
        for steal, t2, s in (("one", 0.6, steals), ("half", 0.55, 10 * steals + 1)):
            real += [run("weft", mech, steal, 1, 1.0, 0), run("weft", mech, steal, 2, t2, s)]
            sim += [run("sim", mech, steal, 1, 1.0 + p1_error, 0),
                    run("sim", mech, steal, 2, t2 * 1.05, s)]
    json.dump({"runs": real}, open(f"{d}/real_fib_1.json", "w"))
    json.dump({"runs": sim}, open(f"{d}/sim_fib_1.json", "w"))
sitting("good", 0.02, 30)
sitting("bad", 0.20, 30)
sitting("few", 0.02, 1)
EOF
    outcomes() {  # outcomes DIR WORKLOAD: the outcomes column of validation.json, one line
      "$python" "$table" "$work/$1" "$2" >"$work/$1/out" || fail "$1: exited $?"
      "$python" -c 'import json, sys; print(" ".join(c["outcome"] for c in
        json.load(open(sys.argv[1]))["criteria"]))' "$work/$1/validation.json"
    }
    P=PASS F=FAIL U=UNDECIDED
    [[ "$(outcomes good fib:1)" == "$P $P $P $P $P $P $P $P $P" ]] ||
      fail "good: $(outcomes good fib:1)"
    grep -qx 'criteria: 9 PASS, 0 FAIL, 0 UNDECIDED' "$work/good/out" || fail "good: no count line"
    grep -qx '| P = 1, largest abs. error <= 0.15 | 0.020 | PASS |' "$work/good/validation.md" ||
      fail "good: no criterion row in validation.md"
    [[ "$(outcomes bad fib:1)" == "$F $F $P $P $P $P $P $P $P" ]] ||
      fail "bad: $(outcomes bad fib:1)"
    # fib:1's files under another name: no ordering applies ("fib:" is not its prefix).
    cp "$work/few/real_fib_1.json" "$work/few/real_x_1.json"
    cp "$work/few/sim_fib_1.json" "$work/few/sim_x_1.json"
    [[ "$(outcomes few x:1)" == "$P $P $P $P $U $P $P $P $U" ]] || fail "few: $(outcomes few x:1)"
    "$python" "$table" --criteria >"$work/criteria" || fail "--criteria exited $?"
    grep -q '^Criteria (fixed before the script runs' "$work/criteria" ||
      fail "--criteria prints no criteria"
    ;;
  *) fail "unknown mode" ;;
esac
