/*
 * check_graph_levels.c - graph levels (DIMACS .gr, format 1.4 level kind
 * graph): the readers refuse each malformed line with its number and
 * accept what users write (CR LF, trailing blanks, comments, parallel
 * arcs, loops); random digraphs with one-way, parallel and looping arcs
 * and several components answer every pair as an independent plain
 * Dijkstra does (cost, a legal path of that cost, twz_next, flow
 * fields, unreachable targets); the three solvers and every thread
 * count bake the same bytes; crafted sections are refused or answered
 * safely; the tool's build, query (text, JSON), verify and info round
 * trip; the golden file opens and answers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apsp_dense.h"
#include "bake_graph.h"
#include "level_graph.h"
#include "test_support.h"
#include "twz_graph_format.h"
#include "twz_validate.h"

#define INF UINT64_MAX

/* ---- random digraphs, with an independent reference ------------------------ */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint32_t below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

/* A graph as text and as a weight matrix (the cheapest arc of each
 * ordered pair, INF for none, loops left out): the reference reads only
 * the matrix. */
struct text_graph {
	uint32_t n;
	uint64_t *w;      /* [n * n] */
	char *text;
	size_t len, cap;
};

static void put(struct text_graph *tg, const char *s)
{
	size_t l = strlen(s);
	if (tg->len + l + 1 > tg->cap) {
		tg->cap = (tg->len + l + 1) * 2;
		tg->text = realloc(tg->text, tg->cap);
		ck_assert_ptr_nonnull(tg->text);
	}
	memcpy(tg->text + tg->len, s, l + 1);
	tg->len += l;
}

/*
 * n nodes in `parts` components (ids shuffled among them), arcs: a
 * one-way ring through each component half the time, random arcs with
 * weights in [1, wmax], some parallel (a dearer copy), some loops, and
 * optionally a hub with `hub` out-arcs (more than 63, or 255, arcs).
 */
static void random_graph(struct text_graph *tg, uint32_t n, uint32_t parts,
			 uint32_t arcs, uint64_t wmax, uint32_t hub)
{
	uint32_t *comp = malloc(n * sizeof *comp);
	char line[96];
	uint32_t m = 0;
	/* Arcs collected first: the p line gives their count. */
	struct { uint32_t u, v; uint64_t w; } *a = malloc((arcs * 2 + 4 * n + hub + 8) * sizeof *a);

	memset(tg, 0, sizeof *tg);
	tg->n = n;
	tg->w = malloc((size_t)n * n * sizeof *tg->w);
	ck_assert_ptr_nonnull(comp);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(tg->w);
	for (size_t i = 0; i < (size_t)n * n; i++)
		tg->w[i] = INF;
	for (uint32_t v = 0; v < n; v++)
		comp[v] = below(parts);
#define ARC(U, V, W) (a[m].u = (U), a[m].v = (V), a[m].w = (W), m++)
	if (rnd() & 1) {
		/* A one-way ring through each component. */
		for (uint32_t p = 0; p < parts; p++) {
			uint32_t first = UINT32_MAX, prev = UINT32_MAX;
			for (uint32_t v = 0; v < n; v++) {
				if (comp[v] != p)
					continue;
				if (prev != UINT32_MAX)
					ARC(prev, v, 1 + rnd() % wmax);
				else
					first = v;
				prev = v;
			}
			if (prev != UINT32_MAX && prev != first)
				ARC(prev, first, 1 + rnd() % wmax);
		}
	}
	for (uint32_t i = 0; i < arcs; i++) {
		uint32_t u = below(n), v = below(n);
		if (comp[u] != comp[v])
			continue;
		uint64_t w = 1 + rnd() % wmax;
		ARC(u, v, w);
		if (below(8) == 0)
			ARC(u, v, w + 1 + below(3));   /* parallel, dearer */
		if (below(8) == 0)
			ARC(v, u, w);                  /* both ways */
	}
	if (n > 1)
		for (uint32_t i = 0; i < 3; i++) {
			uint32_t v = below(n);
			ARC(v, v, 1);                  /* loops */
		}
	for (uint32_t i = 0; i < hub && i + 1 < n; i++)
		if (comp[i + 1] == comp[0])
			ARC(0, i + 1, 1 + rnd() % wmax);
#undef ARC
	snprintf(line, sizeof line, "c random graph\np sp %u %u\n", n, m);
	put(tg, line);
	for (uint32_t i = 0; i < m; i++) {
		snprintf(line, sizeof line, "a %u %u %llu\n", a[i].u + 1, a[i].v + 1,
			 (unsigned long long)a[i].w);
		put(tg, line);
		if (a[i].u != a[i].v && a[i].w < tg->w[(size_t)a[i].u * n + a[i].v])
			tg->w[(size_t)a[i].u * n + a[i].v] = a[i].w;
	}
	free(a);
	free(comp);
}

static void text_graph_free(struct text_graph *tg)
{
	free(tg->w);
	free(tg->text);
	memset(tg, 0, sizeof *tg);
}

/* Plain O(n^2) Dijkstra on the matrix, from s (0-based). */
static void ref_dijkstra(const struct text_graph *tg, uint32_t s, uint64_t *d)
{
	uint32_t n = tg->n;
	uint8_t *done = calloc(n, 1);

	ck_assert_ptr_nonnull(done);
	for (uint32_t v = 0; v < n; v++)
		d[v] = INF;
	d[s] = 0;
	for (;;) {
		uint32_t u = UINT32_MAX;
		for (uint32_t v = 0; v < n; v++)
			if (!done[v] && d[v] != INF && (u == UINT32_MAX || d[v] < d[u]))
				u = v;
		if (u == UINT32_MAX)
			break;
		done[u] = 1;
		for (uint32_t v = 0; v < n; v++) {
			uint64_t w = tg->w[(size_t)u * n + v];
			if (w != INF && d[u] + w < d[v])
				d[v] = d[u] + w;
		}
	}
	free(done);
}

static uint8_t *bake_text(const struct text_graph *tg, unsigned solver,
			  unsigned threads, unsigned codec, size_t *len)
{
	struct twz_graph g;
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf = NULL;

	ck_assert_msg(twz_graph_parse((const uint8_t *)tg->text, tg->len, "rand.gr",
				      &g, &err) == 0, "parse: %s", err.msg);
	twz_bake_options_default(&opt);
	opt.threads = threads;
	opt.codec = codec;
	opt.level = 3;
	opt.apsp = solver;
	opt.name = "rand.gr";
	opt.record_build = 1;
	ck_assert_msg(twz_bake_graph_encode(&g, NULL, &opt, &buf, len, &err) == 0,
		      "bake: %s", err.msg);
	twz_graph_free(&g);
	return buf;
}

