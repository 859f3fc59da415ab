/*
 * twz_transit.c - the TRANSIT back end (method 2): local first-move rows
 * for near targets, transit nodes and distance tables for far ones, paths
 * in chunks. At open the distance planes are decoded into tables (the
 * local rows may stay in chunks read on use, twz_transit_lazy.h); after
 * that no allocation: a query keeps a few scalars on its stack; a block
 * lists at most TWZ_TRANSIT_MAX_LIST transit nodes, and no more than its
 * ring has cells (checked at open), which bounds the work of a global
 * query (FORMAT.md, section 10a). Arguments and regions were checked by
 * twz_api.c.
 *
 * The rule (FORMAT.md, "TRANSIT sections", has the terms). Blocks A and B
 * are near when their block coordinates differ by at most `outer` on both
 * axes; a pair of nodes is local when their blocks are near, else global.
 * - Local: the local row of s holds an optimal first move of a globally
 *   shortest s-t path for every t in s's outer square.
 * - Global: d(s, t) = min over a in T(A), b in T(B) of
 *   d(s, a) + D(a, b) + d(b, t), where A, B are the blocks of s, t.
 *   Proof. Take a lexicographically shortest s-t path P (transit_select.c
 *   defines the order) and let u' be its first node in B. The part
 *   Q = P[s..u'] is again one, and u' is outside A's outer square. By the
 *   claim of transit_select.c, applied to Q from s (last node of Q in A,
 *   then the first ring node of A's inner box after it) and to Q reversed
 *   from u' (its only node in B is u'), Q holds a in T(A) within A's inner
 *   box and b in T(B) within B's inner box, with a found after Q's last
 *   node in A and b before u'. The inner boxes of A and B meet at most on
 *   a border line, since outer >= 2 inner and the blocks are more than
 *   outer apart; the part of Q from its last node in A up to a lies in A's
 *   box, the part from b to u' in B's box, so a comes no later than b on
 *   P. Then d(s,a) + d(a,b) + d(b,t) is P's length, and no pair gives
 *   less (each term is a true distance).
 *   The same claim, one-sided, gives d(x, b) = min over a in T(X) of
 *   d(x, a) + D(a, b) whenever b is outside the outer square of x's block
 *   X: the chunked walk below rests on it.
 */
#include "twz_transit_query.h"
#include "twz_transit_lazy.h"

#include <stdlib.h>

#define FAR32 0xFFFFFFFFu

static inline uint32_t u32_at(const uint8_t *base, size_t i)
{
	return twz_le32(base + 4 * i);
}

/* ---- nodes and blocks ------------------------------------------------ */

struct spot {
	uint32_t x, y;
	uint32_t bx, by;           /* block coordinates */
	uint32_t rx, ry;           /* the cell's place inside its block */
};

static inline void locate(const twz_db *db, twz_node n, struct spot *p)
{
	const struct twz_transit_view *tv = &db->transit;
	uint32_t cell = u32_at(db->node_cell, n);

	p->x = cell % db->c.width;
	p->y = cell / db->c.width;
	p->bx = (p->x - tv->origin_x) / tv->side;
	p->by = (p->y - tv->origin_y) / tv->side;
	p->rx = p->x - tv->origin_x - p->bx * tv->side;
	p->ry = p->y - tv->origin_y - p->by * tv->side;
}

/* One coordinate moved by d (-1, 0 or 1), its block kept up to date. */
static inline void shift_axis(uint32_t side, int d, uint32_t *v, uint32_t *r,
			      uint32_t *block)
{
	*v += (uint32_t)d;
	*r += (uint32_t)d;
	if (*r == side) {
		*r = 0;
		++*block;
	} else if (*r == UINT32_MAX) {
		*r = side - 1;
		--*block;
	}
}

/* The spot after a legal move: locate() without its three divisions,
 * which a walk would otherwise pay at every step. */
static inline void move_spot(const struct twz_transit_view *tv, struct spot *p,
			     unsigned m)
{
	shift_axis(tv->side, twz_move_dx[m], &p->x, &p->rx, &p->bx);
	shift_axis(tv->side, twz_move_dy[m], &p->y, &p->ry, &p->by);
}

