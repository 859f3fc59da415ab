/*
 * transit.h - the TRANSIT bake (`twigz build --method transit`): transit
 * nodes, distance tables and local first-move rows for grid levels.
 *
 * Words used throughout (FORMAT.md, "TRANSIT sections", has the pictures):
 * - block: one of the TRANSIT grid's cells (the paper's "cell"; "cell"
 *   already means one grid square here). The walkable bounding box is cut
 *   into square blocks of `side` squares; block (bx, by) holds the squares
 *   origin + [bx*side, (bx+1)*side) x [by*side, (by+1)*side).
 * - inner box of a block: the blocks within `inner` blocks of it, closed by
 *   one more row and column, i.e. the squares from origin + (b - inner) *
 *   side to origin + (b + 1 + inner) * side inclusive on each axis. Its
 *   ring is the squares on the box's four border lines; they all lie on the
 *   block grid's lines, so neighbouring blocks share ring squares.
 * - outer square: the blocks within `outer` blocks (Chebyshev distance of
 *   block coordinates). A target in it is local, any other target global.
 * - transit nodes of a block: the ring nodes of its inner box that lie on
 *   a shortest path from a node of the block with a neighbour outside the
 *   block to the first node outside the outer square.
 */
#ifndef TRANSIT_H
#define TRANSIT_H

#include <stddef.h>
#include <stdint.h>

#include "bake.h"
#include "graph.h"
#include "level_map.h"
#include "twz_error.h"

/* The transit table is held whole while baking (8 bytes an entry): grids
 * that would need more entries than this are refused. */
#define TWZ_TRANSIT_MAX_TABLE ((uint64_t)1 << 28)

#define TWZ_TRANSIT_DEFAULT_INNER 1u
#define TWZ_TRANSIT_DEFAULT_OUTER 2u

/* Build the block-numbered graph of g. 0 on success. */
int twz_transit_graph_build(const struct twz_grid *g, unsigned connectivity,
			    const struct twz_transit_options *topt,
			    struct twz_graph *out, struct twz_error *err);

/* The block grid of g (origin, side, cols, rows, inner, outer of tg),
 * nothing allocated. 0, or -1 when the options do not fit. */
int twz_transit_layout(const struct twz_grid *g,
		       const struct twz_transit_options *topt,
		       struct twz_graph *tg, struct twz_error *err);

/* Peak bytes of a TRANSIT bake of g (nodes walkable; topt may be NULL),
 * in memory or with its big arrays in the spool; method_transit_grid.c
 * says what is counted. twz_bake_transit checks it with
 * twz_bake_check. */
uint64_t twz_transit_estimate_bytes(const struct twz_grid *g, uint64_t nodes,
				    const struct twz_bake_options *opt,
				    const struct twz_transit_options *topt,
				    int through_spool);

/* The default grid: blocks of about 16 squares on small levels, growing
 * slowly with the level (see method_transit_grid.c for the measurements). */
unsigned twz_transit_default_grid(uint32_t box_width, uint32_t box_height);

static inline uint32_t twz_block_x(const struct twz_graph *tg,
				   uint32_t block)
{
	return block % tg->cols;
}

static inline uint32_t twz_block_y(const struct twz_graph *tg,
				   uint32_t block)
{
	return block / tg->cols;
}

/* Whether blocks a and b are within r blocks of each other. */
static inline int twz_blocks_within(const struct twz_graph *tg,
				    uint32_t a, uint32_t b, uint32_t r)
{
	uint32_t ax = twz_block_x(tg, a), ay = twz_block_y(tg, a);
	uint32_t bx = twz_block_x(tg, b), by = twz_block_y(tg, b);
	uint32_t dx = ax > bx ? ax - bx : bx - ax;
	uint32_t dy = ay > by ? ay - by : by - ay;

	return dx <= r && dy <= r;
}

/* The node ranges of the blocks within r of block b, one range a row of
 * blocks, as [range[2i], range[2i+1]) in node order (blocks are laid
 * out row after row, so a row's blocks are one range); their count, at
 * most tg->rows. */
static inline uint32_t twz_block_ranges(const struct twz_graph *tg,
					uint32_t b, int64_t r, uint32_t *range)
{
	int64_t bx = twz_block_x(tg, b), by = twz_block_y(tg, b);
	int64_t x0 = bx - r < 0 ? 0 : bx - r;
	int64_t x1 = bx + r >= tg->cols ? tg->cols - 1 : bx + r;
	uint32_t n = 0;

	for (int64_t y = by - r; y <= by + r; y++) {
		if (y < 0 || y >= tg->rows)
			continue;
		range[2 * n] = tg->block_first[y * tg->cols + x0];
		range[2 * n + 1] = tg->block_first[y * tg->cols + x1 + 1];
		n++;
	}
	return n;
}

/* An exact distance; TWZ_TRANSIT_FAR in both halves when unreachable. */
struct twz_tdist {
	uint32_t straight;
	uint32_t diagonal;
};

/* An access node of a node (FORMAT.md 5e): its index among the access
 * transit nodes, and the exact distance to it. */
struct twz_access {
	uint32_t transit;
	uint16_t straight;
	uint16_t diagonal;
};

