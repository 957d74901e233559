#!/usr/bin/env python3
"""Stands in for the stark-eval worker (STARK_EVAL_WORKER) in tests of what
the search does when a candidate fails: the first STARK_TEST_CRASHES
evaluations of a candidate (counted in the file STARK_TEST_CRASH_COUNT)
die of SIGSEGV, as a kernel that faults takes its worker down; every other
request goes to the real worker, STARK_TEST_REAL_WORKER."""
import os
import signal
import sys

counter = os.environ["STARK_TEST_CRASH_COUNT"]
crashes = int(os.environ.get("STARK_TEST_CRASHES", "0"))
seen = 0
if os.path.exists(counter):
    with open(counter) as f:
        seen = int(f.read() or "0")
with open(counter, "w") as f:
    f.write(str(seen + 1))
if seen < crashes:
    os.kill(os.getpid(), signal.SIGSEGV)
real = os.environ["STARK_TEST_REAL_WORKER"]
os.execv(real, [real] + sys.argv[1:])
