/*
 * fuzz_twz.c - libFuzzer target: open a .twz from memory and query it.
 *
 * Each input is tried three ways: as it is (checksums stop most damage
 * early), and once more with its header, table and raw-section checksums
 * and its file size recomputed ("resealed"), opened both with and without
 * TWZ_OPEN_SKIP_CHECKSUMS, so mutations reach the structural checks the way
 * a crafted file would. Whatever opens is queried, and every answer must
 * be self-consistent (fuzz_queries.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_queries.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A private copy, so the fuzzer's buffer is never resealed and
	 * reads past the input are caught exactly. */
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	try_open(copy, size, 0, data, size);
	reseal(copy, size);
	try_open(copy, size, 0, data, size);
	try_open(copy, size, TWZ_OPEN_SKIP_CHECKSUMS, data, size);
	free(copy);
	return 0;
}
