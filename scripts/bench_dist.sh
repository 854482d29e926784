#!/usr/bin/env bash
# weft-uts-dist at 2 ranks against weft at 2 workers and the sequential traversal, alternated
# in one run (docs/DISTRIBUTED.md): each repetition runs, in turn, weft-bench's seq and weft
# (concurrent and request, one and half) and weft-uts-dist under one and half. Every run is
# checked by its program. Then scripts/dist_table.py writes OUT/bench_dist.md and .json: the
# medians, T_dist / T_weft (each side's best configuration), E = T_seq / (2 T_dist), mpirun's
# wall time, the request round trip and chunk transfer times and the ranks' time profile.
#
# Usage: scripts/bench_dist.sh [--trees T1L,T3L] [--repeat 5] [--chunk 8] [--poll 0]
#                              [--out DIR]
#        scripts/bench_dist.sh --sweep [--trees ...] [--repeat R] [--out ...]
#   --sweep: weft-uts-dist alone at 2 ranks under half, over chunks of 2, 8, 32 and 128 nodes
#   and polls every 64 nodes or adaptive, alternated, into OUT/sweep.md: how to choose --chunk
#   and --poll for the comparison.
#   --out: the sitting's folder (default results/YYYY-MM-DD-dist, or -dist-sweep with --sweep,
#   today's date; it must not exist yet); give it a manifest.json and cite it from a document
#   (results/README.md, scripts/check_results_cited.py).
# Needs the Release build with the MPI programs (scripts/setup.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

trees=T1L,T3L
repeat=5
chunk=8
poll=0
out=""
sweep=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sweep) sweep=1; shift ;;
    --trees) trees="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --chunk) chunk="$2"; shift 2 ;;
    --poll) poll="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "bench_dist.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || { echo "bench_dist.sh: --repeat needs a count" >&2; exit 2; }
if [[ -z "$out" ]]; then
  out="results/$(date +%F)-dist"
  [[ "$sweep" -eq 0 ]] || out+="-sweep"
  [[ ! -e "$out" ]] || { echo "bench_dist.sh: $out exists; name another with --out" >&2; exit 2; }
fi
bench=build/bench/cli/weft-bench
dist=build/dist/weft-uts-dist
[[ -x "$bench" && -x "$dist" ]] || { echo "bench_dist.sh: build first (scripts/setup.sh)" >&2; exit 1; }
mkdir -p "$out/raw"

IFS=',' read -r -a list <<< "$trees"
if [[ "$sweep" -eq 1 ]]; then
  for tree in "${list[@]}"; do
    for ((r = 1; r <= repeat; r++)); do
      echo "== sweep: $tree, repetition $r of $repeat ($(date +%T))"
      for c in 2 8 32 128; do
        for p in 0 64; do
          scripts/mpirun.sh 2 "$dist" --tree "$tree" --steal half --chunk "$c" --poll "$p" \
            --repeat 1 --json "$out/raw/sweep_${tree}_c${c}_p${p}_$r.json" >/dev/null
        done
      done
    done
  done
  python3 - "$out" "$repeat" "${list[@]}" <<'PY'
import json, statistics, sys
out, repeat, trees = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
lines = ["# weft-uts-dist at 2 ranks, half: chunk size and poll interval", "",
         f"Made by `scripts/bench_dist.sh --sweep`, {repeat} alternated repetitions; medians in "
         "seconds (poll 0: adaptive).", ""]
for tree in trees:
    lines += [f"## {tree}", "", "| chunk | poll 0 | poll 64 |", "|---:|---:|---:|"]
    for c in (2, 8, 32, 128):
        cells = []
        for p in (0, 64):
            runs = [json.load(open(f"{out}/raw/sweep_{tree}_c{c}_p{p}_{r}.json"))
                    for r in range(1, repeat + 1)]
            assert all(d["verified"] for d in runs), (tree, c, p)
            cells.append(f"{statistics.median(d['median_s'] for d in runs):.3f}")
        lines.append(f"| {c} | " + " | ".join(cells) + " |")
    lines.append("")
open(f"{out}/sweep.md", "w").write("\n".join(lines))
PY
  echo "== $out/sweep.md"
  exit 0
fi
for tree in "${list[@]}"; do
  for ((r = 1; r <= repeat; r++)); do
    echo "== $tree, repetition $r of $repeat ($(date +%T))"
    "$bench" uts --tree "$tree" --impl seq,weft --workers 2 --steal one,half \
      --mechanism concurrent,request --repeat 1 --json "$out/raw/${tree}_weft_$r.json" >/dev/null
    for steal in one half; do
      # The timed region is the search alone; mpirun's wall time (start-up included) is kept
      # beside it.
      start="$EPOCHREALTIME"
      scripts/mpirun.sh 2 "$dist" --tree "$tree" --steal "$steal" --chunk "$chunk" --poll "$poll" \
        --repeat 1 --json "$out/raw/${tree}_dist_${steal}_$r.json" >/dev/null
      echo "$start $EPOCHREALTIME" >"$out/raw/${tree}_dist_${steal}_$r.wall"
    done
  done
done
python3 scripts/dist_table.py "$out" "$repeat" "${list[@]}"
echo "== $out/bench_dist.md"