static inline int near_blocks(const struct twz_transit_view *tv,
			      const struct spot *a, const struct spot *b)
{
	uint32_t dx = a->bx > b->bx ? a->bx - b->bx : b->bx - a->bx;
	uint32_t dy = a->by > b->by ? a->by - b->by : b->by - a->by;

	return dx <= tv->outer && dy <= tv->outer;
}

static inline const uint8_t *block_record(const struct twz_transit_view *tv,
					  const struct spot *p)
{
	return tv->blocks + ((size_t)p->by * tv->cols + p->bx) * TWZ_TB_SIZE;
}

/* ---- distances ------------------------------------------------------- */

/*
 * At open the two distance sections are turned from planes of residuals
 * (the file's form, which compresses) into absolute entries, one entry in
 * one place, so a query reads one word per distance: 4 bytes (straight in
 * the low half, diagonal in the high half, 0xFFFF straight: unreachable)
 * when every count fits, else 8 (two u32, UINT32_MAX: unreachable).
 */


static inline struct dist entry_at(const struct twz_transit_view *tv,
				   const uint8_t *base, uint64_t k)
{
	struct dist r;

	if (tv->entry_bytes == 4) {
		uint32_t v = twz_le32(base + 4 * k);
		r.s = v & 0xFFFF;
		r.d = v >> 16;
		r.far = r.s == 0xFFFF;
	} else {
		r.s = twz_le32(base + 8 * k);
		r.d = twz_le32(base + 8 * k + 4);
		r.far = r.s == FAR32;
	}
	return r;
}

/* The residual halves of entry k of a section of count entries. */
static inline void residual_at(const struct twz_transit_view *tv,
			       const uint8_t *base, uint64_t count, uint64_t k,
			       int64_t *vs, int64_t *vd, int *far)
{
	if (tv->dist_bytes == 4) {
		*vs = (int16_t)twz_le16(base + 2 * k);
		*vd = (int16_t)twz_le16(base + 2 * (count + k));
		*far = *vs == TWZ_TRANSIT_FAR16;
	} else {
		*vs = (int32_t)twz_le32(base + 4 * k);
		*vd = (int32_t)twz_le32(base + 4 * (count + k));
		*far = *vs == TWZ_TRANSIT_FAR32;
	}
}

struct converter {
	const twz_db *db;
	const uint8_t *planes;
	uint64_t count;
	uint8_t *out;              /* NULL: only find the largest count */
	uint32_t largest;
};

/* Entry k, between nodes a and b: absolute, into out (or measured). */
static void convert_entry(struct converter *cv, uint64_t k, uint32_t a,
			  uint32_t b)
{
	const twz_db *db = cv->db;
	const struct twz_transit_view *tv = &db->transit;
	uint32_t ca = u32_at(db->node_cell, a), cb = u32_at(db->node_cell, b);
	uint32_t ax = ca % db->c.width, ay = ca / db->c.width;
	uint32_t bx = cb % db->c.width, by = cb / db->c.width;
	uint32_t rs, rd;
	int64_t vs, vd;
	int far;

	residual_at(tv, cv->planes, cv->count, k, &vs, &vd, &far);
	twz_transit_reference(db->c.connectivity, ax > bx ? ax - bx : bx - ax,
			      ay > by ? ay - by : by - ay, &rs, &rd);
	/* Validated at open: both sums are in [0, 2^26). */
	uint32_t s = far ? FAR32 : (uint32_t)(rs + vs);
	uint32_t d = far ? FAR32 : (uint32_t)(rd + vd);
	if (!cv->out) {
		if (!far && (s > cv->largest || d > cv->largest))
			cv->largest = s > d ? s : d;
		return;
	}
	if (tv->entry_bytes == 4) {
		twz_put32(cv->out + 4 * k, far ? 0xFFFFu : s | d << 16);
	} else {
		twz_put32(cv->out + 8 * k, s);
		twz_put32(cv->out + 8 * k + 4, d);
	}
}

