/*
 * cpd_lines.c - the CPD's rows from line separators (cpd_lines.h says
 * what and why).
 *
 * The work is cut into strips of boxes, one column of boxes or more
 * each, and a strip into bands. A strip's thread makes its line cells'
 * searches band by band (a line cell's row, and its keys to every node),
 * keeping the line between two bands for both; a line cell on the
 * strip's east edge belongs to the next strip and is searched again here
 * for its keys only. Then each box of the band:
 *   1. each source's search inside the box (its keys to the ring, d_I,
 *      and to the box's cells by paths inside it);
 *   2. its access cells, from the witnesses;
 *   3. the keys of every source to every cell of S, the least over the
 *      whole ring of d_I(v, x) + D(x, t) (a path to t leaves the box's
 *      inside through a first ring cell, or stays inside), a source per
 *      vector lane;
 *   4. targets in chunks of node order: each source's keys (its access
 *      cells, or S's), its first moves from its own keys and its
 *      neighbours', and the moves on to the row's encoder.
 * Rows go to their strip's runs and are laid out in node order at the
 * end, so the bytes do not depend on the threads.
 */
#include "cpd_lines.h"

#include <stdlib.h>
#include <string.h>

#include "first_moves.h"
#include "rows.h"
#include "spool.h"
#include "target_clones.h"

#define TARGET_CHUNK 256  /* targets worked out at a time */
#define QUEUE_BUCKETS 8   /* a move goes up at most 4 buckets */
#define STRIP_BYTES ((uint64_t)256 << 20)  /* line keys a strip holds */

/* The loops over targets, sources and ring cells, compiled a second
 * time for AVX2: the same integer results, twice the lanes. */
#define VECTOR_CLONES TWZ_TARGET_CLONES("avx2", "default")

/* The convergents p / q of sqrt(2), as (q, p). */
static const uint32_t convergent[][2] = {
	{ 1, 1 }, { 2, 3 }, { 5, 7 }, { 12, 17 }, { 29, 41 }, { 70, 99 },
	{ 169, 239 }, { 408, 577 }, { 985, 1393 }, { 2378, 3363 },
	{ 5741, 8119 }, { 13860, 19601 }, { 33461, 47321 },
	{ 80782, 114243 }, { 195025, 275807 },
};

int twz_lines_key_scale(double max_cost, struct twz_lines_keys *keys)
{
	for (size_t i = 0; i < sizeof convergent / sizeof convergent[0]; i++) {
		double q = convergent[i][0], p = convergent[i][1];
		if (q <= 1.41421356237309504880 * max_cost + 1)
			continue;
		if (p * (max_cost + 2) >= TWZ_LINES_KEY_LIMIT)
			return -1;
		keys->straight = convergent[i][0];
		keys->diagonal = convergent[i][1];
		return 0;
	}
	return -1;
}

/* ---- the cut ---------------------------------------------------------- */

/* Spacing, margin and strips of a level. */
struct lines_cut {
	uint32_t spacing;       /* g: lines at x, y = 0, g, 2g, ... */
	uint32_t margin;        /* m: S is the box grown by m */
	uint32_t cols, rows;    /* boxes */
	uint32_t strip_boxes;   /* box columns a strip */
	uint32_t strips;
};

/* Line keys a strip holds at once: the lines above and below a band and
 * the columns between them, 4 bytes a node each. */
static uint64_t strip_rows(uint32_t spacing, uint32_t boxes)
{
	return 2 * ((uint64_t)boxes * spacing + 1) + (uint64_t)(boxes + 1) * (spacing - 1);
}

/*
 * The cut of a level of width x height cells and nodes nodes on threads
 * threads (lopt's spacing and margin when set): lines every 24 cells on
 * levels below 40,000 nodes, 32 below 250,000, 40 above, and a margin of
 * a third of that. A line cell costs a search of its region, a source
 * inside a box about |S| |ring| vector lanes, so the spacing grows with
 * the level (tests/bench/lines_bench.c measures the cuts). Strips are as
 * wide as a thread's share of the box columns, as long as the keys of
 * their walkable line cells fit STRIP_BYTES.
 */
static void lines_cut(uint32_t width, uint32_t height, uint64_t nodes,
		      unsigned threads, const struct twz_lines_options *lopt,
		      struct lines_cut *c)
{
	c->spacing = nodes < 40000 ? 24 : nodes < 250000 ? 32 : 40;
	if (lopt && lopt->spacing)
		c->spacing = lopt->spacing;
	c->margin = lopt && lopt->margin ? lopt->margin : c->spacing / 3;
	c->cols = width > 1 ? (width - 2) / c->spacing + 1 : 1;
	c->rows = height > 1 ? (height - 2) / c->spacing + 1 : 1;
	uint32_t share = (c->cols + threads - 1) / (threads ? threads : 1);
	uint32_t w = share ? share : 1;
	/* Only walkable line cells hold keys. */
	double walkable = (double)nodes / ((double)width * height + 1);
	while (w > 1 && strip_rows(c->spacing, w) * walkable * 4.0 * nodes > STRIP_BYTES)
		w--;
	c->strip_boxes = w;
	c->strips = (c->cols + w - 1) / w;
}

/* The lines key of the search's exact key (graph.h) of node t. */
static inline uint32_t cost_key(const struct twz_lines_keys *k,
				const struct twz_search *ws, uint32_t t)
{
	struct twz_cost c = twz_key_cost(twz_search_key(ws, t));
	return k->straight * c.straight + k->diagonal * c.diagonal;
}

/* The cost of node t after a search from one node, as a number. */
static inline double search_cost(const struct twz_search *ws, uint32_t t)
{
	return twz_cost_value(twz_key_cost(twz_search_key(ws, t)));
}

/* ---- what every thread reads ----------------------------------------- */

struct lines_level {
	const struct twz_graph *gr;
	struct lines_cut cut;
	struct twz_lines_keys keys;
	uint32_t move_key[TWZ_MOVE_COUNT];
	int direction;
	/* results: strip k's rows in strip_runs[k]; source s's at
	 * row_at[s] in strip row_strip[s], row_len[s] runs */
	struct twz_runs *strip_runs;
	uint32_t *row_strip;
	uint64_t *row_at;
	uint32_t *row_len;
};

/* ---- a thread's state ------------------------------------------------ */

