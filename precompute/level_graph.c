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
#include "twz_links_format.h"

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

/* ---- the files' one shape ---------------------------------------------- */

/* What a DIMACS file holds: one problem line, then record lines of one
 * letter; the callbacks check and keep them (0, or -1 with err set). */
struct dimacs {
	const char *problem;      /* as messages quote it: "p sp N M" */
	const char *p_words;      /* its leading words: "p sp" */
	const char *letter;       /* of a record line: "a" */
	const char *record;       /* one, for messages: "an arc" */
	int (*on_problem)(void *ctx, const struct fields *fl, const char *name,
			  unsigned long line, struct twz_error *err);
	int (*on_record)(void *ctx, const struct fields *fl, const char *name,
			 unsigned long line, struct twz_error *err);
};

/* Read buf as a file of kind d: comments and blank lines skipped, one
 * problem line before any record, nothing else. *p_line gets the
 * problem line's number. 0, or -1 with err set. */
static int dimacs_read(const uint8_t *buf, size_t len, const char *name,
		       const struct dimacs *d, void *ctx, unsigned long *p_line,
		       struct twz_error *err)
{
	struct twz_lines it;
	const char *s;
	size_t n_len;
	struct fields fl;

	*p_line = 0;
	twz_lines_init(&it, buf, len);
	while (twz_lines_next(&it, &s, &n_len)) {
		if (blank(s, n_len) || comment(s, n_len))
			continue;
		split(s, n_len, &fl);
		if (field_is(&fl, 0, "p")) {
			if (*p_line) {
				twz_error_set(err, "%s:%lu: a second 'p' line (the first is "
					      "line %lu)", name, it.number, *p_line);
				return -1;
			}
			if (d->on_problem(ctx, &fl, name, it.number, err) != 0)
				return -1;
			*p_line = it.number;
		} else if (field_is(&fl, 0, d->letter)) {
			if (!*p_line) {
				twz_error_set(err, "%s:%lu: %s before the '%s' line", name,
					      it.number, d->record, d->problem);
				return -1;
			}
			if (d->on_record(ctx, &fl, name, it.number, err) != 0)
				return -1;
		} else {
			twz_error_set(err, "%s:%lu: not a 'c', '%s' or '%s' line: '%.*s'",
				      name, it.number, d->p_words, d->letter,
				      (int)(n_len > 32 ? 32 : n_len), s);
			return -1;
		}
	}
	if (!*p_line) {
		twz_error_set(err, "%s: no '%s' line", name, d->problem);
		return -1;
	}
	return 0;
}

/* ---- .gr ------------------------------------------------------------------ */

struct gr_read {
	uint64_t nodes, arcs_declared, found, max_w;
	unsigned long max_line;
	struct twz_arc *arcs;
	size_t cap;
};

static int gr_problem(void *ctx, const struct fields *fl, const char *name,
		      unsigned long line, struct twz_error *err)
{
	struct gr_read *r = ctx;

	if (fl->count != 4 || !field_is(fl, 1, "sp")) {
		twz_error_set(err, "%s:%lu: the problem line must be 'p sp N M'",
			      name, line);
		return -1;
	}
	if (parse_u64(fl->f[2], fl->len[2], &r->nodes) != 0 ||
	    parse_u64(fl->f[3], fl->len[3], &r->arcs_declared) != 0) {
		twz_error_set(err, "%s:%lu: 'p sp N M' needs two non-negative "
			      "integers", name, line);
		return -1;
	}
	if (r->nodes == 0) {
		twz_error_set(err, "%s:%lu: a graph of no nodes", name, line);
		return -1;
	}
	if (r->nodes > TWZ_MAX_NODES) {
		twz_error_set(err, "%s:%lu: %llu nodes exceed the limit of %u",
			      name, line, (unsigned long long)r->nodes, TWZ_MAX_NODES);
		return -1;
	}
	if (r->arcs_declared > UINT32_MAX - 1) {
		twz_error_set(err, "%s:%lu: %llu arcs exceed the limit of %u",
			      name, line, (unsigned long long)r->arcs_declared,
			      UINT32_MAX - 1);
		return -1;
	}
	return 0;
}

