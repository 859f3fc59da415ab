/*
 * shard_transit.c - shards of a TRANSIT bake: the blocks and transit
 * table rows a shard bakes, its partial file, and the merge of every
 * shard's partial file into the database the bake on one machine writes.
 *
 * Every shard selects the transit nodes of all blocks (the selection is
 * deterministic and cheap beside the searches), then runs the local
 * searches of its own blocks and the table searches of its own transit
 * nodes. Each result lands where the whole bake puts it, so the parts
 * laid side by side are the whole bake's arrays, and the merge hands
 * them to the same writer. A part carries the selection it used; the
 * merge takes it only when every part carries the same bytes.
 */
#include "shard.h"
#include "shard_part.h"

#include <stdlib.h>
#include <string.h>

#include "transit.h"
#include "twz_format.h"
#include "twz_writer.h"

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

/* ---- the partial file ------------------------------------------------- */

static uint64_t table_row(uint64_t m, uint64_t i)
{
	return i * (2 * m - i - 1) / 2;
}

/* Index into NODE_DIST of block b's first entry. */
static uint64_t dist_first(const struct twz_transit_db *db, uint32_t b)
{
	const struct twz_graph *tg = &db->graph;
	uint64_t at = 0;

	for (uint32_t k = 0; k < b; k++)
		at += (uint64_t)(tg->block_first[k + 1] - tg->block_first[k]) *
		      (db->block_transit_first[k + 1] - db->block_transit_first[k]);
	return at;
}

/* n distances as little-endian u32 pairs (malloc'd). */
static uint8_t *dist_copy(const struct twz_tdist *d, uint64_t n)
{
	uint8_t *b = malloc(n ? (size_t)n * 8 : 1);

	if (b)
		for (uint64_t i = 0; i < n; i++) {
			twz_put32(b + 8 * i, d[i].straight);
			twz_put32(b + 8 * i + 4, d[i].diagonal);
		}
	return b;
}

/* The TRANSITS section: the selection every shard made. */
static uint8_t *transits_copy(const struct twz_transit_db *db, size_t *size)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t blocks = tg->cols * tg->rows;
	uint32_t m = db->transit_count, listed = db->block_transit_first[blocks];
	size_t n = 2 + (size_t)m + blocks + 1 + listed;
	uint8_t *b = malloc(n * 4);
	size_t at = 0;

	*size = n * 4;
	if (!b)
		return NULL;
	twz_put32(b + 4 * at++, m);
	twz_put32(b + 4 * at++, listed);
	for (uint32_t i = 0; i < m; i++)
		twz_put32(b + 4 * at++, db->transit_node[i]);
	for (uint32_t i = 0; i <= blocks; i++)
		twz_put32(b + 4 * at++, db->block_transit_first[i]);
	for (uint32_t i = 0; i < listed; i++)
		twz_put32(b + 4 * at++, db->block_transit[i]);
	return b;
}

int twz_shard_transit_encode(const struct twz_transit_db *db,
			     const struct twz_grid *g,
			     const struct twz_transit_options *topt,
			     const uint8_t *level, size_t level_len,
			     const struct twz_bake_options *opt, unsigned index,
			     unsigned count, uint8_t **buf, size_t *len,
			     struct twz_error *err)
{
	const struct twz_graph *tg = &db->graph;
	struct twz_out_file f = { 0 };
	struct twz_transit_range r;
	const char *name = opt->name ? opt->name : "level";
	uint32_t m = db->transit_count;

	twz_transit_shard_range(db, index, count, &r);
	uint32_t first = tg->block_first[r.block_lo], end = tg->block_first[r.block_hi];
	uint32_t lo = db->row_offsets[first], hi = db->row_offsets[end];
	uint64_t d_lo = dist_first(db, r.block_lo), d_hi = dist_first(db, r.block_hi);
	uint64_t t_lo = table_row(m, r.table_lo), t_hi = table_row(m, r.table_hi);
	uint32_t *lens = malloc(((size_t)(end - first) + 1) * sizeof *lens);
	uint8_t *info = calloc(1, TWZ_PI_SIZE);
	size_t transits_size;
	uint8_t *transits = transits_copy(db, &transits_size);

