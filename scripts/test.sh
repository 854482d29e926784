#!/usr/bin/env bash
# shellcheck disable=SC2317  # the stage_* functions are called indirectly
# One command that runs weft's whole test suite, stage by stage:
#   format   every C and C++ file is as clang-format (.clang-format) leaves it, and every
#            path under results/ that a document cites exists, every sitting cited
#            (scripts/check_results_cited.py), every include keeps to the layers
#            (scripts/check_includes.py), and no function is longer than 80 lines
#            (scripts/check_function_length.py)
#   release  Release build in build/ (with the MPI programs), then the whole suite: ctest -j2
#   clang    the release stage's build with Debian's clang and clang++, in build-clang/ (the
#            Rayon peer, which cargo builds whatever the C++ compiler, left out), then the
#            whole suite: ctest -j2
#   tsan     ThreadSanitizer build in build-tsan/ (RelWithDebInfo): ctest -L concurrency -j2
#   asan     ASan+UBSan build in build-asan/ (RelWithDebInfo): the whole suite
#   install  cmake --install build into _install/, then build and run examples/client
#            against it (find_package), and compile and run a program with pkg-config
# A failing stage does not stop the later ones; the summary at the end lists every stage
# with PASS/FAIL and its duration, and the exit status is non-zero if any stage failed.
#
# Usage: scripts/test.sh [--quick] [--no-sanitizers] [-h|--help]
#   --quick          the format and release stages only
#   --no-sanitizers  skip the tsan and asan stages
# Environment:
#   WEFT_JOBS            parallel build jobs (default: the number of CPUs)
#   WEFT_TEST_TIMEOUT    default per-test timeout in seconds, for tests that set none
#                        (default 300, x3 under sanitizers)
#   WEFT_CTEST_BUDGET    seconds one ctest run may take in all (default 600): tests still
#                        running then time out and the rest are not started, so a hanging
#                        suite fails its stage instead of running into CI's time limit
#   WEFT_TSAN_SETARCH    auto (default) | always | never: run the TSan stage under
#                        `setarch -R` (ASLR off), which some kernels need
#   TSAN_OPTIONS, ASAN_OPTIONS, UBSAN_OPTIONS are respected when set.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

JOBS="${WEFT_JOBS:-$(nproc 2>/dev/null || echo 2)}"
TIMEOUT="${WEFT_TEST_TIMEOUT:-300}"
SAN_TIMEOUT=$((TIMEOUT * 3))
BUDGET="${WEFT_CTEST_BUDGET:-600}"
TSAN_SETARCH="${WEFT_TSAN_SETARCH:-auto}"
CXX_BIN="${CXX:-c++}"
CC_BIN="${CC:-cc}"

say() { printf '\n==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
# The comment block at the top of this file.
usage() {
  awk 'NR > 1 && !/^#/ { exit } NR > 1 && !/shellcheck/ { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"
}

quick=0
sanitizers=1
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    --no-sanitizers) sanitizers=0 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; printf 'test.sh: error: unknown argument %s\n' "$arg" >&2; exit 2 ;;
  esac
done
case "$TSAN_SETARCH" in auto | always | never) ;; *)
  printf 'test.sh: error: WEFT_TSAN_SETARCH=%s: expected auto, always or never\n' \
    "$TSAN_SETARCH" >&2
  exit 2 ;;
esac

STATE="$(mktemp -d "${TMPDIR:-/tmp}/weft-test.XXXXXX")"
trap 'rm -rf "$STATE"' EXIT

# ---------------------------------------------------------------------------------------
# Helpers. Each stage runs in a subshell with `set -e`; it leaves a one-line detail for the
# summary in $STATE/<stage>.detail.

detail() { printf '%s' "$*" >"$STATE/$CURRENT_STAGE.detail"; }

fmt_duration() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# configure DIR BUILD_TYPE [cmake args...]: a Ninja build of the whole tree, tests included.
configure() {
  local dir="$1" type="$2"
  shift 2
  if [[ -f "$dir/CMakeCache.txt" ]] &&
    ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt"; then
    note "$dir was configured with another generator; clearing its CMake cache"
    rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
  fi
  cmake -S "$ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" \
    -DWEFT_BUILD_TESTS=ON -DWEFT_BUILD_EXAMPLES=ON "$@"
}

