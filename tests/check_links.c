/*
 * check_links.c - off-mesh links of graph levels (FORMAT.md 5l): random
 * graphs with random links, one-way and both ways, baked and asked for
 * every pair, against a plain Dijkstra over a matrix of this file's own;
 * the same with links and nodes shut in a world (paths, first moves and
 * fields); crafted link sections refused; the tool's --links and
 * --closed "link K".
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apsp_dense.h"
#include "bake_graph.h"
#include "first_moves.h"
#include "level_graph.h"
#include "test_support.h"
#include "twz_rng.h"
#include "twz_graph_format.h"
#include "twz_links_format.h"
#include "twz_validate.h"

#define INF UINT64_MAX

static uint64_t rng_state;

static uint32_t below(uint32_t n)
{
	return rng_below(&rng_state, n);
}

/* A graph and its links as text, and what the reference reads: arcs and
 * links as lists (0-based). */
struct level {
	uint32_t n, arcs, links;
	uint32_t au[256], av[256];
	uint64_t aw[256];
	uint32_t lu[16], lv[16];
	uint64_t lw[16];
	int both[16];
	char gr[8192], lk[1024];
};

/* n nodes in `parts` groups that arcs stay inside; links between any two
 * nodes, so they may join the groups into one region. */
static void random_level(struct level *lv, uint32_t n, uint32_t parts)
{
	size_t at;

	memset(lv, 0, sizeof *lv);
	lv->n = n;
	lv->arcs = n + below(3 * n);
	if (lv->arcs > 256)
		lv->arcs = 256;
	for (uint32_t i = 0; i < lv->arcs; i++) {
		uint32_t u = below(n), v = below(n), tries = 0;
		while ((v % parts != u % parts || v == u) && ++tries < 64)
			v = below(n);
		if (tries == 64)  /* a group of one node: any other */
			v = (u + 1) % n;
		lv->au[i] = u, lv->av[i] = v, lv->aw[i] = 1 + below(20);
	}
	lv->links = 1 + below(8);
	for (uint32_t i = 0; i < lv->links; i++) {
		uint32_t u = below(n), v = below(n);
		while (v == u)
			v = below(n);
		lv->lu[i] = u, lv->lv[i] = v, lv->lw[i] = 1 + below(30);
		lv->both[i] = (int)below(2);
	}
	/* A link that ties an arc, and one that doubles another link. */
	if (lv->links < 16 && lv->arcs) {
		uint32_t i = lv->links++;
		lv->lu[i] = lv->au[0], lv->lv[i] = lv->av[0], lv->lw[i] = lv->aw[0];
		lv->both[i] = 0;
	}
	at = (size_t)snprintf(lv->gr, sizeof lv->gr, "p sp %u %u\n", n, lv->arcs);
	for (uint32_t i = 0; i < lv->arcs; i++)
		at += (size_t)snprintf(lv->gr + at, sizeof lv->gr - at, "a %u %u %llu\n",
				       lv->au[i] + 1, lv->av[i] + 1,
				       (unsigned long long)lv->aw[i]);
	at = (size_t)snprintf(lv->lk, sizeof lv->lk, "# links\n\n");
	for (uint32_t i = 0; i < lv->links; i++)
		at += (size_t)snprintf(lv->lk + at, sizeof lv->lk - at, "%u %u %llu %s\n",
				       lv->lu[i] + 1, lv->lv[i] + 1,
				       (unsigned long long)lv->lw[i],
				       lv->both[i] ? "both" : "oneway");
}

/* The cheapest way u -> v of the level with links shut (a bit each) and
 * nodes shut (ids, a bit each, 0-based) taken away; INF for none. */