	if (lens)
		for (uint32_t s = first; s < end; s++)
			lens[s - first] = db->row_offsets[s + 1] - db->row_offsets[s];
	if (info) {
		twz_put32(info + TWZ_PI_VERSION, 2);
		twz_put32(info + TWZ_PI_INDEX, index);
		twz_put32(info + TWZ_PI_COUNT, count);
		twz_put32(info + TWZ_PI_FIRST, first);
		twz_put32(info + TWZ_PI_END, end);
		twz_put32(info + TWZ_PI_MAX_SCAN, opt->max_scan);
		info[TWZ_PI_METHOD] = TWZ_METHOD_TRANSIT;
		info[TWZ_PI_LAYOUT] = (uint8_t)twz_bake_layout(opt);
		info[TWZ_PI_CONNECTIVITY] = (uint8_t)tg->connectivity;
		info[TWZ_PI_CODEC] = (uint8_t)opt->codec;
		info[TWZ_PI_LEVEL] = (uint8_t)(int8_t)opt->level;
		twz_put32(info + TWZ_PI_TBLOCK_LO, r.block_lo);
		twz_put32(info + TWZ_PI_TBLOCK_HI, r.block_hi);
		twz_put32(info + TWZ_PI_TTABLE_LO, r.table_lo);
		twz_put32(info + TWZ_PI_TTABLE_HI, r.table_hi);
		twz_put32(info + TWZ_PI_TGRID, topt ? topt->grid : 0);
		twz_put32(info + TWZ_PI_TINNER, topt ? topt->inner : 0);
		twz_put32(info + TWZ_PI_TOUTER, topt ? topt->outer : 0);
		twz_put32(info + TWZ_PI_CHUNK, (uint32_t)opt->chunk);
	}
	twz_bake_header(&f.h, g, tg, opt, TWZ_METHOD_TRANSIT);
	/* BUILD_INFO belongs to the merged file: merge writes it. */
	f.h.build_info[0] = 0;
	twz_out_add_owned(&f, TWZ_PART_INFO, info, TWZ_PI_SIZE);
	twz_out_add_owned(&f, TWZ_PART_LEVEL, twz_part_dup(level, level_len),
			  level_len);
	twz_out_add_owned(&f, TWZ_PART_NAME, twz_part_dup(name, strlen(name)),
			  strlen(name));
	twz_out_add_le32(&f, TWZ_PART_ROW_LENGTHS, lens, lens ? end - first : 0);
	if (!lens)
		f.failed = 1;
	twz_out_add_le32(&f, TWZ_PART_RUNS, db->runs + lo, hi - lo);
	twz_out_add_owned(&f, TWZ_PART_NODE_DIST,
			  dist_copy(db->node_dist + d_lo, d_hi - d_lo),
			  (size_t)(d_hi - d_lo) * 8);
	twz_out_add_owned(&f, TWZ_PART_TABLE, dist_copy(db->table + t_lo, t_hi - t_lo),
			  (size_t)(t_hi - t_lo) * 8);
	twz_out_add_owned(&f, TWZ_PART_TRANSITS, transits, transits_size);
	int rc = twz_part_encode(&f, name, buf, len, err);
	free(lens);
	return rc;
}

int twz_shard_transit_write(const struct twz_transit_db *db,
			    const struct twz_grid *g,
			    const struct twz_transit_options *topt,
			    const char *level_path,
			    const struct twz_bake_options *opt, unsigned index,
			    unsigned count, const char *path,
			    struct twz_error *err)
{
	size_t level_len, len;
	uint8_t *buf;
	uint8_t *level = twz_part_level(level_path, g->level_hash, &level_len, err);

	if (!level)
		return -1;
	int rc = twz_shard_transit_encode(db, g, topt, level, level_len, opt,
					  index, count, &buf, &len, err);
	free(level);
	if (rc != 0)
		return rc;
	rc = twz_write_atomic(path, buf, len, err);
	free(buf);
	return rc;
}

