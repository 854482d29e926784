#!/usr/bin/env python3
"""Checks that the raw results under results/ and the text that cites them agree.

results/ holds one folder per sitting (one measurement session), named YYYY-MM-DD-what, each
with a manifest.json (results/README.md). This script reads, outside results/: README.md and
every other Markdown file, and every text file under scripts/, tests/, tools/ and workloads/. In
them, a citation is a path that runs through a `results/` folder:
  - results/... is read from the repository's root, and so is ${CMAKE_SOURCE_DIR}/results/...,
    ${PROJECT_SOURCE_DIR}/results/... and $ROOT/results/...; a path with another folder
    before results/ (docs/results/...) is read from the root too, and so fails once moved;
  - ../results/... and ./results/..., and a Markdown link's target, are read from the citing
    file's own folder (docs/X.md links ../results/...);
  - * and ? in a citation are a glob, which must match something;
  - a path under another variable ($tmp/results/...), an absolute path, or a placeholder
    (results/... or a name with YYYY in it) is not one.
It reports, one line each:
  - a cited path that does not exist;
  - a sitting folder that nothing cites (a citation of the folder or of anything in it
    counts; results/ itself, or results/README.md, cites no sitting);
  - a sitting folder not named YYYY-MM-DD-what, or a file directly under results/ other
    than README.md;
  - a sitting without manifest.json, or whose manifest is not a JSON object with the keys
    sitting (the folder's name), date (YYYY-MM-DD, the name's), commit (null needs
    commit_note), command, host, steadiness and files (the folder's files but manifest.json
    and the dags/ recordings that git ignores, each listed once).
On success it prints one line: "check_results_cited: N sittings, M citations, all present".

Usage: scripts/check_results_cited.py [--root DIR]
  --root DIR  the repository to check (default: the one this script is in)
Exit status: 0 all present; 1 a problem (one line each on stderr); 2 bad usage.
"""
import glob
import json
import os
import re
import sys

REQUIRED = ("sitting", "date", "commit", "command", "host", "steadiness", "files")
SITTING_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})-[A-Za-z0-9][A-Za-z0-9._+-]*$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
CODE_DIRS = ("scripts", "tests", "tools", "workloads")
# Folders never read: version control, build trees, caches, dependencies.
SKIP_DIRS = {"__pycache__", "node_modules", "target", "_deps"}
# A path through a results/ folder: the part before it, then the part after it.
CITATION = re.compile(r"((?:[A-Za-z0-9_.${}+-]+/|/)*)results/([A-Za-z0-9_.*?+/^-]*)")
ROOT_VARIABLES = ("${CMAKE_SOURCE_DIR}/", "${PROJECT_SOURCE_DIR}/", "$ROOT/", "${ROOT}/")


def usage(message=None):
    if message:
        print(f"check_results_cited: {message}", file=sys.stderr)
    print(__doc__.strip().split("\n\n")[-1], file=sys.stderr)
    sys.exit(2)


def parse_args(argv):
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(0)
        if arg == "--root":
            if i + 1 >= len(argv):
                usage("--root needs a directory")
            root = argv[i + 1]
            i += 2
        elif arg.startswith("--root="):
            root = arg[len("--root="):]
            i += 1
        else:
            usage(f"unknown argument '{arg}'")
    if not os.path.isdir(root):
        usage(f"--root {root}: not a directory")
    return os.path.abspath(root)


def skipped(name, top_level):
    if name.startswith(".") or name in SKIP_DIRS:
        return True
    return top_level and (name == "results" or name.startswith("build") or name == "_install")


def citing_files(root):
    """Markdown files anywhere outside results/, and text files under the code folders."""
    out = []
    for d, dirs, files in os.walk(root):
        top = os.path.samefile(d, root)
        dirs[:] = sorted(x for x in dirs if not skipped(x, top))
        rel = os.path.relpath(d, root)
        in_code = rel.split(os.sep)[0] in CODE_DIRS
        for f in sorted(files):
            if f.endswith(".md") or in_code:
                out.append(os.path.join(d, f))
    return out


def read_text(path):
    try:
        with open(path, "rb") as f:
            data = f.read(4 << 20)
    except OSError:
        return None
    if b"\0" in data:
        return None
    return data.decode("utf-8", errors="replace")


def citations(text):
    """(prefix, rest, is_link_target) for each path through a results/ folder in the text."""
    for m in CITATION.finditer(text):
        start = m.start()
        before = text[start - 1] if start > 0 else ""
        if before and (before.isalnum() or before in "_-"):
            continue  # plot_results/..., not a folder named results
        prefix, rest = m.group(1), m.group(2)
        if rest.startswith("...") or "YYYY" in rest:
            continue  # results/... and results/YYYY-MM-DD-what: placeholders, not paths
        rest = rest.rstrip(".")
        link = text[max(0, start - 2):start] == "]("
        yield prefix, rest, link


