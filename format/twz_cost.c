/*
 * twz_cost.c - the exact comparison of twz_cost.h's costs, for the rare
 * pair a double cannot tell apart.
 */
#include "twz_cost.h"

/* x * y < u * v, exactly, for u64 operands (128-bit products made of
 * 32-bit halves, so any C99 compiler does it). */
static int mul_less(uint64_t x, uint64_t y, uint64_t u, uint64_t v)
{
	uint64_t p[2], q[2];
	const uint64_t in[2][2] = { { x, y }, { u, v } };
	uint64_t *out[2] = { p, q };

	for (int k = 0; k < 2; k++) {
		uint64_t a = in[k][0], b = in[k][1];
		uint64_t al = a & 0xFFFFFFFFu, ah = a >> 32;
		uint64_t bl = b & 0xFFFFFFFFu, bh = b >> 32;
		uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
		uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
		out[k][0] = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
		out[k][1] = (mid << 32) | (ll & 0xFFFFFFFFu);
	}
	return p[0] < q[0] || (p[0] == q[0] && p[1] < q[1]);
}

int twz__cost_less_exact(struct twz__cost x, struct twz__cost y)
{
	/* Write x < y as P < Q sqrt(2) with magnitudes |P|, |Q|. */
	int p_neg = x.a < y.a, q_neg = y.b < x.b;
	uint64_t p = p_neg ? y.a - x.a : x.a - y.a;
	uint64_t q = q_neg ? x.b - y.b : y.b - x.b;

	if (p_neg != q_neg)
		return p_neg;
	/* Both positive: p^2 < 2 q^2; both negative: p^2 > 2 q^2. q < 2^63
	 * (diagonal counts are moves), so 2q does not wrap. */
	if (!p_neg)
		return mul_less(p, p, 2 * q, q);
	return mul_less(2 * q, q, p, p);
}
