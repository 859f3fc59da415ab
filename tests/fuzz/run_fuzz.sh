#!/bin/sh
# run_fuzz.sh FUZZER SEED_CORPUS WORK_DIR [libFuzzer options...]
#
# Runs one libFuzzer target for TWZ_FUZZ_SECONDS (default 20) on its seed
# corpus. New inputs go to WORK_DIR/corpus and crashes to WORK_DIR/, so
# the seed corpus in the source tree is only read. Exit status: the
# fuzzer's (0 when nothing was found in the time).
set -eu
if [ $# -lt 3 ]; then
	echo "usage: run_fuzz.sh FUZZER SEED_CORPUS WORK_DIR [options]" >&2
	exit 2
fi
fuzzer=$1
seeds=$2
work=$3
shift 3
seconds=${TWZ_FUZZ_SECONDS:-20}
# A fixed seed by default, so a CI run explores the same inputs each time
# and a failure reproduces; TWZ_FUZZ_SEED=0 lets libFuzzer pick one.
seed=${TWZ_FUZZ_SEED:-1}
if [ ! -d "$seeds" ]; then
	echo "run_fuzz.sh: $seeds: no seed corpus" >&2
	exit 2
fi
mkdir -p "$work/corpus"
# A leak, a bad access or undefined behaviour stops the run as a crash.
ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS
# libFuzzer's own exit status for a crash is 77, which meson reads as
# "skipped": every finding must fail the test instead.
exec "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	-malloc_limit_mb=1024 -error_exitcode=1 -timeout_exitcode=1 \
	-print_final_stats=1 -seed="$seed" \
	-artifact_prefix="$work/" "$@" "$work/corpus" "$seeds"
