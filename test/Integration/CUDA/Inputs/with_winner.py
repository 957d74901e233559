#!/usr/bin/env python3
"""Puts a candidate into a program as the winner of its problem.

    with_winner.py PROGRAM.mlir CANDIDATE.mlir > program-with-winner.mlir

PROGRAM has a line `// WINNER` inside its problem module (which carries
`stark.winner`); it is replaced by CANDIDATE's module, renamed `@winner`,
which is where stark-search keeps a winner and stark-substitute finds it.
"""

import re
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        program = f.read()
    with open(sys.argv[2]) as f:
        candidate = f.read()
    # Drop comments before the module; rename the module, dropping its
    # attributes (a candidate may repeat its problem's).
    m = re.search(r"^module\b[^\n]*\{\s*$", candidate, re.M)
    if not m:
        sys.exit(f"{sys.argv[2]}: no 'module ... {{' line")
    winner = "module @winner {\n" + candidate[m.end():].lstrip("\n")
    marker = re.compile(r"^[ \t]*// WINNER[ \t]*$", re.M)
    if len(marker.findall(program)) != 1:
        sys.exit(f"{sys.argv[1]}: needs exactly one '// WINNER' line")
    sys.stdout.write(marker.sub(lambda _: winner.rstrip("\n"), program))


if __name__ == "__main__":
    main()