static uint64_t way(const struct level *lv, uint32_t u, uint32_t v,
		    uint32_t shut_links, uint64_t shut_nodes)
{
	uint64_t w = INF;

	if (shut_nodes >> v & 1 || shut_nodes >> u & 1)
		return INF;
	for (uint32_t i = 0; i < lv->arcs; i++)
		if (lv->au[i] == u && lv->av[i] == v && lv->aw[i] < w)
			w = lv->aw[i];
	for (uint32_t i = 0; i < lv->links; i++) {
		int fits = (lv->lu[i] == u && lv->lv[i] == v) ||
			   (lv->both[i] && lv->lv[i] == u && lv->lu[i] == v);
		if (fits && !(shut_links >> i & 1) && lv->lw[i] < w)
			w = lv->lw[i];
	}
	return w;
}

/* Plain O(n^2) Dijkstra from s over way(). */
static void ref_dijkstra(const struct level *lv, uint32_t s, uint32_t shut_links,
			 uint64_t shut_nodes, uint64_t *d)
{
	uint8_t done[64] = { 0 };

	for (uint32_t v = 0; v < lv->n; v++)
		d[v] = INF;
	d[s] = 0;
	for (;;) {
		uint32_t u = UINT32_MAX;
		for (uint32_t v = 0; v < lv->n; v++)
			if (!done[v] && d[v] != INF && (u == UINT32_MAX || d[v] < d[u]))
				u = v;
		if (u == UINT32_MAX)
			break;
		done[u] = 1;
		for (uint32_t v = 0; v < lv->n; v++) {
			uint64_t w = way(lv, u, v, shut_links, shut_nodes);
			if (w != INF && d[u] + w < d[v])
				d[v] = d[u] + w;
		}
	}
}

/* Baked with codec and, for the rows, solver (TWZ_APSP_*: every solver
 * bakes the same bytes). */
static uint8_t *bake_level(const struct level *lv, unsigned codec,
			   unsigned solver, size_t *len)
{
	struct twz_graph g;
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf = NULL;

	ck_assert_msg(twz_graph_parse((const uint8_t *)lv->gr, strlen(lv->gr),
				      "rand.gr", &g, &err) == 0, "parse: %s", err.msg);
	ck_assert_msg(twz_links_parse((const uint8_t *)lv->lk, strlen(lv->lk),
				      "rand.links", &g, &err) == 0, "links: %s", err.msg);
	ck_assert_uint_eq(g.link_numbers, lv->links);
	twz_bake_options_default(&opt);
	opt.codec = codec;
	opt.level = 3;
	opt.threads = 2;
	opt.apsp = solver;
	opt.name = "rand.gr";
	ck_assert_msg(twz_bake_graph_encode(&g, NULL, &opt, &buf, len, &err) == 0,
		      "bake: %s", err.msg);
	twz_graph_free(&g);
	return buf;
}

static uint32_t id_of(const twz_db *db, twz_node n)
{
	int64_t id;

	ck_assert_int_eq(twz_node_id(db, n, &id), TWZ_OK);
	return (uint32_t)(id - 1);
}

/* The weight of the way step a -> b takes under f, from what the database
 * says of it (twz_step_link, then the arc or the link's arc); the
 * reference's way must weigh the same. Counts link steps in *links. */
static uint64_t step_checked(const twz_db *db, const twz_filter *f,
			     const struct level *lv, twz_node a, twz_node b,
			     uint32_t shut_links, uint64_t shut_nodes,
			     unsigned *links)
{
	uint32_t link;
	twz_node heads[96];
	uint64_t w[96];
	uint32_t num[96];
	size_t count;
	uint64_t got = INF;

	expect(twz_step_link(db, f, a, b, &link) == TWZ_OK, "a step no way takes");
	if (link == TWZ_NO_LINK) {
		ck_assert_int_eq(twz_node_arcs(db, a, heads, w, 96, &count), TWZ_OK);
		for (size_t k = 0; k < count; k++)
			if (heads[k] == b)
				got = w[k];
	} else {
		(*links)++;
		expect(link < lv->links && !(shut_links >> link & 1),
		       "a shut or unknown link %u", link);
		ck_assert_int_eq(twz_node_links(db, a, heads, w, num, 96, &count),
				 TWZ_OK);
		for (size_t k = 0; k < count; k++)
			if (num[k] == link && heads[k] == b)
				got = w[k];
		expect(got == lv->lw[link], "link %u weighs %llu", link,
		       (unsigned long long)got);
	}
	expect(got == way(lv, id_of(db, a), id_of(db, b), shut_links, shut_nodes),
	       "a step dearer than the cheapest way");
	return got;
}

