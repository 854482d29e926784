#!/usr/bin/env bash
# scripts/check_includes.py on small trees built here (--root), one planted violation at a
# time, each of which must fail naming the file and line:
#   - the public API (include/) including a private header;
#   - a tool outside src/ (tools/sim/) including a private header that is not weft::internal's;
#   - a lower layer (src/tasks/) including a higher one's header (src/core/);
# while the good tree passes: a tool including src/model/ and src/platform/ headers, core
# including tasks, loop and core including each other, a test including any private header.
# --help exits 0; an unknown argument or a --root that is not a folder exits 2.
# Usage: tests/scripts/include_check_test.sh [PYTHON [SCRIPT]]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${1:-python3}" script="${2:-$here/../../scripts/check_includes.py}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "include_check_test: $*" >&2; exit 1; }

good="$work/good"
mkdir -p "$good"/{include/weft,src/platform,src/model,src/tasks,src/core,src/loop,tools/sim/engine,tests}
touch "$good/src/platform/futex.hpp" "$good/src/model/steal_amount.hpp" \
  "$good/src/tasks/steal_side.hpp" "$good/src/core/pool.hpp" "$good/src/loop/loop_queue.hpp"
echo '#include <vector>' >"$good/include/weft/api.hpp"
printf '#include "model/steal_amount.hpp"\n#include "platform/futex.hpp"\n#include "weft/api.hpp"\n' \
  >"$good/tools/sim/engine/engine.cpp"
printf '#include "tasks/steal_side.hpp"\n#include "loop/loop_queue.hpp"\n' >"$good/src/core/pool.cpp"
echo '#include "core/pool.hpp"' >"$good/src/loop/loop_queue.cpp"
echo '#include "core/pool.hpp"' >"$good/tests/pool_test.cpp"

out="$("$python" "$script" --root "$good")" || fail "the good tree: exit $?"
[[ "$out" =~ ^check_includes:\ [0-9]+\ files,\ all\ within\ their\ layers$ ]] ||
  fail "the good tree: '$out'"

# plant FILE LINE EXPECTED: a copy of the good tree with LINE appended to FILE must exit 1
# with a message naming FILE and matching EXPECTED.
plant() {
  local file="$1" line="$2" expected="$3" bad="$work/bad"
  rm -rf "$bad" && cp -r "$good" "$bad"
  echo "$line" >>"$bad/$file"
  local status=0
  "$python" "$script" --root "$bad" >/dev/null 2>"$work/err" || status=$?
  [[ $status -eq 1 ]] || fail "'$line' in $file: exit $status, expected 1"
  grep -q "^check_includes: $file:[0-9]*: .*$expected" "$work/err" ||
    fail "'$line' in $file: message '$(cat "$work/err")' lacks '$expected'"
}
plant include/weft/api.hpp '#include "core/pool.hpp"' "the public API may not include src/"
plant tools/sim/engine/engine.cpp '#include "tasks/steal_side.hpp"' "only weft::internal's headers"
plant tools/sim/engine/engine.cpp '#include "../src/core/pool.hpp"' "only weft::internal's headers"
plant src/tasks/steal_side.hpp '#include "core/pool.hpp"' "layer tasks may not include"
plant src/model/steal_amount.hpp '#include "tasks/steal_side.hpp"' "layer model may not include"

help="$("$python" "$script" --help)" || fail "--help: exit $?"
grep -q "^Usage: scripts/check_includes.py" <<<"$help" || fail "--help"
status=0
"$python" "$script" --bogus >/dev/null 2>&1 || status=$?
[[ $status -eq 2 ]] || fail "--bogus: exit $status, expected 2"
status=0
"$python" "$script" --root "$work/none" >/dev/null 2>&1 || status=$?
[[ $status -eq 2 ]] || fail "--root of a missing folder: exit $status, expected 2"
echo "include_check_test: all passed"
