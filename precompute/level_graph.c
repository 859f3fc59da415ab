/*
 * level_graph.c - the DIMACS readers of level_graph.h: .gr graphs, .co
 * coordinates and .p2p queries, line by line, each problem one
 * "FILE:LINE: problem" message.
 */
#include "level_graph.h"

#include <stdlib.h>
#include <string.h>

#include "file_read.h"
#include "level_map.h"
#include "twz_format.h"
#include "twz_graph_format.h"

#define MAX_FIELDS 7

/* A line cut at blanks: at most MAX_FIELDS fields (*count says how many
 * there were, up to MAX_FIELDS + 1 meaning "more"). */
struct fields {
	const char *f[MAX_FIELDS];
	size_t len[MAX_FIELDS];
	unsigned count;
};

static void split(const char *s, size_t n, struct fields *out)
{
	size_t i = 0;

	out->count = 0;
	while (i < n) {
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i >= n)
			break;
		size_t b = i;
		while (i < n && s[i] != ' ' && s[i] != '\t')
			i++;
		if (out->count == MAX_FIELDS) {
			out->count++;
			return;
		}
		out->f[out->count] = s + b;
		out->len[out->count] = i - b;
		out->count++;
	}
}

static int field_is(const struct fields *fl, unsigned i, const char *word)
{
	return fl->len[i] == strlen(word) && !memcmp(fl->f[i], word, fl->len[i]);
}

/* A decimal u64 filling the field, no sign. 0 on success. */
static int parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	if (!n || n > 20)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* A decimal i64 with an optional sign. 0 on success. */
static int parse_i64(const char *s, size_t n, int64_t *out)
{
	int neg = n && (s[0] == '-' || s[0] == '+');
	uint64_t v;

	if (parse_u64(s + neg, n - neg, &v) != 0)
		return -1;
	if (s[0] == '-') {
		if (v > (uint64_t)INT64_MAX + 1)
			return -1;
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	} else {
		if (v > INT64_MAX)
			return -1;
		*out = (int64_t)v;
	}
	return 0;
}

/* A field quoted for a message: at most 24 bytes of it. */
#define QUOTE(fl, i) (int)((fl).len[i] > 24 ? 24 : (fl).len[i]), (fl).f[i]

/* An id field: 1..n. */
static int parse_id(const struct fields *fl, unsigned i, uint32_t n,
		    const char *name, unsigned long line, const char *what,
		    uint32_t *id, struct twz_error *err)
{
	uint64_t v;

	if (parse_u64(fl->f[i], fl->len[i], &v) != 0) {
		twz_error_set(err, "%s:%lu: %s id '%.*s' is not a positive integer",
			      name, line, what, QUOTE(*fl, i));
		return -1;
	}
	if (v < 1 || v > n) {
		twz_error_set(err, "%s:%lu: %s id %llu is out of range 1..%u", name,
			      line, what, (unsigned long long)v, n);
		return -1;
	}
	*id = (uint32_t)v;
	return 0;
}

/* A line that only blanks fill, once the CR is gone. */
static int blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

/* "c" alone or followed by a blank: a comment. */
static int comment(const char *s, size_t n)
{
	return n >= 1 && s[0] == 'c' && (n == 1 || s[1] == ' ' || s[1] == '\t');
}

/* ---- .gr ------------------------------------------------------------------ */

int twz_graph_parse(const uint8_t *buf, size_t len, const char *name,
		    struct twz_graph *g, struct twz_error *err)
{
	struct twz_lines it;
	const char *s;
	size_t n_len;
	struct fields fl;
	uint64_t nodes = 0, arcs_declared = 0, found = 0, max_w = 0;
	unsigned long p_line = 0, max_line = 0;
	struct twz_arc *arcs = NULL;
	size_t cap = 0;