static void convert_node_dist(const twz_db *db, struct converter *cv)
{
	const struct twz_transit_view *tv = &db->transit;
	uint64_t k = 0;

	for (uint32_t b = 0; b < tv->cols * tv->rows; b++) {
		const uint8_t *r = tv->blocks + (size_t)b * TWZ_TB_SIZE;
		uint32_t n1 = twz_le32(r + TWZ_TB_SIZE + TWZ_TB_FIRST_NODE);
		uint32_t l0 = twz_le32(r + TWZ_TB_FIRST_LIST);
		uint32_t l1 = twz_le32(r + TWZ_TB_SIZE + TWZ_TB_FIRST_LIST);
		for (uint32_t n = twz_le32(r + TWZ_TB_FIRST_NODE); n < n1; n++)
			for (uint32_t l = l0; l < l1; l++)
				convert_entry(cv, k++, n,
					      u32_at(tv->nodes, u32_at(tv->lists, l)));
	}
}

static void convert_table(const twz_db *db, struct converter *cv)
{
	const struct twz_transit_view *tv = &db->transit;
	uint64_t k = 0;

	for (uint32_t i = 0; i < tv->transit_count; i++)
		for (uint32_t j = i + 1; j < tv->transit_count; j++)
			convert_entry(cv, k++, u32_at(tv->nodes, i),
				      u32_at(tv->nodes, j));
}

static twz_status transit_init(twz_db *db)
{
	struct twz_transit_view *tv = &db->transit;
	const struct twz_content *v = &db->content;
	const uint8_t *p = v->data[TWZ_SECTION_TRANSIT_PARAMS];

	tv->origin_x = twz_le32(p + TWZ_TP_ORIGIN_X);
	tv->origin_y = twz_le32(p + TWZ_TP_ORIGIN_Y);
	tv->side = twz_le32(p + TWZ_TP_SIDE);
	tv->cols = twz_le32(p + TWZ_TP_COLS);
	tv->rows = twz_le32(p + TWZ_TP_ROWS);
	tv->inner = twz_le32(p + TWZ_TP_INNER);
	tv->outer = twz_le32(p + TWZ_TP_OUTER);
	tv->transit_count = twz_le32(p + TWZ_TP_TRANSITS);
	tv->dist_bytes = twz_le32(p + TWZ_TP_DIST_BYTES);
	tv->row_offsets = v->data[TWZ_SECTION_TRANSIT_ROW_OFFSETS];
	tv->runs = v->data[TWZ_SECTION_TRANSIT_RUNS];
	tv->run_count = v->size[TWZ_SECTION_TRANSIT_RUNS] / 4;
	/* Under a cache budget: read on use (twz_transit_lazy.h). */
	tv->runs_lazy = twz__chunks_find(db, TWZ_SECTION_TRANSIT_RUNS);
	tv->access_lazy = twz__chunks_find(db, TWZ_SECTION_ACCESS);
	if (!tv->access_lazy)
		tv->access_lazy = twz__chunks_find(db, TWZ_SECTION_ACCESS_PACKED);
	tv->table_lazy = twz__chunks_find(db, TWZ_SECTION_ACCESS_TABLE);
	db->run_count = tv->run_count;
	tv->access = (db->c.required_features & TWZ_FEATURE_TRANSIT_ACCESS) != 0;
	if (tv->access) {
		/* Read in place: nothing is decoded at open. */
		tv->access_first = v->data[TWZ_SECTION_ACCESS_FIRST];
		tv->access_entries = v->data[TWZ_SECTION_ACCESS];
		tv->access_nodes = v->data[TWZ_SECTION_ACCESS_NODES];
		tv->access_table = v->data[TWZ_SECTION_ACCESS_TABLE];
		tv->node_dist_count = v->size[TWZ_SECTION_ACCESS] / TWZ_AE_SIZE;
		tv->access_packed = v->data[TWZ_SECTION_ACCESS_PACKED];
		tv->access_block_first = v->data[TWZ_SECTION_ACCESS_BLOCK_FIRST];
		tv->access_block_list = v->data[TWZ_SECTION_ACCESS_BLOCK_LIST];
		if (tv->access_packed)
			tv->node_dist_count = v->size[TWZ_SECTION_ACCESS_PACKED] / 4;
		tv->table_count = (uint64_t)tv->transit_count *
				  (tv->transit_count ? tv->transit_count - 1 : 0) / 2;
		return TWZ_OK;
	}
	tv->node_dist_count = v->size[TWZ_SECTION_TRANSIT_NODE_DIST] / tv->dist_bytes;
	tv->table_count = v->size[TWZ_SECTION_TRANSIT_TABLE] / tv->dist_bytes;
	tv->blocks = v->data[TWZ_SECTION_TRANSIT_BLOCKS];
	tv->lists = v->data[TWZ_SECTION_TRANSIT_LISTS];
	tv->nodes = v->data[TWZ_SECTION_TRANSIT_NODES];

	struct converter nc = { db, v->data[TWZ_SECTION_TRANSIT_NODE_DIST],
				tv->node_dist_count, NULL, 0 };
	struct converter tc = { db, v->data[TWZ_SECTION_TRANSIT_TABLE],
				tv->table_count, NULL, 0 };
	convert_node_dist(db, &nc);
	convert_table(db, &tc);
	tv->entry_bytes = nc.largest < 0xFFFF && tc.largest < 0xFFFF ? 4 : 8;
	if (tv->node_dist_count > SIZE_MAX / tv->entry_bytes ||
	    tv->table_count > SIZE_MAX / tv->entry_bytes)
		return TWZ_E_LIMIT;
	tv->node_dist_own = malloc(tv->node_dist_count ? tv->node_dist_count *
				   tv->entry_bytes : 1);
	tv->table_own = malloc(tv->table_count ? tv->table_count * tv->entry_bytes : 1);
	if (!tv->node_dist_own || !tv->table_own)
		return TWZ_E_NOMEM;
	nc.out = tv->node_dist_own;
	tc.out = tv->table_own;
	convert_node_dist(db, &nc);
	convert_table(db, &tc);
	tv->node_dist = tv->node_dist_own;
	tv->table = tv->table_own;
	/* The planes are not read again: free them when inflated. */
	for (uint32_t k = TWZ_SECTION_TRANSIT_NODE_DIST; k <= TWZ_SECTION_TRANSIT_TABLE; k++)
		if (db->inflated[k]) {
			free(db->inflated[k]);
			db->inflated[k] = NULL;
			db->content.data[k] = NULL;
		}
	return TWZ_OK;
}

