/*
 * twz_transit_access.c - far queries of a TRANSIT file of the access-node
 * layout (format 1.4, FORMAT.md 5j), read in place from the mapping (or,
 * under a cache budget, chunk by chunk: twz_transit_lazy.h): each
 * node's access nodes (a few, sorted by exact cost; 8-byte entries, or
 * packed 4-byte ones that name a place in the list of the node's block
 * and offsets from the reference cost) and the transit table as
 * bit-packed rows of residuals against the reference cost. No
 * allocation: a query decodes its two access lists onto the stack, in
 * pieces of PIECE entries (a node has at most max_list, checked at open).
 *
 * The pair scan stops early: entries are taken in order of a lower
 * bound through them (twz__access_best_pair says which), and d(s, a) +
 * ref(a, b) + d(b, t) bounds each pair from below (the reference cost
 * never exceeds a distance), so a pair whose bound loses to the best so
 * far is not read from the table.
 * Doubles only filter (within 1e-6 of integers below 2^28); the winner is
 * decided exactly (dist_less).
 */
#include "twz_transit_query.h"
#include "twz_transit_lazy.h"

#include <math.h>

#define PIECE 64

/* An access node of the query's node, with its row of the table. */
struct aentry {
	uint32_t i;                /* transit index */
	uint32_t x, y;             /* its cell */
	struct dist d;             /* from the query's node */
	double value;              /* d as a double */
	double excess;             /* value less the reference cost from
				      the query's node (at least 0) */
	double bound;              /* value + reference cost to the other
				      end: no pair through it costs less */
	uint64_t row_bit;          /* row i: j in (i, row_end) */
	uint64_t mask_s;           /* of a straight field */
	unsigned ws, w;            /* bits: straight field, whole entry */
	int64_t bs, bd;
};

/* A piece of one node's list, bounded against the other end, and its
 * entries in order of bound. */
struct piece {
	struct aentry e[PIECE];
	uint8_t order[PIECE];
	uint32_t n;
	double least_excess;       /* of its entries, a little less */
};

static void load_record(const struct twz_transit_view *tv, uint32_t i,
			struct aentry *e)
{
	const uint8_t *r = tv->access_nodes + (size_t)i * TWZ_AN_SIZE;

	e->i = i;
	e->x = twz_le16(r + TWZ_AN_X);
	e->y = twz_le16(r + TWZ_AN_Y);
	e->ws = r[TWZ_AN_WIDTH_S];
	e->w = e->ws + r[TWZ_AN_WIDTH_D];
	e->mask_s = (UINT64_C(1) << e->ws) - 1;
	e->row_bit = twz_le64(r + TWZ_AN_ROW_BIT);
	e->bs = (int32_t)twz_le32(r + TWZ_AN_BASE_S);
	e->bd = (int32_t)twz_le32(r + TWZ_AN_BASE_D);
}

static inline uint32_t absdiff(uint32_t a, uint32_t b)
{
	return a > b ? a - b : b - a;
}

/* Entries [from, from + count) of node n's (cell nx, ny) access list
 * (count at most PIECE), into e: 8-byte entries, or packed ones whose
 * places index the list of n's block and whose fields are offsets from
 * the reference cost; *bad set when their chunk is damaged. */
static uint32_t load_entries(const twz_db *db, twz_node n, uint32_t nx,
			     uint32_t ny, uint32_t from, uint32_t count,
			     struct aentry *e, int *bad)
{
	const struct twz_transit_view *tv = &db->transit;
	uint32_t e0 = twz_le32(tv->access_first + 4 * (size_t)n);
	uint32_t e1 = twz_le32(tv->access_first + 4 * ((size_t)n + 1));
	uint32_t k = 0;
	uint8_t copy[PIECE * TWZ_AE_SIZE];

