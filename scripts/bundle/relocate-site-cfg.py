#!/usr/bin/env python3
"""Turns a lit.site.cfg.py generated for the static build into one for the bundle.

CMake writes absolute paths of the build machine into the site configs. In the
bundle every path must instead come from where the bundle was unpacked (the
build tree's role) and from $STARK_SRC_ROOT (the source tree, which reaches
the GPU machine as the working tree at a path unknown here). Rewriting the
generated file, rather than keeping a hand-written copy, keeps every variable
that test/lit.site.cfg.py.in gains later.
"""

import argparse
import os
import re
import sys

HEADER = '''\
# lit site configuration of the stark bundle, made by scripts/make-bundle.sh
# from {origin}. Paths are relative to the unpacked bundle and to
# $STARK_SRC_ROOT (set by the bundle's run-tests.sh and bin/lit).
import os as _stark_os

_stark_bundle = _stark_os.path.realpath(
    _stark_os.path.join(_stark_os.path.dirname(__file__), {up}))
if not _stark_os.environ.get("STARK_SRC_ROOT"):
    lit_config.fatal("STARK_SRC_ROOT is not set: run the bundle's run-tests.sh "
                     "or bin/lit, or point it at the stark source tree")
_stark_src = _stark_os.path.realpath(_stark_os.environ["STARK_SRC_ROOT"])

'''


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True, help="build tree the file was generated in")
    ap.add_argument("--src", required=True, help="source tree of that build")
    ap.add_argument("--llvm-tools", required=True, help="LLVM tools dir named in the file")
    ap.add_argument("--depth", type=int, required=True,
                    help="how many folders below the bundle root the output lives")
    ap.add_argument("input")
    ap.add_argument("output")
    args = ap.parse_args()

    # Longest prefix first: the build tree usually lies inside the source tree.
    roots = sorted(
        [(os.path.realpath(args.build), "_stark_bundle", ""),
         (os.path.realpath(args.llvm_tools), "_stark_bundle", "bin"),
         (os.path.realpath(args.src), "_stark_src", "")],
        key=lambda r: len(r[0]), reverse=True)

    def relocate(match):
        path = match.group(1)
        for root, var, sub in roots:
            if path == root or path.startswith(root + "/"):
                rest = "/".join(p for p in (sub, path[len(root):].strip("/")) if p)
                return (f"_stark_os.path.join({var}, {rest!r})" if rest else var)
        return match.group(0)

    with open(args.input) as f:
        lines = f.read().splitlines(keepends=True)
    out = []
    for line in lines:
        if line.lstrip().startswith("#"):
            out.append(line)
            continue
        out.append(re.sub(r'"(/[^"]*)"', relocate, line))
    body = "".join(out)

    # Any absolute path still left would not exist on the GPU machine.
    leftover = [m.group(1) for m in re.finditer(r'"(/[^"]*)"', body)]
    if leftover:
        sys.exit(f"{args.input}: cannot relocate {', '.join(leftover)}")

    up = ", ".join(['".."'] * args.depth) if args.depth else '"."'
    with open(args.output, "w") as f:
        f.write(HEADER.format(origin=os.path.relpath(args.input, args.build), up=up))
        f.write(body)


if __name__ == "__main__":
    main()
