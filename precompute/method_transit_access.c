/*
 * method_transit_access.c - the access-node layout of a TRANSIT bake
 * (format 1.4, FORMAT.md 5j): each node's access nodes, the transit
 * nodes they name renumbered by region, and the sections that hold them:
 * access entries of exact u16 counts sorted by cost, and the transit
 * table as bit-packed rows of residuals against the reference cost.
 *
 * Access nodes. Node n of block B keeps a transit node a of T(B) unless
 * another one, a', lies on a shortest n-a path: d(n, a') + D(a', a) ==
 * d(n, a) exactly. Dropping a keeps the query equation of FORMAT.md 5b,
 * since for every b, d(n, a') + D(a', b) <= d(n, a') + D(a', a) + D(a, b)
 * = d(n, a) + D(a, b); and a dropped a' was dropped for some a'' that
 * then lies on a shortest n-a path too, so checking the kept ones is
 * enough. Nodes are taken in order of exact cost: a node can only be
 * dropped for a cheaper one, so ties keep both and the result does not
 * depend on how ties are ordered.
 */
#include "transit.h"

#include <stdlib.h>
#include <string.h>

#include "twz_writer.h"

static inline uint64_t table_row(uint64_t m, uint64_t i)
{
	return i * (2 * m - i - 1) / 2;
}

/* D(i, j) of the whole table, any order of i and j. */
static inline struct twz_tdist table_get(const struct twz_transit_db *db,
					 uint32_t i, uint32_t j)
{
	if (i == j)
		return (struct twz_tdist){ 0, 0 };
	if (i > j) {
		uint32_t k = i;
		i = j;
		j = k;
	}
	return db->table[table_row(db->transit_count, i) + (j - i - 1)];
}

static inline struct twz_cost cost_of(struct twz_tdist d)
{
	return (struct twz_cost){ d.straight, d.diagonal };
}

/* A candidate: its place in the block list and the distance to it. */
struct cand {
	uint32_t j;
	uint32_t transit;          /* index among the M */
	struct twz_tdist d;
};

static int cand_cmp(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;

	if (twz_cost_less(cost_of(a->d), cost_of(b->d)))
		return -1;
	if (twz_cost_less(cost_of(b->d), cost_of(a->d)))
		return 1;
	return a->transit < b->transit ? -1 : a->transit > b->transit;
}

struct access_ctx {
	struct twz_transit_db *db;
	const uint64_t *dist_first;   /* [blocks]: into db->node_dist */
	struct cand **kept;           /* [blocks]: the block's kept entries */
	uint32_t *len;                /* [node_count]: kept a node */
	int failed;
};

/* The access nodes of the nodes of blocks [lo, hi). */
static int access_chunk(void *ctx, void *w, uint32_t lo, uint32_t hi)
{
	struct access_ctx *ac = ctx;
	struct twz_transit_db *db = ac->db;
	const struct twz_graph *tg = &db->graph;

	(void)w;
	for (uint32_t b = lo; b < hi; b++) {
		uint32_t first = tg->block_first[b], last = tg->block_first[b + 1];
		uint32_t f = db->block_transit_first[b];
		uint32_t n = db->block_transit_first[b + 1] - f;
		uint64_t cap = (uint64_t)(last - first) * n;
		struct cand *out = malloc((cap ? cap : 1) * sizeof *out);
		struct cand *c = malloc((n ? n : 1) * sizeof *c);
		uint64_t at = 0;

		if (!out || !c) {
			free(out);
			free(c);
			return -1;
		}
		for (uint32_t s = first; s < last; s++) {
			const struct twz_tdist *d = db->node_dist + ac->dist_first[b] +
						    (uint64_t)(s - first) * n;
			uint32_t k = 0;
			for (uint32_t j = 0; j < n; j++)
				if (d[j].straight != UINT32_MAX)
					c[k++] = (struct cand){ j, db->block_transit[f + j], d[j] };
			qsort(c, k, sizeof *c, cand_cmp);
			uint64_t mine = at;
			for (uint32_t x = 0; x < k; x++) {
				int drop = 0;
				for (uint64_t y = mine; y < at && !drop; y++) {
					struct twz_tdist via = table_get(db, out[y].transit,
									 c[x].transit);
					drop = via.straight != UINT32_MAX &&
					       out[y].d.straight + via.straight == c[x].d.straight &&
					       out[y].d.diagonal + via.diagonal == c[x].d.diagonal;
				}
				if (!drop)
					out[at++] = c[x];
			}
			ac->len[s] = (uint32_t)(at - mine);
		}
		free(c);
		ac->kept[b] = out;
	}
	return 0;
}