/* ---- the merge -------------------------------------------------------- */

/* The selection of p (TRANSITS) into db, checked for what the merge
 * relies on; the writer's file is validated whole afterwards. */
static int read_selection(const struct twz_part *p, struct twz_transit_db *db,
			  struct twz_error *err)
{
	const struct twz_graph *tg = &db->graph;
	const uint8_t *s = p->sec[TWZ_PART_TRANSITS - TWZ_PART_INFO];
	uint64_t size = p->size[TWZ_PART_TRANSITS - TWZ_PART_INFO];
	uint32_t blocks = tg->cols * tg->rows;

	if (size < 8)
		goto bad;
	uint32_t m = twz_le32(s), listed = twz_le32(s + 4);
	if (size != 4 * (2 + (uint64_t)m + blocks + 1 + listed) ||
	    m > tg->node_count)
		goto bad;
	db->transit_count = m;
	db->table_count = (uint64_t)m * (m ? m - 1 : 0) / 2;
	if (db->table_count > TWZ_TRANSIT_MAX_TABLE)
		goto bad;
	db->transit_node = malloc((m ? m : 1) * sizeof(uint32_t));
	db->block_transit_first = malloc(((size_t)blocks + 1) * sizeof(uint32_t));
	db->block_transit = malloc((listed ? listed : 1) * sizeof(uint32_t));
	if (!db->transit_node || !db->block_transit_first || !db->block_transit) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", p->name);
		return -1;
	}
	const uint8_t *at = s + 8;
	for (uint32_t i = 0; i < m; i++, at += 4) {
		db->transit_node[i] = twz_le32(at);
		if (db->transit_node[i] >= tg->node_count ||
		    (i && db->transit_node[i] <= db->transit_node[i - 1]))
			goto bad;
	}
	for (uint32_t b = 0; b <= blocks; b++, at += 4) {
		db->block_transit_first[b] = twz_le32(at);
		if (b ? db->block_transit_first[b] < db->block_transit_first[b - 1]
		      : db->block_transit_first[b] != 0)
			goto bad;
		if (b && db->block_transit_first[b] - db->block_transit_first[b - 1] >
			 db->max_block_transits)
			db->max_block_transits = db->block_transit_first[b] -
						 db->block_transit_first[b - 1];
	}
	if (db->block_transit_first[blocks] != listed ||
	    db->max_block_transits > TWZ_TRANSIT_MAX_LIST)
		goto bad;
	for (uint32_t i = 0; i < listed; i++, at += 4) {
		db->block_transit[i] = twz_le32(at);
		if (db->block_transit[i] >= m)
			goto bad;
	}
	return 0;
bad:
	twz_error_set(err, "%s: damaged partial file (transit selection)", p->name);
	return -1;
}

/* Why distance d between nodes a and b cannot be what a bake found, as
 * the validator judges a stored one (FORMAT.md check T10): unreachable
 * exactly between regions, else counts below 2^26 that a path between
 * the two cells can have; NULL when it can. */
static const char *distance_wrong(const struct twz_graph *tg, uint32_t a,
				  uint32_t b, struct twz_tdist d)
{
	uint32_t ca = tg->node_cell[a], cb = tg->node_cell[b];
	uint32_t ax = ca % tg->width, ay = ca / tg->width;
	uint32_t bx = cb % tg->width, by = cb / tg->width;
	int far = d.straight == UINT32_MAX && d.diagonal == UINT32_MAX;

	if (tg->node_comp[a] != tg->node_comp[b])
		return far ? NULL : "a distance between two regions";
	if (far)
		return "unreachable inside one region";
	if (d.straight >= TWZ_MAX_NODES || d.diagonal >= TWZ_MAX_NODES ||
	    !twz_transit_counts_possible(tg->connectivity,
					 ax > bx ? ax - bx : bx - ax,
					 ay > by ? ay - by : by - ay,
					 d.straight, d.diagonal))
		return a == b ? "not 0 from a node to itself"
			      : "shorter than any path, or out of range";
	return NULL;
}

/* distance_wrong of d between nodes a and b of part p: 0, or -1 naming
 * the part. */
