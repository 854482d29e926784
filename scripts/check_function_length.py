#!/usr/bin/env python3
"""Checks that no function in src/, workloads/ or tools/ is longer than 80 lines.

A function's length is counted as lizard counts it: from the line its declarator starts on
to the line of its closing brace, both included. The C++ and C sources are read as tokens
(comments, string and character literals, raw strings and preprocessor lines skipped), and a
brace opens a function body when it follows a parenthesised declarator at namespace or
class scope: not a class, struct, union, enum or namespace body, not an initializer, not a
statement inside a function. A lambda or local class counts toward the function it is in.
Every file must pass clang-format first (scripts/test.sh's format stage), so that lines are
what a reader sees.

Usage: scripts/check_function_length.py [--root DIR] [--max N] [PATH...]
  --root DIR  the repository to check (default: the one this script is in)
  --max N     the longest a function may be, in lines (default 80)
  PATH...     folders or files under DIR to check (default: src workloads tools)
Prints one line per function that is too long (file:line: name, N lines) and exits 1 if
there is any; otherwise prints "check_function_length: N functions in M files, none longer
than 80 lines" and exits 0. Exit status 2: bad usage.
"""
import os
import re
import sys

SUFFIXES = (".c", ".cc", ".cpp", ".h", ".hpp")
NOT_FUNCTIONS = re.compile(r"^\s*(template\s*<.*>\s*)?(class|struct|union|enum|namespace)\b|=\s*$")
NAME = re.compile(r"([~\w:]+(?:operator\s*[^\s(]+)?)\s*\(")


def strip(text):
    """The text with comments, literals and preprocessor lines blanked, newlines kept."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":  # a preprocessor line, with its continuations
            while i < n and not (text[i] == "\n" and text[i - 1] != "\\"):
                i += 1
            continue
        if c == "\n":
            out.append(c)
            at_line_start = True
            i += 1
            continue
        if not c.isspace():
            at_line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end))
            i = end
            continue
        m = re.match(r'R"([^(\s]*)\(', text[i:i + 20]) if c == "R" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) else None
        if m:
            close = ")" + m.group(1) + '"'
            end = text.find(close, i + m.end())
            end = n if end < 0 else end + len(close)
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
            continue
        if c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def functions(text):
    """(name, first line, length) of each function body in the file's text."""
    code = strip(text)
    found = []
    # Each open brace: (is a function body, start line, name); inside a body nothing nests.
    stack = []
    header_start = None  # offset where the current declaration began
    line_of = lambda offset: code.count("\n", 0, offset) + 1  # noqa: E731
    depth_in_function = 0
    for i, c in enumerate(code):
        if depth_in_function:
            if c == "{":
                depth_in_function += 1
            elif c == "}":
                depth_in_function -= 1
                if depth_in_function == 0:
                    name, start = stack.pop()
                    found.append((name, start, line_of(i) - start + 1))
                    header_start = None
            continue
        if c in ";}":
            if c == "}" and stack:
                stack.pop()
            header_start = None
            continue
        if c == "{":
            header = code[header_start:i] if header_start is not None else ""
            flat = " ".join(header.split())
            is_function = ("(" in flat and ")" in flat and not NOT_FUNCTIONS.search(flat)
                           and not re.match(r"^(if|for|while|switch|catch|do|else)\b", flat))
            if is_function:
                m = NAME.search(flat)
                name = m.group(1) if m else flat[:40]
                start = line_of(header_start + len(header) - len(header.lstrip()))
                stack.append((name, start))
                depth_in_function = 1
            else:
                stack.append(None)
            header_start = None
            continue
        if header_start is None and not c.isspace():
            header_start = i
        # An access specifier ends the header it would otherwise join.
        if c == ":" and header_start is not None:
            head = code[header_start:i + 1].strip()
            if head in ("public:", "private:", "protected:"):
                header_start = None
    return found


def source_files(root, paths):
    for path in paths:
        full = os.path.join(root, path)
        if os.path.isfile(full):
            yield path
            continue
        for base, dirs, files in os.walk(full):
            dirs.sort()
            for f in sorted(files):
                if f.endswith(SUFFIXES):
                    yield os.path.relpath(os.path.join(base, f), root)


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    limit = 80
    paths = []
    args = argv[1:]
    while args:
        arg = args.pop(0)
        if arg in ("-h", "--help"):
            print(__doc__.split("Usage:", 1)[0].strip() + "\n\nUsage:" + __doc__.split("Usage:", 1)[1])
            return 0
        if arg == "--root" and args:
            root = args.pop(0)
        elif arg == "--max" and args and args[0].isdigit() and int(args[0]) > 0:
            limit = int(args.pop(0))
        elif arg.startswith("-"):
            sys.stderr.write(f"check_function_length: unknown argument {arg} (see --help)\n")
            return 2
        else:
            paths.append(arg)
    if not os.path.isdir(root):
        sys.stderr.write(f"check_function_length: --root {root}: not a directory\n")
        return 2
    paths = paths or [p for p in ("src", "workloads", "tools") if os.path.isdir(os.path.join(root, p))]
    count, files, problems = 0, 0, []
    for path in source_files(root, paths):
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        files += 1
        for name, start, length in functions(text):
            count += 1
            if length > limit:
                problems.append(f"{path}:{start}: {name}, {length} lines (at most {limit})")
    for p in problems:
        sys.stderr.write(f"check_function_length: {p}\n")
    if problems:
        return 1
    print(f"check_function_length: {count} functions in {files} files, none longer than {limit} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