def resolve(root, citing_dir, prefix, rest, link):
    """The cited path, absolute, or None when the citation is not one of the repository's."""
    if link or prefix.startswith(("./", "../")):
        base = citing_dir
        if not link and prefix.strip("./"):
            return None  # ../x/results: another tree
        base = os.path.join(citing_dir, prefix)
    elif prefix == "":
        base = root
    elif prefix in ROOT_VARIABLES:
        base = root
    elif "$" in prefix or "{" in prefix or "(" in prefix or prefix.startswith("/"):
        return None  # another variable's folder, or an absolute path
    else:
        base = os.path.join(root, prefix)  # docs/results/...: read from the root
    return os.path.normpath(os.path.join(base, "results", rest))


def check(root):
    problems = []
    results = os.path.join(root, "results")
    sittings = []
    if os.path.isdir(results):
        for name in sorted(os.listdir(results)):
            path = os.path.join(results, name)
            if os.path.isdir(path):
                sittings.append(name)
            elif name != "README.md":
                problems.append(f"results/{name}: a file outside any sitting folder")

    cited = set()
    count = 0
    for path in citing_files(root):
        text = read_text(path)
        if text is None:
            continue
        rel_file = os.path.relpath(path, root)
        for prefix, rest, link in citations(text):
            target = resolve(root, os.path.dirname(path), prefix, rest, link)
            if target is None:
                continue
            count += 1
            shown = os.path.relpath(target, root)
            if "*" in rest or "?" in rest:
                matches = glob.glob(target)
                if not matches:
                    problems.append(f"{rel_file}: cites {shown}, which matches nothing")
                targets = matches
            elif not os.path.exists(target) or (rest.endswith("/") and not os.path.isdir(target)):
                problems.append(f"{rel_file}: cites {prefix}results/{rest}, which does not exist")
                targets = []
            else:
                targets = [target]
            for t in targets:
                inside = os.path.relpath(t, results)
                if not inside.startswith(".."):
                    first = inside.split(os.sep)[0]
                    if first in sittings:
                        cited.add(first)

    for name in sittings:
        where = f"results/{name}"
        if name not in cited:
            problems.append(f"{where}: a sitting that no document, script or test cites")
        m = SITTING_NAME.match(name)
        if not m:
            problems.append(f"{where}: not named YYYY-MM-DD-what")
        manifest = os.path.join(results, name, "manifest.json")
        if not os.path.isfile(manifest):
            problems.append(f"{where}: no manifest.json")
            continue
        try:
            with open(manifest, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            problems.append(f"{where}/manifest.json: not valid JSON ({e})")
            continue
        if not isinstance(doc, dict):
            problems.append(f"{where}/manifest.json: not a JSON object")
            continue
        missing = [k for k in REQUIRED if k not in doc]
        if missing:
            problems.append(f"{where}/manifest.json: missing {', '.join(missing)}")
        if "sitting" in doc and doc["sitting"] != name:
            problems.append(f"{where}/manifest.json: sitting is {doc['sitting']!r}, not {name!r}")
        if "date" in doc:
            if not (isinstance(doc["date"], str) and DATE.match(doc["date"])):
                problems.append(f"{where}/manifest.json: date {doc['date']!r} is not YYYY-MM-DD")
            elif m and doc["date"] != m.group(1):
                problems.append(f"{where}/manifest.json: date {doc['date']} is not the folder's")
        if "commit" in doc and doc["commit"] is None and not doc.get("commit_note"):
            problems.append(f"{where}/manifest.json: commit is null without a commit_note")
        if "files" in doc:
            listed = doc["files"]
            if not isinstance(listed, list) or not all(isinstance(x, str) for x in listed):
                problems.append(f"{where}/manifest.json: files is not a list of names")
                continue
            present = set()
            for d, dirs, files in os.walk(os.path.join(results, name)):
                dirs[:] = [x for x in dirs if x != "dags"]
                for f in files:
                    present.add(os.path.relpath(os.path.join(d, f), os.path.join(results, name))
                                .replace(os.sep, "/"))
            present.discard("manifest.json")
            for x in sorted(set(listed) - present):
                problems.append(f"{where}/manifest.json: lists {x}, which is not there")
            for x in sorted(present - set(listed)):
                problems.append(f"{where}/{x}: not listed in manifest.json")
            if len(listed) != len(set(listed)):
                problems.append(f"{where}/manifest.json: files lists a name twice")
    return sittings, count, problems


def main(argv):
    root = parse_args(argv)
    sittings, count, problems = check(root)
    for p in problems:
        print(f"check_results_cited: {p}", file=sys.stderr)
    if problems:
        print(f"check_results_cited: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"check_results_cited: {len(sittings)} sittings, {count} citations, all present")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
