#!/usr/bin/env python3
"""check-stats.py STATS KEY OP VALUE...: checks the --stats file of
llm-server.py, e.g. `requests eq 8 max_in_flight ge 2 span_s lt 5` (OP is
eq, ge, gt, le or lt). Prints every value and exits 1 on the first check
that fails."""

import json
import operator
import sys

OPS = {"eq": operator.eq, "ge": operator.ge, "gt": operator.gt,
       "le": operator.le, "lt": operator.lt}

with open(sys.argv[1]) as f:
    stats = json.load(f)
print(json.dumps(stats, sort_keys=True))
checks = sys.argv[2:]
if len(checks) % 3:
    sys.exit("usage: check-stats.py STATS [KEY OP VALUE]...")
for key, op, value in zip(checks[0::3], checks[1::3], checks[2::3]):
    if not OPS[op](stats[key], float(value)):
        sys.exit("failed: %s %s %s (it is %s)" % (key, op, value, stats[key]))
print("ok")