/* A bucket queue over local cells: bucket key >> shift; a move adds at
 * least q >= 2^shift and at most p < 3 * 2^shift to a key, so a bucket
 * is only ever added to from lower ones, and QUEUE_BUCKETS live at once. */
struct queue {
	uint32_t shift;
	uint32_t *item[QUEUE_BUCKETS];
	uint32_t len[QUEUE_BUCKETS];
};

/* A ring cell of the box being worked out. */
struct ring_cell {
	uint32_t node;
	uint32_t local;           /* index in the box grid */
	const uint32_t *key;      /* D(x, .), by node */
};

/* A walkable cell of S. */
struct s_cell {
	uint32_t node;
	int32_t inside;           /* its index among the box's sources, or -1 */
};

/* A source inside the box. */
struct inside {
	uint32_t node;
	uint32_t local;           /* index in the box grid */
	uint32_t lo, hi;          /* its region's targets */
	uint32_t access_len;      /* its access cells: access_* [i * nring..] */
};

struct lines_worker {
	const struct lines_level *lv;
	struct twz_search ws;
	/* line keys: free rows of node_count keys */
	uint32_t **free_rows;
	uint32_t free_len;
	/* the strip's line keys, NULL where no node: the lines above and
	 * below the band ([x - strip x0]) and its columns ([column of the
	 * strip][y - band y0 - 1]) */
	uint32_t **top, **bottom, **vseg;
	uint32_t strip_x0, strip_cells, strip_cols;
	struct twz_runs *runs;    /* the strip's rows */
	uint32_t strip;
	/* the box: its grid of L x L cells, ring and inside included */
	uint32_t box_side;
	uint8_t *box_moves;       /* [L*L]: the moves a search inside expands */
	int32_t box_off[TWZ_MOVE_COUNT];
	int32_t *ring_at;         /* [L*L]: ring index, or -1 */
	int32_t *in_at;           /* [L*L]: source index, or -1 */
	uint32_t *box_key;        /* [L*L]: a source's keys inside the box */
	struct queue queue;
	struct ring_cell *ring;
	uint32_t nring;
	struct inside *in;
	uint32_t nin;
	struct s_cell *s_cells;   /* S's cells, in node order */
	uint32_t ns;
	uint32_t *wit;            /* S's outer layer's nodes */
	uint32_t nwit;
	/* per source i, ring cell x, cell j of S */
	uint32_t *ring_keyT;      /* [x * nin + i]: d_I(v_i, x) */
	uint32_t *inside_keyT;    /* [i' * nin + i]: v_i to v_i' inside */
	uint32_t *s_keyT;         /* [j * nin + i]: v_i to S's cell j */
	uint32_t *access_ring;    /* [i * nring + k]: access cells */
	uint32_t *access_key;     /* [i * nring + k]: keys to them */
	/* access cells' scratch */
	uint32_t *wit_key;        /* [w * nring + x]: D(x, witness w) */
	uint64_t *tight;          /* [w * words]: ring cells on a shortest
				   * path to witness w */
	uint32_t *ring_dI, *ring_sum, *count, *uncovered;
	/* chunks */
	uint32_t *ring_lo, *ring_hi;  /* [nring]: ring_bounds */
	uint32_t *single;         /* [nin]: far_row's one access cell */
	uint32_t *kept;           /* [nring]: far_row's access cells */
	int32_t *excess;          /* [nring * nring]: excess() */
	uint32_t *excess_stamp;   /* [nring * nring]: its chunk */
	uint32_t chunk_stamp;
	uint32_t *single_key;     /* [nin]: and the source's key to it */
	uint32_t *rows;           /* [nin * TARGET_CHUNK]: keys */
	uint8_t *chunk_moves;     /* [nin * TARGET_CHUNK] */
	struct twz_row_stream *stream;   /* [nin] */
	struct twz_runs *in_runs;        /* [nin] */
	uint32_t in_cap;          /* sources the arrays hold */
};

/*
 * Dijkstra from cell src over the box's grid: cell c expands the moves
 * box_moves[c] (0 for a ring cell: reached, not expanded). Afterwards
 * box_key[c] is each cell's least key, FAR where none reached. A key
 * drained from its bucket is final (a move goes at least one bucket up),
 * and a cell is in a bucket at most once (a lower key in the same bucket
 * only updates it), so a bucket holds at most L * L entries.
 */
static void box_search(struct lines_worker *wk, uint32_t src)
{
	struct queue *q = &wk->queue;
	const uint32_t shift = q->shift, cells = wk->box_side * wk->box_side;
	const uint32_t *move_key = wk->lv->move_key;
	uint32_t *key = wk->box_key;
	uint32_t queued = 1, b = 0;

	for (uint32_t c = 0; c < cells; c++)
		key[c] = TWZ_LINES_FAR;
	for (unsigned i = 0; i < QUEUE_BUCKETS; i++)
		q->len[i] = 0;
	key[src] = 0;
	q->item[0][q->len[0]++] = src;
	for (; queued; b++) {
		uint32_t r = b % QUEUE_BUCKETS;
		for (uint32_t i = 0; i < q->len[r]; i++) {
			uint32_t c = q->item[r][i];
			queued--;
			if (key[c] >> shift != b)
				continue;  /* since entered lower */
			uint32_t kc = key[c];
			for (unsigned out = wk->box_moves[c]; out; out &= out - 1) {
				unsigned m = (unsigned)__builtin_ctz(out);
				uint32_t n = (uint32_t)((int32_t)c + wk->box_off[m]);
				uint32_t k = kc + move_key[m];
				if (k >= key[n])
					continue;
				uint32_t kb = k >> shift;
				int queued_there = key[n] != TWZ_LINES_FAR &&
						   key[n] >> shift == kb;
				key[n] = k;
				if (!queued_there) {
					uint32_t rn = kb % QUEUE_BUCKETS;
					q->item[rn][q->len[rn]++] = n;
					queued++;
				}
			}
		}
		q->len[r] = 0;
	}
}

/* ---- line keys ------------------------------------------------------- */

static uint32_t *row_take(struct lines_worker *wk)
{
	if (wk->free_len)
		return wk->free_rows[--wk->free_len];
	uint32_t n = wk->lv->gr->node_count;
	return malloc((size_t)(n ? n : 1) * sizeof(uint32_t));
}