/* Every pair of lv, as baked: costs, paths, first moves and flow fields
 * against the reference. Returns the link steps seen. */
static unsigned check_static(const twz_db *db, const struct level *lv)
{
	uint32_t n = lv->n;
	uint64_t d[64];
	twz_node path[64], field[64];
	unsigned links = 0;

	ck_assert_uint_eq(twz_link_count(db), lv->links);
	for (uint32_t t = 0; t < n; t++) {
		twz_node tn = twz_node_of_id(db, t + 1);
		twz_flow_field(db, tn, field, n);
		for (uint32_t s = 0; s < n; s++) {
			twz_node sn = twz_node_of_id(db, s + 1);
			size_t len;
			uint64_t cost;
			ref_dijkstra(lv, s, 0, 0, d);
			twz_status st = twz_path(db, sn, tn, path, 64, &len);
			if (d[t] == INF) {
				expect(st == TWZ_E_UNREACHABLE, "%u -> %u: a path where "
				       "there is none", s, t);
				expect(field[sn] == TWZ_NONE, "a field move to nowhere");
				continue;
			}
			expect(st == TWZ_OK, "%u -> %u: %s", s, t, twz_strerror(st));
			expect(path[0] == sn && path[len - 1] == tn, "path ends");
			uint64_t sum = 0;
			for (size_t i = 0; i + 1 < len; i++)
				sum += step_checked(db, NULL, lv, path[i], path[i + 1], 0,
						    0, &links);
			expect(sum == d[t], "%u -> %u: cost %llu, optimum %llu", s, t,
			       (unsigned long long)sum, (unsigned long long)d[t]);
			ck_assert_int_eq(twz_cost_u64(db, sn, tn, &cost), TWZ_OK);
			expect(cost == d[t], "twz_cost_u64 %llu, optimum %llu",
			       (unsigned long long)cost, (unsigned long long)d[t]);
			expect(twz_next(db, sn, tn) == (len > 1 ? path[1] : tn),
			       "twz_next is not the path's first step");
			expect(field[sn] == twz_next(db, sn, tn), "field and next differ");
		}
	}
	return links;
}

START_TEST(test_links_every_pair)
{
	struct level lv;
	unsigned links = 0;

	rng_state = 100 + (uint64_t)_i;
	for (int round = 0; round < 12; round++) {
		size_t len;
		random_level(&lv, 4 + below(36), 1 + below(3));
		uint8_t *buf = bake_level(&lv, TWZ_CODEC_RAW, TWZ_APSP_DIJKSTRA, &len);
		twz_db *db = twz_test_open_buf(buf, len);
		links += check_static(db, &lv);
		/* The dense solvers bake the same bytes. */
		for (unsigned solver = TWZ_APSP_FLOYD; solver <= TWZ_APSP_SQUARING;
		     solver++) {
			size_t dense_len;
			uint8_t *dense = bake_level(&lv, TWZ_CODEC_RAW, solver, &dense_len);
			ck_assert_msg(dense_len == len && !memcmp(dense, buf, len),
				      "solver %u bakes other bytes", solver);
			free(dense);
		}
		twz_close(db);
		free(buf);
	}
	/* The rows do take links. */
	ck_assert_uint_gt(links, 0);
}
END_TEST

/* Links and nodes shut in a world: every pair's path, first move and
 * field against the reference on the changed level. */