static void transit_fini(twz_db *db)
{
	struct twz_transit_view *tv = &db->transit;

	free(tv->node_dist_own);
	free(tv->table_own);
	tv->node_dist_own = tv->table_own = NULL;
}

/* The cell of transit index i. */
static inline void transit_xy(const twz_db *db, uint32_t i, uint32_t *x,
			      uint32_t *y)
{
	uint32_t cell = u32_at(db->node_cell, u32_at(db->transit.nodes, i));

	*x = cell % db->c.width;
	*y = cell / db->c.width;
}

/* D(i, j) for transit indices i <= j: rows of j > i, one after another,
 * so for one i the entries of nearby j share cache lines. */
static inline struct dist table_row_at(const struct twz_transit_view *tv,
				       uint32_t i, uint32_t j)
{
	if (i == j)
		return (struct dist){ 0, 0, 0 };
	uint64_t m = tv->transit_count;
	return entry_at(tv, tv->table, i * (2 * m - i - 1) / 2 + (j - i - 1));
}

static inline struct dist table_at(const struct twz_transit_view *tv,
				   uint32_t i, uint32_t j)
{
	return i <= j ? table_row_at(tv, i, j) : table_row_at(tv, j, i);
}


/* A block's transit list and the distances of one of its nodes to it. */
struct side {
	uint32_t first;            /* into lists */
	uint32_t count;
	uint64_t dist;             /* into node_dist: the node's entries */
};

static inline void side_of(const twz_db *db, twz_node n, const struct spot *p,
			   struct side *sd)
{
	const struct twz_transit_view *tv = &db->transit;
	const uint8_t *r = block_record(tv, p);

