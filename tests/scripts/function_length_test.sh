#!/usr/bin/env bash
# scripts/check_function_length.py on small trees built here (--root):
#   - a good tree passes: functions at the limit, braces inside strings, raw strings,
#     characters and comments, class bodies and namespaces (not functions), a lambda inside
#     a function (part of it), an initializer list, a function whose return type is on the
#     line above its name;
#   - a function one line over the limit fails, naming its file, line, name and length; a
#     long member function defined in its class fails the same way; so does a long function
#     hidden after a raw string full of braces;
#   - --help exits 0; an unknown argument or a --root that is not a folder exits 2.
# Usage: tests/scripts/function_length_test.sh [PYTHON [SCRIPT]]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${1:-python3}" script="${2:-$here/../../scripts/check_function_length.py}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "function_length_test: $*" >&2; exit 1; }

# body N: N lines of statements
body() { local i; for ((i = 0; i < $1; ++i)); do echo "  x += $i;"; done; }

good="$work/good"
mkdir -p "$good/src"
{
  echo 'namespace n {'
  echo 'struct S {'
  echo '  int member() const { return 1; }'
  echo '};'
  echo 'const char* s = "{ not a body";'
  echo 'const char c = '"'{'"';'
  echo 'const char* r = R"x({ { {)x";'
  echo '// a comment {'
  echo 'int table[] = {1, 2, 3};'
  echo 'int at_limit(int x) {'  # 1 + 8 + 1 = 10 lines
  body 8
  echo '}'
  echo 'int'
  echo 'return_type_above(int x) {'  # 2 + 7 + 1 = 10 lines
  body 7
  echo '}'
  echo 'int with_lambda(int x) {'
  echo '  auto f = [&] { return x; };'
  echo '  if (x) { x = f(); }'
  echo '  return x;'
  echo '}'
  echo '}  // namespace n'
} >"$good/src/good.cpp"
out="$("$python" "$script" --root "$good" --max 10)" || fail "the good tree: exit $?"
[[ "$out" == "check_function_length: 4 functions in 1 files, none longer than 10 lines" ]] ||
  fail "the good tree: '$out'"

# plant NAME TEXT EXPECTED: a tree whose src/bad.cpp is TEXT must exit 1 naming EXPECTED.
plant() {
  local name="$1" text="$2" expected="$3" bad="$work/$1"
  mkdir -p "$bad/src"
  printf '%s\n' "$text" >"$bad/src/bad.cpp"
  local status=0
  "$python" "$script" --root "$bad" --max 10 >/dev/null 2>"$work/err" || status=$?
  [[ $status -eq 1 ]] || fail "$name: exit $status, expected 1"
  grep -qx "check_function_length: $expected" "$work/err" ||
    fail "$name: message '$(cat "$work/err")', expected '$expected'"
}
plant one_over "$(echo 'int f(int x) {'; body 9; echo '}')" "src/bad.cpp:1: f, 11 lines (at most 10)"
plant member "$(echo 'class C {'; echo ' public:'; echo '  void g() {'; body 9; echo '  }'; echo '};')" \
  "src/bad.cpp:3: g, 11 lines (at most 10)"
plant after_raw "$(echo 'const char* r = R"({{{)";'; echo 'void h() {'; body 9; echo '}')" \
  "src/bad.cpp:2: h, 11 lines (at most 10)"

help="$("$python" "$script" --help)" || fail "--help: exit $?"
grep -q "^Usage: scripts/check_function_length.py" <<<"$help" || fail "--help"
status=0
"$python" "$script" --bogus >/dev/null 2>&1 || status=$?
[[ $status -eq 2 ]] || fail "--bogus: exit $status, expected 2"
status=0
"$python" "$script" --root "$work/none" >/dev/null 2>&1 || status=$?
[[ $status -eq 2 ]] || fail "--root of a missing folder: exit $status, expected 2"
echo "function_length_test: all passed"
