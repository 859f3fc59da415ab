/*
 * fuzz_part.c - libFuzzer target: the merge of partial files (`twigz
 * merge`, twz_shard_merge) on one part, or on two.
 *
 * An input is one partial file, or two behind the 8 bytes "TWZPAIR\0"
 * and the first one's length (u32). Each is merged as it is and once
 * more with every checksum and its file size recomputed ("resealed"), so
 * mutations reach the section limits, the shard description and the
 * checks of the parts' rows and distances the way a crafted part would.
 * A refusal must be one printable line naming a part or the output; a
 * merge that succeeds must leave a database that opens and answers
 * consistently (fuzz_queries.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_queries.h"
#include "shard.h"

static char out_dir[4096];
static char out_path[4200];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *tmp = getenv("TMPDIR");
	snprintf(out_dir, sizeof out_dir, "%s/twz_fuzz_part_XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	require(mkdtemp(out_dir) != NULL);
	snprintf(out_path, sizeof out_path, "%s/merged.twz", out_dir);
	return 0;
}

/* What a merge of the parts says: a message naming one of them or the
 * output; a file only on success, which opens and answers. */
static void merge(const uint8_t *const *bufs, const size_t *lens, unsigned n,
		  const uint8_t *data, size_t size)
{
	static const char *const names[] = { "part1.twp", "part2.twp" };
	struct twz_error err = { { 0 }, 0 };
	struct twz_merge_result res;

	unlink(out_path);
	if (twz_shard_merge(bufs, lens, names, n, 1, out_path, &res, &err) != 0) {
		require(access(out_path, F_OK) != 0);
		require(!strncmp(err.msg, names[0], strlen(names[0])) ||
			!strncmp(err.msg, names[1], strlen(names[1])) ||
			!strncmp(err.msg, out_path, strlen(out_path)));
		check_message(err.msg, "");
		return;
	}
	size_t len;
	uint8_t *db = read_whole(out_path, &len);
	unlink(out_path);
	try_open(db, len, 0, data, size);
	free(db);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *parts[2] = { data, NULL };
	size_t lens[2] = { size, 0 };
	unsigned n = 1;

	if (size >= 12 && !memcmp(data, "TWZPAIR", 8)) {
		size_t first = twz_le32(data + 8);
		if (first > size - 12)
			return 0;
		parts[0] = data + 12;
		lens[0] = first;
		parts[1] = data + 12 + first;
		lens[1] = size - 12 - first;
		n = 2;
	}
	/* Private copies: the fuzzer's buffer is never resealed, and reads
	 * past a part are caught exactly. */
	uint8_t *copy[2] = { NULL, NULL };
	for (unsigned i = 0; i < n; i++) {
		copy[i] = malloc(lens[i] ? lens[i] : 1);
		require(copy[i] != NULL);
		memcpy(copy[i], parts[i], lens[i]);
	}
	merge((const uint8_t *const *)copy, lens, n, data, size);
	for (unsigned i = 0; i < n; i++)
		reseal_as(copy[i], lens[i], TWZ_PARTIAL_MAGIC);
	merge((const uint8_t *const *)copy, lens, n, data, size);
	for (unsigned i = 0; i < n; i++)
		free(copy[i]);
	return 0;
}
