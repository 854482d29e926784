#!/usr/bin/env bash
# The core runtime's benchmarks, from the Release build in build/:
#   1. fib(37) on 1 worker against the plain serial recursion (ratio, ns per spawn);
#   2. fib(39) on 1 and 2 workers, policies one and half (speedup);
#   3. fib(40) with fixed:2 and fixed:20 on 1 and 2 workers (completes, verified);
#   4. instructions per operation with valgrind --tool=callgrind (deterministic):
#      build/tools/bench/instructions/weft-instructions, per spawn+join of each fork-join form and
#      of the C interface, per loop chunk and per thread yield (its source says how it counts).
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
  # weft-instructions runs each form under callgrind at two sizes and divides the difference,
  # so start-up cancels; spawn+join under the request mechanism, and once under the concurrent
  # one, which counts the same where valgrind passes membarrier through (it says whether).
  instructions=build/tools/bench/instructions/weft-instructions
  [[ -x "$instructions" ]] || { echo "bench_core.sh: $instructions is not built" >&2; exit 1; }
  echo "== callgrind: instructions per operation, 1 worker"
  "$instructions" --json "$out/instructions.json"
fi
