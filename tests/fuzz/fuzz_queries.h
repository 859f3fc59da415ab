/*
 * fuzz_queries.h - what the libFuzzer targets that open databases share:
 * resealing a mutated file the way a crafter would, and the
 * queries every handle that opens must answer consistently: paths are
 * chains of legal moves (or stored arcs) from s to t, the first move,
 * the cost and the flow field agree with the path. Any inconsistency
 * aborts, which libFuzzer reports as a crash.
 */
#ifndef FUZZ_QUERIES_H
#define FUZZ_QUERIES_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "fuzz_check.h"
#include "twigz.h"
#include "twz_format.h"

#define MAX_PAIRS 512

/* Recompute what a crafter would: raw-section checksums, the table and
 * header checksums and the file size, wherever they can be located, in
 * a file of the container under magic. */
static inline void reseal_as(uint8_t *b, size_t len, const char *magic)
{
	if (len < TWZ_HEADER_SIZE || memcmp(b, magic, TWZ_MAGIC_SIZE))
		return;
	twz_put64(b + TWZ_H_FILE_SIZE, len);
	uint32_t count = twz_le32(b + TWZ_H_SECTION_COUNT);
	uint64_t table = (uint64_t)count * TWZ_SECTION_ENTRY_SIZE;
	if (count <= TWZ_MAX_SECTIONS && TWZ_HEADER_SIZE + table <= len) {
		for (uint32_t i = 0; i < count; i++) {
			uint8_t *e = b + TWZ_HEADER_SIZE + i * TWZ_SECTION_ENTRY_SIZE;
			uint64_t off = twz_le64(e + TWZ_S_OFFSET);
			uint64_t size = twz_le64(e + TWZ_S_SIZE);
			if (twz_le16(e + TWZ_S_CODEC) != TWZ_CODEC_RAW ||
			    off > len || size > len - off)
				continue;
			twz_put64(e + TWZ_S_RAW_CHECKSUM,
				  XXH3_64bits(b + off, (size_t)size));
		}
		twz_put64(b + TWZ_H_TABLE_CHECKSUM,
			  XXH3_64bits(b + TWZ_HEADER_SIZE, (size_t)table));
	}
	twz_put64(b + TWZ_H_HEADER_CHECKSUM,
		  XXH3_64bits(b, TWZ_H_HEADER_CHECKSUM));
}

/* reseal_as of a .twz file. */
static inline void reseal(uint8_t *b, size_t len)
{
	reseal_as(b, len, TWZ_MAGIC);
}

static inline int adjacent(const twz_db *db, unsigned conn, twz_node a,
			    twz_node b)
{
	uint32_t ax, ay, bx, by;

	require(twz_node_xy(db, a, &ax, &ay) == TWZ_OK);
	require(twz_node_xy(db, b, &bx, &by) == TWZ_OK);
	int64_t dx = (int64_t)bx - ax, dy = (int64_t)by - ay;
	if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (!dx && !dy))
		return 0;
	if (dx && dy)
		return conn == 8 && twz_node_at(db, bx, ay) != TWZ_NONE &&
		       twz_node_at(db, ax, by) != TWZ_NONE;
	return 1;
}

static inline void check_pair(const twz_db *db, const twz_info *in,
			      twz_node s, twz_node t, twz_node *buf)
{
	size_t cap = (size_t)in->node_count + 1, len = 0;
	uint32_t straight = 0, diagonal = 0;
	twz_status st = twz_path(db, s, t, buf, cap, &len);
	twz_node next = twz_next(db, s, t);

	if (st == TWZ_E_UNREACHABLE) {
		require(len == 0 && next == TWZ_NONE);
		require(isinf(twz_cost(db, s, t)));
		return;
	}
	/* TRANSIT distances cannot be checked at open: a file whose
	 * distances lie (yet are possible) may give a first move or a far
	 * pair's cost from its tables that is not the path's (FORMAT.md
	 * 10a); every step of a path is still a legal move. */
	int exact = in->method != TWZ_METHOD_TRANSIT;
	/* A crafted file whose moves cycle is caught by the bounded walk. */
	if (st == TWZ_E_DAMAGED) {
		require(!exact || twz_cost(db, s, t) < 0);
		return;
	}
	require(st == TWZ_OK);
	require(len >= 1 && len <= in->node_count);
	require(buf[0] == s && buf[len - 1] == t);
	require(!exact || next == (len > 1 ? buf[1] : t));
	for (size_t i = 1; i < len; i++) {
		uint32_t ax, ay, bx, by;
		require(adjacent(db, in->connectivity, buf[i - 1], buf[i]));
		twz_node_xy(db, buf[i - 1], &ax, &ay);
		twz_node_xy(db, buf[i], &bx, &by);
		if (ax != bx && ay != by)
			diagonal++;
		else
			straight++;
	}
	uint32_t cs = ~0u, cd = ~0u;
	twz_status cst = twz_cost_exact(db, s, t, &cs, &cd);
	require(cst == TWZ_OK || (!exact && cst == TWZ_E_DAMAGED));
	require(!exact || (cs == straight && cd == diagonal));

	/* A short buffer: filled as far as it goes, the full length told. */
	if (len > 1) {
		twz_node one = TWZ_NONE;
		size_t full = 0;
		require(twz_path(db, s, t, &one, 1, &full) ==
			TWZ_E_BUFFER_TOO_SMALL);
		require(full == len && one == s);
	}
}

/* A graph or navmesh database: paths follow stored arcs and their
 * weights sum to the exact cost. */
