#!/usr/bin/env bash
# weft against Lace, the fastest library work stealer we know, on fib:
#   1. fib(37) on 1 worker and fib(39) on 2 workers: serial, Lace, and weft's spawn/join,
#      spawn/join in a noexcept function, and weft::invoke, alternated in one process
#      (medians; each form against serial and against Lace);
#   2. instructions per spawn+join with valgrind --tool=callgrind, 1 worker, for each form,
#      (fib(30) - fib(25)) minus the serial recursion's, over the extra spawns.
#
# Usage: scripts/bench_lace.sh LACE_DIR [--repeat R]
#   LACE_DIR   a checkout of Lace (github.com/trolando/lace, v1.4.2 measured) that you supply;
#              it is built out of source in build-lace/ with Lace's own CMake flags
#   --repeat   alternated repetitions per table (default 7)
#   --callgrind-only   skip the timed tables
# Every run is verified against fib(n) by iteration (build-lace/weft-lace-fib). JSON goes to
# build-lace/*.json.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
die() { printf 'bench_lace.sh: error: %s\n' "$*" >&2; exit 1; }
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"; }

lace_dir=""
repeat=7
timing=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --repeat) repeat="${2:?--repeat needs a number}"; shift 2 ;;
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

build="$ROOT/build-lace"
echo "==> building weft-lace-fib against $lace_dir in $build"
cmake -S "$ROOT" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWEFT_BUILD_TESTS=OFF \
  -DWEFT_BUILD_EXAMPLES=OFF -DWEFT_LACE_DIR="$lace_dir" >/dev/null
cmake --build "$build" --target weft-lace-fib >/dev/null
bin="$build/bench/lace/weft-lace-fib"

if ((timing)); then
  echo
  echo "== fib(37), 1 worker"
  "$bin" --n 37 --workers 1 --repeat "$repeat" --json "$build/fib37-w1.json"
  echo
  echo "== fib(39), 2 workers"
  "$bin" --n 39 --workers 2 --repeat "$repeat" --json "$build/fib39-w2.json"
fi

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
  bin="$build/callgrind/bench/lace/weft-lace-fib"
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
  for form in serial lace spawn noexcept invoke; do
    i25=$(instr "$form" 25); i30=$(instr "$form" 30)
    awk -v f="$form" -v a="$i25" -v b="$i30" -v s25="$s25" -v s30="$s30" -v n="$spawns" 'BEGIN {
      printf "%-9s %14.2f %18.2f\n", f, (b - a) / n, ((b - a) - (s30 - s25)) / n }'
  done
fi
