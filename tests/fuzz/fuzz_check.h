/*
 * fuzz_check.h - what the libFuzzer targets check with: a failed check
 * aborts, which libFuzzer reports as a crash, and a refusal's message must
 * name the input and be one printable line.
 */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void require(int ok)
{
	if (!ok)
		abort();
}

/* The message names the file and is one printable line. */
static inline void check_message(const char *msg, const char *name)
{
	require(strncmp(msg, name, strlen(name)) == 0);
	for (const char *p = msg; *p; p++)
		require((unsigned char)*p >= 0x20 && *p != 0x7f);
}

/* The whole file at path (malloc'd), its length into *len. */
static inline uint8_t *read_whole(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");

	require(f != NULL);
	require(fseek(f, 0, SEEK_END) == 0);
	long n = ftell(f);
	require(n >= 0 && fseek(f, 0, SEEK_SET) == 0);
	uint8_t *buf = malloc(n ? (size_t)n : 1);
	require(buf && fread(buf, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

#endif
