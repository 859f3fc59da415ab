/*
 * twz_cost.h - exact path costs at run time, one type for every level
 * kind: a + b sqrt(2) with whole a and b. A grid counts its straight
 * moves in a and its diagonal ones in b; a graph or a navmesh holds its
 * integer arc weights in a and 0 in b. Sums saturate at UINT64_MAX
 * (no stored path comes near: FORMAT.md bounds every optimal cost
 * below 2^64 - 1), and comparisons are exact.
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

static inline double twz__cost_value(struct twz__cost c)
{
	return (double)c.a + (double)c.b * TWZ__SQRT2;
}

/* x * y < u * v, exactly, for u64 operands (128-bit products made of
 * 32-bit halves, so any C99 compiler does it). */
static inline int twz__mul_less(uint64_t x, uint64_t y, uint64_t u, uint64_t v)
{
	uint64_t p[2], q[2];
	const uint64_t *in[2][2] = { { &x, &y }, { &u, &v } };
	uint64_t *out[2] = { p, q };

	for (int k = 0; k < 2; k++) {
		uint64_t a = *in[k][0], b = *in[k][1];
		uint64_t al = a & 0xFFFFFFFFu, ah = a >> 32;
		uint64_t bl = b & 0xFFFFFFFFu, bh = b >> 32;
		uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
		uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
		out[k][0] = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
		out[k][1] = (mid << 32) | (ll & 0xFFFFFFFFu);
	}
	return p[0] < q[0] || (p[0] == q[0] && p[1] < q[1]);
}

/* x < y exactly: x.a - y.a < (y.b - x.b) sqrt(2). Doubles settle all
 * but near-equal costs (their rounding is far below the margin); those
 * are compared by squaring, which is exact. */
static inline int twz__cost_less(struct twz__cost x, struct twz__cost y)
{
	if (x.b == y.b)
		return x.a < y.a;
	if (x.a == y.a)
		return x.b < y.b;
	double fx = twz__cost_value(x), fy = twz__cost_value(y);
	double margin = 1e-9 * (fx > fy ? fx : fy);
	if (fx < fy - margin)
		return 1;
	if (fx > fy + margin)
		return 0;
	/* Write it as P < Q sqrt(2) with magnitudes |P|, |Q|. */
	int p_neg = x.a < y.a, q_neg = y.b < x.b;
	uint64_t p = p_neg ? y.a - x.a : x.a - y.a;
	uint64_t q = q_neg ? x.b - y.b : y.b - x.b;
	if (p_neg && !q_neg)
		return 1;
	if (!p_neg && q_neg)
		return 0;
	/* Both positive: p^2 < 2 q^2; both negative: p^2 > 2 q^2. q < 2^63
	 * (diagonal counts are moves), so 2q does not wrap. */
	if (!p_neg)
		return twz__mul_less(p, p, 2 * q, q);
	return twz__mul_less(2 * q, q, p, p);
}

#endif /* TWZ_COST_H */