static int gr_arc(void *ctx, const struct fields *fl, const char *name,
		  unsigned long line, struct twz_error *err)
{
	struct gr_read *r = ctx;
	uint32_t u, v;
	uint64_t w;

	if (fl->count != 4) {
		twz_error_set(err, "%s:%lu: an arc line must be 'a U V W'", name, line);
		return -1;
	}
	if (parse_id(fl, 1, (uint32_t)r->nodes, name, line, "tail", &u, err) != 0 ||
	    parse_id(fl, 2, (uint32_t)r->nodes, name, line, "head", &v, err) != 0)
		return -1;
	if (parse_u64(fl->f[3], fl->len[3], &w) != 0 || w == 0) {
		twz_error_set(err, "%s:%lu: weight '%.*s' is not a positive integer",
			      name, line, QUOTE(*fl, 3));
		return -1;
	}
	if (r->found == r->arcs_declared) {
		twz_error_set(err, "%s:%lu: more arcs than the %llu the 'p' line "
			      "declares", name, line,
			      (unsigned long long)r->arcs_declared);
		return -1;
	}
	if (r->found == r->cap) {
		size_t nc = r->cap ? r->cap * 2 : 1024;
		struct twz_arc *na = realloc(r->arcs, nc * sizeof *na);
		if (!na) {
			twz_error_kind_set(err, TWZ_ERR_NOMEM,
					   "%s: out of memory for arcs", name);
			return -1;
		}
		r->arcs = na;
		r->cap = nc;
	}
	r->arcs[r->found++] = (struct twz_arc){ u - 1, v - 1, w };
	if (w > r->max_w) {
		r->max_w = w;
		r->max_line = line;
	}
	return 0;
}

int twz_graph_parse(const uint8_t *buf, size_t len, const char *name,
		    struct twz_graph *g, struct twz_error *err)
{
	static const struct dimacs gr = {
		"p sp N M", "p sp", "a", "an arc", gr_problem, gr_arc,
	};
	struct gr_read r = { 0 };
	unsigned long p_line;

	memset(g, 0, sizeof *g);
	if (dimacs_read(buf, len, name, &gr, &r, &p_line, err) != 0)
		goto fail;
	if (r.found != r.arcs_declared) {
		twz_error_set(err, "%s:%lu: the 'p' line declares %llu arcs, the file "
			      "has %llu", name, p_line,
			      (unsigned long long)r.arcs_declared,
			      (unsigned long long)r.found);
		goto fail;
	}
	if (!twz_graph_weight_ok(r.max_w, (uint32_t)r.nodes)) {
		twz_error_set(err, "%s:%lu: weight %llu could overflow a 64-bit path "
			      "cost over %llu nodes", name, r.max_line,
			      (unsigned long long)r.max_w, (unsigned long long)r.nodes);
		goto fail;
	}
	if (twz_graph_from_arcs(g, (uint32_t)r.nodes, r.arcs, r.found, name,
				err) != 0)
		goto fail;
	free(r.arcs);
	g->id_base = 1;
	g->level_hash = twz_level_hash(buf, len);
	return 0;
fail:
	free(r.arcs);
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

struct co_read {
	uint32_t n, given;
	int64_t *coord;
	uint8_t *seen;
};

static int co_problem(void *ctx, const struct fields *fl, const char *name,
		      unsigned long line, struct twz_error *err)
{
	struct co_read *r = ctx;
	uint64_t declared;

	if (fl->count != 5 || !field_is(fl, 1, "aux") || !field_is(fl, 2, "sp") ||
	    !field_is(fl, 3, "co") ||
	    parse_u64(fl->f[4], fl->len[4], &declared) != 0) {
		twz_error_set(err, "%s:%lu: the problem line must be 'p aux sp co N'",
			      name, line);
		return -1;
	}
	if (declared != r->n) {
		twz_error_set(err, "%s:%lu: %llu coordinates for a graph of %u nodes",
			      name, line, (unsigned long long)declared, r->n);
		return -1;
	}
	return 0;
}

static int co_vertex(void *ctx, const struct fields *fl, const char *name,
		     unsigned long line, struct twz_error *err)
{
	struct co_read *r = ctx;
	uint32_t id;
	int64_t x, y;

	if (fl->count != 4) {
		twz_error_set(err, "%s:%lu: a vertex line must be 'v ID X Y'", name,
			      line);
		return -1;
	}
	if (parse_id(fl, 1, r->n, name, line, "vertex", &id, err) != 0)
		return -1;
	if (parse_i64(fl->f[2], fl->len[2], &x) != 0 ||
	    parse_i64(fl->f[3], fl->len[3], &y) != 0) {
		twz_error_set(err, "%s:%lu: coordinates must be 64-bit integers",
			      name, line);
		return -1;
	}
	if (r->seen[id - 1]) {
		twz_error_set(err, "%s:%lu: vertex %u is given twice", name, line, id);
		return -1;
	}
	r->seen[id - 1] = 1;
	r->coord[2 * (size_t)(id - 1)] = x;
	r->coord[2 * (size_t)(id - 1) + 1] = y;
	r->given++;
	return 0;
}

int twz_coords_parse(const uint8_t *buf, size_t len, const char *name,
		     struct twz_graph *g, struct twz_error *err)
{
	static const struct dimacs co = {
		"p aux sp co N", "p aux sp co", "v", "a vertex", co_problem,
		co_vertex,
	};
	struct co_read r = { .n = g->node_count };
	unsigned long p_line;