	sd->first = twz_le32(r + TWZ_TB_FIRST_LIST);
	sd->count = twz_le32(r + TWZ_TB_SIZE + TWZ_TB_FIRST_LIST) - sd->first;
	sd->dist = twz_le64(r + TWZ_TB_FIRST_DIST) +
		   (uint64_t)(n - twz_le32(r + TWZ_TB_FIRST_NODE)) * sd->count;
}


/*
 * A reachable entry of a block list, decoded once per query: lists of up
 * to CACHED entries are held on the stack (a few KB); longer ones
 * (allowed up to TWZ_TRANSIT_MAX_LIST) are taken one entry at a time.
 */
#define CACHED 128

struct entry {
	uint32_t i;                /* transit index */
	uint32_t x, y;             /* its cell */
	struct dist d;             /* from the query's node */
	double value;              /* d as a double */
	double bound;              /* a lower bound through it */
};

/* Offer the pair (a, b) unless its lower bound (the reference cost never
 * exceeds a true distance; doubles within 1e-7) already loses. */
static inline void try_pair(const twz_db *db, const struct entry *a,
			    const struct entry *b, struct best *bt)
{
	if (bt->found &&
	    a->value + b->value + reference_value(db->c.connectivity, a->x, a->y, b->x, b->y) >
		    bt->value + 1e-6)
		return;
	struct dist ab = table_at(&db->transit, a->i, b->i);
	if (ab.far)
		return;
	struct dist c = { a->d.s + ab.s + b->d.s, a->d.d + ab.d + b->d.d, 0 };
	consider(bt, c, a->i, b->i);
}

/*
 * The best pair among a's entries and b's. The a entry with the least
 * bound goes first, for an early good best; then the table is read row by
 * row: pairs with i(a) <= i(b) by a, the others by b, so that the entries
 * of one row, for the clustered indices of one block's list, share cache
 * lines.
 */
static void scan_pairs(const twz_db *db, const struct entry *ea, uint32_t na,
		       const struct entry *eb, uint32_t nb, struct best *bt)
{
	uint32_t first = 0;

	if (!na || !nb)
		return;
	for (uint32_t i = 1; i < na; i++)
		if (ea[i].bound < ea[first].bound)
			first = i;
	for (uint32_t j = 0; j < nb; j++)
		try_pair(db, &ea[first], &eb[j], bt);
	for (uint32_t k = 0; k < na; k++) {
		if (k == first || (bt->found && ea[k].bound > bt->value + 1e-6))
			continue;
		for (uint32_t j = 0; j < nb; j++)
			try_pair(db, &ea[k], &eb[j], bt);
	}
}

/* The reachable entries of n's list [from, from + count); bounds against
 * the cell (ox, oy). */
static uint32_t entries_of(const twz_db *db, const struct side *sd,
			   uint32_t from, uint32_t count, const struct spot *pn,
			   uint32_t ox, uint32_t oy, struct entry *e)
{
	const struct twz_transit_view *tv = &db->transit;
	uint32_t n = 0;

	(void)pn;
	for (uint32_t j = from; j < from + count && j < sd->count; j++) {
		struct entry *x = &e[n];
		x->d = entry_at(tv, tv->node_dist, sd->dist + j);
		if (x->d.far)
			continue;
		x->i = u32_at(tv->lists, sd->first + j);
		transit_xy(db, x->i, &x->x, &x->y);
		x->value = dist_value(x->d);
		x->bound = x->value + reference_value(db->c.connectivity, x->x, x->y, ox, oy);
		n++;
	}
	return n;
}

