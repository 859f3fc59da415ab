/*
 * method_transit_grid.c - the TRANSIT block grid (its layout and default
 * size), the graph in block order over it, and the memory estimate of a
 * TRANSIT bake.
 */
#include "transit.h"

#include <stdlib.h>
#include <string.h>
#define ZSTD_STATIC_LINKING_ONLY  /* ZSTD_estimateCCtxSize */
#include <zstd.h>

#include "spool.h"

/*
 * Default block side, from measurements of transit counts, local rows and
 * bake times on the Moving AI levels (docs/benchmarks.md, "TRANSIT"): small blocks
 * multiply transit nodes, large ones make the local searches slow. The
 * side grows with the level so the transit table stays small.
 */
static uint32_t default_side(uint32_t longer)
{
	if (longer <= 64)
		return 8;
	if (longer <= 192)
		return 16;
	if (longer <= 384)
		return 24;
	return 32;
}

unsigned twz_transit_default_grid(uint32_t box_width, uint32_t box_height)
{
	uint32_t longer = box_width > box_height ? box_width : box_height;
	uint32_t side = default_side(longer);

	return (longer + side - 1) / side;
}

/* The walkable bounding box; an empty level gets a 1 x 1 box at 0. */
static void bounding_box(const struct twz_grid *g, uint32_t *x0, uint32_t *y0,
			 uint32_t *w, uint32_t *h)
{
	uint32_t lx = UINT32_MAX, ly = UINT32_MAX, hx = 0, hy = 0;

	for (uint32_t y = 0; y < g->height; y++)
		for (uint32_t x = 0; x < g->width; x++) {
			if (!g->walkable[(size_t)y * g->width + x])
				continue;
			lx = x < lx ? x : lx;
			ly = y < ly ? y : ly;
			hx = x > hx ? x : hx;
			hy = y > hy ? y : hy;
		}
	if (lx == UINT32_MAX) {
		*x0 = *y0 = 0;
		*w = *h = 1;
		return;
	}
	*x0 = lx;
	*y0 = ly;
	*w = hx - lx + 1;
	*h = hy - ly + 1;
}

int twz_transit_layout(const struct twz_grid *g,
		       const struct twz_transit_options *topt,
		       struct twz_graph *tg, struct twz_error *err)
{
	uint32_t bw, bh;

	bounding_box(g, &tg->origin_x, &tg->origin_y, &bw, &bh);
	uint32_t longer = bw > bh ? bw : bh;
	uint32_t grid = topt && topt->grid ? topt->grid
					   : twz_transit_default_grid(bw, bh);
	tg->inner = topt && topt->inner ? topt->inner : TWZ_TRANSIT_DEFAULT_INNER;
	tg->outer = topt && topt->outer ? topt->outer
					: (topt && topt->inner ? 2 * topt->inner
							       : TWZ_TRANSIT_DEFAULT_OUTER);
	if (tg->outer < 2 * tg->inner) {
		twz_error_set(err, "the outer square radius (%u) must be at least twice the inner one (%u)",
			      tg->outer, tg->inner);
		return -1;
	}
	if (grid > longer)
		grid = longer;  /* blocks of one square at most */
	tg->side = (longer + grid - 1) / grid;
	tg->cols = (bw + tg->side - 1) / tg->side;
	tg->rows = (bh + tg->side - 1) / tg->side;
	return 0;
}

int twz_transit_graph_build(const struct twz_grid *g, unsigned connectivity,
			    const struct twz_transit_options *topt,
			    struct twz_graph *tg, struct twz_error *err)
{
	memset(tg, 0, sizeof *tg);
	if (connectivity != 4 && connectivity != 8) {
		twz_error_set(err, "connectivity must be 4 or 8, not %u", connectivity);
		return -1;
	}
	if (twz_transit_layout(g, topt, tg, err) != 0)
		return -1;
	return twz_graph_build_blocks(g, connectivity, tg, err);
}

/*
 * Peak bytes of a TRANSIT bake, estimated from the level and its block
 * grid before anything is built. Counted: the grid and the cell map (5 a
 * cell); the graph with its build stack and the transit index (96 a
 * node); one worker a thread (search costs, tie-breaks, flags, lists and
 * scratch: 48 a node); the local rows, 32 runs a node at most (measured
 * on the Moving AI levels: 4 to 12), 16 bytes a run as for CPD (rows
 * being gathered, joined, copied little-endian, compressed, the file
 * image); the distances to each block's transit nodes and the transit
 * table, each entry alive three times (array, residual planes, its
 * compressed copy), reckoning `side` transit nodes a block (measured
 * on the default grids: 0.07 to 0.9 of that); and the zstd contexts,
 * at their worst. The peak resident size of one-thread bakes of arena,
 * den011d and Berlin_0_256 was 10% to 65% of this, the table and the
 * zstd contexts being what it overestimates most.
 */