	memset(g, 0, sizeof *g);
	twz_lines_init(&it, buf, len);
	while (twz_lines_next(&it, &s, &n_len)) {
		if (blank(s, n_len) || comment(s, n_len))
			continue;
		split(s, n_len, &fl);
		if (field_is(&fl, 0, "p")) {
			if (p_line) {
				twz_error_set(err, "%s:%lu: a second 'p' line (the first is "
					      "line %lu)", name, it.number, p_line);
				goto fail;
			}
			if (fl.count != 4 || !field_is(&fl, 1, "sp")) {
				twz_error_set(err, "%s:%lu: the problem line must be "
					      "'p sp N M'", name, it.number);
				goto fail;
			}
			if (parse_u64(fl.f[2], fl.len[2], &nodes) != 0 ||
			    parse_u64(fl.f[3], fl.len[3], &arcs_declared) != 0) {
				twz_error_set(err, "%s:%lu: 'p sp N M' needs two non-negative "
					      "integers", name, it.number);
				goto fail;
			}
			if (nodes == 0) {
				twz_error_set(err, "%s:%lu: a graph of no nodes", name,
					      it.number);
				goto fail;
			}
			if (nodes > TWZ_MAX_NODES) {
				twz_error_set(err, "%s:%lu: %llu nodes exceed the limit of %u",
					      name, it.number,
					      (unsigned long long)nodes, TWZ_MAX_NODES);
				goto fail;
			}
			if (arcs_declared > UINT32_MAX - 1) {
				twz_error_set(err, "%s:%lu: %llu arcs exceed the limit of %u",
					      name, it.number,
					      (unsigned long long)arcs_declared,
					      UINT32_MAX - 1);
				goto fail;
			}
			p_line = it.number;
			continue;
		}
		if (field_is(&fl, 0, "a")) {
			uint32_t u, v;
			uint64_t w;
			if (!p_line) {
				twz_error_set(err, "%s:%lu: an arc before the 'p sp N M' line",
					      name, it.number);
				goto fail;
			}
			if (fl.count != 4) {
				twz_error_set(err, "%s:%lu: an arc line must be 'a U V W'",
					      name, it.number);
				goto fail;
			}
			if (parse_id(&fl, 1, (uint32_t)nodes, name, it.number, "tail",
				     &u, err) != 0 ||
			    parse_id(&fl, 2, (uint32_t)nodes, name, it.number, "head",
				     &v, err) != 0)
				goto fail;
			if (parse_u64(fl.f[3], fl.len[3], &w) != 0 || w == 0) {
				twz_error_set(err, "%s:%lu: weight '%.*s' is not a positive "
					      "integer", name, it.number, QUOTE(fl, 3));
				goto fail;
			}
			if (found == arcs_declared) {
				twz_error_set(err, "%s:%lu: more arcs than the %llu the 'p' "
					      "line declares", name, it.number,
					      (unsigned long long)arcs_declared);
				goto fail;
			}
			if (found == cap) {
				size_t nc = cap ? cap * 2 : 1024;
				struct twz_arc *na = realloc(arcs, nc * sizeof *na);
				if (!na) {
					twz_error_kind_set(err, TWZ_ERR_NOMEM,
							   "%s: out of memory for arcs", name);
					goto fail;
				}
				arcs = na;
				cap = nc;
			}
			arcs[found++] = (struct twz_arc){ u - 1, v - 1, w };
			if (w > max_w) {
				max_w = w;
				max_line = it.number;
			}
			continue;
		}
		twz_error_set(err, "%s:%lu: not a 'c', 'p sp' or 'a' line: '%.*s'", name,
			      it.number, (int)(n_len > 32 ? 32 : n_len), s);
		goto fail;
	}
	if (!p_line) {
		twz_error_set(err, "%s: no 'p sp N M' line", name);
		goto fail;
	}
	if (found != arcs_declared) {
		twz_error_set(err, "%s:%lu: the 'p' line declares %llu arcs, the file "
			      "has %llu", name, p_line,
			      (unsigned long long)arcs_declared,
			      (unsigned long long)found);
		goto fail;
	}
	if (!twz_graph_weight_ok(max_w, (uint32_t)nodes)) {
		twz_error_set(err, "%s:%lu: weight %llu could overflow a 64-bit path "
			      "cost over %llu nodes", name, max_line,
			      (unsigned long long)max_w, (unsigned long long)nodes);
		goto fail;
	}
	if (twz_graph_from_arcs(g, (uint32_t)nodes, arcs, found, name, err) != 0)
		goto fail;
	free(arcs);
	g->id_base = 1;
	g->level_hash = twz_level_hash(buf, len);
	return 0;
fail:
	free(arcs);
	twz_graph_free(g);
	return -1;
}

