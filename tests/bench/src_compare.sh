#!/bin/sh
# src_compare.sh - twigz's CPD against SRC (the GPPC-2014 winning CPD)
# built from its own code, on the same levels and queries in one run
# (tests/bench/src_compare.cpp says what is measured and how).
#
#   tests/bench/src_compare.sh SRC_DIR [BUILD_DIR] [src_compare options] LEVEL.map...
#
# SRC_DIR is SRC's folder (other/gppc-2014/FirstMoveCompression of
# eggeek/oracle-search) after its own build.sh: the bake runs its
# dfs_src, and the query side is compiled here against its sources with
# its build script's flags. BUILD_DIR is a twigz build folder (default:
# build); the twigz tool and libtwigz.a come from there. Work files go to
# BUILD_DIR/tests/bench/src-compare. The project never needs SRC: this
# script is the only thing that reads it.
set -eu

usage() {
	echo "usage: $0 SRC_DIR [BUILD_DIR] [--threads N] [--rounds N] [--bake-rounds N]" \
		"[--pairs N] [--cold N] [--format F]... [--no-bake] LEVEL.map..." >&2
	exit 2
}

[ $# -ge 1 ] || usage
src=$(cd "$1" && pwd) || usage
shift
build=build
if [ $# -ge 1 ] && [ -d "$1" ]; then
	build=$1
	shift
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "$build" && pwd)

for f in dfs_src cpd.cpp cpd.h mapper.h order.h adj_graph.h; do
	if [ ! -e "$src/$f" ]; then
		echo "$0: $src/$f: missing; run SRC's build.sh in $src first" >&2
		exit 2
	fi
done
for f in programs/twigz include/libtwigz.a include/twigz_version.h; do
	if [ ! -e "$build/$f" ]; then
		echo "$0: $build/$f: missing; build twigz first (ninja -C $build)" >&2
		exit 2
	fi
done

out=$build/tests/bench/src-compare
mkdir -p "$out"
# SRC's build script's flags (-std=c++0x -O3 -DNDEBUG) for its code and
# the driver alike.
${CXX:-g++} -std=c++0x -O3 -DNDEBUG -I"$src" -I"$root/include" -I"$build/include" \
	-o "$out/src_compare" "$here/src_compare.cpp" "$src/cpd.cpp" \
	"$build/include/libtwigz.a" -lzstd -lxxhash -lm
exec "$out/src_compare" --src "$src" --twigz "$build/programs/twigz" --work "$out" "$@"
