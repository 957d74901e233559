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
#   STARK_BUNDLE_OUT        archive to write (default: <repo>/.bundle/stark-bundle.tar.xz)
#   STARK_BUNDLE_UNITTESTS  which unit test binaries to take, as name patterns
#                           (default: '*Cuda*'; '*' takes them all, '' none)
#   STARK_BUNDLE_LIMIT_MB   largest acceptable archive (default: 56; the device
#                           carries at most 64 MiB with the source tree)
#   STARK_JOBS              parallel compile jobs (default: 2)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
BUILD="${STARK_STATIC_BUILD_DIR:-$ROOT/build-static}"
OUT="${STARK_BUNDLE_OUT:-$ROOT/.bundle/stark-bundle.tar.xz}"
JOBS="${STARK_JOBS:-2}"
UNITTEST_PATTERNS="${STARK_BUNDLE_UNITTESTS-*Cuda*}"
LIMIT_MB="${STARK_BUNDLE_LIMIT_MB:-56}"
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

# GoogleTest binaries go where test/Unit/lit.cfg.py looks for them. Each links
# its own copy of LLVM's code generators (60-90 MB stripped), so by default
# only those with GPU code paths come along (by convention, "Cuda" in the
# name); the others need no GPU and run on every CPU machine anyway.
wanted_unittest() {
  local name pattern
  name=$(basename "$1")
  for pattern in $UNITTEST_PATTERNS; do
    # shellcheck disable=SC2053  # a pattern, on purpose
    [[ $name == $pattern ]] && return 0
  done
  return 1
}

# What goes in: every executable the build graph puts in bin/ (stark's tools
# are not part of `all`, LLVM's add_llvm_tool leaves them out), and the
# wanted unit tests. Asking the graph rather than listing bin/ keeps binaries
# of targets that no longer exist out.
tools=()
unittests=()
while IFS= read -r out; do
  case $out in
    bin/*) tools+=("$out") ;;
    unittests/*) if wanted_unittest "$out"; then unittests+=("$out"); fi ;;
  esac
done < <(ninja -C "$BUILD" -t targets all \
           | sed -n 's/^\([^:]*\): C[X]*_EXECUTABLE_LINKER.*/\1/p' | sort)
[ ${#tools[@]} -gt 0 ] || die "the build of $BUILD has no tools in bin/"

if [ "$BUILD_FIRST" = true ]; then
  log "building ${tools[*]} ${unittests[*]}"
  ninja -C "$BUILD" -j "$JOBS" "${tools[@]}" ${unittests[@]+"${unittests[@]}"}
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

for f in "${tools[@]}" ${unittests[@]+"${unittests[@]}"}; do
  [ -x "$BUILD/$f" ] || die "$f was not built"
  is_elf "$BUILD/$f" || die "$f is not an ELF executable"
  check_self_contained "$BUILD/$f"
  mkdir -p "$STAGE/$(dirname "$f")"
  strip --strip-all -o "$STAGE/$f" "$BUILD/$f"
done

for t in "${LLVM_TEST_TOOLS[@]}"; do
  cp "$LLVM_PREFIX/bin/$t" "$STAGE/bin/$t"
done
# Debian links every LLVM tool against libz3 (23 MB, 7 MB compressed) without
# --as-needed; these tools use none of its symbols. Then an empty library with
# the same soname satisfies the loader (they find it through their RUNPATH
# $ORIGIN/../lib); should one ever import from libz3, the real one goes in.
z3=$(ldd "$LLVM_PREFIX/bin/FileCheck" | awk '$1 ~ /^libz3\.so/ { print $3 }')
[ -n "$z3" ] || die "cannot find the libz3 that FileCheck needs"
z3_soname=$(basename "$z3")
z3_used=0
for t in "${LLVM_TEST_TOOLS[@]}"; do
  n=$(comm -12 \
        <(nm -D --undefined-only "$LLVM_PREFIX/bin/$t" | awk '{ sub(/@.*/, "", $NF); print $NF }' | sort -u) \
        <(nm -D --defined-only "$z3" | awk '{ sub(/@.*/, "", $NF); print $NF }' | sort -u) | wc -l)
  z3_used=$((z3_used + n))
done
if [ "$z3_used" -eq 0 ]; then
  echo >"$STAGE/z3-stub.c"
  cc -shared -o "$STAGE/lib/$z3_soname" -Wl,-soname,"$z3_soname" "$STAGE/z3-stub.c"
  rm "$STAGE/z3-stub.c"
  z3_note="$z3_soname (empty stand-in: the test tools use none of its symbols)"
else
  cp -L "$z3" "$STAGE/lib/$z3_soname"
  z3_note="$z3_soname (from $z3)"
fi
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
  echo "tools:   ${tools[*]#bin/}"
  echo "unit:    ${unittests[*]:-none}"
  echo "test:    ${LLVM_TEST_TOOLS[*]} lit; lib/$z3_note"
} > "$STAGE/BUILD-INFO"

# --- pack -------------------------------------------------------------------
# Every stark binary carries much the same LLVM and MLIR code. xz finds those
# repeats only within its dictionary, so the dictionary spans the whole
# payload (the 2nd to 5th 60-90 MB binary then cost ~6 MB each instead of
# ~19 MB), as far as memory allows: the encoder needs about 11 times the
# dictionary, the decoder once. One thread, since threads would cut the input
# into independent blocks. The x86 filter makes call targets compress better.
payload=$(du -sb "$STAGE" | cut -f1)
dict_mib=64
while [ $((dict_mib * 1048576)) -lt "$payload" ] && [ "$dict_mib" -lt 1536 ]; do
  dict_mib=$((dict_mib * 2))
done
avail_mib=$(( $(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo) / 1024 ))
while [ $((dict_mib * 11)) -gt "$avail_mib" ] && [ "$dict_mib" -gt 64 ]; do
  dict_mib=$((dict_mib / 2))
done
mkdir -p "$(dirname "$OUT")"
log "packing $OUT ($((payload / 1000000)) MB, xz dictionary ${dict_mib} MiB; takes minutes)"
tar -C "$STAGE" --owner=0 --group=0 --sort=name -cf - . \
  | xz -T1 --x86 --lzma2=preset=9,dict="${dict_mib}MiB" >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"

log "contents (unpacked):"
(cd "$STAGE" && du -b bin/* lib/* ${unittests[@]+"${unittests[@]}"} | sort -rn | awk '{ printf "  %6.1f MB  %s\n", $1 / 1e6, $2 }') >&2
size=$(stat -c %s "$OUT")
log "${OUT#"$ROOT"/}: $(awk -v s="$size" 'BEGIN { printf "%.1f MB (%d bytes)", s / 1e6, s }')"
[ "$size" -lt $((LIMIT_MB * 1000000)) ] \
  || die "the bundle is over ${LIMIT_MB} MB; take fewer unit tests (STARK_BUNDLE_UNITTESTS)"