START_TEST(test_links_shut_in_world)
{
	struct level lv;
	unsigned links = 0, detours = 0;

	rng_state = 900 + (uint64_t)_i;
	for (int round = 0; round < 10; round++) {
		size_t len;
		random_level(&lv, 4 + below(28), 1 + below(2));
		uint8_t *buf = bake_level(&lv, round & 1 ? TWZ_CODEC_RAW : TWZ_CODEC_ZSTD,
					  TWZ_APSP_DIJKSTRA, &len);
		twz_db *db = twz_test_open_buf(buf, len);
		twz_world *w;
		twz_scratch *sc;
		twz_filter f;
		uint32_t n = lv.n, shut_links = 0;
		uint64_t shut_nodes = 0, d[64], d0[64];
		twz_node path[64], field[64];

		ck_assert_int_eq(twz_world_create(db, &w), TWZ_OK);
		ck_assert_int_eq(twz_scratch_create(db, &sc), TWZ_OK);
		ck_assert_int_eq(twz_world_shut_link(w, lv.links, 1), TWZ_E_ARGUMENT);
		for (uint32_t i = 0; i < lv.links; i++)
			if (below(2)) {
				shut_links |= 1u << i;
				ck_assert_int_eq(twz_world_shut_link(w, i, 1), TWZ_OK);
			}
		if (round & 1) {
			uint32_t v = below(n);
			shut_nodes |= (uint64_t)1 << v;
			twz_world_shut_node(w, twz_node_of_id(db, v + 1), 1);
		}
		memset(&f, 0, sizeof f);
		f.world = w;
		for (uint32_t t = 0; t < n; t++) {
			twz_node tn = twz_node_of_id(db, t + 1);
			twz_status fs = twz_flow_field_filtered(db, sc, &f, tn, field, n);
			for (uint32_t s = 0; s < n; s++) {
				twz_node sn = twz_node_of_id(db, s + 1), next;
				size_t plen;
				ref_dijkstra(&lv, s, shut_links, shut_nodes, d);
				ref_dijkstra(&lv, s, 0, 0, d0);
				twz_status st = twz_find_path(db, sc, &f, sn, tn, 0, path, 64,
							      &plen, NULL);
				twz_status fm = twz_first_move(db, sc, &f, sn, tn, &next);
				if (shut_nodes >> s & 1) {
					expect(st == TWZ_E_START_SHUT, "start shut: %s",
					       twz_strerror(st));
					continue;
				}
				if (shut_nodes >> t & 1) {
					expect(st == TWZ_E_GOAL_SHUT, "goal shut: %s",
					       twz_strerror(st));
					continue;
				}
				if (d[t] == INF) {
					expect(st == TWZ_E_UNREACHABLE && fm == TWZ_E_UNREACHABLE,
					       "%u -> %u: a path through something shut", s, t);
					expect(fs != TWZ_OK || field[sn] == TWZ_NONE,
					       "a field move to nowhere");
					continue;
				}
				expect(st == TWZ_OK && fm == TWZ_OK, "%u -> %u: %s, %s", s, t,
				       twz_strerror(st), twz_strerror(fm));
				uint64_t sum = 0;
				for (size_t i = 0; i + 1 < plen; i++)
					sum += step_checked(db, &f, &lv, path[i], path[i + 1],
							    shut_links, shut_nodes, &links);
				expect(sum == d[t], "%u -> %u: cost %llu, optimum %llu", s, t,
				       (unsigned long long)sum, (unsigned long long)d[t]);
				detours += d[t] != d0[t];
				/* The first move and the field's move start optimal
				 * paths of the changed level. */
				if (s != t) {
					uint64_t dn[64];
					ref_dijkstra(&lv, id_of(db, next), shut_links, shut_nodes,
						     dn);
					expect(way(&lv, s, id_of(db, next), shut_links,
						   shut_nodes) + dn[t] == d[t],
					       "first move off every optimal path");
					expect(fs == TWZ_OK && field[sn] != TWZ_NONE,
					       "no field move");
					ref_dijkstra(&lv, id_of(db, field[sn]), shut_links,
						     shut_nodes, dn);
					expect(way(&lv, s, id_of(db, field[sn]), shut_links,
						   shut_nodes) + dn[t] == d[t],
					       "field move off every optimal path");
				}
			}
		}
		twz_world_open_all(w);
		twz_scratch_free(sc);
		twz_world_free(w);
		twz_close(db);
		free(buf);
	}
	ck_assert_uint_gt(links, 0);
	/* Some shut link changed an answer. */
	ck_assert_uint_gt(detours, 0);
}
END_TEST