static uint64_t in_memory(const struct twz_grid *g, const struct twz_graph *tg,
			  uint64_t nodes, const struct twz_bake_options *opt)
{
	double blocks = (double)tg->cols * tg->rows;
	double transits = blocks * tg->side;
	double table = transits * (transits - 1) / 2;
	unsigned threads = twz_bake_threads(opt);

	if (table > (double)TWZ_TRANSIT_MAX_TABLE)
		table = (double)TWZ_TRANSIT_MAX_TABLE;
	if (threads > blocks)
		threads = (unsigned)blocks;
	double bytes = 5.0 * g->width * g->height
		       + 96.0 * nodes
		       + 48.0 * nodes * threads
		       + 16.0 * 32.0 * nodes
		       + 24.0 * (double)nodes * tg->side
		       + 24.0 * table;

	if (opt->codec == TWZ_CODEC_ZSTD)
		bytes += (double)ZSTD_estimateCCtxSize(opt->level) * threads;
	return bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)bytes;
}

/* Pages of the spool a stage touches between two trims, at most. */
#define TOUCHED ((size_t)1 << 20)

/*
 * Peak bytes of the spooled TRANSIT bake (its distances, table, rows
 * and access entries in the spool). Counted: the grid and the cell map
 * (5 a cell); the graph, its build stack and the transit index (96 a
 * node, as in the bake in memory); one worker a thread (48 a node, and
 * a block's runs and distances: a block has at most side^2 nodes, 32
 * runs a node at most, and at most the 4 (2 inner + 1) side + 4 nodes
 * of its inner box's ring as transit nodes), a block of each waiting to
 * be joined; row lengths, offsets and access counts (20 a node); the
 * selection and the access renumbering (48 a transit node, reckoning
 * side a block, as the estimate in memory does); a block's submatrix of
 * the table and its kept entries while the access nodes are chosen,
 * with one selection search (52 a node), and the block lists while they
 * are packed; the spool's pages touched between two trims; and, while
 * writing, the largest in-memory section compressed at once (the cell
 * map) or the compressor of the largest spooled section.
 */
static uint64_t spooled(const struct twz_grid *g, const struct twz_graph *tg,
		       uint64_t nodes, const struct twz_bake_options *opt)
{
	double cells = (double)g->width * g->height;
	double n = (double)nodes;
	double blocks = (double)tg->cols * tg->rows;
	double transits = blocks * tg->side;
	double side = tg->side;
	double list = 4.0 * (2.0 * tg->inner + 1.0) * side + 4.0;
	double block_nodes = side * side < n ? side * side : n;
	unsigned threads = twz_bake_threads(opt);

	if (transits > n)
		transits = n;
	if (threads > blocks)
		threads = (unsigned)blocks;
	double block = block_nodes * 32.0 * 4.0 * 1.5 + block_nodes * list * 8.0
		       + 2.0 * TOUCHED;
	double base = 5.0 * cells + 96.0 * n + 20.0 * n + 48.0 * transits
		      + (8 << 20);   /* the program itself */
	double search = (48.0 * n + block + transits * 8.0) * threads;
	double access = list * list * 8.0 + 2.0 * transits * 8.0
			+ block_nodes * list * 8.0 + list * 32.0
			+ 4.0 * TOUCHED + transits * TWZ_AN_SIZE
			+ 52.0 * n + 24.0 * block_nodes * list
			+ 4.0 * list * blocks;
	double write = 4.0 * cells;
	if (opt->codec == TWZ_CODEC_ZSTD) {
		double mem = 4.0 * cells + ZSTD_compressBound((size_t)(4.0 * cells)) +
			     ZSTD_estimateCCtxSize_usingCParams(
				     ZSTD_getCParams(opt->level, (size_t)(4.0 * cells) + 1, 0));
		double biggest = 32.0 * 4.0 * n;
		if (biggest < 8.0 * transits * transits / 2.0)
			biggest = 8.0 * transits * transits / 2.0;
		double spool = (double)twz_spool_write_bytes((uint64_t)biggest,
							     opt->level);
		write += mem > spool ? mem : spool;
	} else {
		write += 2.0 * TWZ_SPOOL_PIECE;
	}
	double peak = search;
	if (access > peak)
		peak = access;
	if (write > peak)
		peak = write;
	double bytes = base + peak;
	return bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)bytes;
}