static int access_worker_init(void *ctx, void *w)
{
	(void)ctx;
	(void)w;
	return 0;
}

static void access_worker_fini(void *w)
{
	(void)w;
}

/* Transit nodes in access order: region, then node. */
static const uint32_t *sort_comp;

static int by_region(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	if (sort_comp[a] != sort_comp[b])
		return sort_comp[a] < sort_comp[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

int twz_transit_access_build(struct twz_transit_db *db,
			     const struct twz_bake_options *opt,
			     struct twz_error *err)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t blocks = tg->cols * tg->rows;
	uint32_t nn = tg->node_count;
	struct access_ctx ac = { .db = db };
	uint64_t *dist_first = malloc(((size_t)blocks + 1) * sizeof *dist_first);
	uint32_t *map = NULL;
	int rc = -1;
	double t0 = twz_now_seconds();

	ac.kept = calloc(blocks ? blocks : 1, sizeof *ac.kept);
	ac.len = calloc(nn ? nn : 1, sizeof *ac.len);
	db->access_first = malloc(((size_t)nn + 1) * sizeof *db->access_first);
	if (!dist_first || !ac.kept || !ac.len || !db->access_first)
		goto out;
	uint64_t total = 0;
	for (uint32_t b = 0; b < blocks; b++) {
		dist_first[b] = total;
		total += (uint64_t)(tg->block_first[b + 1] - tg->block_first[b]) *
			 (db->block_transit_first[b + 1] - db->block_transit_first[b]);
	}
	ac.dist_first = dist_first;
	struct twz_pool p = {
		.opt = opt, .what = "access nodes", .items = blocks, .chunk = 1,
		.worker_size = 1, .init = access_worker_init,
		.fini = access_worker_fini, .run = access_chunk, .ctx = &ac,
	};
	if (twz_pool_run(&p, twz_bake_threads(opt)) != 0)
		goto out;

	/* Gather, in node order; mark the transit nodes in use. */
	uint64_t count = 0;
	db->access_fits = 1;
	db->max_access = 0;
	for (uint32_t s = 0; s < nn; s++) {
		db->access_first[s] = (uint32_t)count;
		count += ac.len[s];
		if (ac.len[s] > db->max_access)
			db->max_access = ac.len[s];
	}
	if (count > UINT32_MAX) {
		twz_error_set(err, "%s: %llu access nodes exceed the format limit",
			      opt->name, (unsigned long long)count);
		goto fail;
	}
	db->access_first[nn] = (uint32_t)count;
	db->access_count = count;
	db->access = malloc((count ? count : 1) * sizeof *db->access);
	map = malloc((db->transit_count ? db->transit_count : 1) * sizeof *map);
	if (!db->access || !map)
		goto out;
	memset(map, 0xFF, (size_t)db->transit_count * sizeof *map);
	uint64_t k = 0;
	for (uint32_t b = 0; b < blocks; b++) {
		uint64_t in_block = 0;
		for (uint32_t s = tg->block_first[b]; s < tg->block_first[b + 1]; s++)
			in_block += ac.len[s];
		for (uint64_t y = 0; y < in_block; y++, k++) {
			const struct cand *c = &ac.kept[b][y];
			if (c->d.straight > UINT16_MAX || c->d.diagonal > UINT16_MAX)
				db->access_fits = 0;
			db->access[k] = (struct twz_access){
				c->transit, (uint16_t)c->d.straight,
				(uint16_t)c->d.diagonal,
			};
			map[c->transit] = 0;
		}
	}
	uint32_t used = 0;
	for (uint32_t i = 0; i < db->transit_count; i++)
		used += map[i] == 0;
	db->access_transits = used;
	db->access_node = malloc((used ? used : 1) * sizeof *db->access_node);
	db->access_old = malloc((used ? used : 1) * sizeof *db->access_old);
	if (!db->access_node || !db->access_old)
		goto out;
	used = 0;
	for (uint32_t i = 0; i < db->transit_count; i++)
		if (map[i] == 0)
			db->access_node[used++] = db->transit_node[i];
	sort_comp = tg->node_comp;
	qsort(db->access_node, used, sizeof *db->access_node, by_region);
	/* transit_node ascends: find each old index by bisection. */
	for (uint32_t i = 0; i < used; i++) {
		uint32_t lo = 0, hi = db->transit_count;
		while (hi - lo > 1) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (db->transit_node[mid] <= db->access_node[i])
				lo = mid;
			else
				hi = mid;
		}
		db->access_old[i] = lo;
		map[lo] = i;
	}
	/* New indices; each node's entries again by cost, then index. */
	for (uint32_t s = 0; s < nn; s++) {
		struct twz_access *e = db->access + db->access_first[s];
		uint32_t n = db->access_first[s + 1] - db->access_first[s];
		for (uint32_t x = 0; x < n; x++)
			e[x].transit = map[e[x].transit];
		/* Sorted by cost already; ties by the new index (insertion
		 * sort: a tie run is short). */
		for (uint32_t x = 1; x < n; x++) {
			struct twz_access v = e[x];
			uint32_t y = x;
			while (y > 0 && e[y - 1].straight == v.straight &&
			       e[y - 1].diagonal == v.diagonal &&
			       e[y - 1].transit > v.transit) {
				e[y] = e[y - 1];
				y--;
			}
			e[y] = v;
		}
	}
	rc = 0;
	goto out;
fail:
	rc = -2;
out:
	if (rc == -1)
		twz_error_kind_set(err, TWZ_ERR_NOMEM,
				   "%s: out of memory for the access nodes", opt->name);
	if (ac.kept)
		for (uint32_t b = 0; b < blocks; b++)
			free(ac.kept[b]);
	free(ac.kept);
	free(ac.len);
	free(dist_first);
	free(map);
	db->access_seconds = twz_now_seconds() - t0;
	return rc == 0 ? 0 : -1;
}

