#!/bin/sh
# Build twigz and run every test.
#
#   sh scripts/test.sh
#
# Installs what is missing (step deps) and makes the release build
# (step build) first; then runs the other steps, each a function
# step_<name>, several at a time (TWIGZ_JOBS, default the number of
# cores) in the order of STEPS, longest first, each into its own log.
# It prints a line as each step starts and ends, with its wall time and
# its CPU time (user + system, of every process it ran), shows the log of
# a step that failed, and sums them all up at the end. A failed step does
# not stop the others; the script exits non-zero when any failed. A step
# that cannot run here (a tool missing) says why and counts as skipped,
# not passed: under CI=true (.ci/run) a skipped step fails the run. To add
# a step, write its function and add its name to STEPS.
#
#   deps          install what is missing (scripts/install-deps.sh)
#   build         release build with tests enabled (every later step that
#                 runs the release build's tool waits for it)
#   sanitize      debugoptimized build with AddressSanitizer and
#                 UndefinedBehaviorSanitizer; meson test and the data
#                 step's bakes
#   windows       the runtime alone cross-built for 64-bit Windows with
#                 MinGW-w64 (cross/, scripts/mingw-deps.sh); its driver
#                 runs under Wine on the golden files and on databases the
#                 release build's tool bakes
#   fuzz          clang build with -Dfuzz=true; each libFuzzer target for
#                 TWZ_FUZZ_SECONDS (default 20) on its seed corpus
#                 (tests/fuzz/README.md)
#   release       meson test of the release build
#   tsan          ThreadSanitizer build; the concurrency suite (many threads
#                 on one handle, several files, a file replaced underneath)
#                 and the chunk cache's threads (check_chunks, case Threads)
#   mpi           every level in data/ baked with `mpirun -np 2` and 3
#                 (twigz build --mpi, ranks on this machine), with CPD and
#                 with TRANSIT, in several formats, with chunks and agent
#                 sizes, is the same bytes as the bake in one process (the release build's tool when it has MPI, else
#                 a -Dmpi=enabled build of its own)
#   consumers     the games of tests/consumers link libtwigz as the docs
#                 say: a meson subproject with default_library=static (no
#                 libtwigz.so needed); a meson subproject whose twigz tool
#                 (find_program) bakes the game's level in a custom_target,
#                 built without MPI and libpng; and find_package(twigz) in
#                 CMake against a staged install, moved too
#   data          data/ matches its generators; every level in data/ is
#                 baked and verified against its scenario; the bake is
#                 the same bytes with one thread and with two; the road
#                 graph and the navmeshes verify every query
#   junctions     data/junctions.map matches its generator; every level in
#                 data/ baked with --junctions verifies against its
#                 scenarios, the same bytes with one thread and two (the
#                 whole 512 x 512 maze is a benchmark, not a test: the
#                 junctions suite checks a corner of it against Dijkstra)
#   example       the C program of README.md compiles against the installed
#                 library (pkg-config; LD_LIBRARY_PATH, then an rpath) and runs
#   runtime_only  -Druntime_only=true builds the runtime alone
#
# Environment:
#   TWIGZ_BUILD_DIR  release build directory (default: build); the other
#                    builds go to $TWIGZ_BUILD_DIR-<step>, the logs to
#                    $TWIGZ_BUILD_DIR-logs/<step>.log
#   TWIGZ_STEPS      the steps to run (default: all of STEPS)
#   TWIGZ_JOBS       how many steps run at once (default: the number of
#                    cores); with 1, each step's output goes to the terminal
#                    as it runs
set -eu
cd "$(dirname "$0")/.."

STEPS="deps build sanitize windows fuzz release tsan mpi consumers data junctions example runtime_only"
# The steps that run the release build's tool or tests.
NEED_BUILD="release data junctions example consumers windows mpi"
B=${TWIGZ_BUILD_DIR:-build}
LOGS="$B-logs"

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

# Ends the step as skipped, saying why: it cannot run on this machine.
skip() {
	echo "$*"
	exit 77
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
	sh scripts/install-deps.sh all
}

step_build() {
	setup "$B" --buildtype=release -Dtests=enabled
	ninja -C "$B"
}

