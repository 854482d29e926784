#!/usr/bin/env bash
# weft against Lace, the fastest library work stealer we know, on fib:
#   1. fib(37) on 1 worker and fib(39) on 1 and 2 workers: serial, Lace, and weft's spawn/join,
#      spawn/join in a noexcept function, weft::invoke and weft::invoke with the explicit
#      context (ctx, weft/context.hpp), in randomized blocks in one
#      process (each repetition runs every form once, in an order shuffled from the seed);
#      medians, and each form's time over Lace's and over serial's as paired ratios with 95 %
#      bootstrap intervals and verdicts; the host's steadiness (HOST UNSTEADY when busy);
#   2. instructions per spawn+join with valgrind --tool=callgrind, 1 worker, for each form,
#      (fib(30) - fib(25)) minus the serial recursion's, over the extra spawns;
#   3. the criteria below, each printed PASS, FAIL or SKIP by the code at the end of this
#      script from the JSON verdicts of step 1 and the counts of step 2:
#        C1  invoke's instructions per spawn+join <= Lace's (callgrind: deterministic);
#        C2  invoke's time on 1 worker (fib(37)) is not behind Lace's: the verdict of
#            invoke/lace is ahead or level (undecided fails: the interval must show it);
#        C3  the same on 2 workers (fib(39));
#        C4  invoke's fib(39) scales from 1 to 2 workers at least as well as Lace's: its
#            2-worker/1-worker time over Lace's (scripts/lace_scaling.py) is not behind;
#        C5, C6, C7  C2, C3 and C4 for ctx.
#      SKIP where the data was not taken (--callgrind-only, or no valgrind). The exit status
#      does not depend on the criteria (0 when everything ran).
#
# Usage: scripts/bench_lace.sh LACE_DIR [--repeat R] [--seed S] [--callgrind-only]
#   LACE_DIR   a checkout of Lace (github.com/trolando/lace, v1.4.2 measured) that you supply;
#              it is built out of source in build-lace/ with Lace's own CMake flags
#   --repeat   repetitions per table (default 7; verdicts need at least 5)
#   --seed     the seed of both tables' orders and intervals (default: drawn by the program,
#              printed, and recorded in the JSON)
#   --callgrind-only   skip the timed tables
# Every run is verified against fib(n) by iteration (build-lace/weft-lace-fib). JSON goes to
# build-lace/*.json (WEFT_LACE_BUILD names another build directory).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
die() { printf 'bench_lace.sh: error: %s\n' "$*" >&2; exit 1; }
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"; }

lace_dir=""
repeat=7
seed=()
timing=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --repeat) repeat="${2:?--repeat needs a number}"; shift 2 ;;
    --seed) [[ "${2:-}" =~ ^[0-9]+$ ]] || die "--seed needs an unsigned number"
      seed=(--seed "$2"); shift 2 ;;
    --callgrind-only) timing=0; shift ;;
    -*) usage >&2; die "unknown option '$1'" ;;
    *) [[ -z "$lace_dir" ]] || die "one LACE_DIR only"; lace_dir="$1"; shift ;;
  esac
done
[[ -n "$lace_dir" ]] || { usage >&2; die "LACE_DIR is required"; }
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || die "--repeat '$repeat': expected a positive whole number"
lace_dir="$(cd "$lace_dir" 2>/dev/null && pwd)" || die "LACE_DIR '$lace_dir' is not a directory"
[[ -f "$lace_dir/src/lace.h" && -f "$lace_dir/CMakeLists.txt" ]] ||
  die "'$lace_dir' does not look like a Lace checkout (no src/lace.h or CMakeLists.txt)"

build="${WEFT_LACE_BUILD:-$ROOT/build-lace}"
echo "==> building weft-lace-fib against $lace_dir in $build"
cmake -S "$ROOT" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWEFT_BUILD_TESTS=OFF \
  -DWEFT_BUILD_EXAMPLES=OFF -DWEFT_LACE_DIR="$lace_dir" >/dev/null
cmake --build "$build" --target weft-lace-fib >/dev/null
bin="$build/tools/bench/lace/weft-lace-fib"

# This run's figures only: an older table's JSON must not be judged.
rm -f "$build/fib37-w1.json" "$build/fib39-w1.json" "$build/fib39-w2.json" \
  "$build/fib39-scaling-invoke.json" "$build/fib39-scaling-ctx.json"
if ((timing)); then
  echo
  echo "== fib(37), 1 worker"
  "$bin" --n 37 --workers 1 --repeat "$repeat" "${seed[@]}" --json "$build/fib37-w1.json"
  echo
  echo "== fib(39), 1 worker"
  "$bin" --n 39 --workers 1 --repeat "$repeat" "${seed[@]}" --json "$build/fib39-w1.json"
  echo
  echo "== fib(39), 2 workers"
  "$bin" --n 39 --workers 2 --repeat "$repeat" "${seed[@]}" --json "$build/fib39-w2.json"
  echo
  echo "== fib(39), 1 to 2 workers: invoke's and ctx's scaling against Lace's"
  for form in invoke ctx; do
    python3 "$ROOT/scripts/lace_scaling.py" "$build/fib39-w1.json" "$build/fib39-w2.json" \
      --form "$form" --json "$build/fib39-scaling-$form.json"
  done
