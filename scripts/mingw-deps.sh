#!/bin/sh
# Make what the runtime needs for 64-bit Windows, for the cross file
# cross/x86_64-w64-mingw32.ini, and write DIR/deps.ini, the second
# machine file that points meson at it:
#   zstd    its decompressor (lib/common and lib/decompress: all the
#           runtime calls), compiled with the cross compiler from
#           Debian's source package of the zstd this machine has;
#   xxhash  its header alone, used with XXH_INLINE_ALL, copied from this
#           machine's libxxhash-dev.
#
#   sh scripts/mingw-deps.sh DIR
#
# The source is fetched with a package list kept in DIR: the system's apt
# configuration is read, never changed. Needs apt-get, the cross compiler
# and libxxhash-dev (scripts/install-deps.sh installs them). Without
# apt-get, set ZSTD_SOURCE to an unpacked zstd source tree (the folder
# that holds lib/). Does nothing when DIR is already complete.
#
# Environment:
#   CROSS        the cross tools' prefix (default x86_64-w64-mingw32)
#   ZSTD_SOURCE  a zstd source tree to build instead of fetching one
#   XXHASH_H     the xxhash.h to copy (default /usr/include/xxhash.h)
set -eu

[ $# -eq 1 ] || { echo "usage: sh scripts/mingw-deps.sh DIR" >&2; exit 2; }
mkdir -p "$1"
dir=$(cd "$1" && pwd)
case "$dir" in
*[[:space:]\'\"]*)
	echo "mingw-deps: $dir: pkg-config cannot take a path with spaces or quotes" >&2
	exit 1 ;;
esac
cross=${CROSS:-x86_64-w64-mingw32}
xxhash_h=${XXHASH_H:-/usr/include/xxhash.h}

if [ -f "$dir/deps.ini" ] && [ -f "$dir/lib/libzstd.a" ]; then
	exit 0
fi
command -v "$cross-gcc" >/dev/null 2>&1 || {
	echo "mingw-deps: $cross-gcc is missing (Debian: gcc-mingw-w64-x86-64-win32)" >&2
	exit 1
}
[ -f "$xxhash_h" ] || {
	echo "mingw-deps: $xxhash_h is missing (Debian: libxxhash-dev)" >&2
	exit 1
}

# ---- zstd's source ------------------------------------------------------

# Debian's source of libzstd, from the archive this machine installed
# libzstd-dev from, into $dir/src.
fetch_zstd() {
	apt="$dir/apt"
	rm -rf "$apt" "$dir/src"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$dir/src"
	# "500 URI SUITE/COMPONENT ARCH Packages" of the version table.
	origin=$(apt-cache policy libzstd-dev 2>/dev/null |
		awk '$2 ~ /^https?:\/\// && $3 ~ /\// { print $2, $3; exit }')
	if [ -z "$origin" ]; then
		echo "mingw-deps: apt knows no archive of libzstd-dev (run apt-get update)" >&2
		return 1
	fi
	uri=${origin% *}
	suite=${origin#* }
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	opts=""
	[ -f "$keyring" ] && opts="[signed-by=$keyring] "
	echo "deb-src $opts$uri ${suite%%/*} ${suite#*/}" > "$apt/sources.list"
	set -- -qq -o Dir::Etc::SourceList="$apt/sources.list" \
		-o Dir::Etc::SourceParts="$apt/none" \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache"
	[ "$(id -u)" -ne 0 ] || set -- "$@" -o APT::Sandbox::User=root
	apt-get "$@" update
	version=$(dpkg-query -W -f='${Version}' libzstd-dev 2>/dev/null || true)
	# The version installed here, else the archive's.
	(cd "$dir/src" &&
	 { apt-get "$@" source --download-only "libzstd=$version" 2>/dev/null ||
	   apt-get "$@" source --download-only libzstd; })
	# Debian's patches touch the tests and the compressor only.
	for t in "$dir"/src/libzstd_*.orig.tar.*; do
		case "$t" in *.asc) ;; *) (cd "$dir/src" && tar -xf "$t") ;; esac
	done
	rm -rf "$apt"
}

src=${ZSTD_SOURCE:-}
if [ -z "$src" ]; then
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "mingw-deps: no apt-get to fetch zstd's source: set ZSTD_SOURCE" >&2
		exit 1
	fi
	fetch_zstd
	for d in "$dir"/src/*/; do
		[ -f "$d/lib/zstd.h" ] && src=${d%/}
	done
fi
if [ -z "$src" ] || [ ! -f "$src/lib/zstd.h" ]; then
	echo "mingw-deps: no zstd source tree (lib/zstd.h) ${src:+in $src}" >&2
	exit 1
fi

# ---- zstd's decompressor, cross-compiled --------------------------------

mkdir -p "$dir/obj" "$dir/lib/pkgconfig" "$dir/include"
rm -f "$dir"/obj/*.o
# Two at a time; the assembler's Huffman decoder is for ELF and Mach-O.
ls "$src"/lib/common/*.c "$src"/lib/decompress/*.c |
	xargs -P 2 -I '{}' sh -c 'o="$1/obj/$(basename "$2" .c).o"
		"$0-gcc" -O2 -DZSTD_DISABLE_ASM -c "$2" -o "$o"' \
		"$cross" "$dir" '{}'
rm -f "$dir/lib/libzstd.a"
"$cross-ar" rcs "$dir/lib/libzstd.a" "$dir"/obj/*.o
rm -rf "$dir/obj"
cp "$src/lib/zstd.h" "$src/lib/zstd_errors.h" "$dir/include/"
zstd_version=$(awk '/^#define ZSTD_VERSION_(MAJOR|MINOR|RELEASE)/ { v = v sep $3; sep = "." }
	END { print v }' "$src/lib/zstd.h")

# ---- xxhash, header only ------------------------------------------------

cp "$xxhash_h" "$dir/include/xxhash.h"
xxhash_version=$(awk '/^#define XXH_VERSION_(MAJOR|MINOR|RELEASE)/ { v = v sep $3; sep = "." }
	END { print v }' "$xxhash_h")

# ---- what meson reads ---------------------------------------------------

cat > "$dir/lib/pkgconfig/libzstd.pc" <<EOF
prefix=$dir
includedir=\${prefix}/include
libdir=\${prefix}/lib

Name: zstd
Description: zstd's decompressor, for the runtime on Windows
Version: $zstd_version
Cflags: -I\${includedir}
Libs: -L\${libdir} -lzstd
EOF
cat > "$dir/lib/pkgconfig/libxxhash.pc" <<EOF
prefix=$dir
includedir=\${prefix}/include

Name: libxxhash
Description: xxhash as its header alone (XXH_INLINE_ALL), for the runtime on Windows
Version: $xxhash_version
Cflags: -I\${includedir} -DXXH_INLINE_ALL
Libs:
EOF
cat > "$dir/deps.ini" <<EOF
# Written by scripts/mingw-deps.sh: where zstd and xxhash for Windows are.
[properties]
pkg_config_libdir = ['$dir/lib/pkgconfig']
EOF
echo "mingw-deps: zstd $zstd_version (decompressor) and xxhash $xxhash_version in $dir"