int twz_graph_load(const char *path, struct twz_graph *g,
		   struct twz_error *err)
{
	size_t len;
	uint8_t *buf = twz_read_file(path, TWZ_MAX_GRAPH_BYTES, &len, err);
	int rc;

	memset(g, 0, sizeof *g);
	if (!buf)
		return -1;
	rc = twz_graph_parse(buf, len, path, g, err);
	free(buf);
	return rc;
}

/* ---- .co ------------------------------------------------------------------- */

int twz_coords_parse(const uint8_t *buf, size_t len, const char *name,
		     struct twz_graph *g, struct twz_error *err)
{
	struct twz_lines it;
	const char *s;
	size_t n_len;
	struct fields fl;
	uint32_t n = g->node_count, given = 0;
	unsigned long p_line = 0;
	int64_t *coord = malloc(((size_t)n + 1) * 2 * sizeof *coord);
	uint8_t *seen = calloc((size_t)n + 1, 1);

	if (!coord || !seen) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", name);
		goto fail;
	}
	twz_lines_init(&it, buf, len);
	while (twz_lines_next(&it, &s, &n_len)) {
		if (blank(s, n_len) || comment(s, n_len))
			continue;
		split(s, n_len, &fl);
		if (field_is(&fl, 0, "p")) {
			uint64_t declared;
			if (p_line) {
				twz_error_set(err, "%s:%lu: a second 'p' line (the first is "
					      "line %lu)", name, it.number, p_line);
				goto fail;
			}
			if (fl.count != 5 || !field_is(&fl, 1, "aux") ||
			    !field_is(&fl, 2, "sp") || !field_is(&fl, 3, "co") ||
			    parse_u64(fl.f[4], fl.len[4], &declared) != 0) {
				twz_error_set(err, "%s:%lu: the problem line must be "
					      "'p aux sp co N'", name, it.number);
				goto fail;
			}
			if (declared != n) {
				twz_error_set(err, "%s:%lu: %llu coordinates for a graph of "
					      "%u nodes", name, it.number,
					      (unsigned long long)declared, n);
				goto fail;
			}
			p_line = it.number;
			continue;
		}
		if (field_is(&fl, 0, "v")) {
			uint32_t id;
			int64_t x, y;
			if (!p_line) {
				twz_error_set(err, "%s:%lu: a vertex before the "
					      "'p aux sp co N' line", name, it.number);
				goto fail;
			}
			if (fl.count != 4) {
				twz_error_set(err, "%s:%lu: a vertex line must be 'v ID X Y'",
					      name, it.number);
				goto fail;
			}
			if (parse_id(&fl, 1, n, name, it.number, "vertex", &id, err) != 0)
				goto fail;
			if (parse_i64(fl.f[2], fl.len[2], &x) != 0 ||
			    parse_i64(fl.f[3], fl.len[3], &y) != 0) {
				twz_error_set(err, "%s:%lu: coordinates must be 64-bit integers",
					      name, it.number);
				goto fail;
			}
			if (seen[id - 1]) {
				twz_error_set(err, "%s:%lu: vertex %u is given twice", name,
					      it.number, id);
				goto fail;
			}
			seen[id - 1] = 1;
			coord[2 * (size_t)(id - 1)] = x;
			coord[2 * (size_t)(id - 1) + 1] = y;
			given++;
			continue;
		}
		twz_error_set(err, "%s:%lu: not a 'c', 'p aux sp co' or 'v' line: '%.*s'",
			      name, it.number, (int)(n_len > 32 ? 32 : n_len), s);
		goto fail;
	}
	if (!p_line) {
		twz_error_set(err, "%s: no 'p aux sp co N' line", name);
		goto fail;
	}
	if (given != n) {
		uint32_t v = 0;
		while (seen[v])
			v++;
		twz_error_set(err, "%s: vertex %u has no coordinates (%u of %u given)",
			      name, v + 1, given, n);
		goto fail;
	}
	free(seen);
	free(g->coord);
	g->coord = coord;
	return 0;
fail:
	free(seen);
	free(coord);
	return -1;
}

int twz_coords_load(const char *path, struct twz_graph *g,
		    struct twz_error *err)
{
	size_t len;
	uint8_t *buf = twz_read_file(path, TWZ_MAX_GRAPH_BYTES, &len, err);
	int rc;

