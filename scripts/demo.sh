#!/bin/sh
# Build twigz, bake the demo level and ask the database a few questions.
#
#   sh scripts/demo.sh
#
# Installs what is missing (scripts/install-deps.sh), sets up the meson
# build directory (reconfigures it when it already exists), builds, bakes
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

sh scripts/install-deps.sh
if [ -f "$B/meson-private/coredata.dat" ]; then
	echo "demo: reconfiguring and building $B/"
	quiet meson setup --reconfigure "$B"
else
	echo "demo: setting up and building $B/"
	quiet meson setup "$B"
fi
quiet ninja -C "$B"

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
