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

#define PIECE 64

/* An access node of the query's node, with its row of the table. */
struct aentry {
	uint32_t i;                /* transit index */
	uint32_t x, y;             /* its cell */
	struct dist d;             /* from the query's node */
	double value;              /* d as a double */
	double bound;              /* value + reference cost to the other
				      end: no pair through it costs less */
	uint64_t row_bit;          /* row i: j in (i, row_end) */
	uint32_t row_end;
	unsigned ws, wd;
	int64_t bs, bd;
};

static void load_record(const struct twz_transit_view *tv, uint32_t i,
			struct aentry *e)
{
	const uint8_t *r = tv->access_nodes + (size_t)i * TWZ_AN_SIZE;

	e->i = i;
	e->x = twz_le16(r + TWZ_AN_X);
	e->y = twz_le16(r + TWZ_AN_Y);
	e->row_end = twz_le32(r + TWZ_AN_ROW_END);
	e->ws = r[TWZ_AN_WIDTH_S];
	e->wd = r[TWZ_AN_WIDTH_D];
	e->row_bit = twz_le64(r + TWZ_AN_ROW_BIT);
	e->bs = (int32_t)twz_le32(r + TWZ_AN_BASE_S);
	e->bd = (int32_t)twz_le32(r + TWZ_AN_BASE_D);
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
			uint32_t rs, rd;
			load_record(tv, twz_le32(bl + 4 * TWZ_AP_PLACE(w)), &e[k]);
			twz_transit_reference(db->c.connectivity,
					      e[k].x > nx ? e[k].x - nx : nx - e[k].x,
					      e[k].y > ny ? e[k].y - ny : ny - e[k].y,
					      &rs, &rd);
			e[k].d = (struct dist){
				(uint64_t)rs + TWZ_AP_STRAIGHT(w) - TWZ_AP_BIAS,
				(uint64_t)rd + TWZ_AP_DIAGONAL(w) - TWZ_AP_BIAS, 0 };
			e[k].value = dist_value(e[k].d);
		}
		return k;
	}
	for (; k < take; k++) {
		const uint8_t *a = list + (size_t)k * TWZ_AE_SIZE;
		load_record(tv, twz_le32(a + TWZ_AE_TRANSIT), &e[k]);
		e[k].d = (struct dist){ twz_le16(a + TWZ_AE_STRAIGHT),
					twz_le16(a + TWZ_AE_DIAGONAL), 0 };
		e[k].value = dist_value(e[k].d);
	}
	return k;
}

static inline uint32_t access_len(const struct twz_transit_view *tv,
				  twz_node n)
{
	return twz_le32(tv->access_first + 4 * ((size_t)n + 1)) -
	       twz_le32(tv->access_first + 4 * (size_t)n);
}

/* D(a, b) from the row of the smaller index. Both lie in one region
 * (checked at open), so the row holds the other. */
static inline struct dist table_dist(const twz_db *db, const struct aentry *a,
				     const struct aentry *b, int *bad)
{
	if (a->i == b->i)
		return (struct dist){ 0, 0, 0 };
	const struct aentry *lo = a->i < b->i ? a : b;
	const struct aentry *hi = a->i < b->i ? b : a;
	unsigned w = lo->ws + lo->wd;
	uint64_t f = twz__access_table_bits(db, lo->row_bit +
						(uint64_t)(hi->i - lo->i - 1) * w,
					    w, bad);
	uint32_t rs, rd;

	twz_transit_reference(db->c.connectivity,
			      a->x > b->x ? a->x - b->x : b->x - a->x,
			      a->y > b->y ? a->y - b->y : b->y - a->y, &rs, &rd);
	int64_t s = rs + lo->bs + (int64_t)(f & ((UINT64_C(1) << lo->ws) - 1));
	int64_t d = rd + lo->bd + (int64_t)(f >> lo->ws);
	/* Validated at open, or (a table read on use) here: both sums lie
	 * in [0, 2^26). */
	if (db->transit.table_lazy &&
	    (s < 0 || s >= TWZ_MAX_NODES || d < 0 || d >= TWZ_MAX_NODES)) {
		*bad = 1;
		return (struct dist){ 0, 0, 1 };
	}
	return (struct dist){ (uint64_t)s, (uint64_t)d, 0 };
}

