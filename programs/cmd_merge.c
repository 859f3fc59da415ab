/*
 * cmd_merge.c - `twigz merge PART... -o OUT.twz`: joins the partial files
 * of `twigz build --shard I/N` (every shard of one bake, in any order)
 * into the database the bake on one machine writes, byte for byte.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "file_read.h"
#include "shard.h"

/* A partial file holds a shard's rows and the level: at most what a
 * database may hold, and then some. */
#define PART_MAX_BYTES ((size_t)-1 / 2)

int twz_cmd_merge(int argc, char **argv)
{
	struct twz_cli_args ar = TWZ_CLI_ARGS(argc, argv);
	struct twz_error err = { { 0 }, 0 };
	struct twz_merge_result res;
	const char **names = calloc(argc > 0 ? (size_t)argc : 1, sizeof *names);
	const uint8_t **bufs = calloc(argc > 0 ? (size_t)argc : 1, sizeof *bufs);
	size_t *lens = calloc(argc > 0 ? (size_t)argc : 1, sizeof *lens);
	const char *out = NULL, *a;
	unsigned n = 0, threads = 0;
	int quiet = 0, rc = 0;

	if (!names || !bufs || !lens) {
		fprintf(stderr, "twigz: merge: out of memory\n");
		rc = EXIT_NOMEM;
		goto done;
	}
	while ((a = twz_cli_next(&ar))) {
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			out = twz_cli_value(&ar, a, "a file name");
		} else if (!strcmp(a, "--threads")) {
			threads = (unsigned)twz_cli_number(&ar, a, 1, 1024,
				"a number from 1 to 1024");
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			quiet = 1;
		} else {
			const char *slot = NULL;
			twz_cli_operand(&ar, a, &slot, 1);
			if (slot)
				names[n++] = slot;
		}
	}
	if ((rc = ar.status) != 0)
		goto done;
	if (!n) {
		rc = twz_cli_usage("%s", "merge needs the partial files of twigz build --shard");
		goto done;
	}
	if (!out) {
		rc = twz_cli_usage("%s", "merge needs -o OUT.twz");
		goto done;
	}
	if ((rc = twz_cli_check_output("-o", out)) != 0)
		goto done;
	for (unsigned i = 0; i < n; i++) {
		bufs[i] = twz_read_file(names[i], PART_MAX_BYTES, &lens[i], &err);
		if (!bufs[i]) {
			rc = twz_cli_error(&err);
			goto done;
		}
	}
	if (twz_shard_merge(bufs, lens, names, n, threads, out, &res, &err) != 0) {
		rc = twz_cli_error(&err);
		goto done;
	}
	if (!quiet)
		fprintf(stderr, "twigz: merged %u shards -> %s: %u nodes, %u regions, %"
			PRIu64 " runs\n", res.count, out, res.node_count,
			res.component_count, res.run_count);
done:
	if (bufs)
		for (unsigned i = 0; i < n; i++)
			free((void *)bufs[i]);
	free(bufs);
	free(names);
	free(lens);
	return rc;
}
