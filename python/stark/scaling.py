"""Scaling of a whole-model search with the number of evaluators.

  PYTHONPATH=python python3 -m stark.scaling --stark-bin build/bin \\
      --model examples/mlp.mlir --out bench/results \\
      [--target cuda] [--configs 1x1,2x1,4x1,1x2,1x4] [--budget 8] \\
      [--top-k 8] [--seed 0] [--label h200]

Each configuration DxW runs the whole pipeline (hot ops, outline, search,
substitute) on the model with `devices=D workers-per-device=W` and the same
seed and budget, and records the wall time of the run, the problems
searched and each winner's speedup (from the search report, after the
re-timing on device 0 that picks every winner: docs/distributed.md).

Writes <out>/<date>-<label>-scaling.json and .md: wall time per
configuration, its speedup over the first configuration (normally 1x1) and
the geometric mean of the winners' speedups, so that a faster search with
worse winners shows as such. Standard library only.
"""

import argparse
import datetime
import json
import math
import os
import platform
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def parse_configs(text):
    configs = []
    for item in text.split(","):
        devices, _, workers = item.strip().partition("x")
        d, w = int(devices), int(workers or 1)
        if d < 1 or w < 1:
            raise SystemExit("bad configuration %r: need DxW, both >= 1" % item)
        configs.append((d, w))
    return configs


def geomean(values):
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def run_config(args, devices, workers, work):
    report = os.path.join(work, "report-%dx%d.json" % (devices, workers))
    output = os.path.join(work, "out-%dx%d.mlir" % (devices, workers))
    options = ("target=%s top-k=%d budget=%d seed=%d seconds=%g progress=0 "
               "devices=%d workers-per-device=%d report=%s"
               % (args.target, args.top_k, args.budget, args.seed,
                  args.seconds, devices, workers, report))
    command = [os.path.join(args.stark_bin, "stark-opt"), args.model,
               "--stark-pipeline=" + options, "-o", output]
    env = dict(os.environ)
    env["STARK_EVAL_WORKER"] = os.path.join(args.stark_bin, "stark-eval")
    start = time.monotonic()
    proc = subprocess.run(command, capture_output=True, text=True, env=env,
                          timeout=args.timeout)
    wall = time.monotonic() - start
    entry = {"devices": devices, "workers_per_device": workers,
             "command": " ".join(command), "wall_seconds": wall,
             "exit_code": proc.returncode}
    if proc.returncode != 0:
        entry["stderr_tail"] = proc.stderr[-4000:]
        return entry
    with open(report) as f:
        data = json.load(f)
    problems = []
    for p in data.get("problems", []):
        winner = p.get("winner")
        speedup = 1.0
        if isinstance(winner, int):
            speedup = p["nodes"][winner].get("speedup", 1.0)
        problems.append({"problem": p.get("problem"), "op": p.get("op"),
                         "shapes": p.get("shapes"),
                         "candidates": p.get("candidates", 0),
                         "winner": winner, "speedup": speedup})
    entry["problems"] = problems
    entry["candidates"] = sum(p["candidates"] for p in problems)
    entry["geomean_speedup"] = geomean([p["speedup"] for p in problems])
    entry["evaluation"] = data.get("evaluation")
    return entry


def write_markdown(path, meta, entries):
    base = entries[0]["wall_seconds"] if entries else None
    lines = ["# stark search scaling, %s (%s)" % (meta["label"], meta["date"]),
             "", "Command:", "", "```sh", meta["command"], "```", "",
             "Model `%s`, target %s, budget %d per problem, top-k %d, "
             "seed %d." % (meta["model"], meta["target"], meta["budget"],
                           meta["top_k"], meta["seed"]), "",
             "| devices x workers | wall (s) | vs %s | candidates | "
             "winners' geomean speedup |" % (
                 "%dx%d" % (entries[0]["devices"],
                            entries[0]["workers_per_device"])
                 if entries else "first"),
             "|---|---|---|---|---|"]
    for e in entries:
        if e["exit_code"] != 0:
            lines.append("| %dx%d | failed (exit %d) | | | |" % (
                e["devices"], e["workers_per_device"], e["exit_code"]))
            continue
        ratio = base / e["wall_seconds"] if base and e["wall_seconds"] else 0
        g = e.get("geomean_speedup")
        lines.append("| %dx%d | %.1f | %.2fx | %d | %s |" % (
            e["devices"], e["workers_per_device"], e["wall_seconds"], ratio,
            e.get("candidates", 0), "%.2fx" % g if g else "-"))
    lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stark-bin", default=os.path.join(REPO, "build",
                                                            "bin"))
    parser.add_argument("--model",
                        default=os.path.join(REPO, "examples", "mlp.mlir"))
    parser.add_argument("--out", default=os.path.join(REPO, "bench",
                                                      "results"))
    parser.add_argument("--work", default=None,
                        help="folder for reports and outputs (default: "
                        "<out>/scaling-work)")
    parser.add_argument("--target", default="cuda")
    parser.add_argument("--configs", default="1x1,2x1,4x1,1x2,1x4",
                        help="DxW list: devices x workers per device")
    parser.add_argument("--budget", type=int, default=8)
    parser.add_argument("--top-k", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--timeout", type=float, default=3600,
                        help="seconds one configuration may take")
    parser.add_argument("--label", default=None)
    parser.add_argument("--stem", default=None,
                        help="result file names without extension (default: "
                        "<date>-<label>-scaling)")
    args = parser.parse_args(argv)

    configs = parse_configs(args.configs)
    label = args.label or ("h200" if args.target == "cuda" else "cpu")
    date = datetime.date.today().isoformat()
    work = args.work or os.path.join(args.out, "scaling-work")
    os.makedirs(work, exist_ok=True)
    entries = []
    for devices, workers in configs:
        print("stark.scaling: %dx%d ..." % (devices, workers), file=sys.stderr,
              flush=True)
        entry = run_config(args, devices, workers, work)
        print("stark.scaling: %dx%d: %.1f s, exit %d" % (
            devices, workers, entry["wall_seconds"], entry["exit_code"]),
            file=sys.stderr, flush=True)
        entries.append(entry)
    meta = {"label": label, "date": date, "model": args.model,
            "target": args.target, "budget": args.budget,
            "top_k": args.top_k, "seed": args.seed,
            "host": platform.node(),
            "command": " ".join(["PYTHONPATH=python", "python3", "-m",
                                 "stark.scaling"] + (argv or sys.argv[1:]))}
    stem = os.path.join(args.out,
                        args.stem or "%s-%s-scaling" % (date, label))
    with open(stem + ".json", "w") as f:
        json.dump({"meta": meta, "configs": entries}, f, indent=1)
    write_markdown(stem + ".md", meta, entries)
    print(stem + ".md")
    return 0 if all(e["exit_code"] == 0 for e in entries) else 1


if __name__ == "__main__":
    sys.exit(main())
