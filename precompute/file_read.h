/*
 * file_read.h - read a whole input file into memory with a size cap, so
 * no reader trusts a file's length before checking it.
 */
#ifndef FILE_READ_H
#define FILE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "twz_error.h"

/* Reads path into a malloc'd buffer (NUL-terminated, not counted in *len).
 * Returns NULL with err set on failure or when the file exceeds max_len. */
uint8_t *twz_read_file(const char *path, size_t max_len, size_t *len,
		       struct twz_error *err);

/* Line cursor over a buffer: LF or CRLF ends, line numbers from 1. */
struct twz_lines {
	const char *p;
	const char *end;
	unsigned long number;  /* of the line last returned */
};

void twz_lines_init(struct twz_lines *it, const uint8_t *buf, size_t len);

/* Next line without its end-of-line bytes; 0 at the end of the buffer. */
int twz_lines_next(struct twz_lines *it, const char **line, size_t *len);
#endif
