#!/usr/bin/env python3
"""Puts an absolute file path into a planted candidate.

    with_path.py CANDIDATE.mlir PATH > candidate.mlir

Replaces @PATH@ with PATH and @SIZE@ with its length in bytes plus one (the
terminating zero of the C string).
"""

import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        text = f.read()
    path = sys.argv[2]
    text = text.replace("@PATH@", path)
    text = text.replace("@SIZE@", str(len(path.encode()) + 1))
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
