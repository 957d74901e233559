#!/usr/bin/env python3
"""Starts several stark-opt searches at once, all recording into one tuning
database, then checks that every winner a process reported is in the
database and that the database reads back whole.

usage: concurrent_writers.py STARK_OPT STARK_TUNE INPUT DB N
Process i keys its records by device "cpu:writer-i", so every winner is a
record of its own.
"""

import subprocess
import sys


def main():
    stark_opt, stark_tune, source, db, n = sys.argv[1:6]
    procs = []
    for i in range(int(n)):
        options = (f"target=cpu top-k=1 budget=2 seed={i} progress=0 "
                   f"tuning-db={db} device=cpu:writer-{i}")
        procs.append(subprocess.Popen(
            [stark_opt, source, f"--stark-pipeline={options}",
             "-o", "/dev/null"],
            stderr=subprocess.PIPE, text=True))
    winners = []
    for i, p in enumerate(procs):
        _, err = p.communicate()
        if p.returncode != 0:
            print(f"FAIL: writer {i} exited with {p.returncode}:\n{err}")
            return 1
        if "faster on cpu" in err:
            winners.append(f"cpu:writer-{i}")
    listing = subprocess.run([stark_tune, "list", db], capture_output=True,
                             text=True)
    if listing.returncode != 0:
        print(f"FAIL: the database does not read back:\n{listing.stderr}")
        return 1
    devices = sorted(line.split()[1] for line in listing.stdout.splitlines())
    if not winners:
        print("FAIL: no writer found a winner, so nothing was written")
        return 1
    if devices != sorted(winners):
        print(f"FAIL: winners {sorted(winners)}, records {devices}")
        return 1
    print(f"OK: {len(winners)} winners, {len(devices)} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