static int part_distance_ok(const struct twz_part *p, const struct twz_graph *tg,
			    uint32_t a, uint32_t b, struct twz_tdist d,
			    struct twz_error *err)
{
	const char *why = distance_wrong(tg, a, b, d);

	if (!why)
		return 0;
	twz_error_set(err, "%s: damaged partial file (distance from node %u to node %u: %s)",
		      p->name, a, b, why);
	return -1;
}

/* Part p's distances in db (its blocks' rows of NODE_DIST, its rows of
 * the table), each as the validator would judge it. 0, or -1. */
static int part_distances_ok(const struct twz_part *p,
			     const struct twz_transit_db *db,
			     struct twz_error *err)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t m = db->transit_count;
	uint64_t k = dist_first(db, p->block_lo);

	for (uint32_t blk = p->block_lo; blk < p->block_hi; blk++) {
		uint32_t l0 = db->block_transit_first[blk];
		uint32_t l1 = db->block_transit_first[blk + 1];
		for (uint32_t a = tg->block_first[blk]; a < tg->block_first[blk + 1]; a++)
			for (uint32_t l = l0; l < l1; l++, k++)
				if (part_distance_ok(p, tg, a,
						     db->transit_node[db->block_transit[l]],
						     db->node_dist[k], err) != 0)
					return -1;
	}
	k = table_row(m, p->table_lo);
	for (uint32_t i = p->table_lo; i < p->table_hi; i++)
		for (uint32_t j = i + 1; j < m; j++, k++)
			if (part_distance_ok(p, tg, db->transit_node[i],
					     db->transit_node[j], db->table[k], err) != 0)
				return -1;
	return 0;
}

/* The part of by_index[1..count] that holds block b (blocks: 0) or table
 * row b (else). */
static const struct twz_part *part_holding(struct twz_part *const *by_index,
					   unsigned count, int blocks, uint32_t b)
{
	for (unsigned k = 1; k < count; k++)
		if (blocks ? b < by_index[k]->block_hi : b < by_index[k]->table_hi)
			return by_index[k];
	return by_index[count];
}

/* What two parts both say: a transit node's distances to its block's
 * list (from the part of its block) are the table's between the two
 * transit nodes (from the part of the table row), as check T10 asks of
 * the merged file. 0, or -1 naming both parts. */
static int parts_agree(struct twz_part *const *by_index, unsigned count,
		       const struct twz_transit_db *db, struct twz_error *err)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t m = db->transit_count;

	for (uint32_t i = 0; i < m; i++) {
		uint32_t a = db->transit_node[i], blk = tg->node_block[a];
		uint32_t l0 = db->block_transit_first[blk];
		uint32_t l1 = db->block_transit_first[blk + 1];
		uint64_t k = dist_first(db, blk) +
			     (uint64_t)(a - tg->block_first[blk]) * (l1 - l0);
		for (uint32_t l = l0; l < l1; l++, k++) {
			uint32_t j = db->block_transit[l];
			struct twz_tdist d = db->node_dist[k], t = { 0, 0 };
			uint32_t lo = i < j ? i : j, hi = i < j ? j : i;
			if (j != i)
				t = db->table[table_row(m, lo) + (hi - lo - 1)];
			if (d.straight == t.straight && d.diagonal == t.diagonal)
				continue;
			twz_error_set(err, "%s and %s: damaged partial files (the distance between "
				      "transit nodes %u and %u differs between them)",
				      part_holding(by_index, count, 1, blk)->name,
				      part_holding(by_index, count, 0, lo)->name, i, j);
			return -1;
		}
	}
	return 0;
}

/* Whether run r of source s's local row can be what the bake made, as
 * check T11 asks of the merged file: starts from 0, rising, below
 * node_count, every later one at a target in a block near s's; a legal
 * move, a direction symbol, or the wildcards' no move. */