static void row_give(struct lines_worker *wk, uint32_t *row)
{
	if (row)
		wk->free_rows[wk->free_len++] = row;  /* room made at init */
}

/* The keys from line cell (x, y) to every node (*row, NULL when the cell
 * is not walkable), and its CPD row into the strip's runs when the strip
 * owns it. 0, or -1 out of memory. */
static int line_row(struct lines_worker *wk, uint32_t x, uint32_t y,
		    int owned, uint32_t **row)
{
	const struct lines_level *lv = wk->lv;
	const struct twz_graph *gr = lv->gr;

	*row = NULL;
	if (x >= gr->width || y >= gr->height)
		return 0;
	uint32_t u = gr->cell_node[(size_t)y * gr->width + x];
	if (u == TWZ_NODE_NONE)
		return 0;
	if (twz_search_run(&wk->ws, u) != 0)
		return -1;
	if (owned) {
		struct twz_runs *out = wk->runs;
		uint64_t before = out->len;
		const uint8_t *moves = wk->ws.moves;
		if ((lv->direction ? twz_row_encode_direction(gr, u, moves, out)
				   : twz_row_encode(gr, u, moves, out)) != 0)
			return -1;
		lv->row_strip[u] = wk->strip;
		lv->row_at[u] = before;
		lv->row_len[u] = (uint32_t)(out->len - before);
	}
	uint32_t *k = row_take(wk);
	if (!k)
		return -1;
	uint32_t comp = gr->node_comp[u];
	uint32_t lo = gr->comp_first[comp], hi = gr->comp_first[comp + 1];
	for (uint32_t t = 0; t < lo; t++)
		k[t] = TWZ_LINES_FAR;
	for (uint32_t t = lo; t < hi; t++)
		k[t] = cost_key(&lv->keys, &wk->ws, t);
	for (uint32_t t = hi; t < gr->node_count; t++)
		k[t] = TWZ_LINES_FAR;
	*row = k;
	return 0;
}

/* ---- a box: its cells ------------------------------------------------ */

static uint32_t node_at(const struct twz_graph *gr, int64_t x, int64_t y)
{
	if (x < 0 || y < 0 || x >= gr->width || y >= gr->height)
		return TWZ_NODE_NONE;
	return gr->cell_node[(size_t)y * gr->width + (size_t)x];
}

static int cmp_s_node(const void *a, const void *b)
{
	const struct s_cell *x = a, *y = b;

	return (x->node > y->node) - (x->node < y->node);
}

/* The cells of box (bx, by): ring, sources, S (in node order) and its
 * witnesses, and the moves a search inside the box expands. */
static void box_cells(struct lines_worker *wk, uint32_t bx, uint32_t by)
{
	const struct lines_level *lv = wk->lv;
	const struct twz_graph *gr = lv->gr;
	const uint32_t g = lv->cut.spacing, L = wk->box_side;
	const int64_t X0 = (int64_t)bx * g, Y0 = (int64_t)by * g;
	const int64_t m = lv->cut.margin;

	wk->nring = wk->nin = 0;
	for (uint32_t ly = 0; ly < L; ly++) {
		for (uint32_t lx = 0; lx < L; lx++) {
			uint32_t c = ly * L + lx;
			uint32_t v = node_at(gr, X0 + lx, Y0 + ly);
			wk->ring_at[c] = wk->in_at[c] = -1;
			wk->box_moves[c] = 0;
			if (v == TWZ_NODE_NONE)
				continue;
			if (lx == 0 || ly == 0 || lx == g || ly == g) {
				const uint32_t *key;
				if (ly == 0)
					key = wk->top[X0 + lx - wk->strip_x0];
				else if (ly == g)
					key = wk->bottom[X0 + lx - wk->strip_x0];
				else
					key = wk->vseg[((X0 + lx - wk->strip_x0) / g) *
						       (g - 1) + ly - 1];
				wk->ring_at[c] = (int32_t)wk->nring;
				wk->ring[wk->nring++] = (struct ring_cell){ v, c, key };
				continue;
			}
			/* A move from inside lands inside or on the ring. */
			for (unsigned k = 0; k < gr->connectivity; k++)
				if (gr->neighbour[(size_t)v * TWZ_MOVE_COUNT + k] !=
				    TWZ_NODE_NONE)
					wk->box_moves[c] |= (uint8_t)(1u << k);
			uint32_t comp = gr->node_comp[v];
			wk->in_at[c] = (int32_t)wk->nin;
			wk->in[wk->nin++] = (struct inside){
				v, c, gr->comp_first[comp], gr->comp_first[comp + 1], 0 };
		}
	}
	/* S: the box grown by m; its outer layer the witnesses. */
	wk->ns = wk->nwit = 0;
	for (int64_t y = Y0 - m; y <= Y0 + g + m; y++) {
		for (int64_t x = X0 - m; x <= X0 + g + m; x++) {
			uint32_t v = node_at(gr, x, y);
			if (v == TWZ_NODE_NONE)
				continue;
			int32_t inside = -1;
			if (x > X0 && y > Y0 && x < X0 + g && y < Y0 + g)
				inside = wk->in_at[(y - Y0) * L + (x - X0)];
			wk->s_cells[wk->ns++] = (struct s_cell){ v, inside };
			if (x == X0 - m || y == Y0 - m || x == X0 + g + m ||
			    y == Y0 + g + m)
				wk->wit[wk->nwit++] = v;
		}
	}
	qsort(wk->s_cells, wk->ns, sizeof *wk->s_cells, cmp_s_node);
}

/* ---- a box: each source's keys near it ------------------------------- */

/*
 * Source i's access cells: few ring cells that hit every witness of its
 * region, by a greedy cover (the ring cell on a shortest path to most
 * witnesses not yet hit, the lowest index on ties). A witness's
 * distance is the least d_I + D over the whole ring; dI the source's
 * keys inside the box (box_key).
 */
