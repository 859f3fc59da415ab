/*
 * twz_junctions.c - the back end of a CPD file over a junction graph
 * (1.4, TWZ_FEATURE_JUNCTIONS): first-move rows between junctions only,
 * and for each link (a chain of cells with two moves each between two
 * junctions A and B) a row of d(A, t) - d(B, t) over the junctions t.
 * A cell inside a chain leaves by one of its chain's two ends; which one
 * follows from those differences and the cell's distance along the
 * chain, so twz_next reads at most three rows and no search is made.
 * Costs are exact pairs (straight, diagonal) compared without rounding.
 * No allocation, no locks, no I/O on the query path.
 */
#include "twz_backend.h"

#include <stdlib.h>

/* Node info: a junction's index, or this bit and the node's link. */
#define CHAIN 0x80000000u

struct twz_junctions {
	uint32_t jcount, lcount;
	const uint8_t *jnodes;      /* u32[J]: node of each junction */
	const uint8_t *joff;        /* u32[J+1] */
	const uint8_t *jruns;       /* u32[]: start << 4 | symbol */
	const uint8_t *links;       /* TWZ_JL_SIZE a link */
	const uint8_t *loff;        /* u32[L+1] */
	const uint8_t *lruns;       /* TWZ_JR_SIZE a run */
	struct jnode *node;         /* [node_count] */
	struct jlink *link;         /* [L] */
};

/* What a query reads of a node, in one place: its junction or link, and
 * for a chain cell its cost along the chain from the link's A. */
struct jnode {
	uint32_t info;              /* junction, or CHAIN | link */
	uint32_t s, d;              /* straight and diagonal moves from A */
};

/* A link as a query reads it: JUNCTION_LINKS' record, the link's cost
 * from A to B and where its row lies, decoded at open into one line. */
struct jlink {
	uint32_t a, b, first, count;
	uint32_t s, d;              /* its cost, A to B */
	uint32_t row, rows;         /* its runs in LINK_RUNS */
};

/* An exact cost or difference of costs: s + d * sqrt(2). */
struct jcost {
	int64_t s, d;
};

static inline struct jcost jc(int64_t s, int64_t d)
{
	return (struct jcost){ s, d };
}

static inline struct jcost jadd(struct jcost a, struct jcost b)
{
	return jc(a.s + b.s, a.d + b.d);
}

static inline struct jcost jsub(struct jcost a, struct jcost b)
{
	return jc(a.s - b.s, a.d - b.d);
}

/* The sign of a.s + a.d * sqrt(2), exactly: sqrt(2) is irrational, so
 * only (0, 0) is zero. Every part is below 2^31 (validated differences,
 * costs below 2^26), so the squares fit. */
static inline int jsign(struct jcost a)
{
	if (a.s >= 0 && a.d >= 0)
		return (a.s | a.d) != 0;
	if (a.s <= 0 && a.d <= 0)
		return -1;
	if (a.s > 0)
		return a.s * a.s > 2 * a.d * a.d ? 1 : -1;
	return 2 * a.d * a.d > a.s * a.s ? 1 : -1;
}

static inline int jless(struct jcost a, struct jcost b)
{
	return jsign(jsub(a, b)) < 0;
}

/* ---- what a query reads ------------------------------------------------ */

static inline uint32_t jnode(const struct twz_junctions *J, uint32_t j)
{
	return twz_le32(J->jnodes + 4 * (size_t)j);
}

static inline struct jlink link_of(const struct twz_junctions *J, uint32_t l)
{
	return J->link[l];
}

static inline struct jcost along(const struct twz_junctions *J, twz_node c)
{
	return jc(J->node[c].s, J->node[c].d);
}

static inline struct jcost length(const struct twz_junctions *J, uint32_t l)
{
	return jc(J->link[l].s, J->link[l].d);
}

/* d(A, t) - d(B, t) of link l for junction t: the last run of the link's
 * row that starts at or before t (one always does). */
