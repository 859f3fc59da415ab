/*
 * twz_build_info.h - the BUILD_INFO section (kind 9, FORMAT.md section
 * 5c): how a database was baked, as UTF-8 text of key=value lines. The
 * validator checks it at open; the tool reads it for `twigz info` and
 * `twigz check`. Pure: bytes in, answers out, nothing allocated.
 */
#ifndef TWZ_BUILD_INFO_H
#define TWZ_BUILD_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "twigz.h"

/* The most bytes a BUILD_INFO section may hold. */
#define TWZ_BUILD_INFO_MAX 4096u
/* The longest key. */
#define TWZ_BUILD_INFO_KEY_MAX 32u

/* TWZ_OK when data[0, size) is a valid BUILD_INFO section (FORMAT.md
 * section 5d), else TWZ_E_DAMAGED. A NULL data (the file has none) is
 * valid. */
twz_status twz_validate_build_info(const uint8_t *data, uint64_t size);

/* One key=value line of a valid section, without its '=' and LF. */
struct twz_build_entry {
	const char *key;
	size_t key_len;
	const char *value;
	size_t value_len;
};

/* The entry at *pos of a valid section, advancing *pos past it; 0 at the
 * end. */
int twz_build_info_next(const uint8_t *data, size_t size, size_t *pos,
			struct twz_build_entry *e);

/* The value of key in a valid section: 1 and *e when it is there, else 0. */
int twz_build_info_find(const uint8_t *data, size_t size, const char *key,
			struct twz_build_entry *e);

#endif
