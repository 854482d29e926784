#!/usr/bin/env python3
"""Plots and tables for docs/RESULTS.md from the JSON of `weft-bench compare --json FILE`.

Writes tables.md into OUT_DIR and the plots into IMAGE_DIR:
  tables.md    per workload: median time, speedup and weft/peer for every run, as Markdown;
               weft/peer as the median of the paired repetitions with its bootstrap interval
               and verdict where compare wrote them (docs/MEASURING.md), else with the range
  speedup.png  speedup over the serial elision against the worker count, one panel per
               workload, one line per implementation (each weft policy and each peer)
  ratios.png   weft/peer per workload: one bar per peer and worker count from 1 to the median
               of the paired repetitions, with its bootstrap interval where compare wrote one
               (else the repetitions' range) (down: weft faster), on a log scale (fib's
               ratios reach 0.01)
  profile.png  the execution profile of the weft runs as stacked bars (busy, steal, idle,
               switch, frame management), one bar per policy and worker count, one panel
               per workload, like Figs. 10, 19, 21 and 24 of Adnan & Sato

Usage: scripts/plot_results.py COMPARE.json [OUT_DIR [IMAGE_DIR]]
       scripts/plot_results.py --tables COMPARE.json OUT.md   (the tables only)
OUT_DIR defaults to COMPARE.json's own folder (its sitting under results/, results/README.md);
IMAGE_DIR to OUT_DIR when OUT_DIR is given, else to docs/images (where the documents' plots
are).
Needs matplotlib for the plots (PyPI; scripts/setup.sh installs it).
"""
import json
import math
import os
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if data.get("command") != "compare":
        sys.exit(f"plot_results.py: {path}: not the JSON of weft-bench compare")
    return data


def weft_config(run):
    """mechanism/policy of a weft run; JSON from before --mechanism has no mechanism."""
    mech = run.get("mechanism")
    return f"{mech}/{run['steal']}" if mech else run["steal"]


def series_name(run):
    """The run's label less its worker count: a loop workload's runs name their schedule, a
    peer's its loop variant too, and weft's its loop settings where compare labelled them
    (--loops, --frames, --adaptive)."""
    schedule = f" {run['schedule']}" if run.get("schedule") else ""
    if run["impl"] == "weft":
        loops = ""
        if run.get("loops"):
            text = f"{run['loops']}/{run['frames']}/adapt={run['adaptive_fork']}"
            loops = f" {text}" if f" {text} " in run.get("label", "") else ""
        return f"weft {weft_config(run)}{schedule}{loops}"
    variant = f"/{run['variant']}" if run.get("variant") else ""
    return f"{run['impl']}{variant}{schedule}"


def write_tables(data, out, name):
    lines = []
    for w in data["workloads"]:
        # A peer has a series per loop variant and schedule on a loop workload.
        ratios = {(r["peer"], r.get("variant"), r.get("schedule"), r["workers"]): r
                  for r in w["ratios"]}
        lines.append(f"**{w['spec']}** ({w['runs'][0].get('result', '')})\n")
        intervals = any("ci_low" in r for r in w["ratios"])
        column = "weft/peer [interval] verdict" if intervals else "weft/peer (min-max)"
        lines.append(f"| implementation | median s | min s | max s | speedup | {column} |")
        lines.append("|---|---:|---:|---:|---:|---|")
        for run in w["runs"]:
            if "skipped" in run:
                lines.append(f"| {run['label']} | skipped: {run['skipped']} | | | | |")
                continue
            r = ratios.get((run["impl"], run.get("variant"), run.get("schedule"), run["workers"]))
            ratio = ""
            if r:
                weft = f"weft {(r['weft_mechanism'] + '/') if r.get('weft_mechanism') else ''}" \
                       f"{r['weft_steal']}"
                if "ci_low" in r:
                    confidence = "" if abs(r["confidence"] - 0.95) < 1e-9 else \
                        f" @{r['confidence'] * 100:.2f}%"
                    ratio = (f"{r['median']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}] "
                             f"{r['verdict']} n={r['n']}{confidence}, {weft}")
                else:
                    ratio = f"{r['median']:.3f} ({r['min']:.3f}-{r['max']:.3f}), {weft}"
            lines.append(f"| {run['label']} | {run['median_s']:.4f} | {run['min_s']:.4f} | "
                         f"{run['max_s']:.4f} | {run['speedup']:.2f} | {ratio} |")
        lines.append("")
    path = os.path.join(out, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    return path


def plot_speedup(data, plt, out):
    workloads = data["workloads"]
    cols = min(4, len(workloads))
    rows = math.ceil(len(workloads) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.2 * rows), squeeze=False)
    # One colour per implementation across all panels, even where a peer was skipped.
    names = sorted({series_name(r) for w in workloads for r in w["runs"]
                    if r["impl"] != "serial" and "skipped" not in r})
    colours = {name: f"C{i % 10}" for i, name in enumerate(names)}
    for ax, w in zip(axes.flat, workloads):
        series = {}
        for run in w["runs"]:
            if run["impl"] == "serial" or "skipped" in run:
                continue
            series.setdefault(series_name(run), []).append((run["workers"], run["speedup"]))
        top = 1
        for name, points in sorted(series.items()):
            points.sort()
            xs, ys = zip(*points)
            top = max(top, max(xs))
            ax.plot(xs, ys, marker="o", linestyle="--" if name.startswith("weft") else "-",
                    color=colours[name], label=name)
        ax.plot([1, top], [1, top], color="grey", linewidth=0.8, label="linear")
        ax.set_title(w["spec"], fontsize=10)
        ax.set_xlabel("workers")
        ax.set_ylabel("speedup vs serial")
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(workloads):]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(8, len(labels)), fontsize=8)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    path = os.path.join(out, "speedup.png")
    fig.savefig(path, dpi=110)
    return path


