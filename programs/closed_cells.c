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

/* Up to `max` numbers of a line, separated by blanks: their count, or -1
 * when a word is no number. */
static int numbers(const char *p, const char *end, double *v, int max)
{
	int n = 0;

	for (p = skip_blanks(p, end); p < end; p = skip_blanks(p, end)) {
		char word[64], *stop;
		const char *w = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		if (n == max || (size_t)(p - w) >= sizeof word)
			return -1;
		memcpy(word, w, (size_t)(p - w));
		word[p - w] = 0;
		v[n] = strtod(word, &stop);
		if (*stop || stop == word || !(v[n] == v[n]))
			return -1;
		n++;
	}
	return n;
}

int twz_closed_places_shut(const char *path, const twz_db *db, twz_world *w,
			   struct twz_error *err)
{
	twz_info in;

	twz_get_info(db, &in);
	if (in.level_kind == TWZ_KIND_GRID) {
		struct twz_closed_cells cells;
		if (twz_closed_cells_load(path, in.width, in.height, &cells, err) != 0)
			return -1;
		for (size_t i = 0; i < cells.count; i++)
			twz_world_shut_cell(w, cells.xy[2 * i], cells.xy[2 * i + 1], 1);
		twz_closed_cells_free(&cells);
		return 0;
	}
	struct twz_lines it;
	const char *line;
	size_t len, file_len;
	uint8_t *buf = twz_read_file(path, CLOSED_FILE_MAX, &file_len, err);
	int navmesh = in.level_kind == TWZ_KIND_NAVMESH;

	if (!buf)
		return -1;
	twz_lines_init(&it, buf, file_len);
	while (twz_lines_next(&it, &line, &len)) {
		const char *end = line + len, *p = skip_blanks(line, end);
		double v[6];
		if (p == end || *p == '#')
			continue;
		if (navmesh && end - p > 3 && !memcmp(p, "box", 3) &&
		    (p[3] == ' ' || p[3] == '\t')) {
			if (numbers(p + 3, end, v, 6) != 6 || v[0] > v[3] ||
			    v[1] > v[4] || v[2] > v[5]) {
				twz_error_set(err, "%s:%lu: a box is 'box X0 Y0 Z0 X1 Y1 "
					      "Z1' with X0 <= X1, Y0 <= Y1, Z0 <= Z1",
					      path, it.number);
				goto fail;
			}
			if (twz_world_shut_box(w, v, v + 3, 1) != TWZ_OK) {
				twz_error_set(err, "%s:%lu: a box needs finite "
					      "corners", path, it.number);
				goto fail;
			}
			continue;
		}
		uint32_t id;
		const char *q = p;
		twz_node n = TWZ_NONE;
		if (!navmesh && end - p > 4 && !memcmp(p, "link", 4) &&
		    (p[4] == ' ' || p[4] == '\t')) {
			q = skip_blanks(p + 4, end);
			if (number(&q, end, &id) != 0 || skip_blanks(q, end) != end ||
			    twz_world_shut_link(w, id, 1) != TWZ_OK) {
				twz_error_set(err, "%s:%lu: a link is 'link K', K from 0 "
					      "to %u", path, it.number,
					      twz_link_count(db) ? twz_link_count(db) - 1 : 0);
				goto fail;
			}
			continue;
		}
		if (number(&q, end, &id) == 0 && skip_blanks(q, end) == end)
			n = twz_node_of_id(db, id);
		if (n == TWZ_NONE) {
			twz_error_set(err, "%s:%lu: '%.*s' is no %s of this level",
				      path, it.number, (int)(end - p > 40 ? 40 : end - p),
				      p, navmesh ? "face index (or box)" : "vertex id");
			goto fail;
		}
		twz_world_shut_node(w, n, 1);
	}
	free(buf);
	return 0;
fail:
	free(buf);
	return -1;
}
