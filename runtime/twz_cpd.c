/*
 * twz_cpd.c - the CPD back end (method 1): first moves from compressed
 * all-pairs rows, plain (format 1.0: ROW_OFFSETS + RUNS, bisected) or
 * bucketed (1.1: NODE_RECORDS + REGIONS + ROWS) or inline-summarised
 * (1.4, twz_cpd_inline.h), with plain moves or direction symbols. No allocation, no locks, no I/O on the query path;
 * offsets were validated at open and arguments by twz_api.c.
 */
#include "twz_backend.h"
#include "twz_chunks.h"
#include "twz_cpd_inline.h"

#include <stdlib.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* ---- at open ----------------------------------------------------------- */

/* The region directory of twz_db.h, for 1.1 CPD files with more than one
 * region: about eight slices a region (256 at least), at most 2^16. */
static twz_status region_dir_init(twz_db *db)
{
	uint32_t n = db->c.node_count, count = db->c.component_count;
	unsigned shift = 0;

	while (shift < 31 && ((uint64_t)n >> shift) > 8 * (uint64_t)count &&
	       ((uint64_t)n >> shift) > 256)
		shift++;
	while (((uint64_t)n >> shift) >= 65536)
		shift++;
	size_t slices = ((size_t)n >> shift) + 1;
	db->region_dir = malloc(slices * sizeof *db->region_dir);
	if (!db->region_dir)
		return TWZ_E_NOMEM;
	db->region_shift = shift;
	for (size_t i = 0; i < slices; i++) {
		uint64_t first = (uint64_t)i << shift;
		db->region_dir[i] = first < n ? twz_region_of(db->regions, count,
							       (uint32_t)first)
					      : count - 1;
	}
	db->memory_size += slices * sizeof *db->region_dir;
	return TWZ_OK;
}

/* The handle's hot line (twz_db.h), for grids with wide records. */
static void hot_init(twz_db *db)
{
	db->hot = (struct twz_cpd_hot){
		.records = db->records,
		.cell_node = db->cell_node,
		.node_count = db->c.node_count,
		.width = db->c.width,
		.height = db->c.height,
		.component_count = db->c.component_count,
		.wide_grid = db->inline_rows && db->direction &&
			     db->inline_buckets == TWZ_INLINE_WIDE_BUCKETS &&
			     db->c.level_kind == TWZ_LEVEL_GRID,
		.narrow = (uint8_t)db->narrow,
	};
}

static twz_status cpd_init(twz_db *db)
{
	twz_status st;

	if (db->bucketed && db->c.component_count > 1) {
		st = region_dir_init(db);
		if (st != TWZ_OK)
			return st;
	}
	hot_init(db);
	return TWZ_OK;
}

static void cpd_fini(twz_db *db)
{
	free(db->region_dir);
	db->region_dir = NULL;
}

/* ---- queries ----------------------------------------------------------- */

/* Format 1.0 rows: the last run of row s whose start is <= t. */
static unsigned symbol_by_bisection(const twz_db *db, twz_node s, twz_node t)
{
	return twz__plain_row_symbol(db->row_offsets, db->runs, s, t);
}

/* Runs counted from `runs` on (m of them) while their start within the
 * bucket is 1 ..= inside: starts rise through the bucket, and only its
 * last run can start the next bucket (offset 0), so those runs are a
 * prefix. Without branches on the data, which a predictor cannot learn. */