def plot_ratios(data, plt, out):
    workloads = [w for w in data["workloads"] if w.get("ratios")]
    if not workloads:
        return None
    cols = min(4, len(workloads))
    rows = math.ceil(len(workloads) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.2 * rows), squeeze=False)
    # One colour per peer across all panels.
    peers = sorted({r["peer"] for w in workloads for r in w["ratios"]})
    colours = {peer: f"C{i % 10}" for i, peer in enumerate(peers)}
    for ax, w in zip(axes.flat, workloads):
        ratios = w["ratios"]
        several = len({r["workers"] for r in ratios}) > 1
        labels = [f"{r['peer']}\nw={r['workers']}" if several else r["peer"] for r in ratios]
        medians = [r["median"] for r in ratios]
        # The interval where compare wrote one, else the repetitions' range.
        low = [r.get("ci_low", r["min"]) for r in ratios]
        high = [r.get("ci_high", r["max"]) for r in ratios]
        below = [m - lo for m, lo in zip(medians, low)]
        above = [hi - m for m, hi in zip(medians, high)]
        # Each bar runs from 1 to the median, so that its length and direction say how far
        # weft is ahead (down) or behind (up).
        ax.bar(labels, [m - 1.0 for m in medians], bottom=1.0, capsize=3,
               color=[colours[r["peer"]] for r in ratios])
        ax.errorbar(labels, medians, yerr=[below, above], fmt="none", ecolor="black", capsize=3)
        ax.axhline(1.0, color="grey", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_title(w["spec"], fontsize=10)
        ax.set_ylabel("weft / peer (< 1: weft faster)")
        ax.tick_params(axis="x", labelsize=7)
        ax.grid(alpha=0.3, axis="y")
    for ax in list(axes.flat)[len(workloads):]:
        ax.axis("off")
    fig.tight_layout()
    path = os.path.join(out, "ratios.png")
    fig.savefig(path, dpi=110)
    return path


def plot_profile(data, plt, out):
    parts = [("r_busy", "busy"), ("r_steal", "steal"), ("r_idle", "idle"),
             ("r_switch", "switch"), ("r_frame", "frame mgmt")]
    workloads = [w for w in data["workloads"]
                 if any("profile" in r for r in w["runs"])]
    if not workloads:
        return None
    cols = min(4, len(workloads))
    rows = math.ceil(len(workloads) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.2 * rows), squeeze=False)
    for ax, w in zip(axes.flat, workloads):
        runs = [r for r in w["runs"] if "profile" in r]
        labels = [f"{weft_config(r)}\nw={r['workers']}" for r in runs]
        bottom = [0.0] * len(runs)
        for key, name in parts:
            values = [r["profile"][key] for r in runs]
            ax.bar(labels, values, bottom=bottom, label=name)
            bottom = [b + v for b, v in zip(bottom, values)]
        ax.set_ylim(0, 1.05)
        ax.set_title(w["spec"], fontsize=10)
        ax.set_ylabel("share of workers' time")
        ax.tick_params(axis="x", labelsize=7)
    for ax in list(axes.flat)[len(workloads):]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(parts), fontsize=8)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    path = os.path.join(out, "profile.png")
    fig.savefig(path, dpi=110)
    return path


def main(argv):
    if len(argv) == 4 and argv[1] == "--tables":
        out, name = os.path.split(argv[3])
        print(f"wrote {write_tables(load(argv[2]), out or '.', name)}")
        return 0
    if len(argv) not in (2, 3, 4) or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    try:
        import matplotlib
    except ImportError:
        sys.exit("plot_results.py: matplotlib is missing (scripts/setup.sh installs it)")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = load(argv[1])
    out = argv[2] if len(argv) >= 3 else (os.path.dirname(argv[1]) or ".")
    images = argv[3] if len(argv) == 4 else out if len(argv) == 3 else os.path.normpath(
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "images"))
    os.makedirs(out, exist_ok=True)
    os.makedirs(images, exist_ok=True)
    for path in (write_tables(data, out, "tables.md"), plot_speedup(data, plt, images),
                 plot_ratios(data, plt, images), plot_profile(data, plt, images)):
        if path:
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