static int local_run_ok(const struct twz_graph *tg, uint32_t s, uint32_t r,
			uint32_t run, uint32_t prev)
{
	uint32_t start = run >> TWZ_RUN_SYMBOL_BITS;

	if (r == 0 ? start != 0
		   : start <= prev >> TWZ_RUN_SYMBOL_BITS || start >= tg->node_count ||
		     !twz_blocks_within(tg, tg->node_block[s], tg->node_block[start],
					tg->outer))
		return 0;
	return twz_part_symbol_ok(tg, s, run & TWZ_RUN_SYMBOL_MASK, 1, 1);
}

/* Rows, distances and table rows of part p into db. */
static int part_results(const struct twz_part *p, struct twz_transit_db *db,
			uint64_t *pos, struct twz_error *err)
{
	const struct twz_graph *tg = &db->graph;
	const uint8_t *lens = p->sec[TWZ_PART_ROW_LENGTHS - TWZ_PART_INFO];
	const uint8_t *runs = p->sec[TWZ_PART_RUNS - TWZ_PART_INFO];
	const uint8_t *dist = p->sec[TWZ_PART_NODE_DIST - TWZ_PART_INFO];
	const uint8_t *table = p->sec[TWZ_PART_TABLE - TWZ_PART_INFO];
	uint64_t have = p->size[TWZ_PART_RUNS - TWZ_PART_INFO] / 4, at = 0;
	uint64_t d_lo = dist_first(db, p->block_lo), d_hi = dist_first(db, p->block_hi);
	uint64_t t_lo = table_row(db->transit_count, p->table_lo);
	uint64_t t_hi = table_row(db->transit_count, p->table_hi);

	if (p->size[TWZ_PART_NODE_DIST - TWZ_PART_INFO] != 8 * (d_hi - d_lo) ||
	    p->size[TWZ_PART_TABLE - TWZ_PART_INFO] != 8 * (t_hi - t_lo)) {
		twz_error_set(err, "%s: damaged partial file (distance counts)", p->name);
		return -1;
	}
	for (uint32_t s = p->first; s < p->end; s++) {
		uint32_t n = twz_le32(lens + 4ull * (s - p->first));
		if (n == 0 || n > have - at) {
			twz_error_set(err, "%s: damaged partial file (row %u's length)",
				      p->name, s);
			return -1;
		}
		for (uint32_t r = 0; r < n; r++) {
			uint32_t run = twz_le32(runs + 4 * (at + r));
			if (!local_run_ok(tg, s, r, run, r ? db->runs[*pos + r - 1] : 0)) {
				twz_error_set(err, "%s: damaged partial file (row %u's runs)",
					      p->name, s);
				return -1;
			}
			db->runs[*pos + r] = run;
		}
		db->row_offsets[s + 1] = db->row_offsets[s] + n;
		at += n;
		*pos += n;
	}
	if (at != have) {
		twz_error_set(err, "%s: damaged partial file (runs beyond the rows)", p->name);
		return -1;
	}
	for (uint64_t i = 0; i < d_hi - d_lo; i++)
		db->node_dist[d_lo + i] = (struct twz_tdist){
			twz_le32(dist + 8 * i), twz_le32(dist + 8 * i + 4) };
	for (uint64_t i = 0; i < t_hi - t_lo; i++)
		db->table[t_lo + i] = (struct twz_tdist){
			twz_le32(table + 8 * i), twz_le32(table + 8 * i + 4) };
	return 0;
}

int twz_shard_merge_transit(struct twz_part *const *by_index, unsigned count,
			    const struct twz_grid *grid, const char *level_name,
			    unsigned threads, const char *out,
			    struct twz_merge_result *res, struct twz_error *err)
{
	const struct twz_part *p0 = by_index[1];
	struct twz_transit_options topt = { p0->grid, p0->inner, p0->outer };
	struct twz_bake_options opt;
	struct twz_transit_db db;
	uint8_t *file = NULL;
	size_t file_len = 0;
	int rc = -1;