	/* After a damaged piece nothing more: a list's first piece comes
	 * first, from the chunk whose check covers the whole list. */
	if (*bad || e0 + from >= e1)
		return 0;
	uint32_t take = e1 - e0 - from < count ? e1 - e0 - from : count;
	/* The block lists say which form: they come with packed entries. */
	int packed = tv->access_block_first != NULL;
	const uint8_t *list = twz__access_entries(db, e0 + from, take,
						  packed ? 4 : TWZ_AE_SIZE, copy);
	if (!list) {
		*bad = 1;
		return 0;
	}
	if (packed) {
		/* Validated: the cell lies in the block grid, every place in
		 * its block's list, every count non-negative. */
		uint32_t b = (ny - tv->origin_y) / tv->side * tv->cols +
			     (nx - tv->origin_x) / tv->side;
		const uint8_t *bl = tv->access_block_list +
				    4 * (size_t)twz_le32(tv->access_block_first + 4 * (size_t)b);
		for (; k < take; k++) {
			uint32_t w = twz_le32(list + 4 * (size_t)k);
			/* The fields: d less the reference cost, so they
			 * give the excess too. */
			int32_t os = (int32_t)TWZ_AP_STRAIGHT(w) - TWZ_AP_BIAS;
			int32_t od = (int32_t)TWZ_AP_DIAGONAL(w) - TWZ_AP_BIAS;
			uint32_t rs, rd;
			load_record(tv, twz_le32(bl + 4 * TWZ_AP_PLACE(w)), &e[k]);
			twz_transit_reference(db->c.connectivity,
					      absdiff(e[k].x, nx),
					      absdiff(e[k].y, ny), &rs, &rd);
			e[k].d = (struct dist){ (uint64_t)((int64_t)rs + os),
						(uint64_t)((int64_t)rd + od), 0 };
			e[k].value = dist_value(e[k].d);
			e[k].excess = (double)os + (double)od * SQRT2;
		}
		return k;
	}
	for (; k < take; k++) {
		const uint8_t *a = list + (size_t)k * TWZ_AE_SIZE;
		load_record(tv, twz_le32(a + TWZ_AE_TRANSIT), &e[k]);
		e[k].d = (struct dist){ twz_le16(a + TWZ_AE_STRAIGHT),
					twz_le16(a + TWZ_AE_DIAGONAL), 0 };
		e[k].value = dist_value(e[k].d);
		e[k].excess = e[k].value -
			      reference_value(db->c.connectivity, e[k].x, e[k].y,
					      nx, ny);
	}
	return k;
}

static inline uint32_t access_len(const struct twz_transit_view *tv,
				  twz_node n)
{
	return twz_le32(tv->access_first + 4 * ((size_t)n + 1)) -
	       twz_le32(tv->access_first + 4 * (size_t)n);
}

static inline void node_xy(const twz_db *db, twz_node n, uint32_t *x,
			   uint32_t *y)
{
	uint32_t cell = twz_le32(db->node_cell + 4 * (size_t)n);

	*x = cell % db->c.width;
	*y = cell / db->c.width;
}

/*
 * Entries [from, from + PIECE) of n's list, each bounded against the
 * cell (ox, oy) at the other end, and their order by bound, ties in list
 * order (a stable sort). The order is counted, not searched for: each
 * entry's place is the number of entries before it, without a branch
 * that depends on the bounds (a few dozen of them: those branches, not
 * the compares, were the cost).
 */
static void load_piece(const twz_db *db, twz_node n, uint32_t nx,
		       uint32_t ny, uint32_t from, uint32_t ox, uint32_t oy,
		       struct piece *p, int *bad)
{
	double bound[PIECE];
	double least = INFINITY;

	p->n = load_entries(db, n, nx, ny, from, PIECE, p->e, bad);
	for (uint32_t k = 0; k < p->n; k++) {
		struct aentry *e = &p->e[k];
		e->bound = e->value + reference_value(db->c.connectivity,
						      e->x, e->y, ox, oy);
		bound[k] = e->bound;
		least = e->excess < least ? e->excess : least;
	}
	/* A filter: on the safe side of the doubles' rounding. */
	p->least_excess = least > 1e-7 && least < INFINITY ? least - 1e-7 : 0;
	for (uint32_t k = 0; k < p->n; k++) {
		uint32_t r = 0;
		for (uint32_t j = 0; j < p->n; j++)
			r += (bound[j] < bound[k]) | ((bound[j] == bound[k]) & (j < k));
		p->order[r] = (uint8_t)k;
	}
}

/*
 * d(s, a) + D(a, b) + d(b, t) into *c, unless the pair's bound d(s, a)
 * + ref(a, b) + d(b, t) exceeds lim: 0 then, or when its part of the
 * table is damaged. D(a, b) comes from the row of the smaller index:
 * both lie in one region (checked at open), so that row holds the other.
 */
static inline int pair_cost(const twz_db *db, const struct aentry *a,
			    const struct aentry *b, double lim,
			    struct dist *c, int *bad)
{
	uint32_t rs, rd;