VECTOR_CLONES static void access_cells(struct lines_worker *wk, uint32_t i)
{
	const uint32_t nring = wk->nring, words = (nring + 63) / 64;
	uint32_t *restrict dI = wk->ring_dI, *restrict sum = wk->ring_sum;
	uint32_t *ring = wk->access_ring + (size_t)i * nring;
	uint32_t *key = wk->access_key + (size_t)i * nring;
	uint32_t nun = 0, len = 0;

	for (uint32_t x = 0; x < nring; x++)
		dI[x] = wk->box_key[wk->ring[x].local];
	for (uint32_t w = 0; w < wk->nwit; w++) {
		const uint32_t *restrict wd = wk->wit_key + (size_t)w * nring;
		uint64_t *tw = wk->tight + (size_t)w * words;
		uint32_t best = TWZ_LINES_FAR;
		for (uint32_t x = 0; x < nring; x++) {
			sum[x] = dI[x] + wd[x];
			best = sum[x] < best ? sum[x] : best;
		}
		if (best >= TWZ_LINES_FAR)
			continue;  /* another region's */
		memset(tw, 0, words * sizeof *tw);
		for (uint32_t x = 0; x < nring; x++)
			tw[x / 64] |= (uint64_t)(sum[x] == best) << (x % 64);
		wk->uncovered[nun++] = w;
	}
	while (nun) {
		memset(wk->count, 0, nring * sizeof *wk->count);
		for (uint32_t u = 0; u < nun; u++) {
			const uint64_t *tw = wk->tight + (size_t)wk->uncovered[u] * words;
			for (uint32_t j = 0; j < words; j++)
				for (uint64_t bits = tw[j]; bits; bits &= bits - 1)
					wk->count[j * 64 + (uint32_t)__builtin_ctzll(bits)]++;
		}
		uint32_t pick = 0;
		for (uint32_t x = 1; x < nring; x++)
			if (wk->count[x] > wk->count[pick])
				pick = x;
		ring[len] = pick;
		key[len++] = dI[pick];
		uint32_t kept = 0;
		for (uint32_t u = 0; u < nun; u++) {
			uint32_t w = wk->uncovered[u];
			if (!(wk->tight[(size_t)w * words + pick / 64] >> (pick % 64) & 1))
				wk->uncovered[kept++] = w;
		}
		nun = kept;
	}
	wk->in[i].access_len = len;
}

/*
 * Every source's keys to every cell t of S: the least over the ring of
 * d_I(v, x) + D(x, t), and for t inside the box its key by paths inside
 * it. A shortest v-t path that leaves the box's inside meets the ring
 * first at some x, by a path inside (d_I); else it stays inside.
 */
VECTOR_CLONES static void s_keys(struct lines_worker *wk)
{
	const uint32_t nin = wk->nin;

	for (uint32_t j = 0; j < wk->ns; j++) {
		const struct s_cell *sc = &wk->s_cells[j];
		uint32_t *restrict out = wk->s_keyT + (size_t)j * nin;
		if (sc->inside >= 0)
			memcpy(out, wk->inside_keyT + (size_t)sc->inside * nin,
			       nin * sizeof *out);
		else
			for (uint32_t i = 0; i < nin; i++)
				out[i] = TWZ_LINES_FAR;
		for (uint32_t x = 0; x < wk->nring; x++) {
			uint32_t d = wk->ring[x].key[sc->node];
			if (d >= TWZ_LINES_FAR)
				continue;  /* another region */
			const uint32_t *restrict dI = wk->ring_keyT + (size_t)x * nin;
			for (uint32_t i = 0; i < nin; i++) {
				uint32_t s = dI[i] + d;
				out[i] = s < out[i] ? s : out[i];
			}
		}
	}
}

/* ---- a box: its rows, a chunk of targets at a time -------------------- */

/* Each ring cell's least and greatest key to the targets [c0, c0 +
 * len) it reaches (lo > hi when none). */
VECTOR_CLONES static void ring_bounds(struct lines_worker *wk, uint32_t c0,
				      uint32_t len)
{
	for (uint32_t x = 0; x < wk->nring; x++) {
		const uint32_t *restrict d = wk->ring[x].key + c0;
		uint32_t lo = TWZ_LINES_FAR, hi = 0;
		for (uint32_t k = 0; k < len; k++) {
			uint32_t v = d[k];
			lo = v < lo ? v : lo;
			v = v < TWZ_LINES_FAR ? v : 0;
			hi = v > hi ? v : hi;
		}
		wk->ring_lo[x] = lo;
		wk->ring_hi[x] = hi;
	}
}

/* The most D(a, t) - D(b, t) over the chunk's targets [c0, c0 + len)
 * (0 at least: targets no ring cell reaches count as 0), worked out
 * once a chunk for each pair of ring cells asked for. */
VECTOR_CLONES static int32_t excess(struct lines_worker *wk, uint32_t a,
				    uint32_t b, uint32_t c0, uint32_t len)
{
	size_t at = (size_t)a * wk->nring + b;

	if (wk->excess_stamp[at] == wk->chunk_stamp)
		return wk->excess[at];
	const uint32_t *restrict da = wk->ring[a].key + c0;
	const uint32_t *restrict db = wk->ring[b].key + c0;
	int32_t most = INT32_MIN;
	for (uint32_t k = 0; k < len; k++) {
		int32_t e = (int32_t)(da[k] - db[k]);
		most = e > most ? e : most;
	}
	wk->excess_stamp[at] = wk->chunk_stamp;
	wk->excess[at] = most;
	return most;
}

/*
 * Source i's keys to the targets [c0, c0 + len), into its chunk row,
 * then S's cells [sj, send) (in node order) from s_keys. The least over
 * its access cells of key + D(a, t), over those that can give the least
 * of some target of the chunk (ka + lo no more than the least ka + hi);
 * and when one of them, a, gives the least of every target (ka + D(a, t)
 * <= kb + D(b, t) for each other b: the excess of a over b at most kb -
 * ka), a's row plus ka alone. Then, when no cell of S is in the chunk,
 * wk->single[i] is a, else NONE.
 */
