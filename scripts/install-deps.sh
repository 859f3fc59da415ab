#!/bin/sh
# Install what twigz needs to build and test, on Debian 12 (bookworm) or a
# close relative: only the packages that are missing, without questions.
# Silent when everything is already there, so it is cheap to run first in
# every other script.
#
#   sh scripts/install-deps.sh
#
# Needs root (or sudo) only when something must be installed.
set -eu

# Compiler and build: gcc libc6-dev meson ninja-build pkg-config.
# Runtime and tool: libzstd-dev libxxhash-dev. Tests: check.
# Optional features: libpng-dev (pictures), clang and its sanitizer and
# libFuzzer runtimes libclang-rt-dev (fuzzing, ThreadSanitizer).
# The runtime for Windows (scripts/test.sh, step windows): the MinGW-w64
# cross compiler gcc-mingw-w64-x86-64-win32, Wine for 64-bit programs,
# wine64 (no i386 architecture needed) with its wine command, and
# xz-utils to unpack zstd's source (scripts/mingw-deps.sh).
# twigz build --mpi (scripts/test.sh, step mpi): Open MPI, libopenmpi-dev
# and openmpi-bin (mpirun).
PACKAGES="gcc libc6-dev meson ninja-build pkg-config libzstd-dev
libxxhash-dev check libpng-dev clang libclang-rt-dev
gcc-mingw-w64-x86-64-win32 wine64 wine xz-utils libopenmpi-dev openmpi-bin"

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

echo "install-deps: installing$missing"
# Package lists are only refreshed when something has to be installed.
$as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
# shellcheck disable=SC2086 # the list is split on purpose
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	--no-install-recommends $missing >/dev/null
echo "install-deps: done"