	twz_transit_reference(db->c.connectivity, absdiff(a->x, b->x),
			      absdiff(a->y, b->y), &rs, &rd);
	if (a->value + b->value + (double)rs + (double)rd * SQRT2 > lim)
		return 0;
	c->s = a->d.s + b->d.s;
	c->d = a->d.d + b->d.d;
	c->far = 0;
	if (a->i == b->i)
		return 1;
	const struct aentry *lo = a->i < b->i ? a : b;
	const struct aentry *hi = a->i < b->i ? b : a;
	uint64_t f = twz__access_table_bits(db, lo->row_bit +
						(uint64_t)(hi->i - lo->i - 1) * lo->w,
					    lo->w, bad);
	int64_t s = rs + lo->bs + (int64_t)(f & lo->mask_s);
	int64_t d = rd + lo->bd + (int64_t)(f >> lo->ws);
	/* Validated at open, or (a table read on use) here: both sums lie
	 * in [0, 2^26). */
	if (db->transit.table_lazy &&
	    (s < 0 || s >= TWZ_MAX_NODES || d < 0 || d >= TWZ_MAX_NODES)) {
		*bad = 1;
		return 0;
	}
	c->s += (uint64_t)s;
	c->d += (uint64_t)d;
	return 1;
}

static inline double limit(const struct best *bt)
{
	return bt->found ? bt->value + 1e-6 : INFINITY;
}

/*
 * The pairs of pa's entries and pb's, both in order of bound; the least
 * cost, of equal ones the first met. A pair through a costs at least
 * a's bound, d(s, a) + ref(a, t), plus the least excess d(b, t) -
 * ref(b, t) of pb (ref(a, b) >= ref(a, t) - ref(b, t)), so the scan
 * stops at the first a whose sum loses to the best so far; one through
 * b at least b's bound, ref(s, b) + d(b, t), plus a's excess d(s, a) -
 * ref(s, a) (ref(a, b) >= ref(s, b) - ref(s, a)), so a's row stops at
 * the first b whose sum loses.
 */
static void scan(const twz_db *db, const struct piece *pa,
		 const struct piece *pb, struct best *bt)
{
	for (uint32_t k = 0; k < pa->n; k++) {
		const struct aentry *a = &pa->e[pa->order[k]];
		if (a->bound + pb->least_excess > limit(bt))
			break;
		double excess = a->excess > 1e-7 ? a->excess - 1e-7 : 0;
		for (uint32_t j = 0; j < pb->n; j++) {
			const struct aentry *b = &pb->e[pb->order[j]];
			struct dist c;
			if (b->bound + excess > limit(bt))
				break;
			if (pair_cost(db, a, b, limit(bt), &c, &bt->damaged))
				consider(bt, c, a->i, b->i);
		}
	}
}

struct best twz__access_best_pair(const twz_db *db, twz_node s, twz_node t)
{
	const struct twz_transit_view *tv = &db->transit;
	struct piece pa, pb;
	struct best bt = { .found = 0 };
	uint32_t ls = access_len(tv, s), lt = access_len(tv, t);
	uint32_t sx, sy, tx, ty;

	node_xy(db, s, &sx, &sy);
	node_xy(db, t, &tx, &ty);
	/* s's list in one piece (the rule) is decoded once. */
	if (ls <= PIECE)
		load_piece(db, s, sx, sy, 0, tx, ty, &pa, &bt.damaged);
	for (uint32_t j0 = 0; j0 < lt; j0 += PIECE) {
		load_piece(db, t, tx, ty, j0, sx, sy, &pb, &bt.damaged);
		for (uint32_t i0 = 0; i0 < ls; i0 += PIECE) {
			if (ls > PIECE)
				load_piece(db, s, sx, sy, i0, tx, ty, &pa,
					   &bt.damaged);
			scan(db, &pa, &pb, &bt);
		}
	}
	if (bt.damaged)
		bt.found = 0;
	return bt;
}

struct best twz__access_best_toward(const twz_db *db, twz_node x, uint32_t b)
{
	const struct twz_transit_view *tv = &db->transit;
	struct piece pa;
	struct aentry eb;
	struct best bt = { .found = 0 };
	uint32_t lx = access_len(tv, x), xx, xy;

	load_record(tv, b, &eb);
	eb.d = (struct dist){ 0, 0, 0 };
	eb.value = 0;
	node_xy(db, x, &xx, &xy);
	for (uint32_t i0 = 0; i0 < lx; i0 += PIECE) {
		load_piece(db, x, xx, xy, i0, eb.x, eb.y, &pa, &bt.damaged);
		for (uint32_t k = 0; k < pa.n; k++) {
			const struct aentry *a = &pa.e[pa.order[k]];
			struct dist c;
			if (a->bound > limit(&bt))
				break;
			if (pair_cost(db, a, &eb, limit(&bt), &c, &bt.damaged))
				consider(&bt, c, a->i, b);
		}
	}
	if (bt.damaged)
		bt.found = 0;
	return bt;
}