/* ---- sections ------------------------------------------------------ */

static unsigned bits_for(uint64_t range)
{
	unsigned w = 0;

	while (w < 64 && (range >> w))
		w++;
	return w;
}

/* The residual of D(i, j) against the reference cost of their cells. */
static void residual(const struct twz_transit_db *db, uint32_t i, uint32_t j,
		     int64_t *vs, int64_t *vd)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t a = db->access_node[i], b = db->access_node[j];
	uint32_t dx = tg->node_x[a] > tg->node_x[b] ? tg->node_x[a] - tg->node_x[b]
						    : tg->node_x[b] - tg->node_x[a];
	uint32_t dy = tg->node_y[a] > tg->node_y[b] ? tg->node_y[a] - tg->node_y[b]
						    : tg->node_y[b] - tg->node_y[a];
	uint32_t rs, rd;
	struct twz_tdist d = table_get(db, db->access_old[i], db->access_old[j]);

	twz_transit_reference(tg->connectivity, dx, dy, &rs, &rd);
	*vs = (int64_t)d.straight - rs;
	*vd = (int64_t)d.diagonal - rd;
}

static inline void put_bits(uint8_t *buf, uint64_t bit, uint64_t v)
{
	uint8_t *p = buf + (bit >> 3);

	twz_put64(p, twz_le64(p) | v << (bit & 7));
}