/* The 1.5 golden file with links opens, answers every pair as a plain
 * Dijkstra over its level and links does, and bakes again to its bytes
 * on another thread count. */
START_TEST(test_links_golden_v1_5)
{
	struct twz_graph g;
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	size_t len, again_len;
	uint8_t *again = NULL;
	uint8_t *golden = twz_test_read_file(
		twz_test_source_file("tests/golden/v1_5_links.twz"), &len);
	uint64_t d[8], cost;

	ck_assert_int_eq(twz_graph_load(twz_test_source_file("tests/golden/v1_5_links.gr"),
					&g, &err), 0);
	ck_assert_int_eq(twz_links_load(twz_test_source_file("tests/golden/v1_5_links.links"),
					&g, &err), 0);
	ck_assert_uint_eq(g.node_count, 8);
	twz_db *db = twz_test_open_buf(golden, len);
	struct twz_graph gl;
	ck_assert_int_eq(twz_graph_with_links(&g, &gl, "v1_5_links.gr", &err), 0);
	ck_assert_uint_eq(twz_link_count(db), 3);
	for (uint32_t s = 0; s < 8; s++) {
		ck_assert_int_eq(twz_search_distances(&gl, s, d), 0);
		for (uint32_t t = 0; t < 8; t++) {
			twz_status st = twz_cost_u64(db, twz_node_of_id(db, s + 1),
						     twz_node_of_id(db, t + 1), &cost);
			if (d[t] == INF)
				ck_assert_int_eq(st, TWZ_E_UNREACHABLE);
			else
				ck_assert_msg(st == TWZ_OK && cost == d[t], "%u -> %u", s, t);
		}
	}
	twz_close(db);
	twz_graph_free(&gl);
	twz_bake_options_default(&opt);
	opt.codec = TWZ_CODEC_RAW;
	opt.level = 9;
	opt.threads = 2;
	opt.name = "v1_5_links.gr";
	opt.record_build = 1;
	ck_assert_int_eq(twz_bake_graph_encode(&g, NULL, &opt, &again, &again_len,
					       &err), 0);
	ck_assert_uint_eq(again_len, len);
	ck_assert_msg(!memcmp(again, golden, len), "the golden file's bytes changed");
	free(again);
	twz_graph_free(&g);
	free(golden);
}
END_TEST

/* ---- crafted files ---------------------------------------------------------- */

/* A raw bake of a fixed graph with links, and where its sections lie. */
static uint8_t *links_file(size_t *len)
{
	struct level lv;

	rng_state = 4242;
	random_level(&lv, 12, 1);
	return bake_level(&lv, TWZ_CODEC_RAW, TWZ_APSP_DIJKSTRA, len);
}

static uint8_t *section_bytes(uint8_t *f, uint32_t kind, uint64_t *raw_size)
{
	uint8_t *e = twz_test_section_entry(f, kind);

	ck_assert_ptr_nonnull(e);
	if (raw_size)
		*raw_size = twz_le64(e + TWZ_S_RAW_SIZE);
	return f + twz_le64(e + TWZ_S_OFFSET);
}

