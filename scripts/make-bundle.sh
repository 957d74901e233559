#!/usr/bin/env bash
# Builds the static configuration and packs everything the GPU machine needs to
# run stark and its lit suites into .bundle/stark-bundle.tar.xz.
#
# The GPU machine has no LLVM, MLIR or network; it gets the working tree plus
# carried paths. So the bundle holds self-contained (static LLVM/MLIR) tools
# and unit tests, FileCheck & co. with the one library they need, lit, and
# site configs that find the source tree's tests wherever it lands.
# See docs/gpu-machine.md.
#
# Usage: scripts/make-bundle.sh [--no-build]
#   --no-build  pack what the build tree holds now (e.g. while the source tree
#               does not build), without configuring or building
#
# Environment:
#   STARK_STATIC_BUILD_DIR  build tree (default: <repo>/build-static)
#   STARK_BUNDLE_TARGETS    ninja targets to build (default: all)
#   STARK_BUNDLE_OUT        archive to write (default: <repo>/.bundle/stark-bundle.tar.xz)
#   STARK_JOBS              parallel compile jobs (default: 2)
#   STARK_XZ_THREADS        xz threads (default: 2)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
BUILD="${STARK_STATIC_BUILD_DIR:-$ROOT/build-static}"
OUT="${STARK_BUNDLE_OUT:-$ROOT/.bundle/stark-bundle.tar.xz}"
TARGETS="${STARK_BUNDLE_TARGETS:-all}"
JOBS="${STARK_JOBS:-2}"
XZ_THREADS="${STARK_XZ_THREADS:-2}"
LLVM_PREFIX=/usr/lib/llvm-22
# The test tools lit configs substitute; each needs libz3.so.4 and nothing
# that Ubuntu 24.04 lacks.
LLVM_TEST_TOOLS=(FileCheck count not split-file)
# What a bundled stark binary may depend on: glibc and the GCC runtimes,
# present on every Linux the bundle goes to.
ALLOWED_NEEDED='^(libc|libm|libdl|libpthread|librt|ld-linux-x86-64)\.so\.[0-9]+$|^libstdc\+\+\.so\.6$|^libgcc_s\.so\.1$'

BUILD_FIRST=true
case "${1:-}" in
  --no-build) BUILD_FIRST=false ;;
  "") ;;
  *) echo "usage: $0 [--no-build]" >&2; exit 2 ;;
