#!/usr/bin/env bash
# scripts/lace_scaling.py on hand-made weft-lace-fib tables:
#   - a form whose 2-worker/1-worker time equals Lace's in every block: ratio 1, level;
#   - a form that gains less from the second worker than Lace: behind; more: ahead;
#   - --json writes the claim; a table at the wrong worker count, one without per-repetition
#     times, different n and a missing form exit 2 with a message.
# Usage: tests/scripts/lace_scaling_test.sh PYTHON SCRIPT
set -euo pipefail
python="$1" script="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "lace_scaling_test: $*" >&2; exit 1; }

# table FILE WORKERS N LACE_TIMES INVOKE_TIMES: a weft-lace-fib document with two forms.
table() {
  cat > "$1" <<JSON
{"benchmark":"fib-lace","n":$3,"workers":$2,"repeat":6,
 "forms":[{"form":"lace","times_s":[$4],"median_s":1},{"form":"invoke","times_s":[$5],"median_s":1}]}
JSON
}
lace1="1.00,1.02,0.98,1.01,0.99,1.00"
lace2="0.50,0.51,0.49,0.505,0.495,0.50"
table "$work/w1.json" 1 39 "$lace1" "1.10,1.122,1.078,1.111,1.089,1.10"
table "$work/same.json" 2 39 "$lace2" "0.55,0.561,0.539,0.5555,0.5445,0.55"
table "$work/worse.json" 2 39 "$lace2" "0.66,0.673,0.647,0.667,0.653,0.66"
table "$work/better.json" 2 39 "$lace2" "0.44,0.449,0.431,0.444,0.436,0.44"

"$python" "$script" "$work/w1.json" "$work/same.json" --json "$work/claim.json" > "$work/out" ||
  fail "same scaling: exit $?"
grep -q "^invoke's 2-worker/1-worker time over Lace's: 1.000 \[1.000, 1.000\] level (n=6" \
  "$work/out" || fail "same scaling: $(cat "$work/out")"
grep -q '^lace      fib(39) 1 worker 1.0000 s, 2 workers 0.5000 s, speedup 2.000$' "$work/out" ||
  fail "same scaling: no Lace line: $(cat "$work/out")"
"$python" -c 'import json,sys; c=json.load(open(sys.argv[1]))["scaling_vs_lace"]; sys.exit(c["verdict"] != "level")' \
  "$work/claim.json" || fail "--json: $(cat "$work/claim.json")"

"$python" "$script" "$work/w1.json" "$work/worse.json" > "$work/out" || fail "worse: exit $?"
grep -q "over Lace.s: 1.200 \[[0-9.]*, [0-9.]*\] behind" "$work/out" || fail "worse: $(cat "$work/out")"
"$python" "$script" "$work/w1.json" "$work/better.json" > "$work/out" || fail "better: exit $?"
grep -q "over Lace.s: 0.800 \[[0-9.]*, [0-9.]*\] ahead" "$work/out" || fail "better: $(cat "$work/out")"

expect_error() {  # WHAT PATTERN ARGS...
  local what="$1" pattern="$2"
  shift 2
  if "$python" "$script" "$@" > "$work/out" 2> "$work/err"; then fail "$what: exit 0"; fi
  grep -q "$pattern" "$work/err" || fail "$what: $(cat "$work/err")"
}
expect_error "wrong workers" "ran at 2 workers, expected 1" "$work/same.json" "$work/same.json"
table "$work/n37.json" 2 37 "$lace2" "$lace2"
expect_error "different n" "different n" "$work/w1.json" "$work/n37.json"
echo '{"benchmark":"fib-lace","n":39,"workers":2,"forms":[{"form":"lace","median_s":1}]}' \
  > "$work/old.json"
expect_error "no times" "no per-repetition times" "$work/w1.json" "$work/old.json"
expect_error "missing form" "no form 'spawn'" "$work/w1.json" "$work/same.json" --form spawn
expect_error "one file" "expected ONE_WORKER.json" "$work/w1.json"
echo "lace_scaling_test: ok"