static struct jcost delta(const struct twz_junctions *J, uint32_t l, uint32_t t)
{
	uint32_t lo = J->link[l].row, n = J->link[l].rows;
	const uint8_t *runs = J->lruns + (size_t)lo * TWZ_JR_SIZE;

	while (n > 1) {
		uint32_t half = n / 2;
		if (twz_le32(runs + (size_t)half * TWZ_JR_SIZE + TWZ_JR_START) <= t) {
			runs += (size_t)half * TWZ_JR_SIZE;
			n -= half;
		} else {
			n = half;
		}
	}
	return jc((int32_t)twz_le32(runs + TWZ_JR_STRAIGHT),
		  (int32_t)twz_le32(runs + TWZ_JR_DIAGONAL));
}

/* The node one move from node n, or TWZ_NONE when the move is not legal
 * there (only a crafted direction symbol makes it so). */
static inline twz_node step(const twz_db *db, twz_node n, unsigned m)
{
	uint32_t x, y;

	twz__node_xy(db, n, &x, &y);
	if (m >= db->c.connectivity || !twz_move_legal(twz__walkable, db, x, y, m))
		return TWZ_NONE;
	return twz__cell_node(db, (size_t)y * db->c.width + x +
				  (size_t)(int64_t)db->move_offset[m]);
}

/* The next node from junction j toward junction g (j != g, one region). */
static twz_node junction_step(const twz_db *db, uint32_t j, uint32_t g)
{
	const struct twz_junctions *J = db->junctions;
	unsigned sym = twz__plain_row_symbol(J->joff, J->jruns, j, g);
	twz_node s = jnode(J, j);

	if (sym == TWZ_SYMBOL_TOWARD || sym == TWZ_SYMBOL_NEAREST) {
		uint32_t sx, sy, gx, gy;
		twz__node_xy(db, s, &sx, &sy);
		twz__node_xy(db, jnode(J, g), &gx, &gy);
		sym = twz_direction_move(sym, (int32_t)gx - (int32_t)sx,
					 (int32_t)gy - (int32_t)sy);
	}
	if (sym >= TWZ_MOVE_COUNT)
		return TWZ_NONE;
	return step(db, s, sym);
}

/* The neighbour of chain cell c toward its link's A (toward < 0) or B. */
static inline twz_node chain_step(const struct twz_junctions *J,
				  const struct jlink *k, twz_node c, int toward)
{
	if (toward < 0)
		return c > k->first ? c - 1 : jnode(J, k->a);
	return c + 1 < k->first + k->count ? c + 1 : jnode(J, k->b);
}

/* Which end chain cell c (link l) leaves by toward junction t: -1 for A,
 * 1 for B. Via A costs p + d(A, t), via B len - p + d(B, t). */
static int exit_toward_junction(const struct twz_junctions *J, uint32_t l,
				twz_node c, uint32_t t)
{
	struct jcost p = along(J, c), len = length(J, l);
	struct jcost x = jadd(jsub(jadd(p, p), len), delta(J, l, t));

	return jsign(x) <= 0 ? -1 : 1;
}

/* Which end of link l (holding chain cell c) a path from junction s
 * enters by: -1 for A, 1 for B, as above with the roles swapped. */
static inline int entry_from_junction(const struct twz_junctions *J,
				      uint32_t l, twz_node c, uint32_t s)
{
	return exit_toward_junction(J, l, c, s);
}

/* The first chain cell from link k's end (-1: A, 1: B). */
static inline twz_node chain_entry(const struct jlink *k, int end)
{
	return end < 0 ? k->first : k->first + k->count - 1;
}

/*
 * Chain cell s (link ls) toward chain cell t (link lt): the end s leaves
 * by. On one link, the direct walk, or round through the ends; on two,
 * the best of the four pairs of ends, each cost taken relative to
 * d(B, D) so that link rows give it: d(A, C) - d(B, D) =
 * delta_s(C) + delta_t(B), d(A, D) - d(B, D) = delta_s(D) and
 * d(B, C) - d(B, D) = delta_t(B).
 */
