#!/usr/bin/env bash
# scripts/df_space_model.py, df's and dfd's rules on the synthetic tree in lock step:
#   - with every worker taking one action each step, 2 workers hold the depth-6 tree at S1
#     exactly (7 blocks) under the quota's dummies (K = 4 KiB), and 4 workers, or 2 with
#     K = 64 KiB (no dummies), stay within S1 + 4*p*D*K; one worker's peak, S1, is the serial
#     elision's (depth + 1 blocks) in each;
#   - dfd holds it at S1 too, and within the bound with 4 workers or K = 64 KiB; without its
#     quota rule (a worker whose dummy ended gives up its deque) the first steal splits the
#     tree, and the peak is two root-to-leaf paths, 7 + 6 blocks;
#   - a worker that stalls holding its thread lets the others run ahead of the depth-first
#     order: the peak is above S1 and below the whole tree;
#   - the same seed gives the same run;
#   - bad arguments exit 2 with a message.
# Usage: tests/scripts/df_space_model_test.sh PYTHON SCRIPT
set -euo pipefail
python="$1" script="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "df_space_model_test: $*" >&2; exit 1; }
field() { "$python" -c "import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$@"; }

"$python" "$script" --depth 6 --json > "$work/m.json" || fail "exit $?"
[[ "$(field "$work/m.json" s1_kib)" == 448 ]] || fail "S1 is not 7 blocks of 64 KiB"
[[ "$(field "$work/m.json" peak_kib)" == 448 ]] ||
  fail "peak $(field "$work/m.json" peak_kib) KiB, not S1, in lock step"
for args in "--workers 4" "--quota-kib 64"; do
  # shellcheck disable=SC2086
  "$python" "$script" --depth 6 $args --json > "$work/m2.json" || fail "$args: exit $?"
  peak="$(field "$work/m2.json" peak_kib)" bound="$(field "$work/m2.json" bound_kib)"
  [[ "$(field "$work/m2.json" s1_kib)" == 448 ]] || fail "$args: S1 is not 7 blocks of 64 KiB"
  ((peak >= 448 && peak <= bound)) || fail "$args: peak $peak KiB, bound $bound KiB"
done
[[ "$(field "$work/m2.json" fork_depth)" == 7 ]] || fail "K = 64 KiB: D is not 1 + depth"

for args in "" "--workers 4" "--quota-kib 64"; do
  # shellcheck disable=SC2086
  "$python" "$script" --sched dfd --depth 6 $args --json > "$work/d.json" || fail "dfd $args: exit $?"
  peak="$(field "$work/d.json" peak_kib)" bound="$(field "$work/d.json" bound_kib)"
  [[ "$(field "$work/d.json" sched)" == dfd ]] || fail "dfd $args: not reported as dfd"
  if [[ -z "$args" ]]; then
    ((peak == 448)) || fail "dfd: peak $peak KiB, not S1, in lock step"
  else
    ((peak >= 448 && peak <= bound)) || fail "dfd $args: peak $peak KiB, bound $bound KiB"
  fi
done
"$python" "$script" --sched dfd --dummy-keeps-deque --depth 6 --json > "$work/k.json" ||
  fail "--dummy-keeps-deque: exit $?"
[[ "$(field "$work/k.json" peak_kib)" == 832 ]] ||
  fail "--dummy-keeps-deque: peak $(field "$work/k.json" peak_kib) KiB, not two paths (13 blocks)"

stall=(--depth 6 --stall-every 500 --stall-steps 300 --seed 2 --json)
"$python" "$script" "${stall[@]}" > "$work/s.json" || fail "stalls: exit $?"
peak="$(field "$work/s.json" peak_kib)"
((peak > 448 && peak < 127 * 64)) || fail "stalls: peak $peak KiB, not above S1 and below the tree"
[[ "$(field "$work/s.json" fork_depth)" == 12 ]] || fail "K = 4 KiB: D is not 1 + 6 + 5"
"$python" "$script" "${stall[@]}" > "$work/s2.json" || fail "stalls again: exit $?"
cmp -s "$work/s.json" "$work/s2.json" || fail "the same seed gave another run"

for bad in "--workers 0" "--depth -1" "--depth 17" "--stall-every 10" "--block-kib x" \
  "--sched fifo" "--dummy-keeps-deque"; do
  status=0
  # shellcheck disable=SC2086
  "$python" "$script" $bad > /dev/null 2> "$work/err" || status=$?
  [[ $status -eq 2 ]] || fail "'$bad': exit $status, not 2"
  grep -q "error:" "$work/err" || fail "'$bad': no message"
done
echo "df_space_model_test: ok"