esac

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'make-bundle.sh: %s\n' "$*" >&2; exit 1; }
is_elf() { [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; }

# --- build ------------------------------------------------------------------
if [ "$BUILD_FIRST" = true ] && [ ! -f "$BUILD/build.ninja" ]; then
  log "configuring $BUILD (STARK_STATIC_LLVM=ON)"
  cmake -G Ninja -S "$ROOT" -B "$BUILD" \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
    -DSTARK_STATIC_LLVM=ON
fi
grep -q '^STARK_STATIC_LLVM:BOOL=ON$' "$BUILD/CMakeCache.txt" \
  || die "$BUILD is not a STARK_STATIC_LLVM=ON build"
if [ "$BUILD_FIRST" = true ]; then
  log "building $TARGETS in $BUILD"
  # shellcheck disable=SC2086  # the target list is meant to split
  ninja -C "$BUILD" -j "$JOBS" $TARGETS
else
  log "not building: packing what $BUILD holds"
fi

# --- stage ------------------------------------------------------------------
# The bundle mirrors the build tree (bin/, unittests/, test/), so the lit
# configs see the same layout as in a build.
STAGE="$BUILD/bundle"
rm -rf "$STAGE"
mkdir -p "$STAGE/bin" "$STAGE/lib" "$STAGE/lit"

check_self_contained() {
  local f=$1 lib bad=()
  for lib in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    [[ $lib =~ $ALLOWED_NEEDED ]] || bad+=("$lib")
  done
  [ ${#bad[@]} -eq 0 ] \
    || die "${f#"$BUILD"/} needs ${bad[*]}; is every MLIR library named in stark_mlir_libs()?"
}

tools=()
for f in "$BUILD"/bin/*; do
  if [ ! -f "$f" ] || [ ! -x "$f" ]; then continue; fi
  name=$(basename "$f")
  if is_elf "$f"; then
    check_self_contained "$f"
    strip --strip-all -o "$STAGE/bin/$name" "$f"
  else
    cp "$f" "$STAGE/bin/$name"
  fi
  tools+=("$name")
done
[ ${#tools[@]} -gt 0 ] || die "no executables in $BUILD/bin"

# GoogleTest binaries, where test/Unit/lit.cfg.py looks for them.
unittests=()
while IFS= read -r t; do
  check_self_contained "$BUILD/$t"
  mkdir -p "$STAGE/$(dirname "$t")"
  strip --strip-all -o "$STAGE/$t" "$BUILD/$t"
  unittests+=("$t")
done < <(cd "$BUILD" && find unittests -type f -perm -u+x -name '*Tests' | sort)

for t in "${LLVM_TEST_TOOLS[@]}"; do
  cp "$LLVM_PREFIX/bin/$t" "$STAGE/bin/$t"
done
z3=$(ldd "$LLVM_PREFIX/bin/FileCheck" | awk '$1 ~ /^libz3\.so/ { print $3 }')
[ -n "$z3" ] || die "cannot find the libz3 that FileCheck needs"
cp -L "$z3" "$STAGE/lib/"
# Debian's lit entry point hard-codes its sys.path; the bundle brings its own.
cp -r "$LLVM_PREFIX/utils/lit/lit" "$STAGE/lit/"
find "$STAGE/lit" -name __pycache__ -prune -exec rm -rf {} +
install -m 755 "$ROOT/scripts/bundle/lit" "$STAGE/bin/lit"
install -m 755 "$ROOT/scripts/bundle/run-tests.sh" "$STAGE/run-tests.sh"

# Site configs of every suite, with the paths of this machine made relative.
while IFS= read -r site; do
  mkdir -p "$STAGE/$(dirname "$site")"
  depth=$(( $(tr -cd / <<<"$site" | wc -c) ))
  python3 "$ROOT/scripts/bundle/relocate-site-cfg.py" \
    --build "$BUILD" --src "$ROOT" --llvm-tools "$LLVM_PREFIX/bin" --depth "$depth" \
    "$BUILD/$site" "$STAGE/$site"
done < <(cd "$BUILD" && find test -name lit.site.cfg.py | sort)

{
  echo "stark bundle"
  echo "source:  $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)$([ "$BUILD_FIRST" = true ] || echo ' (packed with --no-build)')"
  echo "built:   $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(sed -n 's/^PRETTY_NAME="\(.*\)"$/\1/p' /etc/os-release)"
  echo "llvm:    $("$LLVM_PREFIX/bin/llvm-config" --version)"
  echo "tools:   ${tools[*]}"
  echo "unit:    ${unittests[*]:-none}"
  echo "test:    ${LLVM_TEST_TOOLS[*]} lit"
} > "$STAGE/BUILD-INFO"

# --- pack -------------------------------------------------------------------
mkdir -p "$(dirname "$OUT")"
log "packing $OUT"
tar -C "$STAGE" --owner=0 --group=0 --sort=name -cf - . \
  | xz -T"$XZ_THREADS" -9 >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"

log "contents (unpacked):"
(cd "$STAGE" && du -b bin/* lib/* "${unittests[@]}" | sort -rn | awk '{ printf "  %6.1f MB  %s\n", $1 / 1e6, $2 }') >&2
size=$(stat -c %s "$OUT")
log "${OUT#"$ROOT"/}: $(awk -v s="$size" 'BEGIN { printf "%.1f MB (%d bytes)", s / 1e6, s }')"
[ "$size" -lt 40000000 ] || die "bundle is over 40 MB"
