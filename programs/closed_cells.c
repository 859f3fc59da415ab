/*
 * closed_cells.c - see closed_cells.h.
 */
#include "closed_cells.h"

#include <stdlib.h>
#include <string.h>

#include "file_read.h"

/* A closed-cells file holds at most one line per cell of the largest
 * level, about a dozen bytes each. */
#define CLOSED_FILE_MAX ((size_t)1 << 30)

/* A whole decimal number at *p; advances past it. 0, or -1 when there is
 * none or it exceeds UINT32_MAX. */
static int number(const char **p, const char *end, uint32_t *out)
{
	uint64_t v = 0;
	const char *s = *p;

	if (s == end || *s < '0' || *s > '9')
		return -1;
	while (s < end && *s >= '0' && *s <= '9') {
		v = v * 10 + (uint64_t)(*s++ - '0');
		if (v > UINT32_MAX)
			return -1;
	}
	*p = s;
	*out = (uint32_t)v;
	return 0;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

int twz_closed_cells_load(const char *path, uint32_t width,
			  uint32_t height, struct twz_closed_cells *out,
			  struct twz_error *err)
{
	struct twz_lines it;
	const char *line;
	size_t len, file_len, cap = 0;
	uint8_t *buf;

	memset(out, 0, sizeof *out);
	buf = twz_read_file(path, CLOSED_FILE_MAX, &file_len, err);
	if (!buf)
		return -1;
	twz_lines_init(&it, buf, file_len);
	while (twz_lines_next(&it, &line, &len)) {
		const char *end = line + len;
		const char *p = skip_blanks(line, end);
		uint32_t x, y;

		if (p == end || *p == '#')
			continue;
		const char *q = p;
		int ok = number(&q, end, &x) == 0 && q < end &&
			 (*q == ' ' || *q == '\t');
		if (ok) {
			q = skip_blanks(q, end);
			ok = number(&q, end, &y) == 0 && skip_blanks(q, end) == end;
		}
		if (!ok) {
			twz_error_set(err, "%s:%lu: expected a cell as 'x y' (two "
				      "whole numbers), not '%.*s'", path, it.number,
				      (int)(end - p > 40 ? 40 : end - p), p);
			goto fail;
		}
		if (x >= width || y >= height) {
			twz_error_set(err, "%s:%lu: cell (%u,%u) is off the %ux%u "
				      "map", path, it.number, x, y, width, height);
			goto fail;
		}
		if (out->count == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			uint32_t *n = realloc(out->xy, ncap * 2 * sizeof *n);
			if (!n) {
				twz_error_kind_set(err, TWZ_ERR_NOMEM,
						   "%s: out of memory", path);
				goto fail;
			}
			out->xy = n;
			cap = ncap;
		}
		out->xy[2 * out->count] = x;
		out->xy[2 * out->count + 1] = y;
		out->count++;
	}
	free(buf);
	return 0;
fail:
	free(buf);
	twz_closed_cells_free(out);
	return -1;
}

void twz_closed_cells_free(struct twz_closed_cells *c)
{
	free(c->xy);
	memset(c, 0, sizeof *c);
}

uint8_t *twz_closed_cells_bits(const struct twz_closed_cells *c,
			       const twz_db *db)
{
	uint8_t *bits = calloc(TWZ_CLOSED_BYTES(twz_node_count(db)) + 1, 1);

	if (!bits)
		return NULL;
	for (size_t i = 0; i < c->count; i++) {
		twz_node n = twz_node_at(db, c->xy[2 * i], c->xy[2 * i + 1]);
		if (n != TWZ_NONE)
			bits[n >> 3] |= (uint8_t)(1u << (n & 7));
	}
	return bits;
}
