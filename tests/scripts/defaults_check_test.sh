#!/usr/bin/env bash
# scripts/defaults_check.py and the "defaults" field of weft-bench compare's JSON:
#   marks      in a compare sweep, exactly the weft runs with a default Config's mechanism,
#              policy and (loop workloads) schedule carry "defaults": true; serial has null
#   small      a tiny two-stage check: every workload gets a row, each ratio is the
#              confirming run's defaults median over its best median, verdicts match --limit
#   bad_input  exit 2 with a message naming the problem: a bad --workers, a set WEFT_*
#              variable, a sweep without the defaults' policy, an unknown option
#   judge      the criteria of both scripts on hand-made compare JSON (a stand-in weft-bench):
#              defaults/best ahead or level -> PASS, behind -> FAIL, undecided -> UNDECIDED,
#              a sweep whose best is the defaults -> PASS; peer_check likewise from compare's
#              weft/peer verdicts, and from the raw times where compare wrote no such pair;
#              the confirming runs get --until-decided --budget from --confirm-budget
#   peers      scripts/peer_check.py (SCRIPT's sibling) on two peers: a row per workload and
#              peer, each ratio the confirming run's weft median over the peer's, the peer's
#              series one that the sweep ran; with NAME/VARIANT entries the peer's best is
#              one of the variants listed; an empty name or variant exits 2
# Usage: tests/scripts/defaults_check_test.sh MODE PYTHON SCRIPT WEFT_BENCH
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
      --confirm-budget 5 --limit 1.05 --json "$work/d.json" >"$work/out" 2>"$work/err" ||
      fail "exited $?"
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
        assert r["pair"] is None and r["criterion"] == "PASS", r
    else:
        assert abs(r["ratio"] - c["defaults_median_s"] / c["best_median_s"]) < 1e-12, r
        assert c["paired_min"] <= c["paired_median"] <= c["paired_max"], c
        # --confirm-repeat 3 is raised to 5, compare's fewest under --until-decided.
        assert c["command"][c["command"].index("--repeat") + 1] == "5", c["command"]
        assert c["command"][-3:] == ["--until-decided", "--budget", "5"], c["command"]
        p = r["pair"]
        assert p["ci_low"] <= p["ratio_median"] <= p["ci_high"], p
        assert r["criterion"] == {"ahead": "PASS", "level": "PASS", "behind": "FAIL"}.get(
            p["verdict"], "UNDECIDED"), r
    assert any(line.startswith(r["spec"] + " ") for line in out.splitlines()), (r, out)
assert out.splitlines()[-1].startswith("criteria: "), out
EOF
    ;;
  judge)
    # A stand-in weft-bench: it writes hand-made compare JSON whose figures fix each verdict.
    # The spec's number names the case: 1 ahead, 2 behind, 3 undecided, 4 level, 5 behind with
    # no weft/peer pair in compare's JSON (peer_check recomputes it), 9 the defaults are best.
    cat >"$work/fake.py" <<'EOF'
import json, sys
argv = sys.argv[1:]
opt = lambda name: argv[argv.index(name) + 1]
open(sys.argv[0] + ".calls", "a").write(" ".join(argv) + "\n")
specs = opt("--workloads").split(",")
confirm = len(specs) == 1
peers = opt("--peers") != "none"
n = 9
RATIOS = {1: [0.9] * n, 2: [1.2] * n, 3: [0.8, 1.25] * 4 + [1.0], 4: [1.0, 1.005, 0.995] * 3,
          5: [1.2] * n, 9: [1.0] * n}
