/*
 * fuzz_bake.c - libFuzzer target: the whole pipeline on small levels,
 * against a plain Dijkstra.
 *
 * A level the .map reader accepts (at most MAX_CELLS cells, so every pair
 * can be checked) is baked 8- and 4-connected, in the 1.1 (bucketed) or
 * the 1.0 row layout and raw or zstd by turns, encoded, opened from
 * memory, and every pair of cells is asked: the path must be a chain of
 * legal moves of the level, its exact cost the Dijkstra optimum, and an
 * unreachable goal must be reported as such. The bake on two threads must
 * give the same bytes as on one. The same level is also baked as a TRANSIT
 * database with blocks small enough that far goals go through the
 * transit tables, and checked the same way.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bake.h"
#include "fuzz_check.h"
#include "graph.h"
#include "level_map.h"
#include "transit.h"
#include "twigz.h"

#define MAX_CELLS 400

static const struct twz_cost unreached = { UINT32_MAX, UINT32_MAX };

static int is_unreached(struct twz_cost c)
{
	return c.straight == UINT32_MAX;
}

/* O(cells^2) Dijkstra with exact costs: small levels only. */
static void dijkstra(const struct twz_grid *g, unsigned conn, uint32_t src,
		     struct twz_cost *dist, uint8_t *done)
{
	size_t cells = (size_t)g->width * g->height;

	for (size_t i = 0; i < cells; i++) {
		dist[i] = unreached;
		done[i] = 0;
	}
	dist[src] = (struct twz_cost){ 0, 0 };
	for (;;) {
		size_t best = cells;
		for (size_t i = 0; i < cells; i++)
			if (!done[i] && !is_unreached(dist[i]) &&
			    (best == cells || twz_cost_less(dist[i], dist[best])))
				best = i;
		if (best == cells)
			return;
		done[best] = 1;
		uint32_t x = (uint32_t)(best % g->width), y = (uint32_t)(best / g->width);
		for (unsigned m = 0; m < conn; m++) {
			if (!twz_grid_move_legal(g, x, y, m))
				continue;
			size_t w = (size_t)(y + twz_move_dy[m]) * g->width +
				   (x + twz_move_dx[m]);
			struct twz_cost c = dist[best];
			if (twz_move_is_diagonal(m))
				c.diagonal++;
			else
				c.straight++;
			if (is_unreached(dist[w]) || twz_cost_less(c, dist[w]))
				dist[w] = c;
		}
	}
}

/* The defaults with what every bake here sets. */
static void bake_options(struct twz_bake_options *opt, unsigned conn,
			 unsigned codec, unsigned threads)
{
	twz_bake_options_default(opt);
	opt->connectivity = conn;
	opt->codec = codec;
	opt->threads = threads;
}

static uint8_t *bake(const struct twz_grid *g, unsigned conn, unsigned codec,
		     unsigned layout, unsigned threads, size_t *len)
{
	struct twz_bake_options opt;
	struct twz_cpd cpd;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf = NULL;

	bake_options(&opt, conn, codec, threads);
	opt.level = 3;
	opt.layout = layout;
	require(twz_bake_cpd(g, &opt, &cpd, &err) == 0);
	require(twz_cpd_encode(&cpd, g, &opt, &buf, len, &err) == 0);
	twz_cpd_free(&cpd);
	return buf;
}

/* Every step of the path is one legal move of the level. */
static void check_path(const struct twz_grid *g, const twz_db *db,
		       unsigned conn, const twz_node *path, size_t len,
		       struct twz_cost want)
{
	struct twz_cost got = { 0, 0 };

	for (size_t i = 1; i < len; i++) {
		uint32_t ax, ay, bx, by;
		require(twz_node_xy(db, path[i - 1], &ax, &ay) == TWZ_OK);
		require(twz_node_xy(db, path[i], &bx, &by) == TWZ_OK);
		unsigned m = 0;
		while (m < conn && (ax + twz_move_dx[m] != bx ||
				    ay + twz_move_dy[m] != by))
			m++;
		require(m < conn && twz_grid_move_legal(g, ax, ay, m));
		if (twz_move_is_diagonal(m))
			got.diagonal++;
		else
			got.straight++;
	}
	require(got.straight == want.straight && got.diagonal == want.diagonal);
}

