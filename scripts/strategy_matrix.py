#!/usr/bin/env python3
"""The steal-strategy matrix of weft-bench compare runs, as Markdown.

usage: scripts/strategy_matrix.py OUT.md IN.json [IN.json...]

Reads the JSON files that `weft-bench compare --json FILE` writes (best with --profile, for
the R_* columns; without it they are "-") and writes OUT.md with one table per workload:
rows are weft's steal mechanism x policy, in the order the runs first appear; per worker
count a group of columns:

  median s     the median time over every repetition of that (mechanism, policy, workers)
  speedup      the serial elision's median over that median
  R_busy .. R_frame   the execution profile's shares of the workers' time
  tasks/steal  tasks taken per successful steal
  steals/run   successful steals per run

Below each table, and on stdout: per worker count the best (lowest median) configuration
and, where the policy "adaptive" ran, its median over the best other policy's under the
same mechanism ("adaptive/best-other = 1.03": adaptive 3% slower).

Several files may hold the same workload (e.g. one file per mechanism, or repeated
sessions): their runs are pooled. Times are pooled before taking the median; the counters
and profile shares are averaged over the repetitions. Runs of the peers are ignored.

Exit status: 0 done, 2 a bad argument, an unreadable or unwritable file, or JSON without the
fields weft-bench compare writes (the message names the file and the field).
"""

import json
import statistics
import sys

PROG = "strategy_matrix.py"
PROFILE_KEYS = [("r_busy", "R_busy"), ("r_steal", "R_steal"), ("r_idle", "R_idle"),
                ("r_switch", "R_switch"), ("r_frame", "R_frame")]


class InputError(Exception):
    """A problem with an argument or an input file; the message is the whole story."""


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def field(obj, key, where, kind=None):
    """obj[key], checked to exist and (if kind is given) to be of that kind."""
    if not isinstance(obj, dict) or key not in obj:
        raise InputError(f'{where}: missing field "{key}"')
    value = obj[key]
    if kind == "number" and not is_number(value):
        raise InputError(f'{where}: field "{key}" is {json.dumps(value)}, expected a number')
    if kind == "string" and not isinstance(value, str):
        raise InputError(f'{where}: field "{key}" is {json.dumps(value)}, expected a string')
    if kind == "list" and not isinstance(value, list):
        raise InputError(f'{where}: field "{key}" is not a list')
    return value


def times_of(run, where):
    times = field(run, "times_s", where, "list")
    if not times or not all(is_number(t) for t in times):
        raise InputError(f'{where}: field "times_s" must be a non-empty list of seconds')
    return times


class Cell:
    """One (mechanism, policy, workers) of one workload, pooled over the input files."""

    def __init__(self):
        self.times = []
        self.reps = 0          # repetitions with counters (weights for the averages)
        self.steals = 0.0      # per-run averages times repetitions, summed
        self.tasks_stolen = 0.0
        self.profile = {k: 0.0 for k, _ in PROFILE_KEYS}
        self.profile_reps = 0

    def add(self, run, where):
        times = times_of(run, where)
        n = len(times)
        self.times.extend(times)
        counters = field(run, "counters_per_run", where)
        cwhere = where + ".counters_per_run"
        self.steals += field(counters, "steals", cwhere, "number") * n
        self.tasks_stolen += field(counters, "tasks_stolen", cwhere, "number") * n
        self.reps += n
        profile = run.get("profile")
        if profile is not None:
            for key, _ in PROFILE_KEYS:
                self.profile[key] += field(profile, key, where + ".profile", "number") * n
            self.profile_reps += n

    def median(self):
        return statistics.median(self.times)

    def steals_per_run(self):
        return self.steals / self.reps

    def tasks_per_steal(self):
        return self.tasks_stolen / self.steals if self.steals > 0 else 0.0

    def share(self, key):
        return self.profile[key] / self.profile_reps if self.profile_reps else None


class Workload:
    def __init__(self, spec):
        self.spec = spec
        self.result = ""
        self.serial_times = []
        self.mechanisms = []   # in order of first appearance
        self.policies = []
        self.workers = set()
        self.cells = {}        # (mechanism, policy, workers) -> Cell

    def serial_median(self):
        return statistics.median(self.serial_times)

    def configs(self):
        """(mechanism, policy) rows that ran at some worker count, in order."""
        return [(m, p) for m in self.mechanisms for p in self.policies
                if any((m, p, w) in self.cells for w in self.workers)]


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror or e}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: not JSON ({e.msg} at line {e.lineno}, column {e.colno})") \
            from None