fi

declare -A per_spawn=()  # form -> instructions per spawn+join (unrounded)
if command -v valgrind >/dev/null 2>&1; then
  echo
  # Where valgrind lacks membarrier, weft's concurrent mechanism would run in its fence mode
  # there (joins settled out of line); the request mechanism runs the owner code that the
  # concurrent one runs natively, wherever valgrind runs.
  # valgrind decodes no AVX-512, which Lace's -march=native may use: a second build without.
  cmake -S "$ROOT" -B "$build/callgrind" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DWEFT_BUILD_TESTS=OFF -DWEFT_BUILD_EXAMPLES=OFF -DWEFT_LACE_DIR="$lace_dir" \
    -DWEFT_LACE_NO_AVX512=ON >/dev/null
  cmake --build "$build/callgrind" --target weft-lace-fib >/dev/null
  bin="$build/callgrind/tools/bench/lace/weft-lace-fib"
  echo "== callgrind: instructions per spawn+join, 1 worker (fib(30) minus fib(25)), WEFT_MECHANISM=request"
  # Only the instructions inside each run's outermost call are counted: the runtimes'
  # idle threads spin for a varying count meanwhile.
  instr() {  # instructions of one run: FORM N
    WEFT_MECHANISM=request valgrind --tool=callgrind --callgrind-out-file=/dev/null \
      --collect-atstart=no --toggle-collect='*fib_root(*' --toggle-collect=lace_fib_WRAP "$bin" \
      --only "$1" --n "$2" --workers 1 --repeat 1 2>&1 >/dev/null |
      awk '/refs:/ { gsub(",", "", $4); print $4 }'
  }
  spawns=$(( (1346269 - 1) - (121393 - 1) ))  # (fib(31) - 1) - (fib(26) - 1): extra spawns
  s25=$(instr serial 25); s30=$(instr serial 30)
  printf '%-9s %14s %18s\n' form "instr/spawn" "over serial calls"
  for form in serial lace spawn noexcept invoke ctx; do
    i25=$(instr "$form" 25); i30=$(instr "$form" 30)
    awk -v f="$form" -v a="$i25" -v b="$i30" -v s25="$s25" -v s30="$s30" -v n="$spawns" 'BEGIN {
      printf "%-9s %14.2f %18.2f\n", f, (b - a) / n, ((b - a) - (s30 - s25)) / n }'
    per_spawn[$form]=$(awk -v a="$i25" -v b="$i30" -v n="$spawns" \
      'BEGIN { printf "%.6f", (b - a) / n }')
  done
fi

# The criteria of the comment block at the top, applied to the figures above.
# The verdict of FORM over lace in a table's JSON, or nothing when the file is absent.
verdict_vs_lace() {  # FILE FORM
  [[ -f "$1" ]] || return 0
  python3 - "$1" "$2" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
print(next(f["vs_lace"]["verdict"] for f in doc["forms"] if f["form"] == sys.argv[2]))
PY
}
echo
echo "== criteria"
if [[ -n "${per_spawn[invoke]:-}" && -n "${per_spawn[lace]:-}" ]]; then
  if awk -v a="${per_spawn[invoke]}" -v b="${per_spawn[lace]}" 'BEGIN { exit !(a <= b) }'; then
    result=PASS
  else
    result=FAIL
  fi
  printf '%s  C1 invoke instr/spawn %.2f <= Lace %.2f\n' "$result" "${per_spawn[invoke]}" \
    "${per_spawn[lace]}"
else
  echo "SKIP  C1 invoke instr/spawn <= Lace (no callgrind counts)"
fi
for criterion in "C2 invoke fib37-w1 1 worker" "C3 invoke fib39-w2 2 workers" \
  "C5 ctx fib37-w1 1 worker" "C6 ctx fib39-w2 2 workers"; do
  read -r name form file label <<<"$criterion"
  verdict="$(verdict_vs_lace "$build/$file.json" "$form")"
  case "$verdict" in
    "") echo "SKIP  $name $form not behind Lace on $label (no timed table)" ;;
    ahead | level) echo "PASS  $name $form not behind Lace on $label ($form/lace: $verdict)" ;;
    *) echo "FAIL  $name $form not behind Lace on $label ($form/lace: $verdict)" ;;
  esac
done
for criterion in "C4 invoke" "C7 ctx"; do
  read -r name form <<<"$criterion"
  file="$build/fib39-scaling-$form.json"
  if [[ ! -f "$file" ]]; then
    echo "SKIP  $name $form scales from 1 to 2 workers not behind Lace (no timed tables)"
    continue
  fi
  verdict="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["scaling_vs_lace"]["verdict"])' \
    "$file")"
  case "$verdict" in
    ahead | level) result=PASS ;;
    *) result=FAIL ;;
  esac
  echo "$result  $name $form scales from 1 to 2 workers (fib(39)) not behind Lace ($verdict)"
done
