#!/usr/bin/env python3
"""Writes a sitting folder's manifest.json from the documents weft's benchmarks wrote into it.

usage: scripts/sitting_manifest.py results/YYYY-MM-DD-what [--note TEXT]

Every JSON file in the folder that records its sitting (the "commit", "command_line", "date"
and "host" members that weft-bench and the other programs built on tools/bench/stats write, see
docs/MEASURING.md) gives the manifest its commit, its command(s), its host (CPU model and
kernel) and its steadiness (each document's calibration CV, steal share and whether the host
was unsteady); "files" lists every file of the folder. Where the documents disagree on the
commit, the manifest lists each. Nothing is estimated: a figure no document records is null,
with a note saying so. results/README.md describes the fields; scripts/check_results_cited.py
checks them.

Exit status: 0 written, 2 a bad argument or a folder with no such document.
"""

import json
import os
import re
import sys

SITTING_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})-[A-Za-z0-9][A-Za-z0-9._+-]*$")


def fail(message):
    print(f"sitting_manifest.py: {message}", file=sys.stderr)
    sys.exit(2)


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    folder = argv[0].rstrip("/")
    note = None
    rest = argv[1:]
    while rest:
        if rest[0] == "--note" and len(rest) > 1:
            note = rest[1]
            rest = rest[2:]
        else:
            fail(f"{rest[0]}: unknown argument")
    name = os.path.basename(folder)
    m = SITTING_NAME.match(name)
    if not m:
        fail(f"{folder}: a sitting folder is named YYYY-MM-DD-what")
    if not os.path.isdir(folder):
        fail(f"{folder}: not a folder")
    files = sorted(f for f in os.listdir(folder) if f != "manifest.json" and
                   os.path.isfile(os.path.join(folder, f)))
    docs = []
    for f in files:
        if not f.endswith(".json"):
            continue
        try:
            with open(os.path.join(folder, f), encoding="utf-8") as fh:
                doc = json.load(fh)
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and "commit" in doc and "command_line" in doc:
            docs.append((f, doc))
    if not docs:
        fail(f"{folder}: no JSON document that records its sitting (commit, command_line)")
    commits = sorted({d["commit"] for _, d in docs})
    hosts = sorted({f"{d.get('cpu_model', '?')}, kernel {d.get('kernel', '?')}" for _, d in docs})
    manifest = {
        "sitting": name,
        "date": m.group(1),
        "commit": commits[0] if len(commits) == 1 else commits,
        "command": [d["command_line"] for _, d in docs],
        "host": hosts[0] if len(hosts) == 1 else hosts,
        "steadiness": {
            f: {"calibration_cv": d.get("host", {}).get("calibration_cv"),
                "steal_share": d.get("host", {}).get("steal_share"),
                "host_unsteady": d.get("host_unsteady")}
            for f, d in docs
        },
        "started": {f: d.get("date") for f, d in docs},
        "build": sorted({f"{d.get('compiler')} {d.get('flags')} ({d.get('build_type')})"
                         for _, d in docs}),
        "files": files,
    }
    if note:
        manifest["note"] = note
    with open(os.path.join(folder, "manifest.json"), "w", encoding="utf-8") as fh:
        json.dump(manifest, fh, indent=2)
        fh.write("\n")
    print(f"sitting_manifest.py: wrote {folder}/manifest.json ({len(files)} files, "
          f"{len(docs)} documents)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