/* Every pair of tg answered by db as the reference does. */
static void check_all_pairs(const twz_db *db, const struct text_graph *tg)
{
	uint32_t n = tg->n;
	uint64_t *d = malloc(n * sizeof *d);
	twz_node *path = malloc((n + 1) * sizeof *path);
	twz_node *flow = malloc(n * sizeof *flow);
	twz_node *node = malloc(n * sizeof *node);

	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(path);
	ck_assert_ptr_nonnull(flow);
	ck_assert_ptr_nonnull(node);
	ck_assert_uint_eq(twz_node_count(db), n);
	for (uint32_t i = 0; i < n; i++) {
		int64_t id = -1;
		node[i] = twz_node_of_id(db, i + 1);
		expect(node[i] < n, "id %u has no node", i + 1);
		expect(twz_node_id(db, node[i], &id) == TWZ_OK && id == i + 1,
		       "node of id %u maps back to %lld", i + 1, (long long)id);
	}
	ck_assert_uint_eq(twz_node_of_id(db, 0), TWZ_NONE);
	ck_assert_uint_eq(twz_node_of_id(db, (int64_t)n + 1), TWZ_NONE);
	for (uint32_t si = 0; si < n; si++) {
		ref_dijkstra(tg, si, d);
		twz_node s = node[si];
		for (uint32_t ti = 0; ti < n; ti++) {
			twz_node t = node[ti];
			size_t len = 0;
			uint64_t cost = 0;
			twz_status st = twz_path(db, s, t, path, n + 1, &len);
			if (d[ti] == INF) {
				expect(st == TWZ_E_UNREACHABLE && len == 0,
				       "%u -> %u: unreachable, got status %d", si + 1,
				       ti + 1, st);
				expect(twz_next(db, s, t) == TWZ_NONE,
				       "%u -> %u: next of an unreachable target", si + 1,
				       ti + 1);
				expect(isinf(twz_cost(db, s, t)), "cost of unreachable");
				expect(twz_cost_u64(db, s, t, &cost) == TWZ_E_UNREACHABLE,
				       "u64 cost of unreachable");
				continue;
			}
			expect(st == TWZ_OK, "%u -> %u: status %d, optimum %llu",
			       si + 1, ti + 1, st, (unsigned long long)d[ti]);
			expect(path[0] == s && path[len - 1] == t, "path ends");
			uint64_t sum = 0;
			for (size_t k = 0; k + 1 < len; k++) {
				int64_t a, b;
				twz_node_id(db, path[k], &a);
				twz_node_id(db, path[k + 1], &b);
				uint64_t w = tg->w[(size_t)(a - 1) * n + (size_t)(b - 1)];
				expect(w != INF, "%u -> %u: step %lld -> %lld is no arc",
				       si + 1, ti + 1, (long long)a, (long long)b);
				sum += w;
			}
			expect(sum == d[ti], "%u -> %u: path costs %llu, optimum %llu",
			       si + 1, ti + 1, (unsigned long long)sum,
			       (unsigned long long)d[ti]);
			expect(twz_cost_u64(db, s, t, &cost) == TWZ_OK && cost == d[ti],
			       "%u -> %u: twz_cost_u64 %llu, optimum %llu", si + 1,
			       ti + 1, (unsigned long long)cost,
			       (unsigned long long)d[ti]);
			expect(twz_cost(db, s, t) == (double)d[ti], "twz_cost");
			expect(twz_next(db, s, t) == (len > 1 ? path[1] : t),
			       "twz_next differs from the path");
		}
	}
	/* Flow fields toward a few targets: every node's entry is twz_next. */
	for (uint32_t k = 0; k < n && k < 8; k++) {
		twz_node t = node[below(n)];
		ck_assert_int_eq(twz_flow_field(db, t, flow, n), TWZ_OK);
		for (uint32_t v = 0; v < n; v++)
			expect(flow[v] == twz_next(db, v, t), "flow field at %u", v);
	}
	free(d);
	free(path);
	free(flow);
	free(node);
}

START_TEST(test_random_digraphs_against_dijkstra)
{
	rng_state = 1000 + (uint64_t)_i;
	for (int round = 0; round < 12; round++) {
		struct text_graph tg;
		uint32_t n = 1 + below(round < 4 ? 12 : 70);
		uint64_t wmax = round % 3 == 0 ? 3 : round % 3 == 1 ? 1000
							: (uint64_t)1 << 40;
		random_graph(&tg, n, 1 + below(4), n * (1 + below(4)), wmax, 0);
		size_t len;
		uint8_t *buf = bake_text(&tg, TWZ_APSP_DIJKSTRA, 2, TWZ_CODEC_ZSTD, &len);
		twz_db *db = twz_test_open_buf(buf, len);
		twz_info in;
		ck_assert_int_eq(twz_get_info(db, &in), TWZ_OK);
		ck_assert_uint_eq(in.level_kind, TWZ_KIND_GRAPH);
		ck_assert_uint_eq(in.format_minor, 4);
		check_all_pairs(db, &tg);
		twz_close(db);
		free(buf);
		text_graph_free(&tg);
	}
}
END_TEST

/* Graphs without arcs, or of one node: every other node unreachable. */
START_TEST(test_no_arcs)
{
	static const char *const texts[] = {
		"p sp 1 0\n", "p sp 3 0\n", "p sp 2 2\na 1 1 4\na 2 2 1\n",
	};

	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		struct text_graph tg;
		memset(&tg, 0, sizeof tg);
		put(&tg, texts[i]);
		sscanf(texts[i], "p sp %u", &tg.n);
		tg.w = malloc((size_t)tg.n * tg.n * sizeof *tg.w);
		for (size_t k = 0; k < (size_t)tg.n * tg.n; k++)
			tg.w[k] = INF;
		size_t len;
		uint8_t *buf = bake_text(&tg, TWZ_APSP_DIJKSTRA, 1, TWZ_CODEC_RAW, &len);
		uint8_t *fl = bake_text(&tg, TWZ_APSP_SQUARING, 1, TWZ_CODEC_RAW, &len);
		ck_assert(!memcmp(buf, fl, len));
		twz_db *db = twz_test_open_buf(buf, len);
		twz_info in;
		twz_get_info(db, &in);
		ck_assert_uint_eq(in.arc_count, 0);
		ck_assert_uint_eq(in.component_count, tg.n);
		check_all_pairs(db, &tg);
		twz_close(db);
		free(buf);
		free(fl);
		text_graph_free(&tg);
	}
}
END_TEST

/* Nodes of more than 63 arcs (one canonical arc a target) and of more
 * than 254 (u16 run arcs). */