/* The baked TRANSIT database. */
struct twz_transit_db {
	struct twz_graph graph;
	/* transit nodes */
	uint32_t transit_count;        /* M */
	uint32_t *transit_node;        /* [M]: node id, ascending */
	uint32_t *block_transit_first; /* [blocks+1]: into block_transit */
	uint32_t *block_transit;       /* transit indices of each block */
	uint32_t max_block_transits;
	/* distances: node -> its block's transit nodes, in the block's list
	 * order, block after block; and transit <-> transit (i < j, row by
	 * row) */
	uint64_t node_dist_count;
	struct twz_tdist *node_dist;
	uint64_t table_count;          /* M(M-1)/2 */
	struct twz_tdist *table;
	/* local first-move rows */
	uint32_t *row_offsets;         /* [node_count+1], into runs */
	uint32_t *runs;                /* start << 4 | symbol */
	uint64_t run_count;
	/* access nodes (method_transit_access.c): each node's, sorted by
	 * exact cost, naming the transit nodes some node accesses, ordered
	 * by region, then node */
	uint32_t *access_first;        /* [node_count+1]: into access */
	struct twz_access *access;
	uint64_t access_count;
	uint32_t max_access;
	int access_fits;               /* every distance fits 16 bits */
	uint32_t access_transits;      /* M' */
	uint32_t *access_node;         /* [M']: node */
	uint32_t *access_old;          /* [M']: its index among the M */
	/* statistics */
	double select_seconds;
	double access_seconds;
	double local_seconds;
	double table_seconds;
	uint64_t searched_nodes;       /* nodes settled by the local searches */
	uint64_t shortcut_nodes;       /* ... by their shortcut searches */
	/* where the big arrays (distances, table, rows, access entries, and
	 * the sections made from them) lie: NULL in memory (spool.h) */
	struct twz_spool *spool;
	uint32_t *tindex;              /* [node_count]: transit index or NONE,
					  for the table's searches */
};

/* The TRANSIT bake of g in memory, refused first (-1, err set) when its
 * estimate exceeds the limits. */
int twz_bake_transit(const struct twz_grid *g,
		     const struct twz_bake_options *opt,
		     const struct twz_transit_options *topt,
		     struct twz_transit_db *out, struct twz_error *err);

/* The same with its big arrays in spool: what stays in memory is the
 * graph, the searches' workspaces, a few bytes a node and a few a
 * transit node. Refused first when even its estimate
 * (twz_transit_estimate_bytes) exceeds the limits. */
int twz_bake_transit_spooled(const struct twz_grid *g,
			     const struct twz_bake_options *opt,
			     const struct twz_transit_options *topt,
			     struct twz_spool *spool,
			     struct twz_transit_db *out, struct twz_error *err);

void twz_transit_db_free(struct twz_transit_db *db);

/* What one shard of a TRANSIT bake bakes: the local rows and transit
 * distances of the nodes of blocks [block_lo, block_hi), and the transit
 * table's rows [table_lo, table_hi). Every shard selects all transit
 * nodes (the selection is the same everywhere). */
struct twz_transit_range {
	uint32_t block_lo, block_hi;
	uint32_t table_lo, table_hi;
};

/* Where transit table row i starts (entries i < j, row by row, of M). */
uint64_t twz_transit_table_row(uint64_t m, uint64_t i);

/* Index into NODE_DIST of block b's first entry (b up to the blocks:
 * their count). */
uint64_t twz_transit_dist_first(const struct twz_transit_db *db, uint32_t b);

/* The range of shard index (from 1) of count of db, whose graph and
 * transit selection are made (method_transit_grid.c): both stages cut where
 * their estimated work reaches I/N. 1 of 1 is the whole bake. */
void twz_transit_shard_range(const struct twz_transit_db *db, unsigned index,
			     unsigned count, struct twz_transit_range *r);

/* Each node's access nodes from db's distances and table (the last stage
 * of twz_bake_transit). 0, or -1 with err set. */
int twz_transit_access_build(struct twz_transit_db *db,
			     const struct twz_bake_options *opt,
			     struct twz_error *err);

/* The layout stage of a whole bake (or of a merge of shards): each
 * node's access nodes when opt->transit_far asks for them, kept when
 * they are the smaller (TWZ_TRANSIT_SMALLER). 0, or -1 with err set. */
int twz_transit_finish_layout(struct twz_transit_db *db,
			      const struct twz_bake_options *opt,
			      struct twz_error *err);

/* Whether db can be written in the access-node layout (every distance
 * to an access node fits 16 bits); else it is written in 1.1's. */
int twz_transit_access_fits(const struct twz_transit_db *db);

/* The ACCESS_NODES records and the ACCESS_TABLE bits of db (malloc'd).
 * 0, or -1 out of memory. */
int twz_transit_access_sections(const struct twz_transit_db *db,
				uint8_t **nodes, uint8_t **table,
				size_t *table_size);

/* The packed access entries of db (FORMAT.md 5j, ACCESS_PACKED) and the
 * block lists their places index, malloc'd: *block_first [blocks + 1]
 * into *block_list, *packed one u32 an entry. 1 when they hold db, 0
 * when some block names more than TWZ_AP_MAX_LIST access nodes or some
 * offset leaves its field (nothing is returned; the 8-byte entries
 * remain), -1 out of memory. */
int twz_transit_access_pack(const struct twz_transit_db *db,
			    uint32_t **block_first, uint32_t **block_list,
			    uint32_t **packed);

struct twz_out_file;


/* Encode into memory (malloc'd) / write atomically, as the CPD does. */
int twz_transit_encode(const struct twz_transit_db *db,
		       const struct twz_grid *g,
		       const struct twz_bake_options *opt, uint8_t **buf,
		       size_t *len, struct twz_error *err);
int twz_transit_write(const struct twz_transit_db *db,
		      const struct twz_grid *g,
		      const struct twz_bake_options *opt, const char *path,
		      struct twz_error *err);

#endif
