#!/usr/bin/env bash
# weft-uts-dist at 2 ranks against weft at 2 workers and the sequential traversal, alternated
# in one run (docs/DISTRIBUTED.md): each repetition runs, in turn, weft-bench's seq and weft
# (concurrent and request, one and half) and weft-uts-dist under one and half. Every run is
# checked by its program. Then scripts/dist_table.py writes OUT/bench_dist.md and .json: the
# medians, T_dist / T_weft (each side's best configuration) and E = T_seq / (2 T_dist).
#
# Usage: scripts/bench_dist.sh [--trees T1L,T3L] [--repeat 5] [--chunk 8] [--poll 0]
#                              [--out docs/results/dist]
# Needs the Release build with the MPI programs (scripts/setup.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

trees=T1L,T3L
repeat=5
chunk=8
poll=0
out=docs/results/dist
while [[ $# -gt 0 ]]; do
  case "$1" in
    --trees) trees="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --chunk) chunk="$2"; shift 2 ;;
    --poll) poll="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "bench_dist.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || { echo "bench_dist.sh: --repeat needs a count" >&2; exit 2; }
bench=build/bench/cli/weft-bench
dist=build/dist/weft-uts-dist
[[ -x "$bench" && -x "$dist" ]] || { echo "bench_dist.sh: build first (scripts/setup.sh)" >&2; exit 1; }
mkdir -p "$out/raw"

IFS=',' read -r -a list <<< "$trees"
for tree in "${list[@]}"; do
  for ((r = 1; r <= repeat; r++)); do
    echo "== $tree, repetition $r of $repeat ($(date +%T))"
    "$bench" uts --tree "$tree" --impl seq,weft --workers 2 --steal one,half \
      --mechanism concurrent,request --repeat 1 --json "$out/raw/${tree}_weft_$r.json" >/dev/null
    for steal in one half; do
      scripts/mpirun.sh 2 "$dist" --tree "$tree" --steal "$steal" --chunk "$chunk" --poll "$poll" \
        --repeat 1 --json "$out/raw/${tree}_dist_${steal}_$r.json" >/dev/null
    done
  done
done
python3 scripts/dist_table.py "$out" "$repeat" "${list[@]}"
echo "== $out/bench_dist.md"
