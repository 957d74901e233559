# Reads programs outlined by stark-opt as the benchmark does and prints
# their totals with every problem's baseline set to 1 ms.
import sys

from stark.bench import parse_output_ir, stark_totals

for arg in sys.argv[1:]:
    name, path = arg.split("=", 1)
    with open(path) as f:
        ops, problems = parse_output_ir(f.read())
    entry = {"ops": ops, "problems": {
        sym: {"op": pm["info"].get("op"),
              "fused_ops": int(pm["info"].get("fused_ops", 1) or 1),
              "baseline_seconds": 1e-3}
        for sym, pm in problems.items()}}
    tot = stark_totals(entry)
    print(f"{name}: ops={tot['ops']} problems={tot['problems']} "
          f"not_outlined={tot['not_outlined']} time={tot['time_s']}")
