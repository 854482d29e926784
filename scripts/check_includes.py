#!/usr/bin/env python3
"""Checks the layers' include rules (docs/OVERVIEW.md, "Layers").

  - A header under include/ (the public API) includes only standard headers and other
    headers under include/: nothing of src/.
  - A file outside src/ and tests/ (the benchmarks, the simulator, the distributed search,
    the examples) includes, of src/'s private headers, only those of weft::internal: the
    ones under src/model/ and src/platform/.
  - Inside src/, a layer includes only its own and lower layers' headers, lowest first:
    platform, model, tasks, the runtime (core, loop and threads: three folders of one layer,
    since the pool in core holds the loop queues and the thread scheduler, and both reach
    their workers through it), then capi.
tests/ may include any private header: each test exercises the part it is named after.

A quoted include is resolved as the compiler would with the include paths these targets
have: the including file's folder, then include/, then src/. Angle-bracket includes are
system or library headers and are not checked.

Usage: scripts/check_includes.py [--root DIR]
  --root DIR  the repository to check (default: the one this script is in)
Prints one line per violation (file:line: what it includes, and the rule it breaks) and
exits 1 if there is any; otherwise prints "check_includes: N files, all within their
layers" and exits 0. Exit status 2: bad usage.
"""
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".h", ".hpp")
# Lowest first; a layer may include its own headers and those of any layer before it.
LAYERS = ["platform", "model", "tasks", "core/loop/threads", "capi"]
# Folders of the same rank are one layer and may include each other.
RANK = {"platform": 0, "model": 1, "tasks": 2, "core": 3, "loop": 3, "threads": 3, "capi": 4}
INTERNAL = ("model", "platform")  # weft::internal


def usage(out):
    out.write(__doc__.split("\n\n", 1)[1].split("Usage:", 1)[0].strip() + "\n\n")
    out.write("Usage:" + __doc__.split("Usage:", 1)[1])


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files"], check=True, capture_output=True,
                             text=True).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        out = []
        for base, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith((".", "build", "_install"))]
            out += [os.path.relpath(os.path.join(base, f), root) for f in files]
    return sorted(f for f in out if f.endswith(SOURCE_SUFFIXES))


def resolve(root, including, name):
    """The repository-relative path a quoted include names, or None if none of the paths has it."""
    for base in (os.path.dirname(including), "include", "src"):
        candidate = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def layer_of(path):
    parts = path.split(os.sep)
    if len(parts) >= 3 and parts[0] == "src" and parts[1] in RANK:
        return parts[1]
    return None


def check(root):
    problems = []
    files = tracked_files(root)
    for path in files:
        top = path.split(os.sep)[0]
        if top == "tests":
            continue
        own = layer_of(path)
        try:
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                lines = f.readlines()
        except OSError as e:
            problems.append(f"{path}: cannot read: {e.strerror}")
            continue
        for number, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = resolve(root, path, m.group(1))
            if target is None or not target.startswith("src" + os.sep):
                continue  # a public header, a file of the tool's own, or not in the tree
            where = f"{path}:{number}: includes {target}"
            if top == "include":
                problems.append(f"{where}: the public API may not include src/")
            elif top != "src":
                if layer_of(target) not in INTERNAL:
                    problems.append(f"{where}: outside src/ only weft::internal's headers "
                                    f"(src/model/, src/platform/) may be included")
            elif own is not None and layer_of(target) is not None:
                if RANK[layer_of(target)] > RANK[own]:
                    problems.append(f"{where}: layer {own} may not include the higher layer "
                                    f"{layer_of(target)} ({' < '.join(LAYERS)})")
            elif own is None:
                problems.append(f"{where}: {path} is in no layer ({', '.join(LAYERS)})")
            # (a file in src/ including a non-src header is the public API: always allowed)
    return len(files), problems


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    args = argv[1:]
    while args:
        arg = args.pop(0)
        if arg in ("-h", "--help"):
            usage(sys.stdout)
            return 0
        if arg == "--root" and args:
            root = args.pop(0)
            if not os.path.isdir(root):
                sys.stderr.write(f"check_includes: --root {root}: not a directory\n")
                return 2
        else:
            usage(sys.stderr)
            sys.stderr.write(f"check_includes: unknown argument {arg}\n")
            return 2
    count, problems = check(root)
    for p in problems:
        sys.stderr.write(f"check_includes: {p}\n")
    if problems:
        return 1
    print(f"check_includes: {count} files, all within their layers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