uint64_t twz_transit_estimate_bytes(const struct twz_grid *g, uint64_t nodes,
				    const struct twz_bake_options *opt,
				    const struct twz_transit_options *topt,
				    int through_spool)
{
	struct twz_graph tg;
	struct twz_error err;

	memset(&tg, 0, sizeof tg);
	if (twz_transit_layout(g, topt, &tg, &err) != 0)
		return 0;  /* the graph build reports it */
	return through_spool ? spooled(g, &tg, nodes, opt) : in_memory(g, &tg, nodes, opt);
}

/* ---- which blocks and table rows a shard bakes ------------------------ */

/* Nodes in block b's outer square: the local searches of b's nodes run
 * over it. */
static uint64_t outer_nodes(const struct twz_graph *tg, uint32_t b)
{
	int64_t bx = twz_block_x(tg, b), by = twz_block_y(tg, b), r = tg->outer;
	int64_t x0 = bx - r < 0 ? 0 : bx - r;
	int64_t x1 = bx + r >= tg->cols ? tg->cols - 1 : bx + r;
	uint64_t n = 0;

	for (int64_t y = by - r; y <= by + r; y++)
		if (y >= 0 && y < tg->rows)
			n += tg->block_first[y * tg->cols + x1 + 1] -
			     tg->block_first[y * tg->cols + x0];
	return n;
}

/* The work of block b's local rows: a search over the outer square from
 * each of its nodes. */
static uint64_t block_weight(const struct twz_graph *tg, uint32_t b)
{
	return (uint64_t)(tg->block_first[b + 1] - tg->block_first[b]) *
	       outer_nodes(tg, b);
}

/* floor(k * total / count) without overflow: r * k < count^2 <= 2^32. */
static uint64_t share(uint64_t total, unsigned k, unsigned count)
{
	uint64_t q = total / count, r = total % count;

	return q * k + r * k / count;
}

/* The first block whose running weight (the sum over the blocks before
 * it) reaches target; every block when none does. */
static uint32_t block_boundary(const struct twz_graph *tg, uint64_t target)
{
	uint32_t blocks = tg->cols * tg->rows;
	uint64_t before = 0;

	for (uint32_t b = 0; b < blocks; b++) {
		if (before >= target)
			return b;
		before += block_weight(tg, b);
	}
	return blocks;
}

/* The blocks [*lo, *hi) of shard index of count, cut where the running
 * weight reaches (I-1)/N and I/N of the total. */
static void block_cut(const struct twz_graph *tg, unsigned index,
		      unsigned count, uint32_t *lo, uint32_t *hi)
{
	uint32_t blocks = tg->cols * tg->rows;
	uint64_t total = 0;

	for (uint32_t b = 0; b < blocks; b++)
		total += block_weight(tg, b);
	*lo = index <= 1 ? 0 : block_boundary(tg, share(total, index - 1, count));
	*hi = index >= count ? blocks : block_boundary(tg, share(total, index, count));
	if (*hi < *lo)
		*hi = *lo;
}

void twz_transit_shard_range(const struct twz_transit_db *db, unsigned index,
			     unsigned count, struct twz_transit_range *r)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t m = db->transit_count;

	block_cut(tg, index, count, &r->block_lo, &r->block_hi);
	/* A table row is one search from a transit node to the nodes after
	 * it in its region: about the region's size each, so rows are cut
	 * by count. */
	r->table_lo = (uint32_t)share(m, index - 1, count);
	r->table_hi = (uint32_t)share(m, index, count);
}

uint64_t twz_transit_table_row(uint64_t m, uint64_t i)
{
	return i * (2 * m - i - 1) / 2;
}

uint64_t twz_transit_dist_first(const struct twz_transit_db *db, uint32_t b)
{
	const struct twz_graph *tg = &db->graph;
	uint64_t at = 0;

	for (uint32_t k = 0; k < b; k++)
		at += (uint64_t)(tg->block_first[k + 1] - tg->block_first[k]) *
		      (db->block_transit_first[k + 1] - db->block_transit_first[k]);
	return at;
}