/* The best pair for a global s, t, in pieces of CACHED entries a side. */
static struct best best_pair(const twz_db *db, twz_node s,
			     const struct spot *ps, twz_node t,
			     const struct spot *pt)
{
	struct side ss, st;
	struct best bt = { .found = 0 };
	struct entry ea[CACHED], eb[CACHED];

	if (db->transit.access)
		return twz__access_best_pair(db, s, t);

	side_of(db, s, ps, &ss);
	side_of(db, t, pt, &st);
	for (uint32_t i = 0; i < ss.count; i += CACHED) {
		uint32_t na = entries_of(db, &ss, i, CACHED, ps, pt->x, pt->y, ea);
		for (uint32_t j = 0; na && j < st.count; j += CACHED) {
			uint32_t nb = entries_of(db, &st, j, CACHED, pt, ps->x, ps->y, eb);
			scan_pairs(db, ea, na, eb, nb, &bt);
		}
	}
	return bt;
}

/* The best transit node of x's block on the way to transit index b (x and
 * b's node global to each other). */
static struct best best_toward(const twz_db *db, twz_node x,
			       const struct spot *px, uint32_t b)
{
	const struct twz_transit_view *tv = &db->transit;
	struct side sx;
	struct best bt = { .found = 0 };

	if (tv->access)
		return twz__access_best_toward(db, x, b);
	side_of(db, x, px, &sx);
	for (uint32_t i = 0; i < sx.count; i++) {
		struct dist da = entry_at(tv, tv->node_dist, sx.dist + i);
		if (da.far)
			continue;
		uint32_t ia = u32_at(tv->lists, sx.first + i);
		struct dist ab = table_at(tv, ia, b);
		if (ab.far)
			continue;
		struct dist c = { da.s + ab.s, da.d + ab.d, 0 };
		consider(&bt, c, ia, b);
	}
	return bt;
}

/* ---- local rows ------------------------------------------------------ */

static int legal(const twz_db *db, const struct spot *p, unsigned m)
{
	return m < db->c.connectivity &&
	       twz_move_legal(twz__walkable, db, p->x, p->y, m);
}

/* The move from x toward a target t of its outer square, or
 * TWZ_SYMBOL_NONE (only a crafted file, or a damaged chunk, has none). */
static unsigned local_move(const twz_db *db, twz_node x, const struct spot *px,
			   twz_node t, const struct spot *pt)
{
	unsigned sym = twz__transit_row_symbol(db, x, t);
	if (sym < TWZ_MOVE_COUNT)
		return sym;  /* checked legal at open, or as its chunk came in */
	if (sym != TWZ_SYMBOL_TOWARD && sym != TWZ_SYMBOL_NEAREST)
		return TWZ_SYMBOL_NONE;
	unsigned m = twz_direction_move(sym, (int32_t)pt->x - (int32_t)px->x,
					(int32_t)pt->y - (int32_t)px->y);
	if (m == TWZ_SYMBOL_NONE || !legal(db, px, m))
		return TWZ_SYMBOL_NONE;
	return m;
}

/* The node a legal move leads to. */
static inline twz_node step(const twz_db *db, const struct spot *p,
			    unsigned m)
{
	size_t cell = (size_t)(p->y + twz_move_dy[m]) * db->c.width +
		      (p->x + twz_move_dx[m]);
	return twz__cell_node(db, cell);
}

static twz_node transit_next(const twz_db *db, twz_node s, twz_node t,
			     const struct twz_span *r)
{
	const struct twz_transit_view *tv = &db->transit;
	struct spot ps, pt;
	unsigned m;

	(void)r;
	locate(db, s, &ps);
	locate(db, t, &pt);
	if (near_blocks(tv, &ps, &pt)) {
		m = local_move(db, s, &ps, t, &pt);
	} else {
		/* A move toward the pair's a is optimal toward t: a lies on
		 * a shortest s-t path, and in s's outer square. */
		struct best bt = best_pair(db, s, &ps, t, &pt);
		if (!bt.found)
			return TWZ_NONE;
		twz_node a = twz__transit_node(tv, bt.a);
		struct spot pa;
		locate(db, a, &pa);
		if (a == s || !near_blocks(tv, &ps, &pa))
			return TWZ_NONE;
		m = local_move(db, s, &ps, a, &pa);
	}
	if (m == TWZ_SYMBOL_NONE)
		return TWZ_NONE;
	return step(db, &ps, m);
}