/* A TRANSIT bake with grid blocks across the level's longer side. */
static uint8_t *bake_transit(const struct twz_grid *g, unsigned conn,
			     unsigned codec, unsigned grid, size_t *len)
{
	struct twz_bake_options opt;
	struct twz_transit_options topt = { grid, 1, 2 };
	struct twz_transit_db tdb;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf = NULL;

	bake_options(&opt, conn, codec, 1);
	require(twz_bake_transit(g, &opt, &topt, &tdb, &err) == 0);
	require(twz_transit_encode(&tdb, g, &opt, &buf, len, &err) == 0);
	twz_transit_db_free(&tdb);
	return buf;
}

/* Every pair of cells of g asked of the database in file. */
static void check_all_pairs(const struct twz_grid *g, unsigned conn,
			    const uint8_t *file, size_t len)
{
	twz_db *db;
	require(twz_open_memory(file, len, 0, &db) == TWZ_OK);
	size_t cells = (size_t)g->width * g->height;
	struct twz_cost *dist = malloc(cells * sizeof *dist);
	uint8_t *done = malloc(cells);
	twz_node *path = malloc((cells + 1) * sizeof *path);
	require(dist && done && path);

	for (size_t s = 0; s < cells; s++) {
		twz_node sn = twz_node_at(db, s % g->width, s / g->width);
		require((sn != TWZ_NONE) == (g->walkable[s] != 0));
		if (sn == TWZ_NONE)
			continue;
		dijkstra(g, conn, (uint32_t)s, dist, done);
		for (size_t t = 0; t < cells; t++) {
			if (!g->walkable[t])
				continue;
			twz_node tn = twz_node_at(db, t % g->width, t / g->width);
			size_t plen = 0;
			twz_status st = twz_path(db, sn, tn, path, cells + 1, &plen);
			if (is_unreached(dist[t])) {
				require(st == TWZ_E_UNREACHABLE);
				require(twz_next(db, sn, tn) == TWZ_NONE);
				continue;
			}
			require(st == TWZ_OK && plen >= 1);
			require(path[0] == sn && path[plen - 1] == tn);
			check_path(g, db, conn, path, plen, dist[t]);
		}
	}
	free(path);
	free(done);
	free(dist);
	twz_close(db);
}

static void check_level(const struct twz_grid *g, unsigned conn,
			unsigned codec, unsigned layout)
{
	size_t len;
	uint8_t *file = bake(g, conn, codec, layout, 1, &len);

	check_all_pairs(g, conn, file, len);
	/* Thread count must not change a byte. */
	if (conn == 8) {
		size_t len2;
		uint8_t *file2 = bake(g, conn, codec, layout, 2, &len2);
		require(len2 == len && memcmp(file, file2, len) == 0);
		free(file2);
	}
	free(file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };

	if (twz_grid_parse(data, size, "fuzz.map", &g, &err) != 0)
		return 0;
	if ((size_t)g.width * g.height <= MAX_CELLS) {
		unsigned codec = size % 2 ? TWZ_CODEC_ZSTD : TWZ_CODEC_RAW;
		static const unsigned layouts[3] = { TWZ_LAYOUT_NARROW,
						     TWZ_LAYOUT_BUCKETED,
						     TWZ_LAYOUT_PLAIN };
		unsigned layout = layouts[size / 2 % 3];
		check_level(&g, 8, codec, layout);
		check_level(&g, 4, codec, layout);
		size_t len;
		unsigned conn = size / 4 % 2 ? 4 : 8;
		uint8_t *file = bake_transit(&g, conn, codec, 2 + size % 5, &len);
		check_all_pairs(&g, conn, file, len);
		free(file);
	}
	twz_grid_free(&g);
	return 0;
}