VECTOR_CLONES static void far_row(struct lines_worker *wk, uint32_t i,
				  uint32_t c0, uint32_t len, uint32_t sj,
				  uint32_t send)
{
	const uint32_t *ring = wk->access_ring + (size_t)i * wk->nring;
	const uint32_t *key = wk->access_key + (size_t)i * wk->nring;
	const uint32_t na = wk->in[i].access_len, nin = wk->nin;
	uint32_t *restrict row = wk->rows + (size_t)i * TARGET_CHUNK;
	uint32_t *kept = wk->kept;
	uint32_t bound = TWZ_LINES_FAR, nkept = 0, best = 0;

	for (uint32_t j = 0; j < na; j++) {
		uint32_t a = ring[j];
		if (wk->ring_lo[a] <= wk->ring_hi[a] &&
		    key[j] + wk->ring_hi[a] < bound)
			bound = key[j] + wk->ring_hi[a];
	}
	for (uint32_t j = 0; j < na; j++) {
		uint32_t a = ring[j];
		if (wk->ring_lo[a] > wk->ring_hi[a] ||
		    key[j] + wk->ring_lo[a] > bound)
			continue;
		if (!nkept || key[j] + wk->ring_lo[a] <
			      key[kept[best]] + wk->ring_lo[ring[kept[best]]])
			best = nkept;
		kept[nkept++] = j;
	}
	uint32_t alone = nkept == 1;
	if (nkept > 1) {
		uint32_t ja = kept[best];
		alone = 1;
		for (uint32_t k = 0; k < nkept && alone; k++) {
			uint32_t jb = kept[k];
			if (jb != ja &&
			    (int64_t)excess(wk, ring[ja], ring[jb], c0, len) >
			    (int64_t)key[jb] - key[ja])
				alone = 0;
		}
		if (alone) {
			kept[0] = ja;
			nkept = 1;
		}
	}
	for (uint32_t n = 0; n < nkept; n++) {
		uint32_t ka = key[kept[n]];
		const uint32_t *restrict d = wk->ring[ring[kept[n]]].key + c0;
		if (!n) {
			for (uint32_t k = 0; k < len; k++)
				row[k] = ka + d[k];
		} else {
			for (uint32_t k = 0; k < len; k++) {
				uint32_t s = ka + d[k];
				row[k] = s < row[k] ? s : row[k];
			}
		}
	}
	if (!nkept)
		for (uint32_t k = 0; k < len; k++)
			row[k] = TWZ_LINES_FAR;
	wk->single[i] = alone && sj == send ? ring[kept[0]] : TWZ_NODE_NONE;
	wk->single_key[i] = nkept ? key[kept[0]] : 0;
	for (uint32_t j = sj; j < send; j++)
		row[wk->s_cells[j].node - c0] = wk->s_keyT[(size_t)j * nin + i];
}

/* The moves whose pair with their opposite is worked out once, from
 * the source side: E, S, SE, SW (opposites W, N, NW, NE). */
static const uint8_t opposite_move[TWZ_MOVE_COUNT] = { 2, 3, 0, 1, 6, 7, 4, 5 };
#define FORWARD_MOVES 0x66u

/*
 * The optimal first moves of every source toward the targets [c0, c0 +
 * len), into its row of wk->chunk_moves, from the chunk rows: move m of
 * v to n is optimal toward t when d(v, t) - d(n, t) = c(m), and then n's
 * opposite move is not, but when d(n, t) - d(v, t) = c(m). So each pair
 * of neighbours inside the box is compared once, a source's moves to the
 * ring against the ring cell's keys; and not target by target where
 * both rows are one ring cell's plus a constant.
 */
VECTOR_CLONES static void chunk_first_moves(struct lines_worker *wk,
					    uint32_t c0, uint32_t len)
{
	const struct lines_level *lv = wk->lv;
	const uint32_t C = TARGET_CHUNK;

	memset(wk->chunk_moves, 0, (size_t)wk->nin * C);
	for (uint32_t i = 0; i < wk->nin; i++) {
		const struct inside *in = &wk->in[i];
		const uint32_t *restrict row = wk->rows + (size_t)i * C;
		uint8_t *restrict mv = wk->chunk_moves + (size_t)i * C;
		for (unsigned moves = wk->box_moves[in->local]; moves;
		     moves &= moves - 1) {
			unsigned m = (unsigned)__builtin_ctz(moves);
			uint32_t nc = (uint32_t)((int32_t)in->local + wk->box_off[m]);
			uint32_t km = lv->move_key[m];
			uint8_t bit = (uint8_t)(1u << m);
			if (wk->in_at[nc] < 0) {
				uint32_t x = (uint32_t)wk->ring_at[nc];
				if (wk->single[i] == x) {
					/* d(v, t) - d(x, t) is v's key to x. */
					if (wk->single_key[i] == km)
						for (uint32_t k = 0; k < len; k++)
							mv[k] |= bit;
					continue;
				}
				const uint32_t *restrict d = wk->ring[x].key + c0;
				for (uint32_t k = 0; k < len; k++)
					mv[k] |= row[k] - d[k] == km ? bit : 0;
				continue;
			}
			if (!(FORWARD_MOVES >> m & 1))
				continue;
			uint32_t n = (uint32_t)wk->in_at[nc];
			uint8_t *restrict nmv = wk->chunk_moves + (size_t)n * C;
			uint8_t nbit = (uint8_t)(1u << opposite_move[m]);
			if (wk->single[i] != TWZ_NODE_NONE &&
			    wk->single[i] == wk->single[n]) {
				/* Both rows are one ring cell's plus a key. */
				uint32_t diff = wk->single_key[i] - wk->single_key[n];
				if (diff == km)
					for (uint32_t k = 0; k < len; k++)
						mv[k] |= bit;
				else if (diff == 0u - km)
					for (uint32_t k = 0; k < len; k++)
						nmv[k] |= nbit;
				continue;
			}
			const uint32_t *restrict nrow = wk->rows + (size_t)n * C;
			for (uint32_t k = 0; k < len; k++) {
				uint32_t diff = row[k] - nrow[k];
				mv[k] |= diff == km ? bit : 0;
				nmv[k] |= diff == 0u - km ? nbit : 0;
			}
		}
	}
}

/* Append the runs of r to the strip's, as source s's row. */
static int keep_row(struct lines_worker *wk, uint32_t s, const struct twz_runs *r)
{
	const struct lines_level *lv = wk->lv;
	struct twz_runs *out = wk->runs;

	while (out->cap - out->len < r->len) {
		uint32_t ncap = out->cap ? out->cap * 2 : 1024;
		uint32_t *nv = realloc(out->v, (size_t)ncap * sizeof *nv);
		if (!nv)
			return -1;
		out->v = nv;
		out->cap = ncap;
	}
	memcpy(out->v + out->len, r->v, r->len * sizeof *r->v);
	lv->row_strip[s] = wk->strip;
	lv->row_at[s] = out->len;
	lv->row_len[s] = r->len;
	out->len += r->len;
	return 0;
}