	if (!buf)
		return -1;
	rc = twz_coords_parse(buf, len, path, g, err);
	free(buf);
	return rc;
}

/* ---- .p2p ------------------------------------------------------------------ */

int twz_p2p_parse(const uint8_t *buf, size_t len, const char *name,
		  uint32_t max_id, struct twz_p2p *q, struct twz_error *err)
{
	struct twz_lines it;
	const char *s;
	size_t n_len;
	struct fields fl;
	uint64_t declared = 0;
	unsigned long p_line = 0;
	uint32_t cap = 0;

	memset(q, 0, sizeof *q);
	twz_lines_init(&it, buf, len);
	while (twz_lines_next(&it, &s, &n_len)) {
		if (blank(s, n_len) || comment(s, n_len))
			continue;
		split(s, n_len, &fl);
		if (field_is(&fl, 0, "p")) {
			if (p_line) {
				twz_error_set(err, "%s:%lu: a second 'p' line (the first is "
					      "line %lu)", name, it.number, p_line);
				goto fail;
			}
			if (fl.count != 5 || !field_is(&fl, 1, "aux") ||
			    !field_is(&fl, 2, "sp") || !field_is(&fl, 3, "p2p") ||
			    parse_u64(fl.f[4], fl.len[4], &declared) != 0) {
				twz_error_set(err, "%s:%lu: the problem line must be "
					      "'p aux sp p2p K'", name, it.number);
				goto fail;
			}
			if (declared > UINT32_MAX / 2) {
				twz_error_set(err, "%s:%lu: %llu queries exceed the limit",
					      name, it.number, (unsigned long long)declared);
				goto fail;
			}
			p_line = it.number;
			continue;
		}
		if (field_is(&fl, 0, "q")) {
			uint32_t a, b;
			if (!p_line) {
				twz_error_set(err, "%s:%lu: a query before the "
					      "'p aux sp p2p K' line", name, it.number);
				goto fail;
			}
			if (fl.count != 3) {
				twz_error_set(err, "%s:%lu: a query line must be 'q S T'",
					      name, it.number);
				goto fail;
			}
			if (parse_id(&fl, 1, max_id, name, it.number, "source", &a, err) ||
			    parse_id(&fl, 2, max_id, name, it.number, "target", &b, err))
				goto fail;
			if (q->count == declared) {
				twz_error_set(err, "%s:%lu: more queries than the %llu the "
					      "'p' line declares", name, it.number,
					      (unsigned long long)declared);
				goto fail;
			}
			if (q->count == cap) {
				uint32_t nc = cap ? cap * 2 : 256;
				uint32_t *np = realloc(q->pair, (size_t)nc * 2 * sizeof *np);
				if (!np) {
					twz_error_kind_set(err, TWZ_ERR_NOMEM,
							   "%s: out of memory", name);
					goto fail;
				}
				q->pair = np;
				cap = nc;
			}
			q->pair[2 * (size_t)q->count] = a;
			q->pair[2 * (size_t)q->count + 1] = b;
			q->count++;
			continue;
		}
		twz_error_set(err, "%s:%lu: not a 'c', 'p aux sp p2p' or 'q' line: '%.*s'",
			      name, it.number, (int)(n_len > 32 ? 32 : n_len), s);
		goto fail;
	}
	if (!p_line) {
		twz_error_set(err, "%s: no 'p aux sp p2p K' line", name);
		goto fail;
	}
	if (q->count != declared) {
		twz_error_set(err, "%s:%lu: the 'p' line declares %llu queries, the file "
			      "has %u", name, p_line, (unsigned long long)declared,
			      q->count);
		goto fail;
	}
	return 0;
fail:
	twz_p2p_free(q);
	return -1;
}

int twz_p2p_load(const char *path, uint32_t max_id, struct twz_p2p *q,
		 struct twz_error *err)
{
	size_t len;
	uint8_t *buf = twz_read_file(path, TWZ_MAX_GRAPH_BYTES, &len, err);
	int rc;

	memset(q, 0, sizeof *q);
	if (!buf)
		return -1;
	rc = twz_p2p_parse(buf, len, path, max_id, q, err);
	free(buf);
	return rc;
}

void twz_p2p_free(struct twz_p2p *q)
{
	free(q->pair);
	memset(q, 0, sizeof *q);
}
