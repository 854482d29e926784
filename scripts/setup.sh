#!/usr/bin/env bash
# One command from a fresh clone to a running demo:
#   1. installs the Debian packages weft needs (skipped when they are all present) and
#      matplotlib from PyPI (for scripts/plot_results.py),
#   2. configures a Release build in build/ with Ninja and builds it,
#   3. runs the demo, build/examples/weft-fib-demo.
#
# Usage: scripts/setup.sh [--deps-only] [-h|--help]
#   --deps-only   only install the packages (scripts/test.sh uses this)
# Environment: WEFT_JOBS (parallel build jobs, default: the number of CPUs),
#              WEFT_WORKERS, WEFT_STEAL, ... are read by the demo itself.
set -euo pipefail

# Keep this list in sync with .ci/run.
PACKAGES=(build-essential cmake ninja-build libgtest-dev libssl-dev pkg-config valgrind python3
  libtbb-dev libomp-dev clang clang-format libboost-context-dev nlohmann-json3-dev
  libopenmpi-dev openmpi-bin default-jdk-headless golang-go)

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="$ROOT/build"
DEMO="$BUILD_DIR/examples/weft-fib-demo"
JOBS="${WEFT_JOBS:-$(nproc 2>/dev/null || echo 2)}"

say() { printf '==> %s\n' "$*"; }
die() { printf 'setup.sh: error: %s\n' "$*" >&2; exit 1; }

# The comment block at the top of this file.
usage() {
  awk 'NR > 1 && !/^#/ { exit } NR > 1 && !/shellcheck/ { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"
}

deps_only=0
for arg in "$@"; do
  case "$arg" in
    --deps-only) deps_only=1 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument '$arg'" ;;
  esac
done

# Prints the packages of PACKAGES that are not installed, one a line.
missing_packages() {
  local pkg status
  for pkg in "${PACKAGES[@]}"; do
    status="$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)"
    [[ "$status" == installed ]] || printf '%s\n' "$pkg"
  done
}

install_packages() {
  command -v dpkg-query >/dev/null 2>&1 || die "dpkg-query not found: this script expects Debian/Ubuntu"
  local missing
  missing="$(missing_packages)"
  if [[ -z "$missing" ]]; then
    say "packages: all present (${PACKAGES[*]}), skipping apt-get"
    return 0
  fi
  say "packages: installing $(echo "$missing" | tr '\n' ' ')"
  local -a sudo=()
  if [[ "$(id -u)" -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 ||
      die "not root and sudo is not installed; install as root: apt-get install -y ${PACKAGES[*]}"
    sudo=(sudo)
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
  # Install the whole list (already-installed ones are a no-op) so versions stay consistent.
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${PACKAGES[@]}"
  missing="$(missing_packages)"
  [[ -z "$missing" ]] || die "still missing after apt-get install: $missing"
}

# matplotlib (PyPI) draws docs/RESULTS.md's plots (scripts/plot_results.py). Only the plots
# need it, so a failure here is a warning, not a stop.
install_matplotlib() {
  if python3 -c 'import matplotlib' 2>/dev/null; then
    say "matplotlib: present"
  elif python3 -m pip install --quiet --disable-pip-version-check matplotlib; then
    say "matplotlib: installed from PyPI"
  else
    printf 'setup.sh: warning: could not pip-install matplotlib; scripts/plot_results.py will not run\n' >&2
  fi
}

install_packages
[[ "$deps_only" -eq 1 ]] && exit 0
install_matplotlib

# A build/ configured with another generator cannot be reused: drop its cache (sources and
# other files in build/ are left alone).
if [[ -f "$BUILD_DIR/CMakeCache.txt" ]] &&
  ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$BUILD_DIR/CMakeCache.txt"; then
  say "build/ was configured with another generator; clearing its CMake cache"
  rm -rf "$BUILD_DIR/CMakeCache.txt" "$BUILD_DIR/CMakeFiles"
fi

say "configuring a Release build in build/ (Ninja)"
cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DWEFT_SANITIZE= -DWEFT_BUILD_EXAMPLES=ON -DWEFT_BUILD_DIST=ON

say "building (-j$JOBS)"
cmake --build "$BUILD_DIR" -j "$JOBS"

[[ -x "$DEMO" ]] || die "the demo was not built: $DEMO"
say "running ${DEMO#"$ROOT"/}"
# The demo's last line is the host's steadiness; on a busy host its speedups are not the
# runtime's, so say so where a first-time reader looks, and keep its output visible.
demo_out="$(mktemp)"
trap 'rm -f "$demo_out"' EXIT
"$DEMO" | tee "$demo_out"
if grep -q '^HOST UNSTEADY' "$demo_out"; then
  say "the host was busy during the demo (HOST UNSTEADY above): its speedups and intervals hold"
  say "for that sitting only; rerun $DEMO on a quiet host for figures to compare"
fi
say "done. Run the test suite with: scripts/test.sh"