/* The rows of the sources inside box (bx, by) of the current band. */
static int box_rows(struct lines_worker *wk, uint32_t bx, uint32_t by)
{
	const struct lines_level *lv = wk->lv;
	const struct twz_graph *gr = lv->gr;
	const uint32_t C = TARGET_CHUNK;

	box_cells(wk, bx, by);
	if (!wk->nin)
		return 0;
	const uint32_t nring = wk->nring, nin = wk->nin;
	for (uint32_t w = 0; w < wk->nwit; w++)
		for (uint32_t x = 0; x < nring; x++)
			wk->wit_key[(size_t)w * nring + x] = wk->ring[x].key[wk->wit[w]];

	uint32_t tlo = UINT32_MAX, thi = 0;
	for (uint32_t i = 0; i < nin; i++) {
		struct inside *in = &wk->in[i];
		box_search(wk, in->local);
		for (uint32_t x = 0; x < nring; x++)
			wk->ring_keyT[(size_t)x * nin + i] = wk->box_key[wk->ring[x].local];
		for (uint32_t i2 = 0; i2 < nin; i2++)
			wk->inside_keyT[(size_t)i2 * nin + i] =
				wk->box_key[wk->in[i2].local];
		access_cells(wk, i);
		twz_row_stream_begin(&wk->stream[i], gr, in->node, lv->direction);
		wk->in_runs[i].len = 0;
		tlo = in->lo < tlo ? in->lo : tlo;
		thi = in->hi > thi ? in->hi : thi;
	}
	s_keys(wk);

	uint32_t sj = 0;  /* the first cell of S at or after the chunk */
	for (uint32_t c0 = tlo - tlo % C; c0 < thi; c0 += C) {
		uint32_t c1 = thi - c0 > C ? c0 + C : thi, len = c1 - c0;
		while (sj < wk->ns && wk->s_cells[sj].node < c0)
			sj++;
		uint32_t send = sj;
		while (send < wk->ns && wk->s_cells[send].node < c1)
			send++;
		ring_bounds(wk, c0, len);
		wk->chunk_stamp++;  /* every excess is the new chunk's */
		for (uint32_t i = 0; i < nin; i++)
			far_row(wk, i, c0, len, sj, send);
		chunk_first_moves(wk, c0, len);
		for (uint32_t i = 0; i < nin; i++) {
			const struct inside *in = &wk->in[i];
			uint32_t lo = in->lo > c0 ? in->lo : c0;
			uint32_t hi = in->hi < c1 ? in->hi : c1;
			if (lo < hi &&
			    twz_row_stream_feed(&wk->stream[i], lo, hi,
						wk->chunk_moves + (size_t)i * C + (lo - c0),
						&wk->in_runs[i]) != 0)
				return -1;
		}
	}
	for (uint32_t i = 0; i < nin; i++)
		if (twz_row_stream_end(&wk->stream[i], &wk->in_runs[i]) != 0 ||
		    keep_row(wk, wk->in[i].node, &wk->in_runs[i]) != 0)
			return -1;
	return 0;
}

/* ---- strips ---------------------------------------------------------- */

/* The keys of the cells of horizontal line y over the strip, into line. */
static int hline(struct lines_worker *wk, uint32_t y, uint32_t owned_end,
		 uint32_t **line)
{
	for (uint32_t i = 0; i < wk->strip_cells; i++) {
		uint32_t x = wk->strip_x0 + i;
		if (line_row(wk, x, y, x < owned_end, &line[i]) != 0)
			return -1;
	}
	return 0;
}

static void release(struct lines_worker *wk, uint32_t **line, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		row_give(wk, line[i]);
		line[i] = NULL;
	}
}

static int strip_bake(struct lines_worker *wk, uint32_t k)
{
	const struct lines_level *lv = wk->lv;
	const struct lines_cut *cut = &lv->cut;
	const uint32_t g = cut->spacing;
	uint32_t bx0 = k * cut->strip_boxes;
	uint32_t bx1 = bx0 + cut->strip_boxes < cut->cols ? bx0 + cut->strip_boxes
							   : cut->cols;
	int last = k + 1 == cut->strips;
	/* The next strip's cells start at x = bx1 g; the last strip owns
	 * its east edge. */
	uint32_t owned_end = last ? UINT32_MAX : bx1 * g;

	wk->strip = k;
	wk->runs = &lv->strip_runs[k];
	wk->strip_x0 = bx0 * g;
	wk->strip_cells = (bx1 - bx0) * g + 1;
	wk->strip_cols = bx1 - bx0 + 1;
	if (hline(wk, 0, owned_end, wk->top) != 0)
		return -1;
	for (uint32_t by = 0; by < cut->rows; by++) {
		uint32_t y0 = by * g;
		if (hline(wk, y0 + g, owned_end, wk->bottom) != 0)
			return -1;
		for (uint32_t c = 0; c < wk->strip_cols; c++)
			for (uint32_t j = 0; j < g - 1; j++)
				if (line_row(wk, wk->strip_x0 + c * g, y0 + 1 + j,
					     bx0 + c < bx1 || last,
					     &wk->vseg[c * (g - 1) + j]) != 0)
					return -1;
		for (uint32_t bx = bx0; bx < bx1; bx++)
			if (box_rows(wk, bx, by) != 0)
				return -1;
		release(wk, wk->top, wk->strip_cells);
		release(wk, wk->vseg, wk->strip_cols * (g - 1));
		uint32_t **t = wk->top;
		wk->top = wk->bottom;
		wk->bottom = t;
	}
	release(wk, wk->top, wk->strip_cells);
	return 0;
}

/* ---- the pool -------------------------------------------------------- */

