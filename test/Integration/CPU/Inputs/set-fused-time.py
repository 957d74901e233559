"""Sets the measured time of every fused chain's problem listing
stark.unfused (its winner's time and its baseline's) in a searched stark-opt
output, and tags the chain's ops with the chain's problem again, so that
--stark-search decides fused or unfused anew on known times.

usage: set-fused-time.py INPUT OUTPUT MICROSECONDS
       set-fused-time.py INPUT OUTPUT FACTORx   (FACTOR times the sum of
                                                the times of its ops alone)
"""
import re
import sys

src, dst, arg = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(src).read()


def searched_us(name):
    """The time --stark-search recorded on problem `name`: its winner's,
    else its baseline's."""
    line = re.search(rf"^\s*module @{name} attributes \{{.*$", text, re.M).group(0)
    m = re.search(r"winner_us = ([-0-9.e+]+)", line) or \
        re.search(r"stark\.baseline_us = ([-0-9.e+]+)", line)
    return float(m.group(1))


first = re.search(r"^\s*module @stark_problem_", text, re.M)
program, problems = text[:first.start()], text[first.start():]

lines = problems.split("\n")
for i, line in enumerate(lines):
    m = re.match(r"\s*module @(stark_problem_\d+) attributes \{.*"
                 r"stark\.unfused = \[([^\]]*)\]", line)
    if not m:
        continue
    fused = m.group(1)
    refs = re.findall(r"@(stark_problem_\d+)", m.group(2))
    us = float(arg[:-1]) * sum(searched_us(r) for r in refs) \
        if arg.endswith("x") else float(arg)
    line = re.sub(r"stark\.baseline_us = [-0-9.e+]+",
                  f"stark.baseline_us = {us:e}", line)
    line = re.sub(r"winner_us = [-0-9.e+]+", f"winner_us = {us:e}", line)
    lines[i] = line
    for ref in refs:
        program = re.sub(rf"stark\.problem = @{ref}\b",
                         f"stark.problem = @{fused}", program)
open(dst, "w").write(program + "\n".join(lines))
