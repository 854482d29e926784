#!/usr/bin/env bash
# Runs an MPI program on this machine's loopback only, as root too, with more ranks than
# cores allowed: the one place that holds Open MPI's incantation for tests, scripts and docs.
#
# Usage: scripts/mpirun.sh NP PROGRAM [ARGS...]
#   e.g. scripts/mpirun.sh 4 build/tools/dist/weft-uts-dist --tree T3 --steal half --chunk 32
# Shared-memory transport between ranks (vader); where the kernel refuses its cross-memory
# attach (a container's ptrace rules), copies through a buffer instead.
set -euo pipefail
if [[ $# -lt 2 || ! "$1" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/mpirun.sh NP PROGRAM [ARGS...]" >&2
  exit 2
fi
np="$1"
shift
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism="${OMPI_MCA_btl_vader_single_copy_mechanism:-none}"
exec mpirun --oversubscribe -np "$np" --mca pml ob1 --mca btl self,vader \
  --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo "$@"
