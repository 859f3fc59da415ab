#!/bin/sh
# Build twigz and run every test.
#
#   sh scripts/test.sh
#
# Runs the steps below in order, each a function step_<name>, timed and
# reported at the end; a failed step does not stop the later ones, and the
# script exits non-zero when any step failed. To add a step, write its
# function and add its name to STEPS.
#
#   deps          install what is missing (scripts/install-deps.sh)
#   release       release build with tests enabled; meson test
#   data          data/ matches its generators; every level in data/ is
#                 baked and verified against its scenario; the bake is
#                 the same bytes with one thread and with two; the road
#                 graph and the navmeshes verify every query
#   junctions     data/junctions.map matches its generator; every level in
#                 data/ baked with --junctions verifies against its
#                 scenarios, the same bytes with one thread and two (the
#                 whole 512 x 512 maze is a benchmark, not a test: the
#                 junctions suite checks a corner of it against Dijkstra)
#   example       the C example of README.md compiles and runs
#   consumers     the games of tests/consumers link libtwigz as README.md
#                 says: a meson subproject with default_library=static
#                 (no libtwigz.so needed); a meson subproject whose twigz
#                 tool (find_program) bakes the game's level in a
#                 custom_target, built without MPI and libpng; and
#                 find_package(twigz) in CMake against a staged install,
#                 moved too (skipped without cmake)
#   runtime_only  -Druntime_only=true builds the runtime alone
#   sanitize      debugoptimized build with AddressSanitizer and
#                 UndefinedBehaviorSanitizer; meson test and the data step
#   tsan          ThreadSanitizer build; the concurrency suite (many threads
#                 on one handle, several files, a file replaced underneath)
#                 and the chunk cache's threads (check_chunks, case Threads)
#   fuzz          clang build with -Dfuzz=true; each libFuzzer target for
#                 TWZ_FUZZ_SECONDS (default 25) on its seed corpus
#                 (tests/fuzz/README.md); skipped when clang is missing
#   windows       the runtime alone cross-built for 64-bit Windows with
#                 MinGW-w64 (cross/, scripts/mingw-deps.sh); its driver
#                 runs under Wine on the golden files and on databases the
#                 release build's tool bakes; skipped when the cross
#                 compiler or Wine is missing
#   mpi           -Dmpi=enabled build; every level in data/ baked with
#                 `mpirun -np 2` and 3 (twigz build --mpi, ranks on this
#                 machine), with CPD and with TRANSIT, is the same bytes
#                 as the bake in one process;
#                 skipped when Open MPI (mpirun, libopenmpi-dev) is missing
#
# Environment:
#   TWIGZ_BUILD_DIR  release build directory (default: build); the other
#                    builds go to $TWIGZ_BUILD_DIR-<step>
#   TWIGZ_STEPS      the steps to run (default: all of STEPS, in order)
set -eu
cd "$(dirname "$0")/.."

STEPS="deps release data junctions example consumers runtime_only sanitize tsan fuzz windows mpi"
B=${TWIGZ_BUILD_DIR:-build}

# Sets up a build directory, or reconfigures it with the same options.
setup() {
	dir=$1
	shift
	if [ -f "$dir/meson-private/coredata.dat" ]; then
		meson setup --reconfigure "$dir" "$@"
	else
		meson setup "$dir" "$@"
	fi
}