START_TEST(test_hub_nodes)
{
	static const uint32_t hubs[] = { 70, 300 };

	rng_state = 77;
	for (int i = 0; i < 2; i++) {
		struct text_graph tg;
		random_graph(&tg, hubs[i] + 20, 1, 3 * (hubs[i] + 20), 4, hubs[i]);
		size_t len;
		uint8_t *buf = bake_text(&tg, TWZ_APSP_DIJKSTRA, 2, TWZ_CODEC_RAW, &len);
		twz_db *db = twz_test_open_buf(buf, len);
		check_all_pairs(db, &tg);
		twz_close(db);
		uint8_t *fl = bake_text(&tg, TWZ_APSP_FLOYD, 1, TWZ_CODEC_RAW, &len);
		ck_assert_msg(memcmp(fl, buf, len) == 0, "floyd differs on a hub");
		free(fl);
		free(buf);
		text_graph_free(&tg);
	}
}
END_TEST

/* The three solvers and 1 to 3 threads bake the same bytes: the same
 * distances and the same stored first arcs. */
START_TEST(test_solvers_and_threads_agree)
{
	static const unsigned runs[][2] = {
		{ TWZ_APSP_DIJKSTRA, 1 }, { TWZ_APSP_DIJKSTRA, 3 },
		{ TWZ_APSP_FLOYD, 1 }, { TWZ_APSP_FLOYD, 2 },
		{ TWZ_APSP_SQUARING, 1 }, { TWZ_APSP_SQUARING, 2 },
	};

	rng_state = 5000 + (uint64_t)_i;
	for (int round = 0; round < 6; round++) {
		struct text_graph tg;
		uint32_t n = 1 + below(round < 2 ? 10 : 120);
		random_graph(&tg, n, 1 + below(3), n * 2, round % 2 ? 2 : 5000, 0);
		size_t ref_len, len;
		uint8_t *ref = bake_text(&tg, TWZ_APSP_DIJKSTRA, 2, TWZ_CODEC_ZSTD,
					 &ref_len);
		for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
			uint8_t *buf = bake_text(&tg, runs[i][0], runs[i][1],
						 TWZ_CODEC_ZSTD, &len);
			ck_assert_msg(len == ref_len && !memcmp(buf, ref, len),
				      "n %u: --apsp %s on %u threads differs", n,
				      twz_apsp_solver_name(runs[i][0]), runs[i][1]);
			free(buf);
		}
		twz_db *db = twz_test_open_buf(ref, ref_len);
		check_all_pairs(db, &tg);
		twz_close(db);
		free(ref);
		text_graph_free(&tg);
	}
}
END_TEST

/* ---- readers -------------------------------------------------------------- */

struct bad_case {
	const char *text;
	const char *want;    /* the message starts with this; NULL: accepted */
};

static const struct bad_case bad_gr[] = {
	{ "c nothing\n", "g.gr: no 'p sp N M' line" },
	{ "a 1 2 3\np sp 2 1\n", "g.gr:1: an arc before" },
	{ "p sp 2 1\np sp 2 1\na 1 2 1\n", "g.gr:2: a second 'p' line" },
	{ "p sp 2 1\na 0 2 1\n", "g.gr:2: tail id 0 is out of range" },
	{ "p sp 2 1\na 1 3 1\n", "g.gr:2: head id 3 is out of range" },
	{ "p sp 2 1\na 1 2 0\n", "g.gr:2: weight '0' is not a positive" },
	{ "p sp 2 1\na 1 2 -4\n", "g.gr:2: weight '-4' is not a positive" },
	{ "p sp 2 1\na 1 2 1.5\n", "g.gr:2: weight '1.5' is not a positive" },
	{ "p sp 2 1\na 1 2\n", "g.gr:2: an arc line must be" },
	{ "p sp 2 1\na 1 2 3 4\n", "g.gr:2: an arc line must be" },
	{ "p sp 2 2\na 1 2 1\n", "g.gr:1: the 'p' line declares 2 arcs, the file has 1" },
	{ "p sp 2 1\na 1 2 1\na 2 1 1\n", "g.gr:3: more arcs than" },
	{ "p sp 2 1\nx 1 2 1\n", "g.gr:2: not a 'c', 'p sp' or 'a' line" },
	{ "p sp 2 1\ncomment without a space\n", "g.gr:2: not a 'c'" },
	{ "p sp 0 0\n", "g.gr:1: a graph of no nodes" },
	{ "p max 2 1\n", "g.gr:1: the problem line must be" },
	{ "p sp x 1\n", "g.gr:1: 'p sp N M' needs" },
	{ "p sp 3 1\na 1 2 9223372036854775807\n", NULL },
	{ "p sp 3 1\na 1 2 9223372036854775808\n", "g.gr:2: weight 9223372036854775808 could overflow" },
	{ "p sp 2 1\na 1 2 99999999999999999999\n", "g.gr:2: weight '99999999999999999999'" },
	{ "p sp 2 1\na a 2 1\n", "g.gr:2: tail id 'a' is not" },
	{ "p sp 67108865 0\n", "g.gr:1: 67108865 nodes exceed" },
};

static const struct bad_case bad_co[] = {
	{ "v 1 0 0\n", "g.co:1: a vertex before" },
	{ "p aux sp co 2\nv 1 0 0\n", "g.co: vertex 2 has no coordinates" },
	{ "p aux sp co 3\n", "g.co:1: 3 coordinates for a graph of 2" },
	{ "p aux sp co 2\nv 1 0 0\nv 1 5 5\nv 2 0 0\n", "g.co:3: vertex 1 is given twice" },
	{ "p aux sp co 2\nv 3 0 0\n", "g.co:2: vertex id 3 is out of range" },
	{ "p aux sp co 2\nv 1 x 0\n", "g.co:2: coordinates must be" },
	{ "p aux sp co 2\nv 1 0\n", "g.co:2: a vertex line must be" },
	{ "p sp co 2\n", "g.co:1: the problem line must be" },
	{ "p aux sp co 2\nq 1 2\n", "g.co:2: not a 'c'" },
};

static const struct bad_case bad_p2p[] = {
	{ "q 1 2\n", "q.p2p:1: a query before" },
	{ "p aux sp p2p 2\nq 1 2\n", "q.p2p:1: the 'p' line declares 2 queries" },
	{ "p aux sp p2p 1\nq 1 9\n", "q.p2p:2: target id 9 is out of range" },
	{ "p aux sp p2p 1\nq 1\n", "q.p2p:2: a query line must be" },
	{ "c\n", "q.p2p: no 'p aux sp p2p K' line" },
};

