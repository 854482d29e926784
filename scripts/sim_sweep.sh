#!/usr/bin/env bash
# weft-sim beyond this machine: each workload at P = 1 and 16..1024 simulated workers, under
# both mechanisms and the policies one, fixed:2, fixed:20, half and adaptive, with this machine's
# calibrated costs; then tabulated (scripts/sim_sweep_table.py) into OUT/sweep.md and
# OUT/sweep.json beside what work-stealing theory predicts.
#
# Usage: scripts/sim_sweep.sh [--out DIR] [--workloads LIST] [--workers LIST] [--costs FILE]
#                            [--steal POLICIES] [--barrier B]
#   LIST: weft-sim workloads, comma-separated (default fib:32,uts:T3,uts:B)
#   --workers: default 1,16,64,256,1024 (1 must be in it, the speedups' baseline, except in a
#              part: at one worker nothing is stolen, so any policy's run is the baseline)
#   --costs: a costs file to use rather than calibrating first
#   --steal: default one,fixed:2,fixed:20,half,adaptive
#   --barrier: the concurrent mechanism's, as weft-sim's (default auto, weft's own; a version-1
#              costs file, from before the fence costs, needs membarrier)
#   --part P:  write OUT/sweep_NAME+P.json, a part the table adds to OUT/sweep_NAME.json's runs
#              (same costs, seed and barrier): a sweep may grow by policies or worker counts
#              without running again what it has (needs --out, the sweep's folder)
#   --out:     the sitting's folder (default results/YYYY-MM-DD-sim-sweep, today's date; it
#              must not exist yet); give it a manifest.json and cite it from a document
#              (results/README.md, scripts/check_results_cited.py)
# Needs the Release build in build/ (scripts/setup.sh). The simulations are deterministic:
# the same costs and seed give the same tables.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

out=""
workloads=fib:32,uts:T3,uts:B
workers=1,16,64,256,1024
costs=""
steal=one,fixed:2,fixed:20,half,adaptive
barrier=auto
part=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --workloads) workloads="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --costs) costs="$2"; shift 2 ;;
    --steal) steal="$2"; shift 2 ;;
    --barrier) barrier="$2"; shift 2 ;;
    --part) part="$2"; shift 2 ;;
    *) echo "sim_sweep.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ -n "$part" || ",$workers," == *",1,"* ]] ||
  { echo "sim_sweep.sh: --workers must include 1 (the speedups' baseline)" >&2; exit 2; }
[[ -z "$part" || "$part" =~ ^[A-Za-z0-9_-]+$ ]] ||
  { echo "sim_sweep.sh: --part '$part': letters, digits, _ and - only" >&2; exit 2; }
[[ -z "$part" || -n "$costs" ]] ||
  { echo "sim_sweep.sh: --part needs --costs, the sweep's own costs file" >&2; exit 2; }
[[ -z "$part" || -n "$out" ]] ||
  { echo "sim_sweep.sh: --part needs --out, the sweep's folder" >&2; exit 2; }
if [[ -z "$out" ]]; then
  out="results/$(date +%F)-sim-sweep"
  [[ ! -e "$out" ]] || { echo "sim_sweep.sh: $out exists; name another with --out" >&2; exit 2; }
fi
sim=build/tools/sim/weft-sim
[[ -x "$sim" ]] || { echo "sim_sweep.sh: build first (scripts/setup.sh)" >&2; exit 1; }
mkdir -p "$out"
if [[ -z "$costs" ]]; then
  costs="$out/sweep_costs.json"
  echo "== calibrating (weft-sim calibrate --repeat 5)"
  "$sim" calibrate --repeat 5 --json "$costs"
fi

IFS=',' read -r -a list <<< "$workloads"
names=()
for w in "${list[@]}"; do
  case "$w" in
    dag:*) base="${w#dag:}"; base="${base##*/}"; name="dag_${base%.wdag}" ;;  # a path: its file
    *) name="${w//[: ^]/_}" ;;
  esac
  names+=("$name")
  echo "== $w: workers $workers, both mechanisms, $steal ($(date +%T))"
  /usr/bin/time -f "   %e s, %M KB" "$sim" run --workload "$w" --workers "$workers" \
    --steal "$steal" --mechanism concurrent,request --barrier "$barrier" --costs "$costs" \
    --json "$out/sweep_$name${part:++$part}.json" >/dev/null
done
python3 scripts/sim_sweep_table.py "$out" "${names[@]}"
echo "== $out/sweep.md"
