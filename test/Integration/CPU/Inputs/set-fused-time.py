"""Sets the measured time of every fused chain's problem listing
stark.unfused (its winner's time and its baseline's) in a searched stark-opt
output, and tags the chain's ops with the chain's problem again, so that
--stark-search decides fused or unfused anew on known times.

usage: set-fused-time.py INPUT OUTPUT MICROSECONDS
"""
import re
import sys

src, dst, us = sys.argv[1], sys.argv[2], float(sys.argv[3])
text = open(src).read()
first = re.search(r"^\s*module @stark_problem_", text, re.M)
program, problems = text[:first.start()], text[first.start():]

lines = problems.split("\n")
for i, line in enumerate(lines):
    m = re.match(r"\s*module @(stark_problem_\d+) attributes \{.*"
                 r"stark\.unfused = \[([^\]]*)\]", line)
    if not m:
        continue
    fused = m.group(1)
    line = re.sub(r"stark\.baseline_us = [-0-9.e+]+",
                  f"stark.baseline_us = {us:e}", line)
    line = re.sub(r"winner_us = [-0-9.e+]+", f"winner_us = {us:e}", line)
    lines[i] = line
    for ref in re.findall(r"@(stark_problem_\d+)", m.group(2)):
        program = re.sub(rf"stark\.problem = @{ref}\b",
                         f"stark.problem = @{fused}", program)
open(dst, "w").write(program + "\n".join(lines))