static void expect_message(const char *msg, const char *want, const char *text)
{
	ck_assert_msg(!strncmp(msg, want, strlen(want)), "on '%s': got '%s', want '%s...'",
		      text, msg, want);
	ck_assert_msg(!strchr(msg, '\n'), "a message of one line: '%s'", msg);
}

START_TEST(test_reader_refuses)
{
	for (size_t i = 0; i < sizeof bad_gr / sizeof bad_gr[0]; i++) {
		struct twz_graph g;
		struct twz_error err = { { 0 }, 0 };
		const char *t = bad_gr[i].text;
		if (!bad_gr[i].want) {
			/* The largest weight that still fits. */
			ck_assert_msg(twz_graph_parse((const uint8_t *)t, strlen(t), "g.gr",
						      &g, &err) == 0, "%s", err.msg);
			twz_graph_free(&g);
			continue;
		}
		ck_assert_msg(twz_graph_parse((const uint8_t *)t, strlen(t), "g.gr", &g,
					      &err) != 0, "accepted '%s'", t);
		ck_assert_ptr_null(g.arc_first);
		expect_message(err.msg, bad_gr[i].want, t);
	}
	for (size_t i = 0; i < sizeof bad_co / sizeof bad_co[0]; i++) {
		struct twz_graph g;
		struct twz_error err = { { 0 }, 0 };
		const char *gr = "p sp 2 1\na 1 2 1\n", *t = bad_co[i].text;
		ck_assert_int_eq(twz_graph_parse((const uint8_t *)gr, strlen(gr), "g.gr",
						 &g, &err), 0);
		ck_assert_int_ne(twz_coords_parse((const uint8_t *)t, strlen(t), "g.co",
						  &g, &err), 0);
		ck_assert_ptr_null(g.coord);
		expect_message(err.msg, bad_co[i].want, t);
		twz_graph_free(&g);
	}
	for (size_t i = 0; i < sizeof bad_p2p / sizeof bad_p2p[0]; i++) {
		struct twz_p2p q;
		struct twz_error err = { { 0 }, 0 };
		const char *t = bad_p2p[i].text;
		ck_assert_int_ne(twz_p2p_parse((const uint8_t *)t, strlen(t), "q.p2p", 2,
					       &q, &err), 0);
		expect_message(err.msg, bad_p2p[i].want, t);
	}
}
END_TEST