# The later steps share the release build: none rebuilds it.
step_release() {
	meson test -C "$B" --no-rebuild --print-errorlogs
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

# The C program of README.md (the ```c block after its "sample: program
# route.c" line), compiled as the README says: against the installed
# library, found through pkg-config. The install goes to a staging
# directory inside the build directory. (The docs test of meson test
# builds every sample of the docs against the build tree.)
step_example() {
	dir="$B/example"
	stage="$(pwd)/$dir/stage"
	rm -rf "$stage"
	mkdir -p "$dir"
	awk '/^<!-- sample: program route.c / { armed = 1; next }
	     armed && /^```c$/ { on = 1; next }
	     on && /^```$/ { exit }
	     on { print }' README.md > "$dir/route.c"
	[ -s "$dir/route.c" ] || { echo "README.md: no route.c program"; return 1; }
	meson install -C "$B" --no-rebuild --destdir "$stage" --quiet
	pc=$(find "$stage" -name twigz.pc)
	[ -n "$pc" ] || { echo "meson install: no twigz.pc"; return 1; }
	PKG_CONFIG_PATH=$(dirname "$pc")
	export PKG_CONFIG_PATH
	prefix="$stage$(pkg-config --variable=prefix twigz)"
	flags=$(pkg-config --define-variable=prefix="$prefix" --cflags --libs twigz)
	libdir=$(pkg-config --define-variable=prefix="$prefix" --variable=libdir twigz)
	# shellcheck disable=SC2086 # flags are split on purpose
	cc -std=c11 -Wall -Wextra -Werror -o "$dir/route" "$dir/route.c" $flags
	"$B/programs/twigz" build data/demo.map -o "$dir/demo.twz" --quiet
	LD_LIBRARY_PATH="$libdir" "$dir/route" "$dir/demo.twz" 3 3 60 29
	# Into the hollow block: no path, exit status 1.
	if LD_LIBRARY_PATH="$libdir" "$dir/route" "$dir/demo.twz" 3 3 53 24; then
		echo "route: a path into the hollow block"
		return 1
	fi
	# With the rpath the README gives for an install outside the
	# loader's path, instead of LD_LIBRARY_PATH.
	# shellcheck disable=SC2086 # flags are split on purpose
	cc -std=c11 -Wall -Wextra -Werror -o "$dir/route-rpath" "$dir/route.c" $flags \
		-Wl,-rpath,"$libdir"
	"$dir/route-rpath" "$dir/demo.twz" 3 3 60 29
	# And against the build tree, through the uninstalled pkg-config file.
	PKG_CONFIG_PATH="$B/meson-uninstalled"
	flags=$(pkg-config --cflags --libs twigz)
	# shellcheck disable=SC2086 # flags are split on purpose
	cc -std=c11 -Wall -Wextra -Werror -o "$dir/route-uninstalled" "$dir/route.c" $flags
	LD_LIBRARY_PATH="$B/include" "$dir/route-uninstalled" "$dir/demo.twz" 3 3 60 29
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

	command -v cmake >/dev/null 2>&1 ||
		skip "consumers: CMake not tried: cmake is not installed (scripts/install-deps.sh installs it)"
	# CMake: find_package(twigz) against a staged install, through the
	# package config installed beside twigz.pc.
	stage="$tmp/stage"
	meson install -C "$B" --no-rebuild --destdir "$stage" --quiet
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
		meson test -C "$dir" --no-rebuild --print-errorlogs --timeout-multiplier 3
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
	printf 'int main(void) { return 0; }\n' |
		"$cc" -fsanitize=thread -x c - -o /dev/null >/dev/null 2>&1 ||
		skip "tsan: $cc cannot build with -fsanitize=thread"
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
	command -v clang >/dev/null 2>&1 ||
		skip "fuzz: clang is not installed (scripts/install-deps.sh installs it)"
	fuzzer_links -fsanitize=fuzzer,address,undefined ||
		skip "fuzz: clang cannot link libFuzzer (install libclang-rt-dev)"
	dir="$B-fuzz"
	(CC=clang; export CC; setup "$dir" --buildtype=debugoptimized -Dfuzz=true \
		-Dtests=disabled)
	ninja -C "$dir"
	TWZ_FUZZ_SECONDS=${TWZ_FUZZ_SECONDS:-20} \
		meson test -C "$dir" --no-rebuild --print-errorlogs \
		--num-processes 1 --suite fuzz
}

step_windows() {
	cross=x86_64-w64-mingw32
	command -v "$cross-gcc" >/dev/null 2>&1 && command -v wine >/dev/null 2>&1 ||
		skip "windows: $cross-gcc or wine is missing" \
		     "(scripts/install-deps.sh installs them)"
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
	meson test -C "$dir" --no-rebuild --print-errorlogs --timeout-multiplier 3 || rc=$?
	wineserver -k 2>/dev/null || true
	return "$rc"
}

# Whether the meson build directory $1 found dependency $2.
build_has() {
	meson introspect "$1" --dependencies |
		python3 -c 'import json,sys; sys.exit(all(d["name"] != sys.argv[1] for d in json.load(sys.stdin)))' "$2"
}

step_mpi() {
	command -v mpirun >/dev/null 2>&1 && pkg-config --exists ompi-c 2>/dev/null ||
		skip "mpi: Open MPI is not installed" \
		     "(apt-get install libopenmpi-dev openmpi-bin)"
	# The release build has --mpi when it found Open MPI (-Dmpi=auto).
	dir="$B"
	if ! build_has "$B" mpi; then
		dir="$B-mpi"
		setup "$dir" --buildtype=release -Dmpi=enabled -Dtests=disabled
		ninja -C "$dir" programs/twigz
	fi
	tool="$dir/programs/twigz"
	out="$B-mpi-check"
	mkdir -p "$out"
	# CI runs as root; the ranks share this machine's cores.
	run="mpirun --oversubscribe --allow-run-as-root"
	for map in data/*.map; do
		name=$(basename "$map" .map)
		for opts in "" "--connectivity 4 --codec raw --format 1.0" \
			    "--format 1.4 --chunk 4K --agent-sizes 1,2,3" \
			    "--method transit" "--method transit --connectivity 4 --transit-grid 5" \
			    "--method transit --agent-sizes 1,2 --chunk 4K"; do
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

# ---- running the steps ---------------------------------------------------

# Seconds from the "XmY.Zs" of `times`.
seconds() {
	echo "$1" | awk -F'[ms]' '{ printf "%.0f", $1 * 60 + $2 }'
}

# Runs step $1 in this shell and writes "STATUS CPU-SECONDS" to
# $LOGS/$1.status: the step in a subshell, so that set -e holds inside it
# (it would be off under an if) and its exit ends only the step.
run_one() {
	set +e
	(set -e; "step_$1")
	rc=$?
	set -e
	# `times` in this shell, not in a $(...) subshell that ran nothing.
	times > "$LOGS/$1.times"
	cpu=$(awk 'NR == 2 { print $1, $2 }' "$LOGS/$1.times")
	rm -f "$LOGS/$1.times"
	echo "$rc $(( $(seconds "${cpu% *}") + $(seconds "${cpu#* }") ))" > "$LOGS/$1.status"
}

# The internal entry point of a step started in its own session (below).
if [ -n "${TWIGZ_RUN_ONE:-}" ]; then
	run_one "$TWIGZ_RUN_ONE"
	exit 0
fi

# Starts step $1 in the background, its output to its log, in a session
# of its own where setsid is there, so that an interrupt stops all of it.
start() {
	: > "$LOGS/$1.log"
	rm -f "$LOGS/$1.status"
	if command -v setsid >/dev/null 2>&1; then
		TWIGZ_RUN_ONE=$1 setsid sh scripts/test.sh </dev/null >"$LOGS/$1.log" 2>&1 &
	else
		(run_one "$1") </dev/null >"$LOGS/$1.log" 2>&1 &
	fi
	eval "pid_$1=$!"
	eval "began_$1=$(date +%s)"
	echo "==> test.sh: $1 started"
}

# Records how step $1 ended: a line now, a line for the summary.
finish() {
	read -r rc cpu < "$LOGS/$1.status" || { rc=1; cpu=0; }
	eval "wall=\$(( \$(date +%s) - began_$1 ))"
	times="${wall}s, cpu ${cpu}s"
	total_cpu=$(( total_cpu + cpu ))
	case $rc in
	0) line="$1: ok ($times)" ;;
	77) line="$1: SKIPPED ($times): $(tail -n 1 "$LOGS/$1.log")"
	    skipped="$skipped $1" ;;
	*) line="$1: FAILED, exit $rc ($times); log: $LOGS/$1.log"
	   failed="$failed $1" ;;
	esac
	echo "==> test.sh: $line"
	report="$report
  $line"
}

# A step run in the foreground, its output on the terminal too.
run_here() {
	start "$1"
	eval "shown_$1=1"
	eval "pid=\$pid_$1"
	# tail in the background: the shell's wait, unlike a command in the
	# foreground, lets a trapped interrupt in at once.
	tail -n +1 -f --pid="$pid" "$LOGS/$1.log" 2>/dev/null &
	wait "$!" || true
	wait "$pid" || true
	finish "$1"
}

# Stops every step still running, all its processes.
stop_all() {
	for s in $running; do
		eval "pid=\$pid_$s"
		kill -s TERM -- "-$pid" 2>/dev/null || kill -s TERM "$pid" 2>/dev/null || true
	done
}

selected=${TWIGZ_STEPS:-$STEPS}
for s in $selected; do
	case " $STEPS " in *" $s "*) ;; *) echo "test.sh: no step '$s' (steps: $STEPS)" >&2; exit 2 ;; esac
done
# A step that runs the release build's tool gets the build first.
case " $selected " in *" build "*) ;; *)
	for s in $selected; do
		case " $NEED_BUILD " in *" $s "*) selected="build $selected"; break ;; esac
	done ;;
esac
jobs=${TWIGZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}

mkdir -p "$LOGS"
failed=""
skipped=""
report=""
total_cpu=0
running=""
total_start=$(date +%s)
trap 'stop_all; exit 130' INT TERM

# deps and build first, each alone: the others need what they make.
queue=""
for s in $STEPS; do
	case " $selected " in *" $s "*) ;; *) continue ;; esac
	case $s in
	deps | build)
		if [ -z "$failed" ]; then
			running=$s
			run_here "$s"
			running=""
		fi ;;
	*) queue="$queue $s" ;;
	esac
done
case " $failed " in
*" deps "* | *" build "*)
	echo "==> test.sh: not running$queue: the build failed"
	queue="" ;;
esac

if [ "$jobs" -le 1 ]; then
	for s in $queue; do
		running=$s
		run_here "$s"
	done
	running=""
else
	# Up to $jobs steps at once; a step starts as soon as one ends.
	while [ -n "$queue" ] || [ -n "$running" ]; do
		for s in $running; do
			[ -f "$LOGS/$s.status" ] || continue
			eval "wait \$pid_$s" || true
			finish "$s"
			running=$(echo " $running " | sed "s/ $s / /; s/^ *//; s/ *$//")
		done
		set -- $running
		while [ "$#" -lt "$jobs" ] && [ -n "$queue" ]; do
			set -- $queue
			s=$1
			shift
			queue="$*"
			start "$s"
			running="$running $s"
			set -- $running
		done
		[ -n "$running" ] && sleep 1
	done
fi

for s in $failed; do
	eval "shown=\${shown_$s:-}"
	[ -z "$shown" ] || continue
	echo
	echo "==> test.sh: the end of $LOGS/$s.log"
	tail -n 60 "$LOGS/$s.log"
done
echo
echo "==> test.sh summary (${jobs} at a time; wall $(( $(date +%s) - total_start ))s, cpu ${total_cpu}s):$report"
if [ -n "$failed" ]; then
	echo "test.sh: failed:$failed"
	exit 1
fi
if [ -n "$skipped" ]; then
	if [ "${CI:-}" = true ]; then
		echo "test.sh: skipped:$skipped (CI=true: every step must run)"
		exit 1
	fi
	echo "test.sh: passed, but skipped:$skipped"
	exit 0
fi
echo "test.sh: all steps passed"
