#!/usr/bin/env bash
# The core runtime's acceptance benchmarks (issue 2), from the Release build in build/:
#   1. fib(37) on 1 worker against the plain serial recursion (ratio, ns per spawn);
#   2. fib(39) on 1 and 2 workers, policies one and half (speedup);
#   3. fib(40) with fixed:2 and fixed:20 on 1 and 2 workers (completes, verified);
#   4. instructions per spawn+join with valgrind --tool=callgrind (deterministic).
# Every run is verified against fib(n) computed by iteration (weft-fib-demo). JSON goes to
# build/bench-core/*.json. Usage: scripts/bench_core.sh [--repeat R]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
repeat=15
if [[ "${1:-}" == "--repeat" ]]; then repeat="${2:?--repeat needs a number}"; fi
demo=build/examples/weft-fib-demo
[[ -x "$demo" ]] || { echo "bench_core.sh: build first (scripts/setup.sh)" >&2; exit 1; }
out=build/bench-core
mkdir -p "$out"

echo "== fib(37), 1 worker, against the plain serial recursion"
"$demo" --n 37 --workers 1 --steal one --repeat "$repeat" --json "$out/fib37.json"
echo
echo "== fib(39), 1 and 2 workers, one and half"
"$demo" --n 39 --workers 1,2 --steal one,half --repeat "$repeat" --json "$out/fib39.json"
echo
echo "== fib(40), fixed:2 and fixed:20"
"$demo" --n 40 --workers 1,2 --steal fixed:2,fixed:20 --repeat 3 --json "$out/fib40.json"
echo

if command -v valgrind >/dev/null 2>&1; then
  echo "== callgrind: instructions per spawn+join, 1 worker (fib(25) minus fib(20))"
  instr() {  # total instructions of one run of weft-fib-demo --only SIDE --n N
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$demo" --only "$1" --n "$2" \
      --workers 1 --steal one --repeat 1 2>&1 >/dev/null | awk '/refs:/ { gsub(",", "", $4); print $4 }'
  }
  w20=$(instr weft 20); w25=$(instr weft 25); s20=$(instr serial 20); s25=$(instr serial 25)
  spawns=$(( (121393 - 1) - (10946 - 1) ))  # (fib(26) - 1) - (fib(21) - 1): extra spawns
  awk -v w20="$w20" -v w25="$w25" -v s20="$s20" -v s25="$s25" -v n="$spawns" 'BEGIN {
    printf "weft: %.1f instructions per spawn (its two calls included); serial: %.1f per two calls;\n", (w25 - w20) / n, (s25 - s20) / n
    printf "overhead of spawn+join: %.1f instructions\n", ((w25 - w20) - (s25 - s20)) / n }'
fi