static inline void check_graph_pair(const twz_db *db, const twz_info *in,
				    twz_node s, twz_node t, twz_node *buf,
				    twz_node *heads, uint64_t *weights)
{
	size_t cap = (size_t)in->node_count + 1, len = 0;
	twz_status st = twz_path(db, s, t, buf, cap, &len);
	twz_node next = twz_next(db, s, t);
	uint64_t cost = 0, sum = 0;

	if (st == TWZ_E_UNREACHABLE) {
		require(len == 0 && next == TWZ_NONE);
		require(isinf(twz_cost(db, s, t)));
		return;
	}
	if (st == TWZ_E_DAMAGED) {
		require(twz_cost(db, s, t) < 0);
		return;
	}
	require(st == TWZ_OK);
	require(len >= 1 && len <= in->node_count);
	require(buf[0] == s && buf[len - 1] == t);
	require(next == (len > 1 ? buf[1] : t));
	for (size_t i = 1; i < len; i++) {
		size_t count = 0, k;
		require(twz_node_arcs(db, buf[i - 1], heads, weights,
				      in->node_count, &count) == TWZ_OK);
		for (k = 0; k < count && heads[k] != buf[i]; k++)
			;
		require(k < count);
		sum += weights[k];
	}
	require(twz_cost_u64(db, s, t, &cost) == TWZ_OK && cost == sum);
}

static inline void query_graph(const twz_db *db, const twz_info *in,
			       const uint8_t *data, size_t size)
{
	require(in->width == 0 && in->height == 0);
	require(twz_node_at(db, 0, 0) == TWZ_NONE);
	require(twz_next(db, in->node_count, 0) == TWZ_NONE);
	if (!in->node_count)
		return;
	twz_node *buf = malloc(((size_t)in->node_count + 1) * sizeof *buf);
	twz_node *heads = malloc((size_t)in->node_count * sizeof *heads);
	uint64_t *weights = malloc((size_t)in->node_count * sizeof *weights);
	require(buf && heads && weights);
	uint64_t h = XXH3_64bits(data, size);
	for (unsigned i = 0; i < MAX_PAIRS; i++) {
		h = h * 6364136223846793005u + 1442695040888963407u;
		check_graph_pair(db, in, (twz_node)((h >> 33) % in->node_count),
				 (twz_node)((h >> 7) % in->node_count), buf, heads,
				 weights);
	}
	twz_node t = (twz_node)(h % in->node_count);
	twz_status fs = twz_flow_field(db, t, buf, in->node_count);
	require(fs == TWZ_OK || fs == TWZ_E_DAMAGED);
	free(weights);
	free(heads);
	free(buf);
}

static inline void query_all(const twz_db *db, const uint8_t *data,
			     size_t size)
{
	twz_info in;

	require(twz_get_info(db, &in) == TWZ_OK);
	if (in.level_kind != TWZ_KIND_GRID) {
		query_graph(db, &in, data, size);
		return;
	}
	require(in.connectivity == 4 || in.connectivity == 8);
	require(twz_node_count(db) == in.node_count);
	require(twz_node_at(db, -1, 0) == TWZ_NONE);
	require(twz_node_at(db, 0, INT64_MAX) == TWZ_NONE);
	require(twz_node_at(db, in.width, 0) == TWZ_NONE);
	require(twz_next(db, in.node_count, 0) == TWZ_NONE);
	require(twz_node_xy(db, in.node_count, NULL, NULL) == TWZ_E_ARGUMENT);
	if (!in.node_count)
		return;

	twz_node *buf = malloc(((size_t)in.node_count + 1) * sizeof *buf);
	twz_node *field = malloc((size_t)in.node_count * sizeof *field);
	require(buf && field);
	for (twz_node n = 0; n < in.node_count; n++) {
		uint32_t x, y;
		require(twz_node_xy(db, n, &x, &y) == TWZ_OK);
		require(twz_node_at(db, x, y) == n);
	}

	uint64_t h = XXH3_64bits(data, size);
	uint64_t pairs = (uint64_t)in.node_count * in.node_count;
	if (pairs <= MAX_PAIRS) {
		for (twz_node s = 0; s < in.node_count; s++)
			for (twz_node t = 0; t < in.node_count; t++)
				check_pair(db, &in, s, t, buf);
	} else {
		for (unsigned i = 0; i < MAX_PAIRS; i++) {
			h = h * 6364136223846793005u + 1442695040888963407u;
			check_pair(db, &in, (twz_node)((h >> 33) % in.node_count),
				   (twz_node)((h >> 7) % in.node_count), buf);
		}
	}
	twz_node t = (twz_node)(h % in.node_count);
	/* A field whose moves loop is reported damaged. */
	twz_status fs = twz_flow_field(db, t, field, in.node_count);
	require(fs == TWZ_OK || fs == TWZ_E_DAMAGED);
	for (twz_node n = 0; n < in.node_count; n += 1 + in.node_count / 64)
		require(field[n] == twz_next(db, n, t));
	free(field);
	free(buf);
}

/* Open buf; a refusal leaves no handle, a handle answers query_all
 * (data, size seed its pairs). */
static inline void try_open(const uint8_t *buf, size_t len, unsigned flags,
			    const uint8_t *data, size_t size)
{
	twz_db *db = (twz_db *)1;
	twz_status st = twz_open_memory(buf, len, flags, &db);

	require(twz_strerror(st) != NULL);
	if (st != TWZ_OK) {
		require(db == NULL);
		return;
	}
	query_all(db, data, size);
	twz_close(db);
}

#endif