START_TEST(test_reader_accepts)
{
	/* CR LF, trailing blanks and tabs, comments, blank lines, a loop, a
	 * dearer parallel arc before the cheaper one. */
	const char *gr = "c a graph\r\np sp 4 5  \r\n\r\na\t1 2 7 \r\n"
			 "a 1 2 5\r\na 2 2 1\r\na 2 3 1\r\nc between\r\na 4 1 2\t\r\n";
	const char *co = "c coords\r\np aux sp co 4\r\nv 2 -5 7\r\nv 1 0 0 \r\n"
			 "v 4 -9223372036854775808 9223372036854775807\r\nv 3 1 1\r\n";
	struct twz_graph g;
	struct twz_error err = { { 0 }, 0 };

	ck_assert_msg(twz_graph_parse((const uint8_t *)gr, strlen(gr), "g.gr", &g,
				      &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(g.node_count, 4);
	ck_assert_uint_eq(g.arc_count, 3);         /* loop gone, parallel merged */
	ck_assert_uint_eq(g.id_base, 1);
	ck_assert_uint_eq(g.arc_first[1] - g.arc_first[0], 1);
	ck_assert_uint_eq(g.arc_head[0], 1);
	ck_assert_uint_eq(g.arc_cost[0], 5);     /* the cheaper parallel arc */
	ck_assert_uint_eq(g.max_cost, 5);
	ck_assert_msg(twz_coords_parse((const uint8_t *)co, strlen(co), "g.co", &g,
				       &err) == 0, "%s", err.msg);
	ck_assert_int_eq(g.coord[2], -5);
	ck_assert_int_eq(g.coord[3], 7);
	ck_assert_int_eq(g.coord[6], INT64_MIN);
	ck_assert_int_eq(g.coord[7], INT64_MAX);
	twz_graph_free(&g);
}
END_TEST

/* ---- the API on a graph database ---------------------------------------- */

static uint8_t *bake_string(const char *gr, const char *co, unsigned codec,
			    size_t *len)
{
	struct twz_graph g;
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf = NULL;

	ck_assert_msg(twz_graph_parse((const uint8_t *)gr, strlen(gr), "s.gr", &g,
				      &err) == 0, "%s", err.msg);
	if (co)
		ck_assert_msg(twz_coords_parse((const uint8_t *)co, strlen(co), "s.co",
					       &g, &err) == 0, "%s", err.msg);
	twz_bake_options_default(&opt);
	opt.codec = codec;
	opt.threads = 1;
	opt.name = "s.gr";
	ck_assert_msg(twz_bake_graph_encode(&g, NULL, &opt, &buf, len, &err) == 0,
		      "%s", err.msg);
	twz_graph_free(&g);
	return buf;
}

START_TEST(test_api_on_graphs)
{
	/* 1 -> 2 -> 3 heavy: the cost passes 2^32. */
	const char *gr = "p sp 4 3\na 1 2 4000000000\na 2 3 4000000000\na 3 4 1\n";
	const char *co = "p aux sp co 4\nv 1 10 20\nv 2 -3 4\nv 3 0 0\nv 4 1 1\n";
	size_t len;
	uint8_t *buf = bake_string(gr, co, TWZ_CODEC_ZSTD, &len);
	twz_db *db = twz_test_open_buf(buf, len);
	twz_node n1 = twz_node_of_id(db, 1), n2 = twz_node_of_id(db, 2);
	twz_node n3 = twz_node_of_id(db, 3), n4 = twz_node_of_id(db, 4);
	uint32_t st32 = 0, dg = 7, ux, uy;
	uint64_t c64;
	int64_t x, y;
	twz_node heads[4], p[4];
	uint64_t w[4];
	size_t cnt;
	twz_scratch *sc;
	twz_info in;

	ck_assert_int_eq(twz_get_info(db, &in), TWZ_OK);
	ck_assert_uint_eq(in.arc_count, 3);
	ck_assert_uint_eq(in.width, 0);
	ck_assert_uint_eq(twz_node_at(db, 0, 0), TWZ_NONE);
	ck_assert_int_eq(twz_node_xy(db, n1, &ux, &uy), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_cost_exact(db, n1, n2, &st32, &dg), TWZ_OK);
	ck_assert_uint_eq(st32, 4000000000u);
	ck_assert_uint_eq(dg, 0);
	ck_assert_int_eq(twz_cost_exact(db, n1, n3, &st32, &dg), TWZ_E_LIMIT);
	ck_assert_int_eq(twz_cost_u64(db, n1, n4, &c64), TWZ_OK);
	ck_assert_uint_eq(c64, 8000000001ull);
	ck_assert(twz_cost(db, n1, n4) == 8000000001.0);
	ck_assert_int_eq(twz_cost_u64(db, n4, n1, &c64), TWZ_E_UNREACHABLE);
	ck_assert_uint_eq(twz_next(db, n4, n1), TWZ_NONE);
	ck_assert_int_eq(twz_node_coords(db, n2, &x, &y), TWZ_OK);
	ck_assert_int_eq(x, -3);
	ck_assert_int_eq(y, 4);
	ck_assert_int_eq(twz_node_arcs(db, n2, heads, w, 4, &cnt), TWZ_OK);
	ck_assert_uint_eq(cnt, 1);
	ck_assert_uint_eq(heads[0], n3);
	ck_assert_uint_eq(w[0], 4000000000u);
	ck_assert_int_eq(twz_node_arcs(db, n2, heads, w, 0, &cnt),
			 TWZ_E_BUFFER_TOO_SMALL);
	ck_assert_int_eq(twz_path(db, n1, n4, p, 2, &cnt), TWZ_E_BUFFER_TOO_SMALL);
	ck_assert_uint_eq(cnt, 4);
	ck_assert_uint_eq(p[0], n1);
	ck_assert_uint_eq(p[1], n2);
	/* Searches and smoothing answer on graphs too; calls by grid cell
	 * say no. */
	ck_assert_int_eq(twz_scratch_create(db, &sc), TWZ_OK);
	twz_scratch_free(sc);
	ck_assert_int_eq(twz_smooth(db, p, 2, &cnt), TWZ_OK);
	ck_assert_uint_eq(cnt, 2);
	ck_assert_int_eq(twz_nearest(db, 0, 0, 5, TWZ_NONE, p), TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_path_partial(db, n1, 0, 0, p, 4, &cnt, NULL),
			 TWZ_E_ARGUMENT);
	ck_assert_int_eq(twz_cost_u64(db, n1, 99, &c64), TWZ_E_ARGUMENT);
	twz_close(db);
	free(buf);
	/* Without a .co there are no coordinates. */
	buf = bake_string(gr, NULL, TWZ_CODEC_RAW, &len);
	db = twz_test_open_buf(buf, len);
	ck_assert_int_eq(twz_node_coords(db, 0, &x, &y), TWZ_E_ARGUMENT);
	twz_close(db);
	free(buf);
}
END_TEST

/* The bake refuses what it cannot do, in one line, before allocating. */
START_TEST(test_bake_limits)
{
	struct text_graph tg;
	struct twz_graph g;
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf = NULL;
	size_t len;

	rng_state = 9;
	random_graph(&tg, TWZ_APSP_MAX_NODES + 1, 1, 10, 3, 0);
	ck_assert(twz_graph_parse((const uint8_t *)tg.text, tg.len, "big.gr", &g,
				  &err) == 0);
	twz_bake_options_default(&opt);
	opt.name = "big.gr";
	opt.apsp = TWZ_APSP_FLOYD;
	ck_assert_int_ne(twz_bake_graph_encode(&g, NULL, &opt, &buf, &len, &err), 0);
	expect_message(err.msg, "big.gr: --apsp floyd takes at most 4096 nodes", "");
	opt.apsp = TWZ_APSP_DIJKSTRA;
	opt.max_nodes = 100;
	ck_assert_int_ne(twz_bake_graph_encode(&g, NULL, &opt, &buf, &len, &err), 0);
	expect_message(err.msg, "big.gr: 4097 nodes exceed --max-nodes 100", "");
	opt.max_nodes = 0;
	opt.max_memory = 1000;
	ck_assert_int_ne(twz_bake_graph_encode(&g, NULL, &opt, &buf, &len, &err), 0);
	expect_message(err.msg, "big.gr: baking 4097 nodes needs about", "");
	twz_graph_free(&g);
	text_graph_free(&tg);
}
END_TEST

/* ---- crafted files --------------------------------------------------------- */

/* Offset of section kind's table entry in a file, or 0. */
static size_t entry_of(const uint8_t *f, uint32_t kind)
{
	uint32_t count = twz_le32(f + TWZ_H_SECTION_COUNT);

	for (uint32_t i = 0; i < count; i++) {
		size_t e = TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
		if (twz_le32(f + e + TWZ_S_KIND) == kind)
			return e;
	}
	return 0;
}

/* Checksums of a raw file made right again after its bytes changed. */
static void reseal(uint8_t *f)
{
	uint32_t count = twz_le32(f + TWZ_H_SECTION_COUNT);

	for (uint32_t i = 0; i < count; i++) {
		uint8_t *e = f + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
		twz_put64(e + TWZ_S_RAW_CHECKSUM,
			  twz_checksum(f + twz_le64(e + TWZ_S_OFFSET),
				       (size_t)twz_le64(e + TWZ_S_SIZE)));
	}
	twz_put64(f + TWZ_H_TABLE_CHECKSUM,
		  twz_checksum(f + TWZ_HEADER_SIZE, (size_t)count * TWZ_SECTION_ENTRY_SIZE));
	twz_put64(f + TWZ_H_HEADER_CHECKSUM, twz_checksum(f, TWZ_H_HEADER_CHECKSUM));
}

/* Whatever a crafted file says, an accepted one answers every query
 * without reading outside it, and every walk ends. */
static void query_everything(const twz_db *db)
{
	uint32_t n = twz_node_count(db);
	twz_node buf[64], flow[64];
	size_t len;
	uint64_t c;

	for (twz_node s = 0; s < n; s++)
		for (twz_node t = 0; t < n; t++) {
			(void)twz_next(db, s, t);
			(void)twz_path(db, s, t, buf, 64, &len);
			(void)twz_cost_u64(db, s, t, &c);
		}
	for (twz_node t = 0; t < n; t++)
		(void)twz_flow_field(db, t, flow, 64);
}

START_TEST(test_crafted_sections)
{
	const char *gr = "p sp 9 14\na 1 2 3\na 2 3 1\na 3 1 2\na 3 4 5\na 4 5 1\n"
			 "a 5 4 1\na 5 6 2\na 6 3 1\na 1 6 9\na 7 8 1\na 8 7 4\n"
			 "a 2 6 2\na 6 2 2\na 4 6 1\n";
	const char *co = "p aux sp co 9\nv 1 0 0\nv 2 1 0\nv 3 2 0\nv 4 0 1\n"
			 "v 5 1 1\nv 6 2 1\nv 7 0 2\nv 8 1 2\nv 9 2 2\n";
	size_t len;
	uint8_t *base = bake_string(gr, co, TWZ_CODEC_RAW, &len);
	static const uint8_t values[] = { 0, 1, 0x7F, 0xFF };
	unsigned accepted = 0, refused = 0;

	ck_assert_int_eq(twz_test_try_open(base, len, 0), TWZ_OK);
	for (uint32_t kind = TWZ_SECTION_GRAPH_FIRST; kind <= TWZ_SECTION_GRAPH_MAX;
	     kind++) {
		size_t e = entry_of(base, kind);
		ck_assert_msg(e, "section %u missing", kind);
		size_t off = (size_t)twz_le64(base + e + TWZ_S_OFFSET);
		size_t size = (size_t)twz_le64(base + e + TWZ_S_SIZE);
		for (size_t b = 0; b < size; b++)
			for (size_t v = 0; v < sizeof values; v++) {
				if (base[off + b] == values[v])
					continue;
				uint8_t *f = twz_test_dup_bytes(base, len);
				f[off + b] = values[v];
				reseal(f);
				twz_db *db = NULL;
				if (twz_open_memory(f, len, 0, &db) == TWZ_OK) {
					accepted++;
					query_everything(db);
					twz_close(db);
				} else {
					refused++;
				}
				free(f);
			}
	}
	ck_assert_uint_gt(refused, 0);
	/* The header: the kind needs its feature bit and the other way. */
	uint8_t *f = twz_test_dup_bytes(base, len);
	f[TWZ_H_LEVEL_KIND] = TWZ_LEVEL_GRID;
	reseal(f);
	ck_assert_int_eq(twz_test_try_open(f, len, 0), TWZ_E_DAMAGED);
	f[TWZ_H_LEVEL_KIND] = 3;
	reseal(f);
	ck_assert_int_eq(twz_test_try_open(f, len, 0), TWZ_E_FEATURE);
	f[TWZ_H_LEVEL_KIND] = TWZ_LEVEL_GRAPH;
	twz_put32(f + TWZ_H_WIDTH, 5);
	reseal(f);
	ck_assert_int_eq(twz_test_try_open(f, len, 0), TWZ_E_DAMAGED);
	free(f);
	/* A section's size claim beyond what the header allows is refused
	 * before anything is allocated for it. */
	f = twz_test_dup_bytes(base, len);
	size_t e = entry_of(f, TWZ_SECTION_GRAPH_NODE_ID);
	twz_put64(f + e + TWZ_S_RAW_SIZE, 4000);
	reseal(f);
	ck_assert_int_eq(twz_test_try_open(f, len, 0), TWZ_E_DAMAGED);
	free(f);
	/* Agent sizes are a grid's. */
	f = twz_test_dup_bytes(base, len);
	e = entry_of(f, TWZ_SECTION_GRAPH_COORDS);
	twz_put32(f + e + TWZ_S_KIND, 10);
	e = entry_of(f, TWZ_SECTION_GRAPH_PARAMS);
	twz_put32(f + twz_le64(f + e + TWZ_S_OFFSET) + TWZ_GP_FLAGS, 0);
	reseal(f);
	ck_assert_int_ne(twz_test_try_open(f, len, 0), TWZ_OK);
	free(f);
	/* A graph file without one of its sections. */
	f = twz_test_dup_bytes(base, len);
	e = entry_of(f, TWZ_SECTION_GRAPH_RUN_ARC);
	twz_put32(f + e + TWZ_S_KIND, 60);
	reseal(f);
	ck_assert_int_eq(twz_test_try_open(f, len, 0), TWZ_E_DAMAGED);
	free(f);
	free(base);
	(void)accepted;
}
END_TEST

/* A run that names a wrong (but existing) arc: the file opens, and
 * twigz verify finds the wrong answer. */
START_TEST(test_verify_finds_wrong_rows)
{
	char dir[512], gr[600], db[600], p2p[600];
	/* 1 -> 3 is best through 2; the direct arc costs more. */
	const char *text = "p sp 3 3\na 1 2 1\na 2 3 1\na 1 3 5\n";
	const char *q = "p aux sp p2p 1\nq 1 3\n";
	struct twz_test_run r;
	size_t len;

	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "graphv"));
	snprintf(gr, sizeof gr, "%s/w.gr", dir);
	snprintf(db, sizeof db, "%s/w.twz", dir);
	snprintf(p2p, sizeof p2p, "%s/w.p2p", dir);
	twz_test_write_file(gr, text, strlen(text));
	twz_test_write_file(p2p, q, strlen(q));
	const char *build[] = { "build", gr, "-o", db, "--codec", "raw", "-q", NULL };
	twz_test_run_tool(build, NULL, 0, &r);
	ck_assert_int_eq(r.status, 0);
	twz_test_run_free(&r);
	const char *verify[] = { "verify", db, p2p, NULL };
	twz_test_run_tool(verify, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	twz_test_run_free(&r);

	uint8_t *f = twz_test_read_file(db, &len);
	twz_db *h = twz_test_open_buf(f, len);
	twz_node s = twz_node_of_id(h, 1), t = twz_node_of_id(h, 3);
	twz_close(h);
	/* Row of s: swap every run's arc to the other of s's two arcs. */
	size_t off_e = entry_of(f, TWZ_SECTION_GRAPH_ROW_OFFSETS);
	size_t arc_e = entry_of(f, TWZ_SECTION_GRAPH_RUN_ARC);
	const uint8_t *offs = f + twz_le64(f + off_e + TWZ_S_OFFSET);
	uint8_t *arcs = f + twz_le64(f + arc_e + TWZ_S_OFFSET);
	for (uint32_t i = twz_le32(offs + 4 * s); i < twz_le32(offs + 4 * (s + 1)); i++)
		if (arcs[i] < 2)
			arcs[i] ^= 1;
	reseal(f);
	h = twz_test_open_buf(f, len);
	uint64_t c;
	ck_assert_int_eq(twz_cost_u64(h, s, t, &c), TWZ_OK);
	ck_assert_uint_eq(c, 5);
	twz_close(h);
	twz_test_write_file(db, f, len);
	free(f);
	twz_test_run_tool(verify, NULL, 0, &r);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "1 -> 3: path is longer than the optimum"), "%s", r.err);
	ck_assert_msg(strstr(r.out, "0 passed, 1 failed"), "%s", r.out);
	twz_test_run_free(&r);
	twz_test_remove_tree(dir);
}
END_TEST

