"""Builds and runs a generated CUDA kernel on the host (cuda-host.h).

run-emulated.py --cxx CXX --source KERNEL.cu --harness CHECK.cpp --work DIR
                [-D NAME=VALUE ...]

Keeps the part of KERNEL.cu after the prelude (from the line starting with
--from, "// Direct convolution" by default), writes it to DIR/kernel.inc,
compiles CHECK.cpp with it and the -D definitions, runs it and exits with its
status.
"""
import argparse
import os
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--harness", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--from", dest="start", default="// Direct convolution")
    parser.add_argument("-D", dest="defines", action="append", default=[])
    args = parser.parse_args()
    with open(args.source) as f:
        text = f.read()
    at = text.find("\n" + args.start)
    if at < 0:
        sys.exit("no line starting with %r in %s" % (args.start, args.source))
    os.makedirs(args.work, exist_ok=True)
    with open(os.path.join(args.work, "kernel.inc"), "w") as f:
        f.write(text[at + 1:])
    exe = os.path.join(args.work, "check")
    here = os.path.dirname(os.path.abspath(__file__))
    command = [args.cxx, "-std=c++20", "-O1", "-pthread", "-w",
               "-I", args.work, "-I", here, args.harness, "-o", exe]
    command += ["-D" + d for d in args.defines]
    subprocess.run(command, check=True)
    sys.exit(subprocess.run([exe]).returncode)


if __name__ == "__main__":
    main()