/* ACCESS_NODES and ACCESS_TABLE; 0, or -1 out of memory. */
int twz_transit_access_sections(const struct twz_transit_db *db,
				uint8_t **nodes_out, uint8_t **table_out,
				size_t *table_size)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t m = db->access_transits;
	uint8_t *rec = calloc(m ? m : 1, TWZ_AN_SIZE);
	uint8_t *bits = NULL;
	uint64_t bit = 0;

	*nodes_out = *table_out = NULL;
	if (!rec)
		return -1;
	/* Pass 1: each row's end, bases and widths. */
	uint32_t end = m;
	for (uint32_t i = m; i-- > 0;) {
		uint8_t *r = rec + (size_t)i * TWZ_AN_SIZE;
		uint32_t v = db->access_node[i];
		if (i + 1 < m && tg->node_comp[db->access_node[i + 1]] != tg->node_comp[v])
			end = i + 1;
		int64_t lo_s = INT64_MAX, hi_s = INT64_MIN;
		int64_t lo_d = INT64_MAX, hi_d = INT64_MIN;
		for (uint32_t j = i + 1; j < end; j++) {
			int64_t vs, vd;
			residual(db, i, j, &vs, &vd);
			lo_s = vs < lo_s ? vs : lo_s;
			hi_s = vs > hi_s ? vs : hi_s;
			lo_d = vd < lo_d ? vd : lo_d;
			hi_d = vd > hi_d ? vd : hi_d;
		}
		if (end == i + 1)
			lo_s = hi_s = lo_d = hi_d = 0;
		twz_put32(r + TWZ_AN_NODE, v);
		twz_put16(r + TWZ_AN_X, tg->node_x[v]);
		twz_put16(r + TWZ_AN_Y, tg->node_y[v]);
		twz_put32(r + TWZ_AN_ROW_END, end);
		r[TWZ_AN_WIDTH_S] = (uint8_t)bits_for((uint64_t)(hi_s - lo_s));
		r[TWZ_AN_WIDTH_D] = (uint8_t)bits_for((uint64_t)(hi_d - lo_d));
		twz_put32(r + TWZ_AN_BASE_S, (uint32_t)(int32_t)lo_s);
		twz_put32(r + TWZ_AN_BASE_D, (uint32_t)(int32_t)lo_d);
	}
	for (uint32_t i = 0; i < m; i++) {
		uint8_t *r = rec + (size_t)i * TWZ_AN_SIZE;
		twz_put64(r + TWZ_AN_ROW_BIT, bit);
		bit += (uint64_t)(twz_le32(r + TWZ_AN_ROW_END) - i - 1) *
		       (r[TWZ_AN_WIDTH_S] + r[TWZ_AN_WIDTH_D]);
	}
	*table_size = (size_t)((bit + 7) / 8) + TWZ_AT_PAD;
	bits = calloc(*table_size, 1);
	if (!bits) {
		free(rec);
		return -1;
	}
	/* Pass 2: the fields, straight in the low bits of each entry. */
	for (uint32_t i = 0; i < m; i++) {
		const uint8_t *r = rec + (size_t)i * TWZ_AN_SIZE;
		unsigned ws = r[TWZ_AN_WIDTH_S], wd = r[TWZ_AN_WIDTH_D];
		int64_t bs = (int32_t)twz_le32(r + TWZ_AN_BASE_S);
		int64_t bd = (int32_t)twz_le32(r + TWZ_AN_BASE_D);
		uint64_t at = twz_le64(r + TWZ_AN_ROW_BIT);
		for (uint32_t j = i + 1; j < twz_le32(r + TWZ_AN_ROW_END); j++) {
			int64_t vs, vd;
			residual(db, i, j, &vs, &vd);
			uint64_t f = (uint64_t)(vs - bs) | (uint64_t)(vd - bd) << ws;
			if (ws + wd)
				put_bits(bits, at, f);
			at += ws + wd;
		}
	}
	*nodes_out = rec;
	*table_out = bits;
	return 0;
}

/* Whether the access-node layout can hold db: every count in its field. */
int twz_transit_access_fits(const struct twz_transit_db *db)
{
	/* Table residuals need no check: distances and references are
	 * below 2^26, so a row's range fits TWZ_AN_MAX_WIDTH bits. */
	return db->access && db->access_fits;
}