static inline void pair(const twz_db *db, const struct aentry *a,
			const struct aentry *b, struct best *bt)
{
	if (bt->found &&
	    a->value + b->value +
			    reference_value(db->c.connectivity, a->x, a->y, b->x, b->y) >
		    bt->value + 1e-6)
		return;
	struct dist ab = table_dist(db, a, b, &bt->damaged);
	if (ab.far)
		return;
	struct dist c = { a->d.s + ab.s + b->d.s, a->d.d + ab.d + b->d.d, 0 };
	consider(bt, c, a->i, b->i);
}

/* Each entry's bound against the cell (x, y) at the other end, then
 * the entries in order of bound (insertion sort: a few dozen). */
static void order_by_bound(const twz_db *db, struct aentry *e, uint32_t n,
			   uint32_t x, uint32_t y)
{
	for (uint32_t k = 0; k < n; k++)
		e[k].bound = e[k].value +
			     reference_value(db->c.connectivity, e[k].x, e[k].y, x, y);
	for (uint32_t k = 1; k < n; k++) {
		struct aentry v = e[k];
		uint32_t j = k;
		while (j > 0 && e[j - 1].bound > v.bound) {
			e[j] = e[j - 1];
			j--;
		}
		e[j] = v;
	}
}


static inline void node_xy(const twz_db *db, twz_node n, uint32_t *x,
			   uint32_t *y)
{
	uint32_t cell = twz_le32(db->node_cell + 4 * (size_t)n);

	*x = cell % db->c.width;
	*y = cell / db->c.width;
}

/*
 * A pair through a costs at least a's bound, d(s, a) + ref(a, t), and
 * one through b at least d(s, b)'s lower bound ref(s, b) plus d(b, t)
 * (ref obeys the triangle inequality and never exceeds a distance): with
 * both lists in order of bound, the scan stops at the first a, and a row
 * at the first b, whose bound loses to the best pair so far.
 */
struct best twz__access_best_pair(const twz_db *db, twz_node s, twz_node t)
{
	const struct twz_transit_view *tv = &db->transit;
	struct aentry ea[PIECE], eb[PIECE];
	struct best bt = { .found = 0 };
	uint32_t ls = access_len(tv, s), lt = access_len(tv, t);
	uint32_t sx, sy, tx, ty;

	node_xy(db, s, &sx, &sy);
	node_xy(db, t, &tx, &ty);
	for (uint32_t j0 = 0; j0 < lt; j0 += PIECE) {
		uint32_t nb = load_entries(db, t, tx, ty, j0, PIECE, eb,
					   &bt.damaged);
		order_by_bound(db, eb, nb, sx, sy);
		for (uint32_t i0 = 0; i0 < ls; i0 += PIECE) {
			uint32_t na = load_entries(db, s, sx, sy, i0, PIECE, ea,
						   &bt.damaged);
			order_by_bound(db, ea, na, tx, ty);
			for (uint32_t k = 0; k < na; k++) {
				if (bt.found && ea[k].bound > bt.value + 1e-6)
					break;
				for (uint32_t j = 0; j < nb; j++) {
					if (bt.found && eb[j].bound > bt.value + 1e-6)
						break;
					pair(db, &ea[k], &eb[j], &bt);
				}
			}
		}
	}
	if (bt.damaged)
		bt.found = 0;
	return bt;
}

struct best twz__access_best_toward(const twz_db *db, twz_node x, uint32_t b)
{
	const struct twz_transit_view *tv = &db->transit;
	struct aentry ea[PIECE], eb;
	struct best bt = { .found = 0 };
	uint32_t lx = access_len(tv, x), xx, xy;

	load_record(tv, b, &eb);
	eb.d = (struct dist){ 0, 0, 0 };
	eb.value = 0;
	node_xy(db, x, &xx, &xy);
	for (uint32_t i0 = 0; i0 < lx; i0 += PIECE) {
		uint32_t na = load_entries(db, x, xx, xy, i0, PIECE, ea,
					   &bt.damaged);
		order_by_bound(db, ea, na, eb.x, eb.y);
		for (uint32_t k = 0; k < na; k++) {
			if (bt.found && ea[k].bound > bt.value + 1e-6)
				break;
			pair(db, &ea[k], &eb, &bt);
		}
	}
	if (bt.damaged)
		bt.found = 0;
	return bt;
}