static inline uint32_t runs_started(const uint8_t *runs, uint32_t m,
				    uint32_t inside, const uint8_t *end)
{
#if defined(__SSE2__)
	/* Eight runs a compare. Starts are below 2^12, so the signed
	 * compares see them as they are. */
	const __m128i limit = _mm_set1_epi16((short)inside);
	const __m128i zero = _mm_setzero_si128();
	uint32_t done = 0;

	while (m - done >= 8 || (m > done && runs + 16 <= end)) {
		__m128i w = _mm_loadu_si128((const __m128i *)(const void *)runs);
		__m128i start = _mm_srli_epi16(w, TWZ_RUN_SYMBOL_BITS);
		__m128i past = _mm_or_si128(_mm_cmpgt_epi16(start, limit),
					    _mm_cmpeq_epi16(start, zero));
		uint32_t bad = (uint32_t)_mm_movemask_epi8(past);
		if (m - done < 8)
			bad |= 0xFFFFu << (2 * (m - done));
		if (bad)
			return done + (uint32_t)__builtin_ctz(bad) / 2;
		done += 8;
		runs += 16;
	}
	if (done == m)
		return m;
	m -= done;      /* fewer than 8 left at the end of ROWS: bisect */
#else
	const uint32_t done = 0;
	(void)end;
#endif
	/* Branch-free bisection for the last run of the prefix, with a
	 * virtual run -1 that always qualifies. */
	uint32_t base = 0, n = m + 1;
	while (n > 1) {
		uint32_t half = n >> 1;
		uint32_t start = twz_le16(runs + 2 * (size_t)(base + half - 1)) >>
				 TWZ_RUN_SYMBOL_BITS;
		base = start - 1u < inside ? base + half : base;
		n -= half;
	}
	return done + base;
}

/* Format 1.1 rows: the bucket of t names the run covering its start, and
 * the runs that start inside the bucket before t (at most 64 by
 * construction, so two cache lines) pick the one covering t. Touches the
 * record, one index pair and that span of runs. */
static inline unsigned symbol_in_row(const struct twz_row_view *vp,
				     twz_node t)
{
	const struct twz_row_view v = *vp;
	uint32_t rel = t - v.lo;
	uint32_t b = rel >> v.shift;
	uint32_t inside = rel & ((1u << v.shift) - 1);
	uint32_t first = twz_le16(v.index + 2 * (size_t)b);
	uint32_t last = twz_le16(v.index + 2 * ((size_t)b + 1));
	uint32_t k = first + runs_started(v.runs + 2 * ((size_t)first + 1),
					  last - first, inside, v.end);

	return twz_le16(v.runs + 2 * (size_t)k) & TWZ_RUN_SYMBOL_MASK;
}

/* What every step toward one target shares: found once per query. */
struct twz_goal {
	twz_node t;
	uint32_t tx, ty;          /* t's cell, for direction symbols */
	struct twz_span region;   /* s's region, which t is in */
};

static inline void goal_of(const twz_db *db, twz_node t,
			   const struct twz_span *r, struct twz_goal *g)
{
	g->t = t;
	twz__node_xy(db, t, &g->tx, &g->ty);
	/* Field by field: one wide load of the caller's narrow stores
	 * would wait for them to retire. */
	g->region.lo = r->lo;
	g->region.len = r->len;
	g->region.id = r->id;
}

/*
 * One step from `at` toward the goal (at != t, both in the region): the
 * next node, or TWZ_NONE when the file is damaged. *move receives the
 * move. A direction symbol's move is decoded from the offset to the goal
 * and checked by twz__grid_step: on the grid, not cutting a corner, onto
 * a node (plain moves pass, checked at open).
 * For 1.1 files the node's 8-byte record gives both its row and its cell,
 * so a step reads the record, the row's index and runs, and CELL_NODE.
 */
static inline twz_node advance(const twz_db *db, twz_node at,
			       const struct twz_goal *g, unsigned *move)
{
	uint32_t x, y;
	unsigned sym;

	if (db->bucketed) {
		const uint8_t *rec = twz__record(db, at);
		x = twz_le16(rec + TWZ_R_X);
		y = twz_le16(rec + TWZ_R_Y);
		if (db->inline_rows) {
			sym = twz__inline_symbol(db, at, g->region.lo,
						 g->region.len, g->t);
		} else {
			struct twz_row_view v;
			struct twz_chunk_pin pin;
			if (!twz__row_view_pinned(db, at, g->region.lo,
						  g->region.len, &v, &pin))
				return TWZ_NONE;
			sym = symbol_in_row(&v, g->t);
			twz__chunk_unpin(&pin);
		}
	} else {
		sym = symbol_by_bisection(db, at, g->t);
		twz__node_xy(db, at, &x, &y);
	}
	unsigned m = !db->direction ? sym
		     : twz__symbol_move(sym, (int32_t)g->tx - (int32_t)x,
					(int32_t)g->ty - (int32_t)y);
	*move = m;
	return twz__grid_step(db->cell_node, db->narrow, db->c.width,
			      db->c.height, x, y, m);
}

