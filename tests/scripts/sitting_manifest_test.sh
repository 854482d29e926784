#!/usr/bin/env bash
# scripts/sitting_manifest.py: a sitting folder's manifest.json from the documents in it (commit,
# commands, host, steadiness, every file listed), which scripts/check_results_cited.py then
# accepts; a folder without such a document, or badly named, exits 2.
# Usage: tests/scripts/sitting_manifest_test.sh PYTHON SCRIPT CHECKER
set -euo pipefail
python="$1" script="$2" checker="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "sitting_manifest_test: $*" >&2; exit 1; }

sitting="$work/results/2026-12-07-compare-w2-a"
mkdir -p "$sitting"
cat > "$sitting/compare.json" <<'JSON'
{"command":"compare","commit":"abc123","compiler":"GNU 12.2.0","flags":"-O3","build_type":"Release",
 "cpu_model":"AMD EPYC","kernel":"6.1","date":"2026-12-07T12:15:25Z","seed":7,
 "command_line":"weft-bench compare --until-decided","host_unsteady":true,
 "host":{"calibration_cv":0.08,"steal_share":0.001}}
JSON
echo "table" > "$sitting/compare.txt"
"$python" "$script" "$sitting" --note "a test" > /dev/null || fail "exit $?"
field() { "$python" -c "import json,sys; print(json.load(open(sys.argv[1]))$1)" "$sitting/manifest.json"; }
[[ "$(field "['commit']")" == abc123 ]] || fail "commit $(field "['commit']")"
[[ "$(field "['command'][0]")" == "weft-bench compare --until-decided" ]] || fail "command"
[[ "$(field "['host']")" == "AMD EPYC, kernel 6.1" ]] || fail "host $(field "['host']")"
[[ "$(field "['steadiness']['compare.json']['host_unsteady']")" == True ]] || fail "steadiness"
[[ "$(field "['files']")" == "['compare.json', 'compare.txt']" ]] || fail "files $(field "['files']")"
[[ "$(field "['note']")" == "a test" ]] || fail "note"
# The checker accepts it once a document cites the sitting.
echo "See results/2026-12-07-compare-w2-a/compare.txt." > "$work/README.md"
"$python" "$checker" --root "$work" > /dev/null || fail "the checker refused the manifest"

expect_2() {
  local status
  set +e
  "$python" "$script" "$@" > /dev/null 2> "$work/err"
  status=$?
  set -e
  [[ $status -eq 2 ]] || fail "$*: exit $status, not 2"
}
mkdir -p "$work/results/2026-12-08-empty" "$work/results/bad-name"
expect_2 "$work/results/2026-12-08-empty"
grep -q 'no JSON document that records its sitting' "$work/err" || fail "empty: $(cat "$work/err")"
expect_2 "$work/results/bad-name"
grep -q 'named YYYY-MM-DD-what' "$work/err" || fail "bad name: $(cat "$work/err")"
echo "sitting_manifest_test: all passed"
