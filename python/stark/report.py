#!/usr/bin/env python3
"""Prints the table of a stark-search JSON report: op, baseline, winner,
speedup, strategy -- one row per searched problem."""

import json
import sys


def fmt_time(seconds):
    if seconds is None:
        return "-"
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def main(path):
    with open(path) as f:
        report = json.load(f)
    rows = [("op", "shapes", "baseline", "winner", "speedup", "strategy")]
    for p in report.get("problems", []):
        nodes = {n["id"]: n for n in p.get("nodes", [])}
        winner = nodes.get(p.get("winner"))
        baseline = p.get("baseline_seconds")
        recorded = p.get("tuning_db")
        if recorded:
            params = " ".join(f"{k}={v}" for k, v in recorded["params"].items())
            rows.append((p["op"], p["shapes"], fmt_time(baseline),
                         fmt_time(recorded["seconds"]),
                         f"{recorded['speedup']:.2f}x",
                         f"{recorded['strategy']} {params} (tuning database, "
                         f"{recorded['device']})"))
        elif winner:
            params = " ".join(f"{k}={v}" for k, v in winner["params"].items())
            first = " (first pick)" if p.get("outcome") == "first pick" else ""
            rows.append((p["op"], p["shapes"], fmt_time(baseline),
                         fmt_time(winner["seconds"]),
                         f"{winner['speedup']:.2f}x",
                         f"{winner['strategy']} {params}{first}"))
        else:
            why = p.get("why") or p.get("skipped") or (
                f"no verified candidate beat the baseline "
                f"({p.get('candidates', 0)} tried)")
            rows.append((p["op"], p["shapes"], fmt_time(baseline), "-",
                         "-", why))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    print(f"target {report.get('target')}, agent {report.get('agent')}, "
          f"budget {report.get('budget')} candidates, seed {report.get('seed')}")
    for i, r in enumerate(rows):
        print("  ".join(c.ljust(w) for c, w in zip(r[:5], widths)) + "  " + r[5])
        if i == 0:
            print("  ".join("-" * w for w in widths) + "  " + "-" * 8)
    summary = report.get("summary")
    if summary:
        line = (f"model: {summary['problems']} problem(s), "
                f"{summary['winners']} with a winner, "
                f"{summary['seconds']:.1f} s")
        if "first_picks" in summary:
            line += (f" ({summary['searched']} searched, "
                     f"{summary['first_picks']} first pick, "
                     f"{summary['upstream']} upstream)")
        if "estimated_model_speedup" in summary:
            line += (f"; winners cover {100 * summary['winner_share']:.1f}% "
                     f"of the estimated time, estimated model speedup "
                     f"{summary['estimated_model_speedup']:.2f}x")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
