/*
 * fuzz_check.h - what the libFuzzer targets check with: a failed check
 * aborts, which libFuzzer reports as a crash, and a refusal's message must
 * name the input and be one printable line.
 */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

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

#endif
