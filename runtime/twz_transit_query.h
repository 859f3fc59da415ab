/*
 * twz_transit_query.h - what the TRANSIT back end's two layouts share,
 * private to twz_transit.c (block lists, 1.1) and twz_transit_access.c
 * (access nodes, 1.4): exact costs, the least of many, lower bounds, and
 * the access-layout searches twz_transit.c calls.
 */
#ifndef TWZ_TRANSIT_QUERY_H
#define TWZ_TRANSIT_QUERY_H

#include "twz_backend.h"

#define SQRT2 1.41421356237309504880

/* An exact cost (straight, diagonal); far when unreachable. */
struct dist {
	uint64_t s, d;
	int far;
};


/*
 * a < b exactly: a.s + a.d sqrt2 < b.s + b.d sqrt2. Stored distances are
 * below 2^26 (validated), so sums of three are below 2^28 and the squares
 * below fit 64 bits.
 */
static inline int dist_less(struct dist a, struct dist b)
{
	int64_t ds = (int64_t)a.s - (int64_t)b.s;  /* ds < dd sqrt2 */
	int64_t dd = (int64_t)b.d - (int64_t)a.d;

	if (ds < 0 && dd >= 0)
		return 1;
	if (ds >= 0 && dd <= 0)
		return 0;
	if (ds >= 0)
		return ds * ds < 2 * dd * dd;
	return ds * ds > 2 * dd * dd;
}

/*
 * Keeps the least of many costs. The double is a filter only: it is
 * within 1e-7 of the exact value (integers below 2^28), so a cost more
 * than 1e-6 above the best double cannot be less, and anything nearer is
 * decided exactly.
 */
struct best {
	struct dist cost;
	double value;
	uint32_t a, b;             /* transit indices of the winning pair */
	int found;
	int damaged;               /* a chunk read on use failed: found is
				      then cleared, never a lesser pair */
};

static inline void consider(struct best *bt, struct dist c, uint32_t a,
			    uint32_t b)
{
	double v = (double)c.s + (double)c.d * SQRT2;

	if (bt->found && v > bt->value + 1e-6)
		return;
	if (bt->found && !dist_less(c, bt->cost))
		return;
	bt->cost = c;
	bt->value = v;
	bt->a = a;
	bt->b = b;
	bt->found = 1;
}

/* The reference cost between two cells as a double: a lower bound on
 * every distance between them. */
static inline double reference_value(unsigned connectivity, uint32_t ax,
				     uint32_t ay, uint32_t bx, uint32_t by)
{
	uint32_t rs, rd;

	twz_transit_reference(connectivity, ax > bx ? ax - bx : bx - ax,
			      ay > by ? ay - by : by - ay, &rs, &rd);
	return (double)rs + (double)rd * SQRT2;
}

static inline double dist_value(struct dist d)
{
	return (double)d.s + (double)d.d * SQRT2;
}

/* The best pair (a, b) of s's and t's access nodes, s and t global to
 * each other: d(s, t) = d(s, a) + D(a, b) + d(b, t). Not found only in a
 * crafted file. */
struct best twz__access_best_pair(const twz_db *db, twz_node s, twz_node t);

/* The best access node a of x toward transit index b (b outside x's
 * outer square): d(x, b) = d(x, a) + D(a, b). */
struct best twz__access_best_toward(const twz_db *db, twz_node x, uint32_t b);

/* The node of transit index i, either layout. */
static inline twz_node twz__transit_node(const struct twz_transit_view *tv,
					 uint32_t i)
{
	if (tv->access)
		return twz_le32(tv->access_nodes + (size_t)i * TWZ_AN_SIZE +
				TWZ_AN_NODE);
	return twz_le32(tv->nodes + 4 * (size_t)i);
}

#endif /* TWZ_TRANSIT_QUERY_H */