static void worker_fini(void *w)
{
	struct lines_worker *wk = w;

	twz_search_free(&wk->ws);
	for (uint32_t i = 0; i < wk->free_len; i++)
		free(wk->free_rows[i]);
	free(wk->free_rows);
	free(wk->top);
	free(wk->bottom);
	free(wk->vseg);
	free(wk->box_moves);
	free(wk->ring_at);
	free(wk->in_at);
	free(wk->box_key);
	for (unsigned i = 0; i < QUEUE_BUCKETS; i++)
		free(wk->queue.item[i]);
	free(wk->ring);
	free(wk->in);
	free(wk->s_cells);
	free(wk->wit);
	free(wk->ring_keyT);
	free(wk->inside_keyT);
	free(wk->s_keyT);
	free(wk->access_ring);
	free(wk->access_key);
	free(wk->wit_key);
	free(wk->tight);
	free(wk->ring_dI);
	free(wk->ring_sum);
	free(wk->count);
	free(wk->uncovered);
	free(wk->ring_lo);
	free(wk->ring_hi);
	free(wk->single);
	free(wk->single_key);
	free(wk->kept);
	free(wk->excess);
	free(wk->excess_stamp);
	free(wk->rows);
	free(wk->chunk_moves);
	free(wk->stream);
	if (wk->in_runs)
		for (uint32_t i = 0; i < wk->in_cap; i++)
			twz_runs_free(&wk->in_runs[i]);
	free(wk->in_runs);
	memset(wk, 0, sizeof *wk);
}

static int worker_init(void *ctx, void *w)
{
	const struct lines_level *lv = ctx;
	struct lines_worker *wk = w;
	const uint32_t g = lv->cut.spacing, m = lv->cut.margin, L = g + 1;
	const size_t cells = (size_t)L * L, nin = (size_t)(g - 1) * (g - 1);
	const size_t nring = 4 * (size_t)g, side = (size_t)g + 2 * m + 1;
	const size_t ns = side * side, nwit = 4 * side;
	const size_t words = (nring + 63) / 64;
	const uint32_t scells = lv->cut.strip_boxes * g + 1;
	const uint32_t scols = lv->cut.strip_boxes + 1;

	wk->lv = lv;
	wk->box_side = L;
	wk->in_cap = (uint32_t)nin;
	if (twz_search_init(&wk->ws, lv->gr) != 0)
		goto fail;
	wk->free_rows = calloc(strip_rows(g, lv->cut.strip_boxes),
			       sizeof *wk->free_rows);
	wk->top = calloc(scells, sizeof *wk->top);
	wk->bottom = calloc(scells, sizeof *wk->bottom);
	wk->vseg = calloc((size_t)scols * (g - 1), sizeof *wk->vseg);
	wk->box_moves = malloc(cells);
	wk->ring_at = malloc(cells * sizeof *wk->ring_at);
	wk->in_at = malloc(cells * sizeof *wk->in_at);
	wk->box_key = malloc(cells * sizeof *wk->box_key);
	wk->ring = malloc(nring * sizeof *wk->ring);
	wk->in = malloc(nin * sizeof *wk->in);
	wk->s_cells = malloc(ns * sizeof *wk->s_cells);
	wk->wit = malloc(nwit * sizeof *wk->wit);
	wk->ring_keyT = malloc(nring * nin * sizeof *wk->ring_keyT);
	wk->inside_keyT = malloc(nin * nin * sizeof *wk->inside_keyT);
	wk->s_keyT = malloc(ns * nin * sizeof *wk->s_keyT);
	wk->access_ring = malloc(nin * nring * sizeof *wk->access_ring);
	wk->access_key = malloc(nin * nring * sizeof *wk->access_key);
	wk->wit_key = malloc(nwit * nring * sizeof *wk->wit_key);
	wk->tight = malloc(nwit * words * sizeof *wk->tight);
	wk->ring_dI = malloc(nring * sizeof *wk->ring_dI);
	wk->ring_sum = malloc(nring * sizeof *wk->ring_sum);
	wk->count = malloc(nring * sizeof *wk->count);
	wk->uncovered = malloc(nwit * sizeof *wk->uncovered);
	wk->ring_lo = malloc(nring * sizeof *wk->ring_lo);
	wk->ring_hi = malloc(nring * sizeof *wk->ring_hi);
	wk->single = malloc(nin * sizeof *wk->single);
	wk->single_key = malloc(nin * sizeof *wk->single_key);
	wk->kept = malloc(nring * sizeof *wk->kept);
	wk->excess = malloc(nring * nring * sizeof *wk->excess);
	wk->excess_stamp = calloc(nring * nring, sizeof *wk->excess_stamp);
	wk->rows = malloc(nin * TARGET_CHUNK * sizeof *wk->rows);
	wk->chunk_moves = malloc(nin * TARGET_CHUNK);
	wk->stream = malloc(nin * sizeof *wk->stream);
	wk->in_runs = calloc(nin, sizeof *wk->in_runs);
	wk->queue.shift = 31u - (uint32_t)__builtin_clz(lv->keys.straight);
	for (unsigned i = 0; i < QUEUE_BUCKETS; i++)
		if (!(wk->queue.item[i] = malloc(cells * sizeof *wk->queue.item[i])))
			goto fail;
	if (!wk->free_rows || !wk->top || !wk->bottom || !wk->vseg ||
	    !wk->box_moves || !wk->ring_at || !wk->in_at || !wk->box_key ||
	    !wk->ring || !wk->in || !wk->s_cells || !wk->wit || !wk->ring_keyT ||
	    !wk->inside_keyT || !wk->s_keyT || !wk->access_ring ||
	    !wk->access_key || !wk->wit_key || !wk->tight || !wk->ring_dI ||
	    !wk->ring_sum || !wk->count || !wk->uncovered || !wk->ring_lo ||
	    !wk->ring_hi || !wk->single || !wk->single_key || !wk->kept ||
	    !wk->excess || !wk->excess_stamp || !wk->rows ||
	    !wk->chunk_moves || !wk->stream || !wk->in_runs)
		goto fail;
	for (unsigned k = 0; k < TWZ_MOVE_COUNT; k++)
		wk->box_off[k] = twz_move_dx[k] + twz_move_dy[k] * (int32_t)L;
	return 0;
fail:
	worker_fini(wk);
	return -1;
}

static int strip_chunk(void *ctx, void *w, uint32_t lo, uint32_t hi)
{
	(void)ctx;
	for (uint32_t k = lo; k < hi; k++)
		if (strip_bake(w, k) != 0)
			return -1;
	return 0;
}

/* The largest cost between two nodes of one region, at most: twice the
 * eccentricity of a node near the region's middle (a node least far
 * from both ends of a long path, its first node and the node farthest
 * from that). -1 out of memory. */
