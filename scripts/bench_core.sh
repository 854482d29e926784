#!/usr/bin/env bash
# The core runtime's benchmarks, from the Release build in build/:
#   1. fib(37) on 1 worker against the plain serial recursion (ratio, ns per spawn);
#   2. fib(39) on 1 and 2 workers, policies one and half (speedup);
#   3. fib(40) with fixed:2 and fixed:20 on 1 and 2 workers (completes, verified);
#   4. instructions per spawn+join with valgrind --tool=callgrind (deterministic), under
#      both steal mechanisms (WEFT_MECHANISM=concurrent and request).
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
  # fib(35) minus fib(30) cancels the start-up. Where valgrind lacks membarrier, the concurrent
  # mechanism runs in its fence mode there (its joins settle out of line, ~20 instructions
  # more than natively); where it passes membarrier through, the two counts agree.
  echo "== callgrind: instructions per spawn+join, 1 worker (fib(35) minus fib(30)), both mechanisms"
  instr() {  # total instructions of one run: MECHANISM SIDE N
    WEFT_MECHANISM="$1" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$demo" \
      --only "$2" --n "$3" --workers 1 --steal one --repeat 1 2>&1 >/dev/null |
      awk '/refs:/ { gsub(",", "", $4); print $4 }'
  }
  s30=$(instr concurrent serial 30); s35=$(instr concurrent serial 35)
  spawns=$(( (14930352 - 1) - (1346269 - 1) ))  # (fib(36) - 1) - (fib(31) - 1): extra spawns
  for mech in concurrent request; do
    w30=$(instr "$mech" weft 30); w35=$(instr "$mech" weft 35)
    awk -v m="$mech" -v w30="$w30" -v w35="$w35" -v s30="$s30" -v s35="$s35" -v n="$spawns" 'BEGIN {
      printf "%-10s weft: %.2f instructions per spawn (its two calls included); serial: %.2f per two calls; overhead of spawn+join: %.2f\n", m, (w35 - w30) / n, (s35 - s30) / n, ((w35 - w30) - (s35 - s30)) / n }'
  done
fi
