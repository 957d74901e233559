#!/usr/bin/env python3
"""Makes every outlined problem of a program its own winner.

    problems_as_winners.py OUTLINED.mlir > with-winners.mlir

Each `module @stark_problem_N` without a winner gets a `stark.winner`
attribute and a `module @winner` holding a copy of its `@kernel`, which is
where stark-search keeps a winner and stark-substitute finds it. The
substituted program then computes exactly what the original does: a test of
substitution itself (which ops are replaced, in which order), with no search.
"""

import re
import sys

WINNER = ('stark.winner = #stark.winner<baseline_us = 1.0, candidate = 1, '
          'params = {}, speedup = 1.0, strategy = "test", target = "cpu", '
          'winner_us = 1.0>')


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        lines = f.read().split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(\s*)module @stark_problem_\d+ attributes \{(.*)\} \{$",
                     line)
        if not m or "stark.winner" in line:
            out.append(line)
            i += 1
            continue
        indent = m.group(1)
        out.append(line[:-len("} {")] + ", " + WINNER + "} {")
        body = []
        i += 1
        while lines[i] != indent + "}":
            body.append(lines[i])
            i += 1
        out += body
        out.append(indent + "  module @winner {")
        out += ["  " + b for b in body]
        out.append(indent + "  }")
        out.append(lines[i])
        i += 1
    print("\n".join(out))


if __name__ == "__main__":
    main()