def run(impl, label, times, steal=None, defaults=None):
    return {"impl": impl, "label": label, "mechanism": "concurrent" if impl == "weft" else None,
            "steal": steal, "schedule": None, "variant": None, "workers": 2,
            "defaults": defaults, "times_s": times, "median_s": sorted(times)[len(times) // 2]}
workloads = []
for spec in specs:
    case = int(spec.split(":")[1])
    ratios = RATIOS[case] if confirm else [0.8 if case == 9 else 1.1] * 3
    base = [1.0] * len(ratios)
    runs = [run("serial", "serial", [2.0] * len(ratios))]
    pairs = []
    if peers:
        runs += [run("weft", "weft concurrent/adaptive w=2", ratios, "adaptive", True),
                 run("tbb", "tbb w=2", base)]
        verdict = {1: "ahead", 2: "behind", 3: "undecided", 4: "level"}.get(case)
        if confirm and verdict:
            lo, hi = {"ahead": (0.8, 0.95), "behind": (1.1, 1.3), "undecided": (0.9, 1.2),
                      "level": (0.99, 1.01)}[verdict]
            pairs.append({"kind": "weft/peer", "name": "weft/tbb", "a": runs[1]["label"],
                          "b": "tbb w=2", "ratio_median": (lo + hi) / 2, "ci_low": lo,
                          "ci_high": hi, "confidence": 0.99, "verdict": verdict, "n": n,
                          "look": 1})
    else:
        runs += [run("weft", "weft concurrent/adaptive w=2", ratios, "adaptive", True),
                 run("weft", "weft concurrent/one w=2", base, "one", False)]
    workloads.append({"spec": spec, "runs": runs, "pairs": pairs})
json.dump({"command": "compare", "seed": 7, "host_unsteady": False, "workloads": workloads},
          open(opt("--json"), "w"))
EOF
    printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$python" "$work/fake.py" >"$work/bench"
    chmod +x "$work/bench"
    "$python" "$script" --bench "$work/bench" --workloads fib:1,fib:2,fib:3,fib:4,fib:9 \
      --confirm-budget 30 --json "$work/d.json" >"$work/out" 2>"$work/err" ||
      fail "defaults: exited $?: $(cat "$work/err")"
    peer_check="$(dirname "$script")/peer_check.py"
    "$python" "$peer_check" --bench "$work/bench" --peers tbb \
      --workloads fib:1,fib:2,fib:3,fib:4,fib:5 --confirm-budget 0 --json "$work/p.json" \
      >"$work/pout" 2>"$work/err" || fail "peers: exited $?: $(cat "$work/err")"
    "$python" - "$work/d.json" "$work/out" "$work/p.json" "$work/pout" "$work/fake.py.calls" \
      <<'EOF' || fail "wrong judging"
import json, sys
d = json.load(open(sys.argv[1]))
got = [(r["spec"], r["pair"] and r["pair"]["verdict"], r["criterion"]) for r in d["workloads"]]
assert got == [("fib:1", "ahead", "PASS"), ("fib:2", "behind", "FAIL"),
               ("fib:3", "undecided", "UNDECIDED"), ("fib:4", "level", "PASS"),
               ("fib:9", None, "PASS")], got
assert d["outcomes"] == {"PASS": 3, "FAIL": 1, "UNDECIDED": 1}, d["outcomes"]
out = open(sys.argv[2]).read().splitlines()
assert out[-1] == "criteria: 3 PASS, 1 FAIL, 1 UNDECIDED", out
assert any(l.startswith("fib:2 ") and l.endswith(" FAIL") for l in out), out
p = json.load(open(sys.argv[3]))
got = [(r["spec"], r["pair"]["verdict"], r["pair"]["source"], r["criterion"])
       for r in p["workloads"]]
assert got == [("fib:1", "ahead", "compare", "PASS"), ("fib:2", "behind", "compare", "FAIL"),
               ("fib:3", "undecided", "compare", "UNDECIDED"),
               ("fib:4", "level", "compare", "PASS"),
               ("fib:5", "behind", "recomputed", "FAIL")], got
assert open(sys.argv[4]).read().splitlines()[-1] == "criteria: 2 PASS, 2 FAIL, 1 UNDECIDED"
single = [c for c in open(sys.argv[5]).read().splitlines()
          if "," not in c.split("--workloads ")[1].split()[0]]
assert len(single) == 4 + 5, single  # the confirming runs: defaults_check's 4, peer_check's 5
assert all("--until-decided --budget 30 --json" in c for c in single[:4]), single
assert not any("--until-decided" in c for c in single[4:]), single
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
      --confirm-budget 5 --json "$work/p.json" >"$work/out" 2>"$work/err" ||
      fail "exited $?: $(cat "$work/err")"
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
    p = r["pair"]
    assert p["ci_low"] <= p["ratio_median"] <= p["ci_high"], p
    assert r["criterion"] == {"ahead": "PASS", "level": "PASS", "behind": "FAIL"}.get(
        p["verdict"], "UNDECIDED"), r
    assert "--until-decided" in r["confirm_command"], r
EOF
    "$python" "$peer_check" --bench "$bench" --peers gomp/outer,gomp/taskloop \
      --workloads matmul-loops:30:kij --steal adaptive --schedule static --sweep-repeat 2 \
      --confirm-repeat 3 --confirm-budget 0 --json "$work/v.json" >"$work/out" 2>"$work/err" ||
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