static double cost_bound(const struct twz_graph *gr)
{
	struct twz_search ws;
	double most = 0;
	double *from_first = malloc(((size_t)gr->node_count + 1) * sizeof *from_first);

	if (!from_first || twz_search_init(&ws, gr) != 0) {
		free(from_first);
		return -1;
	}
	for (uint32_t c = 0; c < gr->component_count; c++) {
		uint32_t lo = gr->comp_first[c], hi = gr->comp_first[c + 1];
		uint32_t far = lo, mid = lo;
		double ecc = 0, least = 0;
		if (twz_search_run(&ws, lo) != 0)
			goto fail;
		for (uint32_t t = lo; t < hi; t++) {
			from_first[t] = search_cost(&ws, t);
			if (from_first[t] > from_first[far])
				far = t;
		}
		ecc = from_first[far];
		if (twz_search_run(&ws, far) != 0)
			goto fail;
		least = ecc;
		for (uint32_t t = lo; t < hi; t++) {
			double d = search_cost(&ws, t);
			double worse = d > from_first[t] ? d : from_first[t];
			if (worse < least) {
				least = worse;
				mid = t;
			}
		}
		if (twz_search_run(&ws, mid) != 0)
			goto fail;
		double ecc_mid = 0;
		for (uint32_t t = lo; t < hi; t++) {
			double d = search_cost(&ws, t);
			ecc_mid = d > ecc_mid ? d : ecc_mid;
		}
		ecc = ecc_mid < ecc ? ecc_mid : ecc;
		most = ecc > most ? ecc : most;
	}
	twz_search_free(&ws);
	free(from_first);
	return 2 * most;
fail:
	twz_search_free(&ws);
	free(from_first);
	return -1;
}

uint64_t twz_lines_estimate_bytes(uint32_t width, uint32_t height,
				  uint64_t nodes, unsigned threads)
{
	struct lines_cut c;

	lines_cut(width, height, nodes, threads, NULL, &c);
	/* Per thread its strip's line keys and a box's keys to S and to
	 * its own cells; then where each source's row is. */
	uint64_t g = c.spacing, side = g + 2 * c.margin + 1;
	uint64_t nin = (g - 1) * (g - 1);
	uint64_t box = nin * (side * side + nin + 8 * g + TARGET_CHUNK) * 4;
	double walkable = (double)nodes / ((double)width * height + 1);
	uint64_t keys = (uint64_t)(strip_rows(c.spacing, c.strip_boxes) * walkable) + 1;
	return threads * (keys * nodes * 4 + box) + 16 * nodes;
}

int twz_lines_rows(const struct twz_graph *gr,
		   const struct twz_bake_options *opt,
		   const struct twz_lines_options *lopt, int direction,
		   struct twz_cpd *out, struct twz_error *err)
{
	struct lines_level lv = { 0 };
	unsigned threads = twz_bake_threads(opt);
	int rc = -1;

	if (lopt && ((lopt->spacing && (lopt->spacing < 2 || lopt->spacing > 1024)) ||
		     lopt->margin > 1024)) {
		twz_error_set(err, "%s: line spacing %u or margin %u out of range",
			      opt->name, lopt->spacing, lopt->margin);
		return -1;
	}
	lv.gr = gr;
	lv.direction = direction;
	lines_cut(gr->width, gr->height, gr->node_count, threads, lopt, &lv.cut);
	double most = cost_bound(gr);
	if (most < 0) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		return -1;
	}
	/* Inside a box, a path visits each of its cells once at most. */
	double inside = (double)(lv.cut.spacing + 1) * (lv.cut.spacing + 1) * 1.5;
	if (twz_lines_key_scale(most + inside, &lv.keys) != 0)
		return 1;
	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		lv.move_key[m] = twz_move_is_diagonal(m) ? lv.keys.diagonal
							  : lv.keys.straight;
	uint32_t n = gr->node_count;
	lv.strip_runs = calloc(lv.cut.strips, sizeof *lv.strip_runs);
	lv.row_strip = malloc((size_t)(n ? n : 1) * sizeof *lv.row_strip);
	lv.row_at = malloc((size_t)(n ? n : 1) * sizeof *lv.row_at);
	lv.row_len = malloc((size_t)(n ? n : 1) * sizeof *lv.row_len);
	if (!lv.strip_runs || !lv.row_strip || !lv.row_at || !lv.row_len) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		goto out_free;
	}
	struct twz_pool pool = {
		.opt = opt, .what = "line separators", .items = lv.cut.strips,
		.chunk = 1, .worker_size = sizeof(struct lines_worker),
		.init = worker_init, .fini = worker_fini, .run = strip_chunk,
		.ctx = &lv,
	};
	double started = twz_now_seconds();
	if (twz_pool_run(&pool, threads) != 0) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory during the searches",
				   opt->name);
		goto out_free;
	}
	out->seconds = twz_now_seconds() - started;
	uint64_t total = 0;
	for (uint32_t s = 0; s < n; s++)
		total += lv.row_len[s];
	if (total > TWZ_MAX_RUNS) {
		twz_error_set(err, "%s: %llu runs exceed the format limit", opt->name,
			      (unsigned long long)total);
		goto out_free;
	}
	out->runs = twz_big_alloc(out->spool,
				  (total ? total : 1) * sizeof *out->runs);
	if (!out->runs) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory for %llu runs",
				   opt->name, (unsigned long long)total);
		goto out_free;
	}
	uint64_t pos = 0;
	out->row_offsets[0] = 0;
	for (uint32_t s = 0; s < n; s++) {
		memcpy(out->runs + pos, lv.strip_runs[lv.row_strip[s]].v + lv.row_at[s],
		       (size_t)lv.row_len[s] * sizeof *out->runs);
		pos += lv.row_len[s];
		out->row_offsets[s + 1] = (uint32_t)pos;
	}
	out->run_count = total;
	rc = 0;
out_free:
	if (lv.strip_runs)
		for (uint32_t k = 0; k < lv.cut.strips; k++)
			twz_runs_free(&lv.strip_runs[k]);
	free(lv.strip_runs);
	free(lv.row_strip);
	free(lv.row_at);
	free(lv.row_len);
	return rc;
}
