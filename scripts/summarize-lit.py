#!/usr/bin/env python3
"""Prints one `N passed, N failed, N skipped` line from lit's JSON output."""

import json
import sys

PASSED = {"PASS", "XFAIL", "FLAKYPASS"}
SKIPPED = {"UNSUPPORTED", "SKIPPED", "EXCLUDED"}


def main(path):
    try:
        with open(path) as f:
            tests = json.load(f).get("tests", [])
    except (OSError, ValueError) as e:
        print(f"no lit results in {path}: {e}", file=sys.stderr)
        print("0 passed, 1 failed, 0 skipped")
        return 1
    passed = sum(t["code"] in PASSED for t in tests)
    skipped = sum(t["code"] in SKIPPED for t in tests)
    failed = len(tests) - passed - skipped
    if not tests:
        failed = 1  # a run that executed nothing is a failure
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