static int exit_toward_chain(const struct twz_junctions *J, uint32_t ls,
			     twz_node s, uint32_t lt, twz_node t)
{
	struct jlink ks = link_of(J, ls), kt = link_of(J, lt);
	struct jcost p = along(J, s), q = along(J, t);
	struct jcost lens = length(J, ls), lent = length(J, lt);

	if (ls == lt) {
		struct jcost ab = delta(J, ls, ks.b);  /* d(A, B) */
		if (t > s) {
			struct jcost around = jadd(jadd(p, ab), jsub(lent, q));
			return jless(around, jsub(q, p)) ? -1 : 1;
		}
		struct jcost around = jadd(jadd(jsub(lens, p), ab), q);
		return jless(around, jsub(p, q)) ? 1 : -1;
	}
	struct jcost sc = delta(J, ls, kt.a), sd = delta(J, ls, kt.b);
	struct jcost tb = delta(J, lt, ks.b);
	struct jcost ac = jadd(jadd(p, jadd(sc, tb)), q);
	struct jcost ad = jadd(jadd(p, sd), jsub(lent, q));
	struct jcost bc = jadd(jadd(jsub(lens, p), tb), q);
	struct jcost bd = jadd(jsub(lens, p), jsub(lent, q));
	struct jcost best_a = jless(ad, ac) ? ad : ac;
	struct jcost best_b = jless(bd, bc) ? bd : bc;

	return jless(best_b, best_a) ? 1 : -1;
}

/* The next node from s toward t (distinct, one region). */
static twz_node junctions_next(const twz_db *db, twz_node s, twz_node t,
			       const struct twz_span *r)
{
	const struct twz_junctions *J = db->junctions;
	uint32_t is = J->node[s].info, it = J->node[t].info;

	(void)r;
	if (!(is & CHAIN)) {
		if (!(it & CHAIN))
			return junction_step(db, is, it);
		uint32_t lt = it & ~CHAIN;
		struct jlink kt = link_of(J, lt);
		int end = entry_from_junction(J, lt, t, is);
		uint32_t y = end < 0 ? kt.a : kt.b;
		if (y == is)
			return chain_entry(&kt, end);
		return junction_step(db, is, y);
	}
	uint32_t ls = is & ~CHAIN;
	struct jlink ks = link_of(J, ls);
	int toward = it & CHAIN ? exit_toward_chain(J, ls, s, it & ~CHAIN, t)
				: exit_toward_junction(J, ls, s, it);
	return chain_step(J, &ks, s, toward);
}

/*
 * Walk s -> t: from a junction, a row lookup a step; inside a chain, the
 * first step decides the direction and the chain's two moves do the
 * rest. Bounded by the node count against crafted files.
 */
static twz_status junctions_walk(const twz_db *db, twz_node s, twz_node t,
				 const struct twz_span *r, twz_node *buf,
				 size_t cap, size_t *len, uint32_t *straight,
				 uint32_t *diagonal)
{
	const struct twz_junctions *J = db->junctions;
	struct twz_trail tr = { buf, cap, 0, 0, 0 };
	twz_node prev = TWZ_NONE;

	for (twz_node at = s;; ) {
		twz__trail_visit(&tr, at);
		if (at == t)
			break;
		if (tr.n > db->c.node_count)
			return TWZ_E_DAMAGED;
		twz_node nx;
		uint32_t info = J->node[at].info;
		if ((info & CHAIN) && prev != TWZ_NONE) {
			struct jlink k = link_of(J, info & ~CHAIN);
			nx = chain_step(J, &k, at, 1);
			if (nx == prev)
				nx = chain_step(J, &k, at, -1);
		} else {
			nx = junctions_next(db, at, t, r);
		}
		if (nx == TWZ_NONE)
			return TWZ_E_DAMAGED;
		uint32_t ax, ay, bx, by;
		twz__node_xy(db, at, &ax, &ay);
		twz__node_xy(db, nx, &bx, &by);
		twz__trail_move(&tr, ax != bx && ay != by ? 4 : 0);
		prev = at;
		at = nx;
	}
	return twz__trail_end(&tr, len, straight, diagonal);
}

