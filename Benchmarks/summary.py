#!/usr/bin/env python3
"""The one-screen summary at the end of `make bench`: each benchmark records
its goals' figures with `record` (into the file $BENCH_SUMMARY names, one JSON
object a line; nothing when it is unset), and `Benchmarks/summary.py FILE`
prints them as one table: figure, value, baseline, ratio, goal, met?
A figure that cannot reach its goal on this machine says so with its bound
(`bound`): the reader sees the state at a glance, and where to read more."""
import json, os, sys


def record(figure, value, baseline, ratio, goal, met, bound="", key="", number=0.0, baselineKey=""):
    """Appends one row: `value` and `baseline` as printed (units included),
    `ratio` a number, `goal` as printed (e.g. "≥ 1.2×"), `met` a bool or None
    (not measured), `bound` what bounds it when it is not met. A row another
    benchmark's row is measured against has a `key` and its `number`; that
    row names it as `baselineKey` (with its own `number`), and the ratio and
    whether the goal is met are worked out here, from the same run."""
    path = os.environ.get("BENCH_SUMMARY")
    if not path:
        return
    with open(path, "a") as f:
        f.write(json.dumps({"figure": figure, "value": value, "baseline": baseline, "ratio": ratio, "goal": goal,
                            "met": met, "bound": bound, "key": key, "number": number, "baselineKey": baselineKey,
                            "by": os.path.basename(sys.argv[0])}) + "\n")


def resolve(rows):
    """Rows measured against another benchmark's row: ratio and goal."""
    keyed = {row["key"]: row for row in rows if row.get("key")}
    for row in rows:
        base = keyed.get(row.get("baselineKey") or "")
        if not base or not base.get("number"):
            continue
        row["baseline"] = f"{base['value']} ({base['by']})"
        row["ratio"] = row["number"] / base["number"]
        goal = row["goal"].replace("×", "").split()
        if len(goal) == 2 and goal[0] in ("≥", "≤"):
            row["met"] = row["ratio"] >= float(goal[1]) if goal[0] == "≥" else row["ratio"] <= float(goal[1])
    return rows


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("BENCH_SUMMARY", "")
    rows = []
    if path and os.path.exists(path):
        with open(path) as f:
            # host-benchmark's rows leave out a ratio or goal state it has not (JSON's missing, not null).
            rows = resolve([{"ratio": None, "met": None, **json.loads(line)} for line in f if line.strip()])
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"\nSummary of `make bench` (load average now {load}; details above and in Benchmarks/README.md)\n")
    print("| figure | value | baseline | ratio | goal | met? |")
    print("|---|---:|---:|---:|---|---|")
    for row in rows:
        met = "–" if row["goal"].startswith("(") else {True: "yes", False: "no", None: "not measured"}[row["met"]]
        if row["met"] is False and row.get("bound"):
            met += f" ({row['bound']})"
        ratio = f"{row['ratio']:.2f}×" if isinstance(row["ratio"], (int, float)) else "–"
        print(f"| {row['figure']} | {row['value']} | {row['baseline']} | {ratio} | {row['goal']} | {met} |")
    if not rows:
        print("| (no figures recorded: run the benchmarks with BENCH_SUMMARY set, as `make bench` does) | | | | | |")
    goals = [row for row in rows if not row["goal"].startswith("(")]
    print(f"\n{sum(1 for row in goals if row['met'] is True)} of {len(goals)} goals met.")


if __name__ == "__main__":
    main()
