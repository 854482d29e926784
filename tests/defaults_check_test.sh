#!/usr/bin/env bash
# scripts/defaults_check.py and the "defaults" field of weft-bench compare's JSON:
#   marks      in a compare sweep, exactly the weft runs with a default Config's mechanism,
#              policy and (loop workloads) schedule carry "defaults": true; serial has null
#   small      a tiny two-stage check: every workload gets a row, each ratio is the
#              confirming run's defaults median over its best median, verdicts match --limit
#   bad_input  exit 2 with a message naming the problem: a bad --workers, a set WEFT_*
#              variable, a sweep without the defaults' policy, an unknown option
#   peers      scripts/peer_check.py (SCRIPT's sibling) on two peers: a row per workload and
#              peer, each ratio the confirming run's weft median over the peer's, the peer's
#              series one that the sweep ran; with NAME/VARIANT entries the peer's best is
#              one of the variants listed; an empty name or variant exits 2
# Usage: tests/defaults_check_test.sh MODE PYTHON SCRIPT WEFT_BENCH
set -euo pipefail
mode="$1" python="$2" script="$3" bench="$4"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "defaults_check_test $mode: $*" >&2; exit 1; }
# The defaults are what a user who sets nothing gets: run without any WEFT_* variable.
for v in $(env | sed -n 's/^\(WEFT_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done

case "$mode" in
  marks)
    "$bench" compare --workloads fib:12,matmul-loops:40:kij --peers none --workers 2 \
      --mechanism concurrent,request --steal one,adaptive --schedule static,auto --repeat 1 \
      --json "$work/c.json" >/dev/null || fail "compare exited $?"
    "$python" - "$work/c.json" <<'EOF' || fail "wrong defaults marks"
import json, sys
ws = json.load(open(sys.argv[1]))["workloads"]
for w in ws:
    runs = w["runs"]
    assert runs[0]["impl"] == "serial" and runs[0]["defaults"] is None, runs[0]
    marked = [r["label"] for r in runs if r["impl"] == "weft" and r["defaults"]]
    want = "weft concurrent/adaptive" + (" auto" if w["loops"] else "") + " w=2"
    assert marked == [want], (w["spec"], marked)
    assert all(r["defaults"] is False for r in runs if r["impl"] == "weft" and r["label"] != want)
EOF
    ;;
  small)
    "$python" "$script" --bench "$bench" --workloads fib:14,matmul-loops:40:kij \
      --steal one,adaptive --schedule static,auto --sweep-repeat 2 --confirm-repeat 3 \
      --limit 1.05 --json "$work/d.json" >"$work/out" 2>"$work/err" || fail "exited $?"
    grep -q '^defaults_check.py: sweep: weft-bench compare ' "$work/err" || fail "no progress line"
    "$python" - "$work/d.json" "$work/out" <<'EOF' || fail "wrong figures"
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["workloads"]
assert [r["spec"] for r in rows] == ["fib:14", "matmul-loops:40:kij"], rows
out = open(sys.argv[2]).read()
for r in rows:
    assert r["verdict"] == ("within" if r["ratio"] <= d["limit"] else "OVER"), r
    assert r["sweep_ratio"] >= 1.0, r  # the best of the sweep is never slower than the defaults
    c = r["confirm"]
    if c is None:
        assert r["best"] == r["defaults"] and r["ratio"] == 1.0, r
    else:
        assert abs(r["ratio"] - c["defaults_median_s"] / c["best_median_s"]) < 1e-12, r
        assert c["paired_min"] <= c["paired_median"] <= c["paired_max"], c
        assert "--repeat" in c["command"] and c["command"][c["command"].index("--repeat") + 1] == "3"
    assert any(line.startswith(r["spec"] + " ") for line in out.splitlines()), (r, out)
EOF
    ;;
  bad_input)
    expect2() {  # expect2 PATTERN ARGS...: exit 2 and PATTERN on stderr
      local pattern="$1"; shift
      set +e; "$@" >/dev/null 2>"$work/err"; local rc=$?; set -e
      [[ $rc -eq 2 ]] || fail "$* exited $rc, not 2"
      grep -q -- "$pattern" "$work/err" || fail "$*: no '$pattern' in: $(cat "$work/err")"
    }
    expect2 "--workers '0'" "$python" "$script" --bench "$bench" --workers 0
    expect2 "unset WEFT_STEAL" env WEFT_STEAL=half "$python" "$script" --bench "$bench"
    expect2 "no run with weft's defaults" "$python" "$script" --bench "$bench" \
      --workloads fib:10 --steal one --sweep-repeat 1
    expect2 "unknown option '--bogus'" "$python" "$script" --bench "$bench" --bogus 1
    expect2 "--schedule: expected at least one" "$python" "$script" --bench "$bench" --schedule ""
    expect2 "not an executable" "$python" "$script" --bench "$work/none"
    ;;
  peers)
    peer_check="$(dirname "$script")/peer_check.py"
    "$python" "$peer_check" --bench "$bench" --peers gomp,tbb --workloads fib:14,matmul-loops:30:kij \
      --steal one,adaptive --schedule static,auto --sweep-repeat 2 --confirm-repeat 3 \
      --json "$work/p.json" >"$work/out" 2>"$work/err" || fail "exited $?: $(cat "$work/err")"
    grep -q '^peer_check.py: confirm matmul-loops:30:kij: weft-bench compare ' "$work/err" ||
      fail "no progress line"
    "$python" - "$work/p.json" <<'EOF' || fail "wrong figures"
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["workloads"]
assert [(r["spec"], r["peer"]) for r in rows] == [
    ("fib:14", "gomp"), ("fib:14", "tbb"),
    ("matmul-loops:30:kij", "gomp"), ("matmul-loops:30:kij", "tbb")], rows
for r in rows:
    assert not r["skipped"], r
    assert abs(r["ratio"] - r["weft_median_s"] / r["peer_median_s"]) < 1e-12, r
    assert r["paired_min"] <= r["paired_median"] <= r["paired_max"], r
    assert r["verdict"] == ("within" if r["ratio"] <= d["limit"] else "OVER"), r
    assert r["peer_series"].startswith(r["peer"]), r
    assert r["weft"].startswith("weft "), r
EOF
    "$python" "$peer_check" --bench "$bench" --peers gomp/outer,gomp/taskloop \
      --workloads matmul-loops:30:kij --steal adaptive --schedule static --sweep-repeat 2 \
      --confirm-repeat 3 --json "$work/v.json" >"$work/out" 2>"$work/err" ||
      fail "variants: exited $?: $(cat "$work/err")"
    "$python" - "$work/v.json" <<'EOF' || fail "wrong variants"
import json, sys
d = json.load(open(sys.argv[1]))
sweep = d["sweep_command"]
assert sweep[sweep.index("--peers") + 1] == "gomp/outer,gomp/taskloop", sweep
rows = d["workloads"]
assert [(r["spec"], r["peer"]) for r in rows] == [("matmul-loops:30:kij", "gomp")], rows
assert rows[0]["peer_series"].split()[0] in ("gomp/outer", "gomp/taskloop"), rows
EOF
    for bad in gomp/ /outer none gomp,,tbb gomp/outer/x; do
      set +e; "$python" "$peer_check" --bench "$bench" --peers "$bad" >/dev/null 2>"$work/err"
      rc=$?; set -e
      [[ $rc -eq 2 ]] && grep -q "expected peer names" "$work/err" || fail "--peers $bad: $rc"
    done
    ;;
  *) fail "unknown mode" ;;
esac