static void junctions_flow_field(const twz_db *db, twz_node t,
				 const struct twz_span *r, twz_node *next)
{
	for (twz_node n = 0; n < db->c.node_count; n++) {
		if (n == t)
			next[n] = t;
		else if (!twz__in_span(db, r, n))
			next[n] = TWZ_NONE;
		else
			next[n] = junctions_next(db, n, t, r);
	}
}

/* ---- at open ----------------------------------------------------------- */

/* Each node's junction or link, and each chain cell's cost from its
 * link's A along the chain (validation proved the chains). */
static twz_status junctions_init(twz_db *db)
{
	const struct twz_content *v = &db->content;
	struct twz_junctions *J = calloc(1, sizeof *J);
	uint32_t n = db->c.node_count;

	if (!J)
		return TWZ_E_NOMEM;
	db->junctions = J;
	const uint8_t *p = v->data[TWZ_SECTION_JUNCTION_PARAMS];
	J->jcount = twz_le32(p + TWZ_JP_JUNCTIONS);
	J->lcount = twz_le32(p + TWZ_JP_LINKS);
	J->jnodes = v->data[TWZ_SECTION_JUNCTION_NODES];
	J->joff = v->data[TWZ_SECTION_JUNCTION_ROW_OFFSETS];
	J->jruns = v->data[TWZ_SECTION_JUNCTION_RUNS];
	J->links = v->data[TWZ_SECTION_JUNCTION_LINKS];
	J->loff = v->data[TWZ_SECTION_LINK_ROW_OFFSETS];
	J->lruns = v->data[TWZ_SECTION_LINK_RUNS];
	J->node = calloc(n ? n : 1, sizeof *J->node);
	J->link = malloc((J->lcount ? J->lcount : 1) * sizeof *J->link);
	if (!J->node || !J->link)
		return TWZ_E_NOMEM;
	for (uint32_t j = 0; j < J->jcount; j++)
		J->node[jnode(J, j)].info = j;
	for (uint32_t l = 0; l < J->lcount; l++) {
		const uint8_t *r = J->links + (size_t)l * TWZ_JL_SIZE;
		struct jlink k = {
			twz_le32(r + TWZ_JL_A), twz_le32(r + TWZ_JL_B),
			twz_le32(r + TWZ_JL_FIRST), twz_le32(r + TWZ_JL_COUNT),
			0, 0, twz_le32(J->loff + 4 * (size_t)l),
			twz_le32(J->loff + 4 * ((size_t)l + 1)) -
				twz_le32(J->loff + 4 * (size_t)l)
		};
		uint32_t s = 0, d = 0;
		twz_node prev = jnode(J, k.a);
		for (uint32_t i = 0; i <= k.count; i++) {
			twz_node c = i < k.count ? k.first + i : jnode(J, k.b);
			uint32_t ax, ay, bx, by;
			twz__node_xy(db, prev, &ax, &ay);
			twz__node_xy(db, c, &bx, &by);
			if (ax != bx && ay != by)
				d++;
			else
				s++;
			if (i < k.count)
				J->node[c] = (struct jnode){ CHAIN | l, s, d };
			prev = c;
		}
		k.s = s;
		k.d = d;
		J->link[l] = k;
	}
	db->memory_size += (size_t)n * sizeof *J->node +
			   (size_t)J->lcount * sizeof *J->link;
	/* Every row's runs, as twz_info counts them. */
	db->run_count = v->size[TWZ_SECTION_JUNCTION_RUNS] / 4 +
			v->size[TWZ_SECTION_LINK_RUNS] / TWZ_JR_SIZE;
	return TWZ_OK;
}

static void junctions_fini(twz_db *db)
{
	struct twz_junctions *J = db->junctions;

	if (!J)
		return;
	free(J->node);
	free(J->link);
	free(J);
	db->junctions = NULL;
}

const struct twz_backend twz_backend_junctions = {
	.init = junctions_init,
	.fini = junctions_fini,
	.next = junctions_next,
	.walk = junctions_walk,
	.flow_field = junctions_flow_field,
};