	r.coord = malloc(((size_t)r.n + 1) * 2 * sizeof *r.coord);
	r.seen = calloc((size_t)r.n + 1, 1);
	if (!r.coord || !r.seen) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", name);
		goto fail;
	}
	if (dimacs_read(buf, len, name, &co, &r, &p_line, err) != 0)
		goto fail;
	if (r.given != r.n) {
		uint32_t v = 0;
		while (r.seen[v])
			v++;
		twz_error_set(err, "%s: vertex %u has no coordinates (%u of %u given)",
			      name, v + 1, r.given, r.n);
		goto fail;
	}
	free(r.seen);
	free(g->coord);
	g->coord = r.coord;
	return 0;
fail:
	free(r.seen);
	free(r.coord);
	return -1;
}

/* What adds to a graph from a file of its own (coordinates, links). */
typedef int graph_part_parse(const uint8_t *buf, size_t len, const char *name,
			     struct twz_graph *g, struct twz_error *err);

static int graph_part_load(const char *path, struct twz_graph *g,
			   graph_part_parse *parse, struct twz_error *err)
{
	size_t len;
	uint8_t *buf = twz_read_file(path, TWZ_MAX_GRAPH_BYTES, &len, err);
	int rc;

	if (!buf)
		return -1;
	rc = parse(buf, len, path, g, err);
	free(buf);
	return rc;
}

int twz_coords_load(const char *path, struct twz_graph *g,
		    struct twz_error *err)
{
	return graph_part_load(path, g, twz_coords_parse, err);
}

/* ---- links ---------------------------------------------------------------- */

int twz_links_parse(const uint8_t *buf, size_t len, const char *name,
		    struct twz_graph *g, struct twz_error *err)
{
	struct twz_lines it;
	const char *s;
	size_t n_len;
	struct fields fl;
	uint64_t max_w = g->max_cost;
	uint32_t count = 0, numbers = 0, cap = 0;
	struct twz_link_arc *link = NULL;

	twz_lines_init(&it, buf, len);
	while (twz_lines_next(&it, &s, &n_len)) {
		if (blank(s, n_len) || (n_len && s[0] == '#'))
			continue;
		split(s, n_len, &fl);
		uint32_t from, to;
		uint64_t w;
		int both = fl.count == 4 && field_is(&fl, 3, "both");
		if (fl.count != 4 || (!both && !field_is(&fl, 3, "oneway"))) {
			twz_error_set(err, "%s:%lu: a link line must be 'FROM TO COST "
				      "oneway|both'", name, it.number);
			goto fail;
		}
		if (parse_id(&fl, 0, g->node_count, name, it.number, "link's from",
			     &from, err) != 0 ||
		    parse_id(&fl, 1, g->node_count, name, it.number, "link's to",
			     &to, err) != 0)
			goto fail;
		if (from == to) {
			twz_error_set(err, "%s:%lu: a link from node %u to itself", name,
				      it.number, from);
			goto fail;
		}
		if (parse_u64(fl.f[2], fl.len[2], &w) != 0 || w == 0) {
			twz_error_set(err, "%s:%lu: link cost '%.*s' is not a whole "
				      "number of at least 1", name, it.number, QUOTE(fl, 2));
			goto fail;
		}
		if (!twz_graph_weight_ok(w, g->node_count)) {
			twz_error_set(err, "%s:%lu: a link cost of %llu could overflow a "
				      "64-bit path cost over %u nodes", name, it.number,
				      (unsigned long long)w, g->node_count);
			goto fail;
		}
		if (count + 2 > TWZ_LINK_ARC_LIMIT) {
			twz_error_set(err, "%s:%lu: more than %u link arcs (a link both "
				      "ways is two)", name, it.number, TWZ_LINK_ARC_LIMIT);
			goto fail;
		}
		if (count + 2 > cap) {
			cap = cap ? 2 * cap : 64;
			struct twz_link_arc *nl = realloc(link, (size_t)cap * sizeof *nl);
			if (!nl) {
				twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory",
						   name);
				goto fail;
			}
			link = nl;
		}
		/* Ids from 1: nodes from 0. */
		link[count++] = (struct twz_link_arc){ from - 1, to - 1, w, numbers };
		if (both)
			link[count++] = (struct twz_link_arc){ to - 1, from - 1, w, numbers };
		numbers++;
		max_w = w > max_w ? w : max_w;
	}
	free(g->link);
	g->link = link;
	g->link_count = count;
	g->link_numbers = numbers;
	g->max_cost = max_w;
	return 0;
