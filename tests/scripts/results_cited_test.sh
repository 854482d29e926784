#!/usr/bin/env bash
# scripts/check_results_cited.py on small trees built here (--root), one change at a time:
#   - a good tree passes: sittings cited from README.md, from docs/ by a relative link, and
#     by a script alone; its summary line counts them;
#   - each of these fails, naming the problem: a document citing a file that is not there, a
#     stale path under docs/, a link from docs/ without ../, a glob that matches nothing, a
#     sitting nothing cites, a sitting without manifest.json, a manifest that is not JSON,
#     one without a required key, a null commit without commit_note, a file the manifest
#     does not list, a file directly under results/;
#   - the recordings in a sitting's dags/ need no listing;
#   - --help exits 0; a bad argument or --root that is not a directory exits 2.
# Usage: tests/scripts/results_cited_test.sh [PYTHON [SCRIPT]]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${1:-python3}" script="${2:-$here/../../scripts/check_results_cited.py}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "results_cited_test: $*" >&2; exit 1; }
# The folder's name is spelled through $r so that this file cites nothing itself.
r=results

# manifest DIR NAME FILE...: a manifest with every required key, listing FILE...
manifest() {
  local dir="$1" name="$2"
  shift 2
  local files="" f
  for f in "$@"; do files+="${files:+, }\"$f\""; done
  printf '{"sitting": "%s", "date": "%s", "commit": null, "commit_note": "not recorded",
 "command": ["weft-bench fib 30"], "host": null, "steadiness": null, "files": [%s]}\n' \
    "$name" "${name:0:10}" "$files" >"$dir/manifest.json"
}

good="$work/good"
mkdir -p "$good/docs" "$good/scripts" "$good/$r/2026-01-01-alpha" "$good/$r/2026-01-02-beta/dags" \
  "$good/$r/2026-01-03-gamma"
echo "Raw output: \`$r/2026-01-01-alpha/data.txt\`, layout in \`$r/README.md\`." >"$good/README.md"
echo "See [beta](../$r/2026-01-02-beta/) and \`$r/<date>-what\`." >"$good/docs/NOTES.md"
echo "cat \"\$ROOT/$r/2026-01-03-gamma/costs.json\"" >"$good/scripts/run.sh"
echo "# layout" >"$good/$r/README.md"
echo 1 >"$good/$r/2026-01-01-alpha/data.txt"
manifest "$good/$r/2026-01-01-alpha" 2026-01-01-alpha data.txt
echo 2 >"$good/$r/2026-01-02-beta/b.json"
echo x >"$good/$r/2026-01-02-beta/dags/fft.wdag"
manifest "$good/$r/2026-01-02-beta" 2026-01-02-beta b.json
echo '{}' >"$good/$r/2026-01-03-gamma/costs.json"
manifest "$good/$r/2026-01-03-gamma" 2026-01-03-gamma costs.json

out="$("$python" "$script" --root "$good")" || fail "the good tree: exit $?"
[[ "$out" =~ ^check_results_cited:\ 3\ sittings,\ [0-9]+\ citations,\ all\ present$ ]] ||
  fail "the good tree: '$out'"

n=0
# broken "what it should say" CHANGE...: a copy of the good tree changed by the shell commands
# CHANGE (run in the copy) fails with exit 1 and a line matching what it should say.
broken() {
  local expect="$1" status=0
  shift
  n=$((n + 1))
  local t="$work/t$n"
  cp -r "$good" "$t"
  (cd "$t" && eval "$@")
  "$python" "$script" --root "$t" >"$t.out" 2>"$t.err" || status=$?
  [[ $status -eq 1 ]] || fail "after '$*': exit $status, not 1"
  grep -q -- "$expect" "$t.err" || { cat "$t.err" >&2; fail "after '$*': no '$expect'"; }
}
broken "README.md: cites $r/2026-01-01-alpha/missing.txt, which does not exist" \
  "echo 'and \`$r/2026-01-01-alpha/missing.txt\`' >>README.md"
broken "docs/NOTES.md: cites docs/$r/2026-01-01-alpha/data.txt" \
  "echo 'old: \`docs/$r/2026-01-01-alpha/data.txt\`' >>docs/NOTES.md"
broken "docs/NOTES.md: cites $r/2026-01-02-beta/, which does not exist" \
  "echo '[beta]($r/2026-01-02-beta/)' >docs/NOTES.md"
broken "matches nothing" "echo '\`$r/2026-01-0*-zeta/\`' >>README.md"
broken "$r/2026-01-04-delta: a sitting that no document" \
  "mkdir $r/2026-01-04-delta && echo 1 >$r/2026-01-04-delta/d.txt &&" \
  "cp $r/2026-01-01-alpha/manifest.json $r/2026-01-04-delta/ &&" \
  "sed -i 's/2026-01-01-alpha/2026-01-04-delta/; s/2026-01-01/2026-01-04/; s/data.txt/d.txt/'" \
  "$r/2026-01-04-delta/manifest.json"
broken "$r/2026-01-01-alpha: no manifest.json" "rm $r/2026-01-01-alpha/manifest.json"
broken "$r/2026-01-02-beta/manifest.json: not valid JSON" \
  "echo '{\"sitting\": ' >$r/2026-01-02-beta/manifest.json"
broken "$r/2026-01-03-gamma/manifest.json: missing host" \
  "sed -i 's/\"host\": null, //' $r/2026-01-03-gamma/manifest.json"
broken "commit is null without a commit_note" \
  "sed -i 's/\"commit_note\": \"not recorded\",//' $r/2026-01-03-gamma/manifest.json"
broken "$r/2026-01-01-alpha/extra.txt: not listed in manifest.json" \
  "echo 3 >$r/2026-01-01-alpha/extra.txt"
broken "$r/stray.json: a file outside any sitting folder" "echo '{}' >$r/stray.json"

"$python" "$script" --help | grep -q "^Exit status: 0" || fail "--help does not say the exit status"
for bad in "--bogus" "--root" "--root $work/none"; do
  status=0
  # shellcheck disable=SC2086
  "$python" "$script" $bad >/dev/null 2>"$work/err" || status=$?
  [[ $status -eq 2 ]] || fail "'$bad': exit $status, not 2"
  grep -q "check_results_cited: " "$work/err" || fail "'$bad': no message"
done
echo "results_cited_test: ok"