/* Each way of breaking the links, resealed: the file is refused. */
START_TEST(test_links_crafted_refused)
{
	size_t len;
	uint8_t *good = links_file(&len);
	uint64_t size;

	ck_assert_int_eq(twz_test_try_open(good, len, 0), TWZ_OK);
	for (int how = 0; how < 8; how++) {
		uint8_t *f = twz_test_dup_bytes(good, len);
		uint8_t *first = section_bytes(f, TWZ_SECTION_LINK_FIRST, NULL);
		uint8_t *rec = section_bytes(f, TWZ_SECTION_LINK_ARCS, &size);
		uint32_t node = 0;
		while (twz_le32(first + 4 * (node + 1)) == 0)
			node++;   /* the first node with a link arc */
		switch (how) {
		case 0:  /* L3: a link to the node itself */
			twz_put32(rec + TWZ_LA_HEAD, node);
			break;
		case 1:  /* L3: a head that is no node */
			twz_put32(rec + TWZ_LA_HEAD, 12);
			break;
		case 2:  /* L3: a weight of 0 */
			twz_put64(rec + TWZ_LA_WEIGHT, 0);
			break;
		case 3:  /* L3: a number no link has */
			twz_put32(rec + TWZ_LA_LINK, (uint32_t)(size / TWZ_LA_SIZE));
			break;
		case 4:  /* L2: LINK_FIRST falls */
			twz_put32(first + 4 * (node + 1), 0);
			twz_put32(first + 4 * node, 1);
			break;
		case 5:  /* L2: LINK_FIRST ends past the records */
			twz_put32(first + 4 * 12, (uint32_t)(size / TWZ_LA_SIZE) + 1);
			break;
		case 6:  /* L1 and G9: the feature bit cleared, rows naming link
			  * arcs an arc index */
			twz_put64(f + TWZ_H_REQUIRED,
				  twz_le64(f + TWZ_H_REQUIRED) & ~(uint64_t)TWZ_FEATURE_LINKS);
			break;
		case 7:  /* L3: a weight above max_weight */
			twz_put64(rec + TWZ_LA_WEIGHT, UINT64_MAX / 2);
			break;
		}
		twz_test_reseal(f);
		twz_status st = twz_test_try_open(f, len, 0);
		expect(st == TWZ_E_DAMAGED, "crafted link file %d: %s", how,
		       twz_strerror(st));
		free(f);
	}
	/* The bit on a grid's file: refused, its kinds or not. */
	struct twz_grid g;
	twz_test_grid_from_text(&g, "....\n.@..\n....\n");
	uint8_t *grid = twz_test_bake(&g, 8, TWZ_CODEC_RAW, 1, &len);
	twz_put64(grid + TWZ_H_REQUIRED,
		  twz_le64(grid + TWZ_H_REQUIRED) | TWZ_FEATURE_LINKS);
	twz_test_reseal(grid);
	ck_assert_int_eq(twz_test_try_open(grid, len, 0), TWZ_E_DAMAGED);
	free(grid);
	twz_grid_free(&g);
	free(good);
}
END_TEST

/* A links file's problems, each one line naming the file and line. */
START_TEST(test_links_file_refused)
{
	static const char *const bad[] = {
		"1 1 3 oneway\n",       /* to itself */
		"1 2 0 both\n",         /* no cost */
		"1 2 -3 both\n",
		"1 2 3 sideways\n",
		"1 2 3\n",
		"1 9 3 both\n",         /* no node 9 */
		"0 2 3 both\n",
		"# fine\n1 2 3 both\n2 3 18446744073709551615 oneway\n",
	};
	const char *gr = "p sp 4 2\na 1 2 1\na 2 3 1\n";

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct twz_graph g;
		struct twz_error err = { { 0 }, 0 };
		ck_assert_int_eq(twz_graph_parse((const uint8_t *)gr, strlen(gr), "g.gr",
						 &g, &err), 0);
		ck_assert_int_ne(twz_links_parse((const uint8_t *)bad[i], strlen(bad[i]),
						 "l.links", &g, &err), 0);
		ck_assert_msg(!strncmp(err.msg, "l.links:", 8) && !strchr(err.msg, '\n'),
			      "%s", err.msg);
		ck_assert_ptr_null(g.link);
		twz_graph_free(&g);
	}
}
END_TEST