fail:
	free(link);
	return -1;
}

int twz_links_load(const char *path, struct twz_graph *g,
		   struct twz_error *err)
{
	return graph_part_load(path, g, twz_links_parse, err);
}

/* ---- .p2p ------------------------------------------------------------------ */

struct p2p_read {
	uint32_t max_id, cap;
	uint64_t declared;
	struct twz_p2p *q;
};

static int p2p_problem(void *ctx, const struct fields *fl, const char *name,
		       unsigned long line, struct twz_error *err)
{
	struct p2p_read *r = ctx;

	if (fl->count != 5 || !field_is(fl, 1, "aux") || !field_is(fl, 2, "sp") ||
	    !field_is(fl, 3, "p2p") ||
	    parse_u64(fl->f[4], fl->len[4], &r->declared) != 0) {
		twz_error_set(err, "%s:%lu: the problem line must be "
			      "'p aux sp p2p K'", name, line);
		return -1;
	}
	if (r->declared > UINT32_MAX / 2) {
		twz_error_set(err, "%s:%lu: %llu queries exceed the limit", name,
			      line, (unsigned long long)r->declared);
		return -1;
	}
	return 0;
}

static int p2p_query(void *ctx, const struct fields *fl, const char *name,
		     unsigned long line, struct twz_error *err)
{
	struct p2p_read *r = ctx;
	struct twz_p2p *q = r->q;
	uint32_t a, b;

	if (fl->count != 3) {
		twz_error_set(err, "%s:%lu: a query line must be 'q S T'", name, line);
		return -1;
	}
	if (parse_id(fl, 1, r->max_id, name, line, "source", &a, err) ||
	    parse_id(fl, 2, r->max_id, name, line, "target", &b, err))
		return -1;
	if (q->count == r->declared) {
		twz_error_set(err, "%s:%lu: more queries than the %llu the 'p' line "
			      "declares", name, line, (unsigned long long)r->declared);
		return -1;
	}
	if (q->count == r->cap) {
		uint32_t nc = r->cap ? r->cap * 2 : 256;
		uint32_t *np = realloc(q->pair, (size_t)nc * 2 * sizeof *np);
		if (!np) {
			twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", name);
			return -1;
		}
		q->pair = np;
		r->cap = nc;
	}
	q->pair[2 * (size_t)q->count] = a;
	q->pair[2 * (size_t)q->count + 1] = b;
	q->count++;
	return 0;
}

int twz_p2p_parse(const uint8_t *buf, size_t len, const char *name,
		  uint32_t max_id, struct twz_p2p *q, struct twz_error *err)
{
	static const struct dimacs p2p = {
		"p aux sp p2p K", "p aux sp p2p", "q", "a query", p2p_problem,
		p2p_query,
	};
	struct p2p_read r = { .max_id = max_id, .q = q };
	unsigned long p_line;

	memset(q, 0, sizeof *q);
	if (dimacs_read(buf, len, name, &p2p, &r, &p_line, err) != 0)
		goto fail;
	if (q->count != r.declared) {
		twz_error_set(err, "%s:%lu: the 'p' line declares %llu queries, the file "
			      "has %u", name, p_line, (unsigned long long)r.declared,
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