# Bakes every data/*.map with the tool of build directory $1 and verifies
# it against its scenario file.
check_data() {
	tool="$1/programs/twigz"
	out="$1/data-check"
	mkdir -p "$out"
	for map in data/*.map; do
		name=$(basename "$map" .map)
		"$tool" build "$map" -o "$out/$name.twz" --quiet
		printf '%s: ' "$map"
		"$tool" verify "$out/$name.twz" "$map.scen"
	done
}

step_deps() {
	sh scripts/install-deps.sh
}

step_release() {
	setup "$B" --buildtype=release -Dtests=enabled
	ninja -C "$B"
	meson test -C "$B" --print-errorlogs
}

step_data() {
	python3 data/make_levels.py --check
	check_data "$B"
	tool="$B/programs/twigz"
	"$tool" build data/demo.map -o "$B/data-check/demo-1.twz" --threads 1 --quiet
	"$tool" build data/demo.map -o "$B/data-check/demo-2.twz" --threads 2 --quiet
	cmp "$B/data-check/demo-1.twz" "$B/data-check/demo-2.twz"
	echo "data/demo.map: the same bytes with 1 and 2 threads"
	# The road graph and the navmeshes: their generators, and every query
	# of their own files against the tool's own Dijkstra.
	python3 data/make_graphs.py --check
	python3 data/make_navmesh.py --check
	"$tool" build data/city.gr --coords data/city.co -o "$B/data-check/city.twz" --quiet
	printf 'data/city.gr: '
	"$tool" verify "$B/data-check/city.twz" data/city.p2p
	for mesh in data/rooms.obj data/rooms_fan.obj; do
		"$tool" build "$mesh" -o "$B/data-check/mesh.twz" --quiet
		printf '%s: ' "$mesh"
		"$tool" verify "$B/data-check/mesh.twz" data/rooms.points
	done
}

# Junction graphs (twigz build --junctions), as the step list says.
step_junctions() {
	python3 data/make_junction_maze.py --check
	tool="$B/programs/twigz"
	out="$B/junctions-check"
	mkdir -p "$out"
	for map in data/*.map; do
		name=$(basename "$map" .map)
		"$tool" build "$map" -o "$out/$name.twz" --junctions --quiet
		printf '%s (junctions): ' "$map"
		"$tool" verify "$out/$name.twz" "$map.scen"
	done
	"$tool" build data/junctions.map -o "$out/j1.twz" --junctions --threads 1 --quiet
	"$tool" build data/junctions.map -o "$out/j2.twz" --junctions --threads 2 --quiet
	cmp "$out/j1.twz" "$out/j2.twz"
	echo "data/junctions.map (junctions): the same bytes with 1 and 2 threads"
}

# The C example of README.md (the first ```c block after its "example:
# walk.c" marker), compiled as the README says: against the installed
# library, found through pkg-config. The install goes to a staging
# directory inside the build directory.
step_example() {
	dir="$B/example"
	stage="$(pwd)/$dir/stage"
	rm -rf "$stage"
	mkdir -p "$dir"
	awk '/<!-- example: walk.c -->/ { armed = 1; next }
	     armed && /^```c$/ { on = 1; next }
	     on && /^```$/ { exit }
	     on { print }' README.md > "$dir/walk.c"
	[ -s "$dir/walk.c" ] || { echo "README.md: no walk.c example"; return 1; }
	meson install -C "$B" --destdir "$stage" --quiet
	pc=$(find "$stage" -name twigz.pc)
	[ -n "$pc" ] || { echo "meson install: no twigz.pc"; return 1; }
	PKG_CONFIG_PATH=$(dirname "$pc")
	export PKG_CONFIG_PATH
	prefix="$stage$(pkg-config --variable=prefix twigz)"
	flags=$(pkg-config --define-variable=prefix="$prefix" --cflags --libs twigz)
	libdir=$(pkg-config --define-variable=prefix="$prefix" --variable=libdir twigz)
	# shellcheck disable=SC2086 # flags are split on purpose
	cc -std=c11 -Wall -Wextra -Werror -o "$dir/walk" "$dir/walk.c" $flags
	"$B/programs/twigz" build data/demo.map -o "$dir/demo.twz" --quiet
	LD_LIBRARY_PATH="$libdir" "$dir/walk" "$dir/demo.twz" 3 3 60 29
	LD_LIBRARY_PATH="$libdir" "$dir/walk" "$dir/demo.twz" 3 3 53 24
	# And against the build tree, through the uninstalled pkg-config file.
	PKG_CONFIG_PATH="$B/meson-uninstalled"
	flags=$(pkg-config --cflags --libs twigz)
	# shellcheck disable=SC2086 # flags are split on purpose
	cc -std=c11 -Wall -Wextra -Werror -o "$dir/walk-uninstalled" "$dir/walk.c" $flags
	LD_LIBRARY_PATH="$B/include" "$dir/walk-uninstalled" "$dir/demo.twz" 3 3 60 29
}

# Whether the ELF file $1 needs a shared library whose name matches $2.
needs_lib() {
	readelf -d "$1" | grep -q "NEEDED.*$2"
}

# The consumer games of tests/consumers, built in a temporary folder with
# the release build's database of data/demo.map.
step_consumers() {
	src=$(pwd)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	db="$tmp/demo.twz"
	"$B/programs/twigz" build data/demo.map -o "$db" --quiet

	# Meson: twigz as a subproject of a game with default_library=static.
	mkdir -p "$tmp/meson/subprojects"
	cp tests/consumers/meson_static/meson.build tests/consumers/game.c "$tmp/meson/"
	ln -s "$src" "$tmp/meson/subprojects/twigz"
	meson setup "$tmp/meson/build" "$tmp/meson" >/dev/null
	ninja -C "$tmp/meson/build" >/dev/null
	if needs_lib "$tmp/meson/build/game" libtwigz; then
		echo "meson subproject, default_library=static: the game needs libtwigz.so"
		return 1
	fi
	"$tmp/meson/build/game" "$db" 3 3 60 29
	echo "meson subproject, default_library=static: libtwigz linked in"

	# Meson: the subproject's own tool bakes the game's level in a
	# custom_target; the tool links neither MPI nor libpng, though both
	# are installed here.
	bake="$tmp/meson-bake"
	mkdir -p "$bake/subprojects"
	cp tests/consumers/meson_bake/meson.build tests/consumers/game.c "$bake/"
	cp data/demo.map "$bake/level.map"
	ln -s "$src" "$bake/subprojects/twigz"
	meson setup "$bake/build" "$bake" --force-fallback-for=twigz >/dev/null
	ninja -C "$bake/build" >/dev/null
	[ -s "$bake/build/level.twz" ] ||
		{ echo "meson subproject: find_program('twigz') baked no level"; return 1; }
	for lib in libmpi libpng; do
		if needs_lib "$bake/build/subprojects/twigz/programs/twigz" "$lib"; then
			echo "meson subproject: its twigz tool needs $lib"
			return 1
		fi
	done
	"$bake/build/game" "$bake/build/level.twz" 3 3 60 29
	echo "meson subproject: find_program('twigz') baked the game's level, without MPI or libpng"

	if ! command -v cmake >/dev/null 2>&1; then
		echo "consumers: CMake skipped: cmake is not installed"
		return 0
	fi
	# CMake: find_package(twigz) against a staged install, through the
	# package config installed beside twigz.pc.
	stage="$tmp/stage"
	meson install -C "$B" --destdir "$stage" --quiet
	prefix="$stage$(meson introspect "$B" --buildoptions |
		python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"][0])')"
	version=$(meson introspect "$B" --projectinfo |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')
	cmake_game() {  # NAME PREFIX [cmake options]: configure, build, run
		dir="$tmp/cmake-$1"
		pfx=$2
		shift 2
		cmake -S tests/consumers/cmake -B "$dir" -DCMAKE_PREFIX_PATH="$pfx" \
			"$@" >/dev/null
		cmake --build "$dir" >/dev/null
		"$dir/game" "$db"  3 3 60 29
	}
	libdir=$(dirname "$(find "$prefix" -name twigz.pc)")/..
	LD_LIBRARY_PATH="$libdir" cmake_game shared "$prefix" -DTWIGZ_WANT="$version"
	needs_lib "$tmp/cmake-shared/game" 'libtwigz.so' ||
		{ echo "cmake: twigz::twigz is not the shared library"; return 1; }
	cmake_game static "$prefix" -DTWIGZ_USE_STATIC_LIBS=ON
	if needs_lib "$tmp/cmake-static/game" libtwigz; then
		echo "cmake: TWIGZ_USE_STATIC_LIBS still needs libtwigz.so"
		return 1
	fi
	# The config finds everything from its own folder: a moved install.
	mv "$stage" "$tmp/moved"
	moved="$tmp/moved${prefix#"$stage"}"
	cmake_game moved "$moved" -DTWIGZ_USE_STATIC_LIBS=ON
	# A newer version than installed is refused.
	if cmake -S tests/consumers/cmake -B "$tmp/cmake-newer" \
		-DCMAKE_PREFIX_PATH="$moved" -DTWIGZ_WANT=99.0 >/dev/null 2>&1; then
		echo "cmake: find_package(twigz 99.0) accepted version $version"
		return 1
	fi
	echo "cmake: find_package(twigz $version): shared, static and moved installs"
}

step_runtime_only() {
	setup "$B-runtime_only" -Druntime_only=true
	ninja -C "$B-runtime_only"
}

step_sanitize() {
	dir="$B-sanitize"
	setup "$dir" --buildtype=debugoptimized \
		-Db_sanitize=address,undefined -Db_lundef=false -Dtests=enabled
	ninja -C "$dir"
	ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
		meson test -C "$dir" --print-errorlogs --timeout-multiplier 3
	check_data "$dir"
}

# Whether clang links a libFuzzer target built with the flags $1.
fuzzer_links() {
	probe=$(mktemp)
	rc=0
	printf '%s\n' 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)' \
		'{ (void)d; (void)n; return 0; }' |
		clang "$1" -x c - -o "$probe" >/dev/null 2>&1 || rc=1
	rm -f "$probe"
	return "$rc"
}

step_tsan() {
	cc=${CC:-cc}
	if ! printf 'int main(void) { return 0; }\n' |
	   "$cc" -fsanitize=thread -x c - -o /dev/null >/dev/null 2>&1; then
		echo "tsan: skipped: $cc cannot build with -fsanitize=thread"
		return 0
	fi
	dir="$B-tsan"
	setup "$dir" --buildtype=debugoptimized -Db_sanitize=thread \
		-Db_lundef=false -Dtests=enabled
	ninja -C "$dir" tests/check_concurrency tests/check_chunks
	meson test -C "$dir" --no-rebuild --print-errorlogs \
		--timeout-multiplier 3 concurrency
	# The chunk cache's threads: hits without a lock, misses that evict.
	CK_RUN_CASE=Threads meson test -C "$dir" --no-rebuild \
		--print-errorlogs --timeout-multiplier 3 chunks
}

step_fuzz() {
	if ! command -v clang >/dev/null 2>&1; then
		echo "fuzz: skipped: clang is not installed (scripts/install-deps.sh installs it)"
		return 0
	fi
	if ! fuzzer_links -fsanitize=fuzzer,address,undefined; then
		echo "fuzz: skipped: clang cannot link libFuzzer (install libclang-rt-dev)"
		return 0
	fi
	dir="$B-fuzz"
	(CC=clang; export CC; setup "$dir" --buildtype=debugoptimized -Dfuzz=true \
		-Dtests=disabled)
	ninja -C "$dir"
	TWZ_FUZZ_SECONDS=${TWZ_FUZZ_SECONDS:-25} \
		meson test -C "$dir" --no-rebuild --print-errorlogs \
		--num-processes 1 --suite fuzz
}

step_windows() {
	cross=x86_64-w64-mingw32
	if ! command -v "$cross-gcc" >/dev/null 2>&1 ||
	   ! command -v wine >/dev/null 2>&1; then
		echo "windows: skipped: $cross-gcc or wine is missing" \
		     "(scripts/install-deps.sh installs them)"
		return 0
	fi
	dir="$B-windows"
	here=$(pwd)
	case "$dir" in /*) abs=$dir ;; *) abs=$here/$dir ;; esac
	# Wine keeps its state in the build directory, quietly.
	WINEPREFIX="$abs/wine"
	WINEDEBUG=-all
	WINEDLLOVERRIDES="mscoree,mshtml="
	export WINEPREFIX WINEDEBUG WINEDLLOVERRIDES
	sh scripts/mingw-deps.sh "$dir/deps"
	setup "$dir" --cross-file cross/$cross.ini \
		--cross-file "$dir/deps/deps.ini" -Druntime_only=true -Dtests=enabled
	ninja -C "$dir"
	# Databases baked natively: one of each back end and codec, and a
	# 4-connected level.
	[ -f "$B/meson-private/coredata.dat" ] ||
		setup "$B" --buildtype=release -Dtests=enabled
	ninja -C "$B" programs/twigz
	mkdir -p "$dir/baked"
	tool="$B/programs/twigz"
	"$tool" build data/demo.map -o "$dir/baked/demo.twz" --quiet
	"$tool" build data/maze.map -o "$dir/baked/maze.twz" --method transit --quiet
	"$tool" build data/caves.map -o "$dir/baked/caves.twz" --codec raw \
		--connectivity 4 --quiet
	TWZ_BAKED="$here/data/demo.map;$abs/baked/demo.twz"
	TWZ_BAKED="$TWZ_BAKED;$here/data/maze.map;$abs/baked/maze.twz"
	TWZ_BAKED="$TWZ_BAKED;$here/data/caves.map;$abs/baked/caves.twz"
	export TWZ_BAKED
	rc=0
	meson test -C "$dir" --print-errorlogs --timeout-multiplier 3 || rc=$?
	wineserver -k 2>/dev/null || true
	return "$rc"
}

step_mpi() {
	if ! command -v mpirun >/dev/null 2>&1 ||
	   ! pkg-config --exists ompi-c 2>/dev/null; then
		echo "mpi: skipped: Open MPI is not installed" \
		     "(apt-get install libopenmpi-dev openmpi-bin)"
		return 0
	fi
	dir="$B-mpi"
	setup "$dir" --buildtype=release -Dmpi=enabled -Dtests=disabled
	ninja -C "$dir" programs/twigz
	tool="$dir/programs/twigz"
	out="$dir/mpi-check"
	mkdir -p "$out"
	# CI runs as root; the ranks share this machine's cores.
	run="mpirun --oversubscribe --allow-run-as-root"
	for map in data/*.map; do
		name=$(basename "$map" .map)
		for opts in "" "--connectivity 4 --codec raw --format 1.0" \
			    "--method transit" "--method transit --connectivity 4 --transit-grid 5"; do
			# shellcheck disable=SC2086 # options split on purpose
			"$tool" build "$map" -o "$out/$name.twz" --quiet $opts
			for np in 2 3; do
				rm -f "$out/$name-mpi.twz"
				# shellcheck disable=SC2086
				$run -np "$np" "$tool" build "$map" --mpi \
					-o "$out/$name-mpi.twz" --quiet $opts
				cmp "$out/$name.twz" "$out/$name-mpi.twz"
				echo "$map ${opts:-(defaults)}: -np $np the same bytes as one process"
			done
		done
	done
}

failed=""
report=""
total_start=$(date +%s)
for step in ${TWIGZ_STEPS:-$STEPS}; do
	echo
	echo "==> test.sh: $step"
	start=$(date +%s)
	# A subshell keeps set -e in force inside the step (it would be off
	# under an if) and lets the loop go on after a failure.
	set +e
	(set -e; "step_$step")
	rc=$?
	set -e
	took=$(( $(date +%s) - start ))
	if [ "$rc" -eq 0 ]; then
		report="$report
  $step: ok (${took}s)"
	else
		report="$report
  $step: FAILED (exit $rc, ${took}s)"
		failed="$failed $step"
	fi
done

echo
echo "==> test.sh summary ($(( $(date +%s) - total_start ))s):$report"
if [ -n "$failed" ]; then
	echo "test.sh: failed:$failed"
	exit 1
fi
echo "test.sh: all steps passed"
