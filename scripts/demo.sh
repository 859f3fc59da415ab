#!/bin/sh
# Build twigz, bake the demo level and ask the database a few questions.
#
#   sh scripts/demo.sh
#
# Installs what the demo needs and is missing (scripts/install-deps.sh
# demo: a compiler, meson, ninja, pkg-config, zstd and xxhash; nothing
# for the tests), sets up the meson build directory (reconfigures it when
# it already exists), builds the twigz tool, bakes
# data/demo.map into demo.twz in the build directory, prints what the
# database holds, answers queries (plain and --json) and verifies every
# problem of data/demo.map.scen.
#
# Environment: TWIGZ_BUILD_DIR, the build directory (default: build).
set -eu
cd "$(dirname "$0")/.."

B=${TWIGZ_BUILD_DIR:-build}
TWIGZ="$B/programs/twigz"
DB="$B/demo.twz"

# Runs a command quietly; shows its output only when it fails.
quiet() {
	if ! out=$("$@" 2>&1); then
		printf '%s\n' "$out" >&2
		echo "demo: failed: $*" >&2
		exit 1
	fi
}

# Shows a command, then runs it.
show() {
	printf '\n$ %s\n' "$*"
	"$@"
}

echo "demo: looking for a compiler, meson, ninja, pkg-config, zstd and xxhash"
sh scripts/install-deps.sh demo
if [ -f "$B/meson-private/coredata.dat" ]; then
	echo "demo: reconfiguring $B/"
	quiet meson setup --reconfigure "$B"
else
	echo "demo: setting up $B/"
	quiet meson setup "$B"
fi
# The tool alone: the library a game links, and the test suites when
# Check is installed, come with `ninja -C build`.
echo "demo: building the twigz tool (a minute or two)"
quiet ninja -C "$B" programs/twigz

# data/demo.map is 64 x 48: six rooms and their corridors, and three places
# no path reaches (a sealed room, the inside of a hollow block in the
# vault, a cell touching the vault only at a corner).
show "$TWIGZ" build data/demo.map -o "$DB"
show "$TWIGZ" info "$DB"
# From the pillared hall (top left) to the vault (right).
show "$TWIGZ" query "$DB" 3 3 60 29
# Through the courtyard and the winding passage, as JSON.
show "$TWIGZ" query "$DB" 10 44 47 19 --json
# Into the hollow block: no path.
show "$TWIGZ" query "$DB" 3 3 53 24
show "$TWIGZ" query "$DB" 3 3 53 24 --json
# Every problem of the scenario, each path checked move by move.
show "$TWIGZ" verify "$DB" data/demo.map.scen
