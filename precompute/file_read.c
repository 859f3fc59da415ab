#include "file_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

uint8_t *twz_read_file(const char *path, size_t max_len, size_t *len,
		       struct twz_error *err)
{
	FILE *f = fopen(path, "rb");
	struct stat sb;
	uint8_t *buf = NULL;
	size_t cap, got = 0;

	if (!f) {
		twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &sb) != 0 || S_ISDIR(sb.st_mode)) {
		twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot read: not a regular file", path);
		goto out_close;
	}
	/* Pipes report size 0: read in chunks up to the cap either way. */
	cap = S_ISREG(sb.st_mode) && (uint64_t)sb.st_size < max_len
		      ? (size_t)sb.st_size + 1 : 65536;
	buf = malloc(cap + 1);
	if (!buf) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", path);
		goto out_close;
	}
	for (;;) {
		if (got == cap) {
			if (cap > max_len)
				break;
			size_t ncap = cap * 2 > max_len + 1 ? max_len + 1 : cap * 2;
			uint8_t *nb = realloc(buf, ncap + 1);
			if (!nb) {
				twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", path);
				goto out_free;
			}
			buf = nb;
			cap = ncap;
		}
		size_t n = fread(buf + got, 1, cap - got, f);
		got += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		twz_error_kind_set(err, TWZ_ERR_IO, "%s: read error: %s", path, strerror(errno));
		goto out_free;
	}
	if (got > max_len) {
		twz_error_set(err, "%s: file larger than the %zu-byte limit",
			      path, max_len);
		goto out_free;
	}
	buf[got] = 0;
	*len = got;
	fclose(f);
	return buf;

out_free:
	free(buf);
	buf = NULL;
out_close:
	fclose(f);
	return NULL;
}

void twz_lines_init(struct twz_lines *it, const uint8_t *buf, size_t len)
{
	it->p = (const char *)buf;
	it->end = (const char *)buf + len;
	it->number = 0;
}

int twz_lines_next(struct twz_lines *it, const char **line, size_t *len)
{
	if (it->p >= it->end)
		return 0;
	const char *nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	const char *stop = nl ? nl : it->end;
	*line = it->p;
	*len = (size_t)(stop - it->p);
	if (*len && (*line)[*len - 1] == '\r')
		(*len)--;
	it->p = nl ? nl + 1 : it->end;
	it->number++;
	return 1;
}