/* ---- the tool ------------------------------------------------------------------ */

START_TEST(test_tool_round_trip)
{
	char dir[512], gr[600], co[600], db[600], db1[600], p2p[600];
	const char *text = "c one-way street\r\np sp 5 6\r\na 1 2 2\r\na 2 3 2 \r\n"
			   "a 3 1 2\r\na 1 3 5\r\na 3 4 1\r\na 5 5 1\r\n";
	const char *cot = "p aux sp co 5\nv 1 0 0\nv 2 10 0\nv 3 10 10\nv 4 20 10\nv 5 -5 -5\n";
	const char *q = "c queries\np aux sp p2p 4\nq 1 4\nq 4 1\nq 3 2\nq 2 2\n";
	struct twz_test_run r;

	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "graphcli"));
	snprintf(gr, sizeof gr, "%s/city.gr", dir);
	snprintf(co, sizeof co, "%s/city.co", dir);
	snprintf(db, sizeof db, "%s/city.twz", dir);
	snprintf(db1, sizeof db1, "%s/city1.twz", dir);
	snprintf(p2p, sizeof p2p, "%s/city.p2p", dir);
	twz_test_write_file(gr, text, strlen(text));
	twz_test_write_file(co, cot, strlen(cot));
	twz_test_write_file(p2p, q, strlen(q));

	const char *build[] = { "build", gr, "-o", db, "--coords", co, "--threads", "2", NULL };
	twz_test_run_tool(build, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.err, "(graph): 5 nodes, 5 arcs, 2 regions"), "%s", r.err);
	twz_test_run_free(&r);
	const char *build1[] = { "build", gr, "-o", db1, "--coords", co, "--threads", "1",
				 "--apsp", "squaring", "-q", NULL };
	twz_test_run_tool(build1, NULL, 0, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_uint_eq(r.err_len, 0);
	twz_test_run_free(&r);
	size_t l0, l1;
	uint8_t *b0 = twz_test_read_file(db, &l0), *b1 = twz_test_read_file(db1, &l1);
	ck_assert_msg(l0 == l1 && !memcmp(b0, b1, l0), "threads or solver changed the bytes");
	free(b0);
	free(b1);

	const char *one[] = { "query", db, "1", "4", "--json", NULL };
	twz_test_run_tool(one, NULL, 0, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "{\"source\":1,\"target\":4,\"cost\":5,\"path\":[1,2,3,4]}\n");
	twz_test_run_free(&r);
	const char *plain[] = { "query", db, "3", "2", NULL };
	twz_test_run_tool(plain, NULL, 0, &r);
	ck_assert_str_eq(r.out, "3 -> 2: cost 4, 2 arcs: 3 1 2\n");
	twz_test_run_free(&r);
	const char *list[] = { "query", db, "--p2p", p2p, "--json", NULL };
	twz_test_run_tool(list, NULL, 0, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out,
		"{\"source\":1,\"target\":4,\"cost\":5,\"path\":[1,2,3,4]}\n"
		"{\"source\":4,\"target\":1,\"cost\":null,\"path\":[],"
		"\"status\":\"unreachable\"}\n"
		"{\"source\":3,\"target\":2,\"cost\":4,\"path\":[3,1,2]}\n"
		"{\"source\":2,\"target\":2,\"cost\":0,\"path\":[2]}\n");
	twz_test_run_free(&r);
	const char *verify[] = { "verify", db, p2p, NULL };
	twz_test_run_tool(verify, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_str_eq(r.out, "4 passed, 0 failed\n");
	twz_test_run_free(&r);
	const char *info[] = { "info", db, "--json", NULL };
	twz_test_run_tool(info, NULL, 0, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "\"level_kind\":\"graph\",\"arc_count\":5,"
				    "\"coordinates\":true"), "%s", r.out);
	twz_test_run_free(&r);

	/* unpack keeps the level kind; bench says what it measures. */
	char raw[700];
	snprintf(raw, sizeof raw, "%s/raw.twz", dir);
	const char *unpack[] = { "unpack", db, "-o", raw, NULL };
	twz_test_run_tool(unpack, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	twz_test_run_free(&r);
	const char *one_raw[] = { "query", raw, "1", "4", "--json", NULL };
	twz_test_run_tool(one_raw, NULL, 0, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "{\"source\":1,\"target\":4,\"cost\":5,\"path\":[1,2,3,4]}\n");
	twz_test_run_free(&r);
	const char *bench[] = { "bench", db, NULL };
	twz_test_run_tool(bench, NULL, 0, &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err, "bench measures grid databases"), "%s", r.err);
	twz_test_run_free(&r);

	/* Bad input: one line naming the file and line, exit 3. */
	const char *bad_id[] = { "query", db, "1", "6", NULL };
	twz_test_run_tool(bad_id, NULL, 0, &r);
	ck_assert_int_eq(r.status, 3);
	ck_assert_msg(strstr(r.err, "target '6' is not a vertex id from 1 to 5"), "%s", r.err);
	twz_test_run_free(&r);
	const char *bad = "p sp 2 1\na 1 2 0\n";
	twz_test_write_file(gr, bad, strlen(bad));
	twz_test_run_tool(build, NULL, 0, &r);
	ck_assert_int_eq(r.status, 3);
	char want[700];
	snprintf(want, sizeof want, "twigz: %s:2: weight '0' is not a positive integer\n", gr);
	ck_assert_str_eq(r.err, want);
	twz_test_run_free(&r);
	const char *conn[] = { "build", gr, "-o", db, "--connectivity", "4", NULL };
	twz_test_run_tool(conn, NULL, 0, &r);
	ck_assert_int_eq(r.status, 2);
	twz_test_run_free(&r);
	const char *coords_on_map[] = { "build", "x.map", "-o", db, "--coords", co, NULL };
	twz_test_run_tool(coords_on_map, NULL, 0, &r);
	ck_assert_int_eq(r.status, 2);
	twz_test_run_free(&r);
	twz_test_remove_tree(dir);
}
END_TEST

