#!/usr/bin/env bash
# scripts/verdict_table.py on hand-made compare documents:
#   - one sitting: a row per pair with its interval and verdict, the sitting's line, exit 0;
#   - two sittings that agree or differ without a flip: exit 0, "agree" / "compatible";
#   - a pair ahead in one sitting and behind in another: "FLIP", exit 1;
#   - a document from before the intervals gets its pairs recomputed from its raw times;
#   - --kind keeps only the kinds named; bad input and arguments exit 2 with a message.
# Usage: tests/scripts/verdict_table_test.sh PYTHON SCRIPT
set -euo pipefail
python="$1" script="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "verdict_table_test: $*" >&2; exit 1; }

# sitting NAME VERDICT_OF_WEFT_GOMP: a compare document with two pairs on fib:30.
sitting() {
  cat > "$work/$1.json" <<JSON
{"command":"compare","repeat":10,"date":"2026-12-07T12:00:00Z","commit":"abc","seed":5,
 "until_decided":false,"looks":0,"elapsed_s":12,"host_unsteady":false,
 "host":{"calibration_cv":0.01,"steal_share":0.001},
 "workloads":[{"spec":"fib:30","repetitions":10,"pairs":[
  {"kind":"weft/serial","name":"weft/serial","a":"weft w=2","b":"serial","workers":2,
   "ratio_median":0.55,"ci_low":0.54,"ci_high":0.56,"confidence":0.95,"verdict":"ahead","n":10,"look":0},
  {"kind":"weft/peer","name":"weft/gomp","a":"weft w=2","b":"gomp w=2","workers":2,
   "ratio_median":$3,"ci_low":$4,"ci_high":$5,"confidence":$6,"verdict":"$2","n":10,"look":1}]}]}
JSON
}
sitting one ahead 0.9 0.85 0.95 0.95
sitting two ahead 0.91 0.86 0.96 0.975
sitting three level 0.99 0.98 1.01 0.95
sitting four behind 1.1 1.05 1.15 0.95

"$python" "$script" "$work/one.json" > "$work/out" || fail "one sitting: exit $?"
grep -q '^| fib:30 | weft/gomp | weft w=2 | gomp w=2 | 10 | 0.900 \[0.850, 0.950\] | ahead |$' \
  "$work/out" || fail "one sitting: no row for weft/gomp: $(cat "$work/out")"
grep -q 'seed 5, --repeat 10' "$work/out" || fail "one sitting: no sitting line"
grep -q '  verdicts: 2 ahead, 0 level, 0 behind, 0 undecided' "$work/out" || fail "one: counts"

"$python" "$script" "$work/one.json" "$work/two.json" > "$work/out" || fail "agree: exit $?"
grep -q '0.910 \[0.860, 0.960\] @97.50% ahead n=10 | agree |$' "$work/out" ||
  fail "agree: $(cat "$work/out")"
"$python" "$script" "$work/one.json" "$work/three.json" > "$work/out" || fail "compatible: exit $?"
grep -q '| compatible |$' "$work/out" || fail "compatible: $(cat "$work/out")"
grep -q '^flips (ahead in one sitting, behind in another): 0$' "$work/out" || fail "no flip line"

set +e
"$python" "$script" "$work/one.json" "$work/three.json" "$work/four.json" > "$work/out"
status=$?
set -e
[[ $status -eq 1 ]] || fail "a flip exits $status, not 1"
grep -q '| FLIP |$' "$work/out" || fail "flip: $(cat "$work/out")"
grep -q '^flips (ahead in one sitting, behind in another): 1$' "$work/out" || fail "flip count"

"$python" "$script" --kind weft/peer "$work/one.json" > "$work/out" || fail "--kind: exit $?"
! grep -q 'weft/serial' "$work/out" || fail "--kind weft/peer kept weft/serial"

expect_2() {  # expect_2 PATTERN ARGS...: exit 2 with PATTERN on stderr
  local pattern="$1" status
  shift
  set +e
  "$python" "$script" "$@" > /dev/null 2> "$work/err"
  status=$?
  set -e
  [[ $status -eq 2 ]] || fail "$*: exit $status, not 2"
  grep -q -- "$pattern" "$work/err" || fail "$*: message $(cat "$work/err")"
}
echo '{"command":"uts"}' > "$work/uts.json"
expect_2 'not the output of weft-bench compare' "$work/uts.json"
expect_2 'No such file' "$work/missing.json"
expect_2 'no SITTING.json given' --kind weft/peer
expect_2 'unknown kind bogus' --kind bogus "$work/one.json"
echo '{"command":"compare","workloads":[{"spec":"fib:30"}]}' > "$work/bare.json"
expect_2 'has neither "pairs" nor "runs"' "$work/bare.json"

# A document from before the intervals: its pairs recomputed from the raw times, the peer
# paired with the series marked "defaults" (not the faster first one).
cat > "$work/old.json" <<'JSON'
{"command":"compare","repeat":5,"workloads":[{"spec":"fib:30","runs":[
 {"impl":"serial","label":"serial","workers":1,"times_s":[1,1,1,1,1]},
 {"impl":"weft","label":"weft one w=2","workers":2,"defaults":false,"times_s":[0.1,0.1,0.1,0.1,0.1]},
 {"impl":"weft","label":"weft adaptive w=2","workers":2,"defaults":true,"times_s":[0.5,0.6,0.5,0.6,0.55]},
 {"impl":"tbb","label":"tbb w=2","workers":2,"times_s":[0.5,0.5,0.5,0.5,0.5]}]}]}
JSON
"$python" "$script" "$work/old.json" > "$work/out" || fail "recomputed: exit $?"
grep -q '^| fib:30 | weft/tbb (recomputed) | weft adaptive w=2 | tbb w=2 | 5 | 1.100 \[1.000, 1.200\] | undecided |$' \
  "$work/out" || fail "recomputed: $(cat "$work/out")"
grep -q '^| fib:30 | weft/serial (recomputed) | weft one w=2 | serial | 5 | 0.100 \[0.100, 0.100\] | ahead |$' \
  "$work/out" || fail "recomputed serial: $(cat "$work/out")"
echo "verdict_table_test: all passed"