def read_inputs(paths):
    workloads = {}  # spec -> Workload, in order of first appearance
    for path in paths:
        doc = load(path)
        if not isinstance(doc, dict) or doc.get("command") != "compare":
            raise InputError(f'{path}: not the output of weft-bench compare --json (no '
                             f'"command":"compare" at the top level)')
        for k, wdoc in enumerate(field(doc, "workloads", path, "list")):
            wwhere = f"{path}: workloads[{k}]"
            spec = field(wdoc, "spec", wwhere, "string")
            w = workloads.setdefault(spec, Workload(spec))
            have_serial = False
            for i, run in enumerate(field(wdoc, "runs", wwhere, "list")):
                where = f"{wwhere} ({spec}).runs[{i}]"
                impl = field(run, "impl", where, "string")
                if "skipped" in run:
                    continue
                if impl == "serial":
                    w.serial_times.extend(times_of(run, where))
                    w.result = run.get("result", w.result)
                    have_serial = True
                elif impl == "weft":
                    if "mechanism" not in run:
                        raise InputError(f'{where}: missing field "mechanism" (written by '
                                         f'weft-bench compare since --mechanism; run it again)')
                    mechanism = field(run, "mechanism", where, "string")
                    policy = field(run, "steal", where, "string")
                    workers = field(run, "workers", where, "number")
                    if mechanism not in w.mechanisms:
                        w.mechanisms.append(mechanism)
                    if policy not in w.policies:
                        w.policies.append(policy)
                    w.workers.add(workers)
                    w.cells.setdefault((mechanism, policy, workers), Cell()).add(run, where)
            if not have_serial:
                raise InputError(f'{wwhere} ({spec}): no "serial" run to take the speedup from')
    return list(workloads.values())


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def table(w):
    workers = sorted(w.workers)
    base = w.serial_median()
    columns = ["median s", "speedup"] + [name for _, name in PROFILE_KEYS] + \
        ["tasks/steal", "steals/run"]
    header = ["mechanism", "policy"] + [f"w={n} {c}" for n in workers for c in columns]
    lines = ["| " + " | ".join(header) + " |",
             "|" + "---|" * 2 + "---:|" * (len(header) - 2)]
    best = {n: min((c.median() for (m, p, k), c in w.cells.items() if k == n), default=None)
            for n in workers}
    for mechanism, policy in w.configs():
        row = [mechanism, policy]
        for n in workers:
            cell = w.cells.get((mechanism, policy, n))
            if cell is None:
                row += ["-"] * len(columns)
                continue
            median = cell.median()
            shown = f"{median:.4g}"
            row.append(f"**{shown}**" if median == best[n] else shown)
            row.append(f"{base / median:.2f}" if median > 0 else "-")
            row += [fmt(cell.share(key), ".3f") for key, _ in PROFILE_KEYS]
            row.append(f"{cell.tasks_per_steal():.2f}")
            row.append(f"{cell.steals_per_run():.1f}")
        lines.append("| " + " | ".join(row) + " |")
    return lines


def verdicts(w):
    """Per worker count: the best configuration, and adaptive against the best other policy."""
    out = []
    for n in sorted(w.workers):
        here = {(m, p): c for (m, p, k), c in w.cells.items() if k == n}
        (bm, bp), bc = min(here.items(), key=lambda item: item[1].median())
        line = f"w={n}: best {bm}/{bp} ({bc.median():.4g} s, speedup " \
               f"{w.serial_median() / bc.median():.2f})"
        for m in w.mechanisms:
            if (m, "adaptive") not in here:
                continue
            others = [(p, c) for (mm, p), c in here.items() if mm == m and p != "adaptive"]
            if not others:
                line += f"; {m}: adaptive/best-other = n/a (no other policy)"
                continue
            p, c = min(others, key=lambda item: item[1].median())
            ratio = here[(m, "adaptive")].median() / c.median()
            line += f"; {m}: adaptive/best-other = {ratio:.2f} (best other: {p})"
        out.append(line)
    return out


def markdown(workloads, paths):
    lines = ["# weft steal strategies", "",
             "From " + ", ".join(f"`{p}`" for p in paths) + " (weft-bench compare). Rows: "
             "steal mechanism x policy; per worker count: median seconds (the best in bold), "
             "speedup over the serial elision's median, the execution profile's shares "
             "(R_*, `-` without --profile), tasks per steal, successful steals per run.", ""]
    for w in workloads:
        lines.append(f"## {w.spec}")
        lines.append("")
        result = f"; {w.result}" if w.result else ""
        lines.append(f"serial elision: median {w.serial_median():.4g} s over "
                     f"{len(w.serial_times)} runs{result}")
        lines.append("")
        if not w.cells:
            lines += ["No weft runs.", ""]
            continue
        lines += table(w)
        lines.append("")
        lines += ["- " + v for v in verdicts(w)]
        lines.append("")
    return "\n".join(lines)


def main(argv):
    if len(argv) >= 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) < 3:
        print(f"{PROG}: usage: {PROG} OUT.md IN.json [IN.json...]", file=sys.stderr)
        return 2
    out_path, paths = argv[1], argv[2:]
    try:
        if out_path.endswith(".json"):
            raise InputError(f"{out_path}: the first argument is the Markdown file to write "
                             f"(usage: {PROG} OUT.md IN.json [IN.json...])")
        workloads = read_inputs(paths)
        if not workloads:
            raise InputError(", ".join(paths) + ": no workloads")
        text = markdown(workloads, paths)
        try:
            with open(out_path, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise InputError(f"{out_path}: cannot write: {e.strerror or e}") from None
    except InputError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    for w in workloads:
        for v in verdicts(w) if w.cells else ["no weft runs"]:
            print(f"{w.spec} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