/* The project's city: every query of data/city.p2p answered with the
 * optimum the generator's own Dijkstra wrote beside it. */
START_TEST(test_city_optima)
{
	char dir[512], db[600];
	struct twz_test_run r;
	size_t len;

	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "graphcity"));
	snprintf(db, sizeof db, "%s/city.twz", dir);
	const char *build[] = { "build", twz_test_source_file("data/city.gr"), "-o", db,
				"--coords", twz_test_source_file("data/city.co"), "-q", NULL };
	twz_test_run_tool(build, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	twz_test_run_free(&r);
	const char *p2p = twz_test_source_file("data/city.p2p");
	const char *query[] = { "query", db, "--p2p", p2p, "--json", NULL };
	twz_test_run_tool(query, NULL, 0, &r);
	ck_assert_int_eq(r.status, 0);
	char *text = (char *)twz_test_read_file(p2p, &len);
	const char *line = text, *out = r.out;
	unsigned checked = 0, none = 0;
	while ((line = strstr(line, "c optimum "))) {
		line += strlen("c optimum ");
		char want[64];
		if (!strncmp(line, "none", 4)) {
			snprintf(want, sizeof want, "\"cost\":null,");
			none++;
		} else {
			snprintf(want, sizeof want, "\"cost\":%llu,", strtoull(line, NULL, 10));
		}
		const char *eol = strchr(out, '\n');
		ck_assert_ptr_nonnull(eol);
		const char *at = strstr(out, want);
		ck_assert_msg(at && at < eol, "query %u: want %s in %.*s", checked, want,
			      (int)(eol - out), out);
		out = eol + 1;
		checked++;
	}
	ck_assert_uint_eq(checked, 200);
	ck_assert_uint_gt(none, 0);
	free(text);
	twz_test_run_free(&r);
	const char *verify[] = { "verify", db, p2p, NULL };
	twz_test_run_tool(verify, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	twz_test_run_free(&r);
	twz_test_remove_tree(dir);
}
END_TEST

/* twigz render draws a graph by its coordinates, with paths. */
START_TEST(test_render_graph)
{
	char dir[512], db[600], db2[600], svg[600];
	struct twz_test_run r;
	size_t len;

	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "graphdraw"));
	snprintf(db, sizeof db, "%s/city.twz", dir);
	snprintf(db2, sizeof db2, "%s/bare.twz", dir);
	snprintf(svg, sizeof svg, "%s/city.svg", dir);
	const char *build[] = { "build", twz_test_source_file("data/city.gr"), "-o", db,
				"--coords", twz_test_source_file("data/city.co"), "-q", NULL };
	twz_test_run_tool(build, NULL, 0, &r);
	ck_assert_int_eq(r.status, 0);
	twz_test_run_free(&r);
	const char *draw[] = { "render", db, "-o", svg, "--path", "5,60", "--path",
			       "1,125", NULL };
	twz_test_run_tool(draw, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	twz_test_run_free(&r);
	char *text = (char *)twz_test_read_file(svg, &len);
	ck_assert_ptr_nonnull(strstr(text, "<svg"));
	ck_assert_ptr_nonnull(strstr(text, "</svg>"));
	ck_assert_ptr_nonnull(strstr(text, "paths"));
	free(text);
	const char *bad[] = { "render", db, "-o", svg, "--path", "5,126", NULL };
	twz_test_run_tool(bad, NULL, 0, &r);
	ck_assert_int_eq(r.status, 3);
	ck_assert_ptr_nonnull(strstr(r.err, "vertex 126 is not in the graph"));
	twz_test_run_free(&r);
	const char *bare[] = { "build", twz_test_source_file("data/city.gr"), "-o", db2,
			       "-q", NULL };
	twz_test_run_tool(bare, NULL, 0, &r);
	twz_test_run_free(&r);
	const char *nocoords[] = { "render", db2, "-o", svg, NULL };
	twz_test_run_tool(nocoords, NULL, 0, &r);
	ck_assert_int_eq(r.status, 3);
	ck_assert_ptr_nonnull(strstr(r.err, "baked without --coords"));
	twz_test_run_free(&r);
	twz_test_remove_tree(dir);
}
END_TEST

