/*
 * twz_cost.h - exact path costs, one type for every level kind and both
 * sides (the bake's searches over costed grids, the runtime's searches):
 * a + b sqrt(2) with whole a and b. A grid counts its straight moves in
 * a and its diagonal ones in b (or, with areas, their costs in units of
 * FORMAT.md 5k); a graph or a navmesh holds its integer arc weights in a
 * and 0 in b. Sums saturate at UINT64_MAX (no stored path comes near:
 * FORMAT.md bounds every optimal cost below 2^64 - 1), and comparisons
 * are exact.
 */
#ifndef TWZ_COST_H
#define TWZ_COST_H

#include <stdint.h>

struct twz__cost {
	uint64_t a;   /* whole units */
	uint64_t b;   /* units of sqrt(2) */
};

#define TWZ__SQRT2 1.41421356237309504880

static inline uint64_t twz__sat_add(uint64_t x, uint64_t y)
{
	return x + y < x ? UINT64_MAX : x + y;
}

static inline struct twz__cost twz__cost_add(struct twz__cost x,
					     struct twz__cost y)
{
	struct twz__cost c = { twz__sat_add(x.a, y.a), twz__sat_add(x.b, y.b) };

	return c;
}

static inline int twz__cost_eq(struct twz__cost x, struct twz__cost y)
{
	return x.a == y.a && x.b == y.b;
}

/* Below 2^63 through int64_t, which converts in one instruction where
 * u64 takes several. */
static inline double twz__u64_value(uint64_t v)
{
	return v >> 63 ? (double)v : (double)(int64_t)v;
}

static inline double twz__cost_value(struct twz__cost c)
{
	return twz__u64_value(c.a) + twz__u64_value(c.b) * TWZ__SQRT2;
}

/* x < y exactly, by squaring (twz_cost.c): the rare near-equal case
 * of twz__cost_less, kept out of line so the common one stays small. */
int twz__cost_less_exact(struct twz__cost x, struct twz__cost y);

/* x < y exactly: x.a - y.a < (y.b - x.b) sqrt(2). Doubles settle all
 * but near-equal costs (their rounding is far below the margin); those
 * are compared exactly. */
static inline int twz__cost_less(struct twz__cost x, struct twz__cost y)
{
	if (x.b == y.b)
		return x.a < y.a;
	if (x.a == y.a)
		return x.b < y.b;
	double fx = twz__cost_value(x), fy = twz__cost_value(y);
	double margin = 1e-9 * (fx + fy);
	if (fx < fy - margin)
		return 1;
	if (fx > fy + margin)
		return 0;
	return twz__cost_less_exact(x, y);
}

#endif /* TWZ_COST_H */