static twz_node cpd_next(const twz_db *db, twz_node s, twz_node t,
			 const struct twz_span *r)
{
	struct twz_goal goal;
	unsigned move;

	goal_of(db, t, r, &goal);
	return advance(db, s, &goal, &move);
}

/*
 * cpd_walk for a grid with wide records (db->hot.wide_grid): the same
 * steps as advance, with the walker's cell kept in registers, so that a
 * step waits for its node's record and the cell map only.
 */
static twz_status hot_walk(const twz_db *db, twz_node s, twz_node t,
			   const struct twz_span *r, struct twz_trail *tr)
{
	const struct twz_cpd_hot *h = &db->hot;
	const uint8_t *rt = twz__wide_record(h, t), *rs = twz__wide_record(h, s);
	int32_t tx = twz_le16(rt + TWZ_IR_X), ty = twz_le16(rt + TWZ_IR_Y);
	uint32_t x = twz_le16(rs + TWZ_IR_X), y = twz_le16(rs + TWZ_IR_Y);
	uint32_t rel = t - r->lo;

	for (twz_node at = s;; ) {
		twz__trail_visit(tr, at);
		if (at == t)
			return TWZ_OK;
		if (tr->n > h->node_count)
			return TWZ_E_DAMAGED;
		unsigned sym = twz__wide_nibble(twz__wide_record(h, at), rel);
		if (__builtin_expect(sym == TWZ_INLINE_ESCAPE, 0))
			sym = twz__inline_escaped(db, at, r->lo, r->len, t);
		unsigned m = twz__symbol_move(sym, tx - (int32_t)x, ty - (int32_t)y);
		at = twz__grid_step(h->cell_node, h->narrow, h->width,
				    h->height, x, y, m);
		if (at == TWZ_NONE)
			return TWZ_E_DAMAGED;
		x += (uint32_t)twz__step_x(m);
		y += (uint32_t)twz__step_y(m);
		twz__trail_move(tr, m);
	}
}

/*
 * Walk s -> t; paths and costs share this loop so they agree. A crafted
 * file (or a damaged one opened without checksums) could make the walk
 * cycle: it is bounded by the node count.
 */
static twz_status cpd_walk(const twz_db *db, twz_node s, twz_node t,
			   const struct twz_span *r, twz_node *buf, size_t cap,
			   size_t *len, uint32_t *straight, uint32_t *diagonal)
{
	struct twz_goal goal;
	struct twz_trail tr = { buf, cap, 0, 0, 0 };

	if (db->hot.wide_grid) {
		twz_status st = hot_walk(db, s, t, r, &tr);
		if (st != TWZ_OK)
			return st;
		return twz__trail_end(&tr, len, straight, diagonal);
	}
	goal_of(db, t, r, &goal);
	for (twz_node at = s;; ) {
		twz__trail_visit(&tr, at);
		if (at == t)
			break;
		if (tr.n > db->c.node_count)
			return TWZ_E_DAMAGED;
		unsigned move;
		at = advance(db, at, &goal, &move);
		if (at == TWZ_NONE)
			return TWZ_E_DAMAGED;
		twz__trail_move(&tr, move);
	}
	return twz__trail_end(&tr, len, straight, diagonal);
}

/* Every source shares t's goal; a source outside t's region has no path
 * (regions are symmetric: moves are). */
static void cpd_flow_field(const twz_db *db, twz_node t,
			   const struct twz_span *r, twz_node *next)
{
	struct twz_goal goal;
	unsigned move;

	goal_of(db, t, r, &goal);
	for (twz_node n = 0; n < db->c.node_count; n++) {
		if (n == t)
			next[n] = t;
		else if (!twz__in_span(db, &goal.region, n))
			next[n] = TWZ_NONE;
		else
			next[n] = advance(db, n, &goal, &move);
	}
}

const struct twz_backend twz_backend_cpd = {
	.init = cpd_init,
	.fini = cpd_fini,
	.next = cpd_next,
	.walk = cpd_walk,
	.flow_field = cpd_flow_field,
};
