#!/usr/bin/env bash
# weft-uts-dist at 2 ranks against weft at 2 workers and the sequential traversal, in
# randomized blocks (docs/DISTRIBUTED.md, docs/MEASURING.md): each repetition runs, in an
# order shuffled from --seed for that repetition (tools/bench/stats' block_order, replayed by
# scripts/dist_table.py --order), weft-bench's seq and weft (concurrent and request, one and
# half; weft-bench shuffles those itself from the same seed) and weft-uts-dist under one and
# under half. Every run is checked by its program. Then scripts/dist_table.py writes
# OUT/bench_dist.md and .json: the medians, T_dist / T_weft (each side's best configuration),
# E = T_seq / (2 T_dist), each also paired over the repetitions with a 95 % bootstrap
# interval, mpirun's wall time, the request round trip and chunk transfer times and the
# ranks' time profile.
#
# Criteria (fixed before the script runs): docs/DISTRIBUTED.md's targets, T_dist / T_weft
# at most 1.10 on T1L and 1.15 on T3L, E at least 0.85 on T1L and 0.80 on T3L, judged on
# the paired intervals by the rule at the top of scripts/dist_table.py: PASS when the whole
# interval meets the target, FAIL when none of it does, UNDECIDED otherwise or with fewer
# than 5 repetitions. Printed per tree at the end and in bench_dist.md; --help prints the
# rule. Exit status: 0 done whatever the outcomes, 1 a program failed or no build, 2 a bad
# argument.
#
# Usage: scripts/bench_dist.sh [--trees T1L,T3L] [--repeat 5] [--chunk 8] [--poll 0]
#                              [--seed N] [--out DIR]
#        scripts/bench_dist.sh --sweep [--trees ...] [--repeat R] [--seed N] [--out ...]
#   --sweep: weft-uts-dist alone at 2 ranks under half, over chunks of 2, 8, 32 and 128 nodes
#   and polls every 64 nodes or adaptive, in an order shuffled per repetition, into
#   OUT/sweep.md: how to choose --chunk and --poll for the comparison (no criteria).
#   --seed: the order's seed (default: random); kept in OUT/raw/seed and the tables.
#   --out: the sitting's folder (default results/YYYY-MM-DD-dist, or -dist-sweep with --sweep,
#   today's date; it must not exist yet); give it a manifest.json and cite it from a document
#   (results/README.md, scripts/check_results_cited.py).
# Needs the Release build with the MPI programs (scripts/setup.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
  echo
  python3 scripts/dist_table.py --criteria
  exit 0
fi

trees=T1L,T3L
repeat=5
chunk=8
poll=0
out=""
sweep=0
seed=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sweep) sweep=1; shift ;;
    --trees) trees="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --chunk) chunk="$2"; shift 2 ;;
    --poll) poll="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    *) echo "bench_dist.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || { echo "bench_dist.sh: --repeat needs a count" >&2; exit 2; }
[[ -n "$seed" ]] || seed="$(od -An -N7 -tu8 /dev/urandom | tr -d ' ')"
[[ "$seed" =~ ^[0-9]{1,19}$ ]] ||
  { echo "bench_dist.sh: --seed '$seed': expected a whole number below 10^19" >&2; exit 2; }
if [[ -z "$out" ]]; then
  out="results/$(date +%F)-dist"
  [[ "$sweep" -eq 0 ]] || out+="-sweep"
  [[ ! -e "$out" ]] || { echo "bench_dist.sh: $out exists; name another with --out" >&2; exit 2; }
fi
bench=build/tools/bench/cli/weft-bench
dist=build/tools/dist/weft-uts-dist
[[ -x "$bench" && -x "$dist" ]] || { echo "bench_dist.sh: build first (scripts/setup.sh)" >&2; exit 1; }
mkdir -p "$out/raw"
echo "$seed" >"$out/raw/seed"
# order STREAM COUNT: one repetition's order of COUNT variants (tools/bench/stats' block_order).
order() { python3 scripts/dist_table.py --order "$seed" "$1" "$2"; }

IFS=',' read -r -a list <<< "$trees"
if [[ "$sweep" -eq 1 ]]; then
  variants=(2:0 2:64 8:0 8:64 32:0 32:64 128:0 128:64)  # chunk:poll
  t=0
  for tree in "${list[@]}"; do
    for ((r = 1; r <= repeat; r++)); do
      echo "== sweep: $tree, repetition $r of $repeat ($(date +%T))"
      for k in $(order $((t * repeat + r - 1)) "${#variants[@]}"); do
        c="${variants[$k]%:*}" p="${variants[$k]#*:}"
        scripts/mpirun.sh 2 "$dist" --tree "$tree" --steal half --chunk "$c" --poll "$p" \
          --repeat 1 --json "$out/raw/sweep_${tree}_c${c}_p${p}_$r.json" >/dev/null
      done
    done
    t=$((t + 1))
  done
  python3 - "$out" "$repeat" "${list[@]}" <<'PY'
import json, statistics, sys
out, repeat, trees = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
lines = ["# weft-uts-dist at 2 ranks, half: chunk size and poll interval", "",
         f"Made by `scripts/bench_dist.sh --sweep`, {repeat} repetitions, each in an order "
         f"shuffled from seed {open(out + '/raw/seed').read().strip()}; medians in "
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
variants=(weft one half)  # weft-bench's seq and weft; weft-uts-dist under one, under half
t=0
for tree in "${list[@]}"; do
  for ((r = 1; r <= repeat; r++)); do
    echo "== $tree, repetition $r of $repeat ($(date +%T))"
    for k in $(order $((t * repeat + r - 1)) "${#variants[@]}"); do
      steal="${variants[$k]}"
      if [[ "$steal" == weft ]]; then
        "$bench" uts --tree "$tree" --impl seq,weft --workers 2 --steal one,half \
          --mechanism concurrent,request --repeat 1 --seed "$seed" \
          --json "$out/raw/${tree}_weft_$r.json" >/dev/null
        continue
      fi
      # The timed region is the search alone; mpirun's wall time (start-up included) is kept
      # beside it.
      start="$EPOCHREALTIME"
      scripts/mpirun.sh 2 "$dist" --tree "$tree" --steal "$steal" --chunk "$chunk" --poll "$poll" \
        --repeat 1 --json "$out/raw/${tree}_dist_${steal}_$r.json" >/dev/null
      echo "$start $EPOCHREALTIME" >"$out/raw/${tree}_dist_${steal}_$r.wall"
    done
  done
  t=$((t + 1))
done
python3 scripts/dist_table.py "$out" "$repeat" "${list[@]}"
echo "== $out/bench_dist.md"