/* ---- the golden file ------------------------------------------------------------- */

START_TEST(test_golden_v1_4_graph)
{
	size_t len, glen;
	uint8_t *f = twz_test_read_file(twz_test_source_file("tests/golden/v1_4_graph.twz"), &len);
	uint8_t *g = twz_test_read_file(twz_test_source_file("tests/golden/v1_4_graph.gr"), &glen);
	struct text_graph tg;
	struct twz_graph dg;
	struct twz_error err = { { 0 }, 0 };
	twz_db *db = twz_test_open_buf(f, len);
	twz_info in;

	ck_assert_int_eq(twz_get_info(db, &in), TWZ_OK);
	ck_assert_uint_eq(in.format_minor, 4);
	ck_assert_uint_eq(in.level_kind, TWZ_KIND_GRAPH);
	/* The reference from the level's own text. */
	ck_assert(twz_graph_parse(g, glen, "golden.gr", &dg, &err) == 0);
	ck_assert_uint_eq(in.level_hash, dg.level_hash);
	memset(&tg, 0, sizeof tg);
	tg.n = dg.node_count;
	tg.w = malloc((size_t)tg.n * tg.n * sizeof *tg.w);
	for (size_t i = 0; i < (size_t)tg.n * tg.n; i++)
		tg.w[i] = INF;
	for (uint32_t u = 0; u < dg.node_count; u++)
		for (uint32_t a = dg.arc_first[u]; a < dg.arc_first[u + 1]; a++)
			tg.w[(size_t)u * tg.n + dg.arc_head[a]] = dg.arc_cost[a];
	rng_state = 3;
	check_all_pairs(db, &tg);
	/* A few answers written down. */
	uint64_t c;
	ck_assert_int_eq(twz_cost_u64(db, twz_node_of_id(db, 12), twz_node_of_id(db, 1), &c),
			 TWZ_OK);
	ck_assert_uint_eq(c, 1135);
	ck_assert_uint_eq(twz_next(db, twz_node_of_id(db, 12), twz_node_of_id(db, 1)),
			  twz_node_of_id(db, 11));
	ck_assert_int_eq(twz_cost_u64(db, twz_node_of_id(db, 1), twz_node_of_id(db, 12), &c),
			 TWZ_E_UNREACHABLE);
	twz_close(db);
	twz_graph_free(&dg);
	text_graph_free(&tg);
	free(f);
	free(g);
}
END_TEST

static Suite *graph_levels_suite(void)
{
	Suite *s = suite_create("graph_levels");
	TCase *tc = tcase_create("graph_levels");

	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_random_digraphs_against_dijkstra, 0, 4);
	tcase_add_test(tc, test_hub_nodes);
	tcase_add_test(tc, test_no_arcs);
	tcase_add_loop_test(tc, test_solvers_and_threads_agree, 0, 3);
	tcase_add_test(tc, test_reader_refuses);
	tcase_add_test(tc, test_reader_accepts);
	tcase_add_test(tc, test_api_on_graphs);
	tcase_add_test(tc, test_bake_limits);
	tcase_add_test(tc, test_crafted_sections);
	tcase_add_test(tc, test_verify_finds_wrong_rows);
	tcase_add_test(tc, test_tool_round_trip);
	tcase_add_test(tc, test_city_optima);
	tcase_add_test(tc, test_render_graph);
	tcase_add_test(tc, test_golden_v1_4_graph);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(graph_levels_suite());
}