	memset(&db, 0, sizeof db);
	twz_bake_options_default(&opt);
	opt.connectivity = p0->connectivity;
	opt.layout = p0->layout;
	opt.codec = p0->codec;
	opt.level = p0->level;
	opt.max_scan = p0->max_scan;
	opt.chunk = p0->chunk;
	opt.threads = threads;
	opt.name = level_name;
	opt.record_build = 1;   /* the bytes twigz build writes, BUILD_INFO too */
	if (twz_transit_graph_build(grid, opt.connectivity, &topt, &db.graph, err) != 0)
		goto done;
	const struct twz_graph *tg = &db.graph;
	if (tg->node_count != p0->node_count) {
		twz_error_set(err, "%s: damaged partial file (node count)", p0->name);
		goto done;
	}
	const uint8_t *sel = p0->sec[TWZ_PART_TRANSITS - TWZ_PART_INFO];
	uint64_t sel_size = p0->size[TWZ_PART_TRANSITS - TWZ_PART_INFO];
	for (unsigned k = 2; k <= count; k++) {
		const struct twz_part *p = by_index[k];
		if (p->size[TWZ_PART_TRANSITS - TWZ_PART_INFO] != sel_size ||
		    memcmp(p->sec[TWZ_PART_TRANSITS - TWZ_PART_INFO], sel, sel_size)) {
			twz_error_set(err, "%s: selected other transit nodes than %s",
				      p->name, p0->name);
			goto done;
		}
	}
	if (read_selection(p0, &db, err) != 0)
		goto done;

	uint64_t total = 0;
	for (unsigned k = 1; k <= count; k++) {
		const struct twz_part *p = by_index[k];
		struct twz_transit_range r;
		twz_transit_shard_range(&db, k, count, &r);
		if (p->block_lo != r.block_lo || p->block_hi != r.block_hi ||
		    p->table_lo != r.table_lo || p->table_hi != r.table_hi ||
		    p->first != tg->block_first[r.block_lo] ||
		    p->end != tg->block_first[r.block_hi]) {
			twz_error_set(err, "%s: holds blocks [%u, %u) and table rows [%u, %u), "
				      "but shard %u of %u is [%u, %u) and [%u, %u)",
				      p->name, p->block_lo, p->block_hi, p->table_lo,
				      p->table_hi, k, count, r.block_lo, r.block_hi,
				      r.table_lo, r.table_hi);
			goto done;
		}
		total += p->size[TWZ_PART_RUNS - TWZ_PART_INFO] / 4;
	}
	if (total > TWZ_MAX_RUNS) {
		twz_error_set(err, "%s: %llu runs exceed the format limit", out,
			      (unsigned long long)total);
		goto done;
	}
	uint32_t blocks = tg->cols * tg->rows;
	db.node_dist_count = dist_first(&db, blocks);
	db.row_offsets = malloc(((size_t)tg->node_count + 1) * sizeof(uint32_t));
	db.runs = malloc((total ? total : 1) * sizeof(uint32_t));
	db.node_dist = malloc((db.node_dist_count ? db.node_dist_count : 1) *
			      sizeof *db.node_dist);
	db.table = malloc((db.table_count ? db.table_count : 1) * sizeof *db.table);
	if (!db.row_offsets || !db.runs || !db.node_dist || !db.table) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", out);
		goto done;
	}
	db.row_offsets[0] = 0;
	uint64_t pos = 0;
	for (unsigned k = 1; k <= count; k++)
		if (part_results(by_index[k], &db, &pos, err) != 0 ||
		    part_distances_ok(by_index[k], &db, err) != 0)
			goto done;
	if (parts_agree(by_index, count, &db, err) != 0)
		goto done;
	db.run_count = total;
	/* twigz build's choice of layout (cmd_build.c), made on the whole. */
	opt.transit_far = twz_transit_far_of(opt.layout);
	if (twz_transit_finish_layout(&db, &opt, err) != 0)
		goto done;

	if (twz_transit_encode(&db, grid, &opt, &file, &file_len, err) != 0 ||
	    twz_part_write_db(file, file_len, out, err) != 0)
		goto done;
	if (res) {
		res->count = count;
		res->node_count = tg->node_count;
		res->component_count = tg->component_count;
		res->run_count = total;
	}
	rc = 0;
done:
	free(file);
	twz_transit_db_free(&db);
	return rc;
}
