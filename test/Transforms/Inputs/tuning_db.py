#!/usr/bin/env python3
"""Writes stark tuning databases for the tests, records checksummed the way
stark does (SHA-256 of the record's compact JSON, keys sorted, without the
checksum; first 128 bits in hex). Floats in the records must print the same
in Python and llvm::json (0.5, 2.5: short exact binary fractions).

usage: tuning_db.py OUT RECORDS.json [--device D] [--signature S]
                    [--module-file F] [--no-newline] [--bad-checksum]
RECORDS.json holds a list of partial records; the defaults fill the rest.
"""

import argparse
import hashlib
import json

DEFAULTS = {
    "signature": "0123456789abcdef0123456789abcdef",
    "device": "cpu:test",
    "target": "cpu",
    "op": "linalg.matmul",
    "shapes": "",
    "entry": "kernel",
    "num_outputs": 1,
    "fused_ops": 1,
    "strategy": "hand-written",
    "params": {},
    "candidate": 1,
    "chip": "",
    "module": "module {}",
    "baseline_seconds": 0.5,
    "winner_seconds": 0.25,
    "speedup": 2,
    "allow_tf32": False,
    "search": {"agent": "replay"},
    "stark_version": "test",
    "recorded_at": "2026-01-01T00:00:00Z",
}


def compact(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("records")
    parser.add_argument("--module-file", action="append", default=[],
                        help="KEY=FILE: the record's module from FILE, for "
                             "records whose module is the string KEY")
    parser.add_argument("--no-newline", action="store_true")
    parser.add_argument("--bad-checksum", action="store_true")
    args = parser.parse_args()
    modules = {}
    for item in args.module_file:
        key, _, path = item.partition("=")
        with open(path) as f:
            modules[key] = f.read()
    with open(args.records) as f:
        partial = json.load(f)
    lines = [compact({"format": "stark-tuning-db", "version": 1})]
    for p in partial:
        record = dict(DEFAULTS)
        record.update(p)
        record["module"] = modules.get(record["module"], record["module"])
        digest = hashlib.sha256(compact(record).encode()).hexdigest()[:32]
        record["checksum"] = ("0" * 32) if args.bad_checksum else digest
        lines.append(compact(record))
    text = "\n".join(lines)
    if not args.no_newline:
        text += "\n"
    with open(args.out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
