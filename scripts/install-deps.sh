#!/bin/sh
# Install what twigz needs, on Debian 12 (bookworm) or a close relative:
# only the packages that are missing, without questions. Silent when
# everything is already there, so it is cheap to run first in every other
# script.
#
#   sh scripts/install-deps.sh [demo|all]
#
#   demo  what building the library and the tool needs, and nothing more
#         (scripts/demo.sh): a compiler, meson, ninja, pkg-config, zstd and
#         xxhash
#   all   (the default) that, and what every test needs (scripts/test.sh)
#
# Needs root (or sudo) only when something must be installed.
set -eu

# Compiler and build: gcc libc6-dev meson ninja-build pkg-config.
# Runtime and tool: libzstd-dev libxxhash-dev.
DEMO="gcc libc6-dev meson ninja-build pkg-config libzstd-dev libxxhash-dev"
# Tests: check; g++ (a test compiles twigz.h as C++). Optional features:
# libpng-dev (pictures), clang and its sanitizer and libFuzzer runtimes
# libclang-rt-dev (fuzzing, ThreadSanitizer). The runtime for Windows
# (scripts/test.sh, step windows): the MinGW-w64 cross compiler
# gcc-mingw-w64-x86-64-win32, Wine for 64-bit programs, wine64 (no i386
# architecture needed) with its wine command, and xz-utils to unpack
# zstd's source (scripts/mingw-deps.sh). twigz build --mpi (step mpi):
# Open MPI, libopenmpi-dev and openmpi-bin (mpirun). A CMake project
# finding the installed library (step consumers): cmake.
TESTS="check g++ libpng-dev clang libclang-rt-dev gcc-mingw-w64-x86-64-win32
wine64 wine xz-utils libopenmpi-dev openmpi-bin cmake"

case "${1:-all}" in
demo) PACKAGES=$DEMO ;;
all) PACKAGES="$DEMO $TESTS" ;;
*) echo "usage: sh scripts/install-deps.sh [demo|all]" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1 ||
   ! command -v apt-get >/dev/null 2>&1; then
	echo "install-deps: not a Debian system; make sure these (or your" \
	     "system's equivalents) are installed:" >&2
	# shellcheck disable=SC2086 # one line, words split on purpose
	echo $PACKAGES >&2
	exit 0
fi

missing=""
for p in $PACKAGES; do
	case "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done
[ -n "$missing" ] || exit 0

if [ "$(id -u)" -eq 0 ]; then
	as_root=""
elif command -v sudo >/dev/null 2>&1; then
	as_root="sudo"
else
	echo "install-deps: missing packages:$missing; run this script as root" >&2
	exit 1
fi

# apt-get names each package it fetches and sets up, so a long install
# shows its progress; its other chatter is left out.
echo "install-deps: installing$missing (with what they need; this can take minutes)"
echo "install-deps: refreshing the package lists"
$as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
# shellcheck disable=SC2086 # the list is split on purpose
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	--no-install-recommends $missing |
	grep --line-buffered -E '^(Need to get|Get:|Setting up)' || true
# The pipe above hides apt-get's status: ask dpkg what is there now.
for p in $missing; do
	case "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" in
	*" installed") ;;
	*) echo "install-deps: $p did not install" >&2; exit 1 ;;
	esac
done
echo "install-deps: done"