/*
 * The walk, in chunks (the paper's Algorithm 1). State: the current node
 * x, a waypoint w in x's outer square on a shortest x-t path, and, once a
 * global pair was chosen, the transit index b of t's side with b on a
 * shortest path from w to t. Local moves toward w are optimal toward t.
 * When x reaches w, or w leaves x's outer square after a move, a new
 * waypoint is chosen: t itself when local (b is then dropped, as the local
 * rows need not pass b), b's node when local, else the best transit node
 * of x's block toward b (one list scan, not a pair scan); only the first
 * choice, or one after a local detour, scans the pair of lists.
 * Progress: every move is optimal toward t and costs at least 1, so the
 * remaining cost falls each move; a path has fewer moves than there are
 * nodes, so more moves, or a choice that does not move, mean a crafted
 * file: TWZ_E_DAMAGED.
 */
static twz_status transit_walk(const twz_db *db, twz_node s, twz_node t,
			       const struct twz_span *r, twz_node *buf,
			       size_t cap, size_t *len, uint32_t *straight,
			       uint32_t *diagonal)
{
	const struct twz_transit_view *tv = &db->transit;
	struct spot px, pt, pw;
	twz_node x = s, w = TWZ_NONE;
	uint32_t b = FAR32;
	struct twz_trail tr = { buf, cap, 0, 0, 0 };

	(void)r;
	locate(db, s, &px);
	locate(db, t, &pt);
	if (!len && !near_blocks(tv, &px, &pt)) {
		/* Cost only, global: the tables give it. */
		struct best bt = best_pair(db, s, &px, t, &pt);
		if (!bt.found)
			return TWZ_E_DAMAGED;
		if (bt.cost.s > UINT32_MAX || bt.cost.d > UINT32_MAX)
			return TWZ_E_DAMAGED;
		if (straight)
			*straight = (uint32_t)bt.cost.s;
		if (diagonal)
			*diagonal = (uint32_t)bt.cost.d;
		return TWZ_OK;
	}
	for (;;) {
		twz__trail_visit(&tr, x);
		if (x == t)
			break;
		if (tr.n > db->c.node_count)
			return TWZ_E_DAMAGED;
		if (w != TWZ_NONE && w != x && !near_blocks(tv, &px, &pw))
			w = TWZ_NONE;  /* a detour left w's neighbourhood */
		if (w == TWZ_NONE || w == x) {
			if (near_blocks(tv, &px, &pt)) {
				w = t;
				b = FAR32;
			} else if (b != FAR32) {
				twz_node nb = twz__transit_node(tv, b);
				struct spot pb;
				locate(db, nb, &pb);
				if (near_blocks(tv, &px, &pb)) {
					w = nb;
				} else {
					struct best bt = best_toward(db, x, &px, b);
					if (!bt.found)
						return TWZ_E_DAMAGED;
					w = twz__transit_node(tv, bt.a);
				}
			} else {
				struct best bt = best_pair(db, x, &px, t, &pt);
				if (!bt.found)
					return TWZ_E_DAMAGED;
				w = twz__transit_node(tv, bt.a);
				b = bt.b;
			}
			locate(db, w, &pw);
			if (w == x || !near_blocks(tv, &px, &pw))
				return TWZ_E_DAMAGED;
		}
		unsigned m = local_move(db, x, &px, w, &pw);
		if (m == TWZ_SYMBOL_NONE)
			return TWZ_E_DAMAGED;
		twz__trail_move(&tr, m);
		x = step(db, &px, m);
		move_spot(tv, &px, m);
	}
	return twz__trail_end(&tr, len, straight, diagonal);
}

static void transit_flow_field(const twz_db *db, twz_node t,
			       const struct twz_span *r, twz_node *next)
{
	for (twz_node n = 0; n < db->c.node_count; n++) {
		if (n == t)
			next[n] = t;
		else if (!twz__in_span(db, r, n))
			next[n] = TWZ_NONE;
		else
			next[n] = transit_next(db, n, t, r);
	}
}

const struct twz_backend twz_backend_transit = {
	.init = transit_init,
	.fini = transit_fini,
	.next = transit_next,
	.walk = transit_walk,
	.flow_field = transit_flow_field,
};
