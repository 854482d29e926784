#!/usr/bin/env bash
# scripts/corun.py with stand-in commands (no timing is judged):
#   - a command that reports the same time alone and beside its copies: ratio 1, level, and
#     --json records every block's runs;
#   - a run that is not verified, prints no time, or fails stops the script with exit 1;
#   - bad arguments exit 2 with a message.
# Usage: tests/scripts/corun_test.sh PYTHON SCRIPT
set -euo pipefail
python="$1" script="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "corun_test: $*" >&2; exit 1; }

# stand_in LINE: a command that prints LINE (and exits 0).
stand_in() { printf '%s\n' "#!/usr/bin/env bash" "echo '$1'" > "$work/cmd"; chmod +x "$work/cmd"; }

stand_in '{"seconds":0.25,"verified":true}'
"$python" "$script" --repeat 5 --copies 3 --seed 7 --json "$work/out.json" -- "$work/cmd" \
  > "$work/out" || fail "steady command: exit $?"
grep -q "^alone: median 0.2500 s; 3 together: median 0.2500 s a copy$" "$work/out" ||
  fail "steady command: $(cat "$work/out")"
grep -q "over its time alone: 1.000 \[1.000, 1.000\] level (n=5, 95 %)$" "$work/out" ||
  fail "steady command: $(cat "$work/out")"
"$python" - "$work/out.json" <<'PY' || fail "--json: $(cat "$work/out.json")"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["seed"] == 7 and doc["copies"] == 3, doc
assert len(doc["alone_s"]) == 5 and all(len(b) == 3 for b in doc["together_s"]), doc
assert doc["together_over_alone"]["verdict"] == "level", doc
PY

expect_failure() {  # WHAT STATUS PATTERN ARGS...
  local what="$1" status="$2" pattern="$3" got=0
  shift 3
  "$python" "$script" "$@" > "$work/out" 2> "$work/err" || got=$?
  [[ "$got" == "$status" ]] || fail "$what: exit $got, expected $status"
  grep -q -e "$pattern" "$work/err" || fail "$what: $(cat "$work/err")"
}
stand_in '{"seconds":0.25,"verified":false}'
expect_failure "unverified" 1 "was not verified" --repeat 2 -- "$work/cmd"
stand_in 'no json here'
expect_failure "no time" 1 'no JSON line with "seconds"' --repeat 2 -- "$work/cmd"
expect_failure "failing command" 1 "exit 3" --repeat 2 -- bash -c 'exit 3'
expect_failure "no command" 2 "expected -- COMMAND" --repeat 2
expect_failure "bad repeat" 2 "expected a whole number" --repeat x -- "$work/cmd"
expect_failure "one copy" 2 "--copies at least 2" --copies 1 -- "$work/cmd"
expect_failure "unknown option" 2 "bad option '--fast'" --fast 1 -- "$work/cmd"
echo "corun_test: ok"