# record_failures LOG: keeps, for the end of the run, the names of the tests that failed and
# the lines of their output that say why (a CI log may keep only its last lines).
record_failures() {
  {
    sed -n '/The following tests FAILED:/,$p' "$1" | grep -E '^[[:space:]]+[0-9]+ - ' || true
    grep -E 'Failure$|runtime error:|SUMMARY: |Expected|Which is|Value of|Actual:|  what\(\)' \
      "$1" | head -n 24 || true
    grep -E -A 8 'WARNING: ThreadSanitizer|ERROR: AddressSanitizer' "$1" | head -n 24 || true
  } >"$STATE/$CURRENT_STAGE.failures"
}

# run_ctest DIR TIMEOUT [wrapper...] -- [ctest args...]: runs ctest within $BUDGET seconds,
# teeing its output to DIR/weft-ctest.log, and prints (and records) "N tests passed, M failed".
run_ctest() {
  local dir="$1" timeout="$2"
  shift 2
  local -a wrap=()
  while [[ $# -gt 0 && "$1" != -- ]]; do wrap+=("$1"); shift; done
  [[ $# -gt 0 ]] && shift
  local log="$dir/weft-ctest.log" rc=0
  local stop
  stop="$(date -d "+$BUDGET seconds" +%H:%M:%S)"
  "${wrap[@]}" ctest --test-dir "$dir" --output-on-failure --no-tests=error \
    --timeout "$timeout" --stop-time "$stop" "$@" 2>&1 | tee "$log" || rc=$?
  local line total failed stopped=""
  if grep -q 'The stop time has been passed' "$log"; then
    stopped=" (STOPPED: over the ${BUDGET}s budget, later tests not run)"
    [[ "$rc" -ne 0 ]] || rc=1
  fi
  line="$(grep -E '[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n1)"
  if [[ -n "$line" ]]; then
    failed="$(sed -E 's/.* ([0-9]+) tests? failed out of.*/\1/' <<<"$line")"
    total="$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")"
    local names=""
    if [[ "$failed" -ne 0 ]]; then
      record_failures "$log"
      # The summary line names the first few that failed, so that a log cut short above the
      # summary's end still says which.
      names="$(sed -nE 's/^[[:space:]]+[0-9]+ - ([^ ]+).*/\1/p' "$STATE/$CURRENT_STAGE.failures" |
        head -n 3 | paste -sd, - || true)"
      [[ -z "$names" ]] || names=": $names"
    fi
    detail "$((total - failed)) tests passed, $failed failed$names$stopped"
    say "$CURRENT_STAGE: $((total - failed)) tests passed, $failed failed (of $total)$names$stopped"
  else
    detail "no test results (see $log)"
    say "$CURRENT_STAGE: ctest reported no results (exit $rc); see ${log#"$ROOT"/}"
    [[ "$rc" -ne 0 ]] || rc=1
  fi
  return "$rc"
}

# ---------------------------------------------------------------------------------------
# Stages.

# Every C and C++ file as .clang-format says (clang-format from the Debian package; other
# major versions format a few constructs differently).
stage_format() {
  # Every results/ path that a document or script cites exists, and every sitting is cited
  # (results/README.md); needs no build.
  detail "scripts/check_results_cited.py failed (cited results missing or uncited)"
  python3 "$ROOT/scripts/check_results_cited.py"
  # Every include keeps to the layers (docs/OVERVIEW.md): include/ nothing of src/, the
  # tools only weft::internal's private headers, no layer of src/ a higher one's.
  detail "scripts/check_includes.py failed (an include crosses a layer)"
  python3 "$ROOT/scripts/check_includes.py"
  # No function in src/, workloads/ or tools/ longer than 80 lines.
  detail "scripts/check_function_length.py failed (a function longer than 80 lines)"
  python3 "$ROOT/scripts/check_function_length.py"
  detail "clang-format not found (the clang-format package)"
  command -v clang-format >/dev/null 2>&1
  local -a files
  if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git -C "$ROOT" ls-files '*.cpp' '*.hpp' '*.c' '*.h')
  else
    mapfile -t files < <(find include src tests bench examples -name '*.[ch]pp' -o -name '*.[ch]' |
      sort)
  fi
  note "$(clang-format --version | head -n1); ${#files[@]} files"
  local unformatted=()
  local f
  for f in "${files[@]}"; do
    clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || unformatted+=("$f")
  done
  if [[ ${#unformatted[@]} -gt 0 ]]; then
    printf '    not formatted (fix: clang-format -i FILE): %s\n' "${unformatted[@]}" >&2
    detail "${#unformatted[@]} of ${#files[@]} files not clang-formatted"
    return 1
  fi
  detail "${#files[@]} files clang-formatted"
}

stage_release() {
  detail "configure failed"
  configure build Release -DWEFT_SANITIZE= -DWEFT_BUILD_DIST=ON
  detail "build failed"
  cmake --build build -j "$JOBS"
  touch "$STATE/release.built"
  run_ctest build "$TIMEOUT" -- -j 2
}

# A second compiler: what GCC lets through and Clang rejects or warns about, and code
# generation the tests pin (instruction_count_test has Clang's own figures), shows here. On
# two idle cores: about 4 minutes of build and 3 of tests.
stage_clang() {
  detail "clang or clang++ not found (the clang package)"
  command -v clang >/dev/null 2>&1
  command -v clang++ >/dev/null 2>&1
  detail "configure failed"
  configure build-clang Release -DWEFT_SANITIZE= -DWEFT_BUILD_DIST=ON \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DWEFT_BUILD_RAYON=OFF
  note "$(clang++ --version | head -n1)"
  detail "build failed"
  cmake --build build-clang -j "$JOBS"
  run_ctest build-clang "$TIMEOUT" -- -j 2
}

# Prints the wrapper the TSan stage needs (nothing, or `setarch <arch> -R`), after trying a
# trivial TSan program: on kernels with many bits of mmap randomization, older TSan runtimes
# die with "unexpected memory mapping" unless ASLR is off.
tsan_wrapper() {
  local probe_dir="build-tsan/weft-tsan-probe"
  local -a setarch=(setarch "$(uname -m)" -R)
  case "$TSAN_SETARCH" in
    never) return 0 ;;
    always) echo "${setarch[*]}"; return 0 ;;
  esac
  mkdir -p "$probe_dir"
  cat >"$probe_dir/probe.cpp" <<'EOF'
#include <thread>
int value = 0;
int main() {
  std::thread t([] { value = 1; });
  t.join();
  return value == 1 ? 0 : 1;
}
EOF
  if ! "$CXX_BIN" -fsanitize=thread -g -O1 "$probe_dir/probe.cpp" -o "$probe_dir/probe" \
    -pthread 2>"$probe_dir/compile.log"; then
    cat "$probe_dir/compile.log" >&2
    echo "test.sh: cannot compile a ThreadSanitizer program with $CXX_BIN" >&2
    return 1
  fi
  if "$probe_dir/probe" >"$probe_dir/run.log" 2>&1; then
    return 0
  fi
  if "${setarch[@]}" "$probe_dir/probe" >"$probe_dir/run-setarch.log" 2>&1; then
    {
      echo "    a trivial TSan program fails here with ASLR on:"
      sed 's/^/      | /' "$probe_dir/run.log" | head -n 5
      echo "    and works with ASLR off: running the tsan stage under '${setarch[*]}'"
    } >&2
    echo "${setarch[*]}"
    return 0
  fi
  {
    echo "test.sh: a trivial ThreadSanitizer program fails, with and without ASLR:"
    cat "$probe_dir/run.log" "$probe_dir/run-setarch.log"
  } >&2
  return 1
}

stage_tsan() {
  detail "configure failed"
  configure build-tsan RelWithDebInfo -DWEFT_SANITIZE=thread
  detail "TSan does not work on this machine"
  local wrapper
  wrapper="$(tsan_wrapper)"
  local -a wrap=()
  [[ -z "$wrapper" ]] || read -r -a wrap <<<"$wrapper"
  [[ ${#wrap[@]} -eq 0 ]] || note "TSan: using '${wrap[*]}'"
  export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}"
  detail "build failed"
  # Under the wrapper too: test discovery may run the test binaries at build time.
  "${wrap[@]}" cmake --build build-tsan -j "$JOBS"
  local rc=0
  # Two at a time, as the other stages: on two cores the 1,634 tests took 258 s so, against
  # 456 s one at a time.
  run_ctest build-tsan "$SAN_TIMEOUT" "${wrap[@]}" -- -L concurrency -j 2 || rc=$?
  [[ ${#wrap[@]} -eq 0 ]] || detail "$(cat "$STATE/tsan.detail") [${wrap[*]}]"
  return "$rc"
}

stage_asan() {
  detail "configure failed"
  configure build-asan RelWithDebInfo -DWEFT_SANITIZE=address
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
  detail "build failed"
  cmake --build build-asan -j "$JOBS"
  run_ctest build-asan "$SAN_TIMEOUT" -- -j 2
}

stage_install() {
  local prefix="$ROOT/_install" client_dir="$ROOT/build-client"
  local libdir
  libdir="$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' build/CMakeCache.txt)"
  libdir="${libdir:-lib}"

  detail "cmake --install failed"
  rm -rf "$prefix"
  cmake --install build --prefix "$prefix"

  detail "examples/client does not configure against _install"
  cmake --fresh -S examples/client -B "$client_dir" -G Ninja -DCMAKE_PREFIX_PATH="$prefix"
  local found
  found="$(sed -n 's/^weft_DIR:PATH=//p' "$client_dir/CMakeCache.txt")"
  if [[ "$(realpath -m "$found")" != "$prefix"/* ]]; then
    echo "test.sh: find_package(weft) found '$found', not the package in $prefix" >&2
    return 1
  fi
  note "find_package(weft) -> $found"
  detail "examples/client does not build"
  cmake --build "$client_dir" -j "$JOBS"
  detail "weft-client failed"
  say "install: weft-client fib 22 3"
  "$client_dir/weft-client" fib 22 3
  say "install: WEFT_WORKERS=2 WEFT_STEAL=half weft-client fib 22 3"
  WEFT_WORKERS=2 WEFT_STEAL=half "$client_dir/weft-client" fib 22 3

  detail "pkg-config check failed"
  local flags
  flags="$(PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig" pkg-config --cflags --libs weft)"
  say "install: pkg-config --cflags --libs weft -> $flags"
  # shellcheck disable=SC2086  # the flags are meant to be split
  "$CXX_BIN" -std=c++20 -O2 -Wall -Wextra -Werror examples/client/pkgconfig_check.cpp $flags \
    -o "$client_dir/weft-pkgconfig-check"
  "$client_dir/weft-pkgconfig-check"

  # The C interface as a C program uses it: cc, C11, pkg-config's flags alone.
  detail "the C examples do not build with cc -std=c11 and pkg-config, or fail"
  local example
  for example in fib uts_walk; do
    say "install: cc -std=c11 -Wall -Wextra -Werror examples/c/$example.c \$(pkg-config ...)"
    # shellcheck disable=SC2086  # the flags are meant to be split
    "$CC_BIN" -std=c11 -Wall -Wextra -Werror "examples/c/$example.c" $flags \
      -o "$client_dir/weft-c-$example"
  done
  "$client_dir/weft-c-fib" 27 2
  "$client_dir/weft-c-uts_walk" 16 2 | head -1
  detail "find_package client, pkg-config client and C examples OK"
}

# ---------------------------------------------------------------------------------------
# Driver.

STAGES=(format release)
[[ "$quick" -eq 0 ]] && STAGES+=(clang)
[[ "$quick" -eq 0 && "$sanitizers" -eq 1 ]] && STAGES+=(tsan asan)
[[ "$quick" -eq 0 ]] && STAGES+=(install)

"$ROOT/scripts/setup.sh" --deps-only

declare -A RESULT DURATION
overall_start=$SECONDS
for stage in "${STAGES[@]}"; do
  CURRENT_STAGE="$stage"
  if [[ "$stage" == install && ! -e "$STATE/release.built" ]]; then
    RESULT[$stage]=SKIP DURATION[$stage]=0
    detail "skipped: the release build failed"
    continue
  fi
  say "stage $stage: starting"
  start=$SECONDS
  set +e
  (
    set -e
    "stage_$stage"
  )
  rc=$?
  set -e
  DURATION[$stage]=$((SECONDS - start))
  if [[ "$rc" -eq 0 ]]; then RESULT[$stage]=PASS; else RESULT[$stage]=FAIL; fi
  say "stage $stage: ${RESULT[$stage]} in $(fmt_duration "${DURATION[$stage]}")"
done

failed=0
printf '\n=============================== weft test summary ===============================\n'
for stage in "${STAGES[@]}"; do
  d=""
  [[ -f "$STATE/$stage.detail" ]] && d="$(cat "$STATE/$stage.detail")"
  printf '  %-8s %-4s  %7s  %s\n' "$stage" "${RESULT[$stage]}" \
    "$(fmt_duration "${DURATION[$stage]}")" "$d"
  [[ "${RESULT[$stage]}" == PASS ]] || failed=1
done
printf '  %-8s %-4s  %7s\n' total "$([[ $failed -eq 0 ]] && echo PASS || echo FAIL)" \
  "$(fmt_duration $((SECONDS - overall_start)))"
printf '=================================================================================\n'
for stage in "${STAGES[@]}"; do
  [[ -s "$STATE/$stage.failures" ]] || continue
  printf '\n%s: what failed\n' "$stage"
  sed 's/^/  | /' "$STATE/$stage.failures"
done
exit "$failed"