/* twigz build --links, query --json naming each step's link, --closed
 * "link K", and --links refused where the level kind has none. */
START_TEST(test_links_tool)
{
	char dir[512], gr[600], lk[600], db[600], closed[600], map[600];
	const char *text = "p sp 5 8\na 1 2 10\na 2 1 10\na 2 3 10\na 3 2 10\n"
			   "a 3 4 10\na 4 3 10\na 4 5 10\na 5 4 10\n";
	const char *links = "1 5 3 oneway\n2 4 5 both\n";
	struct twz_test_run r;

	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "links"));
	snprintf(gr, sizeof gr, "%s/l.gr", dir);
	snprintf(lk, sizeof lk, "%s/l.links", dir);
	snprintf(db, sizeof db, "%s/l.twz", dir);
	snprintf(closed, sizeof closed, "%s/shut.txt", dir);
	snprintf(map, sizeof map, "%s/l.map", dir);
	twz_test_write_file(gr, text, strlen(text));
	twz_test_write_file(lk, links, strlen(links));
	twz_test_write_file(closed, "link 0\n", 7);
	const char *build[] = { "build", gr, "-o", db, "--links", lk, "-q", NULL };
	twz_test_run_tool(build, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	twz_test_run_free(&r);
	const char *query[] = { "query", db, "1", "5", "--json", NULL };
	twz_test_run_tool(query, NULL, 0, &r);
	ck_assert_str_eq(r.out, "{\"source\":1,\"target\":5,\"cost\":3,\"path\":[1,5],"
			 "\"links\":[0]}\n");
	twz_test_run_free(&r);
	const char *shut[] = { "query", db, "1", "5", "--json", "--closed", closed, NULL };
	twz_test_run_tool(shut, NULL, 0, &r);
	ck_assert_str_eq(r.out, "{\"source\":1,\"target\":5,\"cost\":25,"
			 "\"path\":[1,2,4,5],\"links\":[null,1,null]}\n");
	twz_test_run_free(&r);
	twz_test_write_file(closed, "link 2\n", 7);
	twz_test_run_tool(shut, NULL, 0, &r);
	ck_assert_int_ne(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.err, "shut.txt:1: a link is 'link K'"));
	twz_test_run_free(&r);
	twz_test_write_file(map, "type octile\nheight 1\nwidth 2\nmap\n..\n", 35);
	const char *grid[] = { "build", map, "-o", db, "--links", lk, "-q", NULL };
	twz_test_run_tool(grid, NULL, 0, &r);
	ck_assert_int_ne(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.err, "--links goes with a graph level"));
	twz_test_run_free(&r);
	twz_test_remove_tree(dir);
}
END_TEST

static Suite *links_suite(void)
{
	Suite *s = suite_create("links");
	TCase *tc = tcase_create("Rows");

	tcase_add_loop_test(tc, test_links_every_pair, 0, 4);
	suite_add_tcase(s, tc);
	tc = tcase_create("World");
	tcase_add_loop_test(tc, test_links_shut_in_world, 0, 3);
	suite_add_tcase(s, tc);
	tc = tcase_create("Golden");
	tcase_add_test(tc, test_links_golden_v1_5);
	suite_add_tcase(s, tc);
	tc = tcase_create("Crafted");
	tcase_add_test(tc, test_links_crafted_refused);
	tcase_add_test(tc, test_links_file_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("Tool");
	tcase_add_test(tc, test_links_tool);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(links_suite());
}
