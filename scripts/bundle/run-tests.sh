#!/bin/sh
# Runs the lit suites of a stark source tree against this bundle's binaries.
#
#   cd <stark source tree> && /tmp/stark/run-tests.sh [lit options] [test paths]
#
# The source tree is the current directory unless STARK_SRC_ROOT names it.
# Without test paths every suite runs (regression tests and unit tests); paths
# may be folders or files of the source tree (test/Integration/CUDA).
set -eu

bundle=$(cd "$(dirname "$0")" && pwd -P)
STARK_SRC_ROOT=$(cd "${STARK_SRC_ROOT:-.}" && pwd -P)
export STARK_SRC_ROOT
if [ ! -f "$STARK_SRC_ROOT/test/lit.cfg.py" ]; then
  echo "run-tests.sh: no test/lit.cfg.py in $STARK_SRC_ROOT;" \
       "run it from the stark source tree or set STARK_SRC_ROOT" >&2
  exit 2
fi

# FileCheck & co. find the bundle's lib/libz3.so.4 through their RUNPATH
# ($ORIGIN/../lib); no LD_LIBRARY_PATH, which would reach every program the
# tests start.
if ! "$bundle/bin/FileCheck" --version >/dev/null 2>&1; then
  echo "run-tests.sh: $bundle/bin/FileCheck does not start here:" >&2
  ldd "$bundle/bin/FileCheck" >&2 || true
  exit 2
fi

# An argument naming an existing file or folder is a test path; with none,
# every suite of the bundle runs.
has_path=false
for arg in "$@"; do
  if [ -e "$arg" ]; then has_path=true; fi
done
if [ "$has_path" = false ]; then
  [ $# -gt 0 ] || set -- -sv
  for site in $(cd "$bundle" && find test -name lit.site.cfg.py | sort); do
    set -- "$@" "$bundle/$(dirname "$site")"
  done
fi

exec python3 "$bundle/bin/lit" "$@"
