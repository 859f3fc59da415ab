/*
 * method_transit_stream.c - a TRANSIT bake held under a memory budget
 * (--memory-limit) smaller than its rows, distances and table: the
 * bake's threads hand each finished block (its local rows and its
 * nodes' distances to its transit nodes) and each transit table row to
 * the spool (twz_writer_stream.h) instead of keeping them; the access
 * nodes, the residual planes and the bit-packed table are then made
 * from the spool a block or a row at a time into the spool again, and
 * the writer compresses the big sections from there. What stays in
 * memory is the graph, the searches' workspaces, a few bytes a node
 * (row lengths, access counts) and a few a transit node: the same file
 * as twz_transit_write's, byte for byte (method_transit.c's transit_file
 * and method_transit_access.c lay out the same sections).
 *
 * The spool holds, in order: NODE_DIST's distances as the bake made
 * them (two u32 an entry, at fixed places), the transit table's (the
 * same), each block's runs where its worker put them, then the sections
 * made from those.
 */
#include "transit.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#define ZSTD_STATIC_LINKING_ONLY  /* ZSTD_estimateCCtxSize_usingCParams */
#include <zstd.h>

#include "twz_format.h"
#include "twz_writer.h"
#include "twz_writer_stream.h"

#define PIECE ((size_t)1 << 20)      /* bytes read or written at once */
#define CONVERT 1024                 /* entries made little-endian at once */

/* ---- the estimate ------------------------------------------------------ */

/*
 * Counted: the grid and the cell map (5 a cell); the graph, its build
 * stack and the transit index (96 a node, as in the bake in memory); one
 * worker a thread (48 a node, and a block's runs and distances: a block
 * has at most side^2 nodes, 32 runs a node at most, and at most the
 * 4 (2 inner + 1) side + 4 nodes of its inner box's ring as transit
 * nodes); row lengths, offsets and access counts (20 a node); the
 * selection and the access renumbering (48 a transit node, reckoning
 * side a block, as method_transit_grid.c does); a block's submatrix of
 * the table and a table row (twice) while the access nodes are chosen,
 * with one selection search (52 a node), and while they are packed a
 * block's entries and the block lists (a block's transit nodes each);
 * the pieces of the spool being read and written; and, while writing,
 * the largest in-memory section compressed at once (the cell map) or
 * the compressor of the largest spooled section.
 */
uint64_t twz_transit_stream_estimate_bytes(const struct twz_grid *g,
					   uint64_t nodes,
					   const struct twz_bake_options *opt,
					   const void *method_opt)
{
	struct twz_graph tg;
	struct twz_error err;

	memset(&tg, 0, sizeof tg);
	if (twz_transit_layout(g, method_opt, &tg, &err) != 0)
		return 0;  /* the graph build reports it */
	double cells = (double)g->width * g->height;
	double n = (double)nodes;
	double blocks = (double)tg.cols * tg.rows;
	double transits = blocks * tg.side;
	double side = tg.side;
	double list = 4.0 * (2.0 * tg.inner + 1.0) * side + 4.0;
	double block_nodes = side * side < n ? side * side : n;
	unsigned threads = twz_bake_threads(opt);

	if (transits > n)
		transits = n;
	if (threads > blocks)
		threads = (unsigned)blocks;
	double block = block_nodes * 32.0 * 4.0 * 1.5 + block_nodes * list * 8.0
		       + 2.0 * CONVERT * 8.0;
	double base = 5.0 * cells + 96.0 * n + 20.0 * n + 48.0 * transits
		      + (8 << 20);   /* the program itself */
	double search = (48.0 * n + block + transits * 8.0) * threads;
	double access = list * list * 8.0 + 2.0 * transits * 8.0
			+ block_nodes * list * 8.0 + list * 32.0
			+ 4.0 * PIECE + transits * TWZ_AN_SIZE
			+ 52.0 * n + 24.0 * block_nodes * list
			+ 4.0 * list * blocks;
	double write = 4.0 * cells;
	if (opt->codec == TWZ_CODEC_ZSTD) {
		double mem = 4.0 * cells + ZSTD_compressBound((size_t)(4.0 * cells)) +
			     ZSTD_estimateCCtxSize_usingCParams(
				     ZSTD_getCParams(opt->level, (size_t)(4.0 * cells) + 1, 0));
		double biggest = 32.0 * 4.0 * n;
		if (biggest < 8.0 * transits * transits / 2.0)
			biggest = 8.0 * transits * transits / 2.0;
		double spool = (double)twz_spool_write_bytes((uint64_t)biggest,
							     opt->level);
		write += mem > spool ? mem : spool;
	} else {
		write += 2.0 * TWZ_SPOOL_PIECE;
	}
	double peak = search;
	if (access > peak)
		peak = access;
	if (write > peak)
		peak = write;
	double bytes = base + peak;
	return bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)bytes;
}

int twz_transit_stream_needed(const struct twz_grid *g,
			      const struct twz_bake_options *opt,
			      const struct twz_transit_options *topt)
{
	uint64_t cells = (uint64_t)g->width * g->height, nodes = 0;

	if ((!opt->max_memory && opt->spool != TWZ_SPOOL_ALWAYS) ||
	    opt->max_nodes || opt->chunk)
		return 0;
	if (opt->spool == TWZ_SPOOL_ALWAYS)
		return 1;
	for (uint64_t c = 0; c < cells; c++)
		nodes += g->walkable[c] != 0;
	return twz_transit_estimate_bytes(g, nodes, opt, topt) > opt->max_memory;
}

/* ---- the bake: blocks and table rows to the spool ---------------------- */

struct sink_state {
	struct twz_spool *spool;
	atomic_ullong runs_end;      /* bytes of runs spooled */
	uint64_t *block_at;          /* [blocks]: where each block's runs went */
	uint32_t *block_runs;        /* [blocks]: how many */
	atomic_int failed;           /* an errno */
};

static uint64_t runs_base(const struct twz_transit_db *db)
{
	return 8 * (db->node_dist_count + db->table_count);
}

static int fail(struct sink_state *st)
{
	int e = errno ? errno : EIO;
	int zero = 0;

	atomic_compare_exchange_strong(&st->failed, &zero, e);
	return -1;
}

/* n distances at entry at of the spool, little-endian. */
static int put_dist(struct sink_state *st, uint64_t at,
		    const struct twz_tdist *d, uint64_t n)
{
	uint8_t buf[CONVERT * 8];

	for (uint64_t k = 0; k < n; k += CONVERT) {
		size_t m = n - k < CONVERT ? (size_t)(n - k) : CONVERT;
		for (size_t i = 0; i < m; i++) {
			twz_put32(buf + 8 * i, d[k + i].straight);
			twz_put32(buf + 8 * i + 4, d[k + i].diagonal);
		}
		if (twz_spool_pwrite(st->spool, 8 * (at + k), buf, m * 8) != 0)
			return fail(st);
	}
	return 0;
}

static int sink_block(void *ctx, const struct twz_transit_db *db, uint32_t b,
		      const uint32_t *runs, uint32_t nruns, uint64_t dist_at,
		      const struct twz_tdist *dist, uint64_t ndist)
{
	struct sink_state *st = ctx;
	uint8_t buf[CONVERT * 4];
	uint64_t at = runs_base(db) + atomic_fetch_add(&st->runs_end, (uint64_t)nruns * 4);

	st->block_at[b] = at;
	st->block_runs[b] = nruns;
	for (uint32_t k = 0; k < nruns; k += CONVERT) {
		uint32_t m = nruns - k < CONVERT ? nruns - k : CONVERT;
		for (uint32_t i = 0; i < m; i++)
			twz_put32(buf + 4 * i, runs[k + i]);
		if (twz_spool_pwrite(st->spool, at + 4 * (uint64_t)k, buf, m * 4) != 0)
			return fail(st);
	}
	return put_dist(st, dist_at, dist, ndist);
}

static int sink_table_row(void *ctx, const struct twz_transit_db *db,
			  uint32_t i, uint64_t at, const struct twz_tdist *row,
			  uint32_t len)
{
	(void)i;
	return put_dist(ctx, db->node_dist_count + at, row, len);
}

/* ---- reading and writing the spool --------------------------------------- */

/* A sequential reader of distances from entry `at` of the spool. */
struct dist_in {
	const struct twz_spool *spool;
	uint64_t at, end;            /* entries: next to load, past the last */
	uint8_t *buf;
	size_t have, next;           /* entries in buf, next one to give */
};

static int dist_next(struct dist_in *r, struct twz_tdist *d)
{
	if (r->next == r->have) {
		uint64_t n = r->end - r->at;
		if (n > PIECE / 8)
			n = PIECE / 8;
		if (n == 0 || twz_spool_pread(r->spool, 8 * r->at, r->buf, n * 8) != 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		r->at += n;
		r->have = (size_t)n;
		r->next = 0;
	}
	const uint8_t *p = r->buf + 8 * r->next++;
	d->straight = twz_le32(p);
	d->diagonal = twz_le32(p + 4);
	return 0;
}

/* Distances [at, at + n) of the spool into d. */
static int dist_read(const struct twz_spool *sp, uint64_t at, uint64_t n,
		     struct twz_tdist *d, uint8_t *piece)
{
	for (uint64_t k = 0; k < n; k += PIECE / 8) {
		size_t m = n - k < PIECE / 8 ? (size_t)(n - k) : PIECE / 8;
		if (twz_spool_pread(sp, 8 * (at + k), piece, m * 8) != 0)
			return -1;
		for (size_t i = 0; i < m; i++) {
			d[k + i].straight = twz_le32(piece + 8 * i);
			d[k + i].diagonal = twz_le32(piece + 8 * i + 4);
		}
	}
	return 0;
}

static inline uint64_t table_row(uint64_t m, uint64_t i)
{
	return i * (2 * m - i - 1) / 2;
}

/* ---- the access nodes, block by block ------------------------------------ */

/* The streamed bake's working state. */
struct stream {
	const struct twz_bake_options *opt;
	struct twz_transit_db *db;
	struct twz_spool *spool;
	struct sink_state sink;
	struct twz_spool_out o;
	uint8_t *piece;              /* PIECE bytes of reading */
	uint64_t runs_at;            /* RUNS in the spool */
	/* access nodes */
	uint32_t *len;               /* [node_count]: kept a node */
	uint64_t kept_at;            /* the kept entries (8 bytes each) */
	uint8_t *used;               /* [M]: named by an access node */
	uint32_t *map;               /* [M]: old index -> new */
	uint64_t access_at;          /* ACCESS in the spool */
	int pack;                    /* the entries pack (FORMAT.md 5j) */
	uint64_t packed_at;          /* ACCESS_PACKED in the spool */
	uint32_t *bfirst, *blist;    /* ACCESS_BLOCK_FIRST and _LIST */
	uint8_t *an;                 /* ACCESS_NODES */
	uint64_t bits;               /* ACCESS_TABLE bits */
	uint64_t table_at;           /* ACCESS_TABLE in the spool */
	size_t table_size;
	/* 1.1 */
	uint64_t node_dist_at, table_planes_at;
};

/*
 * Each node's access nodes by the rule of method_transit_access.c
 * (twz_transit_access_block), block by block: the block's distances and
 * the table between its transit nodes read from the spool, the kept
 * entries appended to it. 0, 1 when a distance does not fit the layout,
 * -1 on an error.
 */
static int access_kept(struct stream *s)
{
	struct twz_transit_db *db = s->db;
	const struct twz_graph *tg = &db->graph;
	uint32_t blocks = tg->cols * tg->rows, m = db->transit_count;
	uint32_t cap = db->max_block_transits ? db->max_block_transits : 1;
	struct twz_tdist *sub = malloc((size_t)cap * cap * sizeof *sub);
	struct twz_tdist *row = malloc((size_t)(m ? m : 1) * sizeof *row);
	struct twz_tdist *dist = malloc(sizeof *dist);
	struct twz_access_cand *out = malloc(sizeof *out);
	struct twz_access_worker *wk = twz_transit_access_worker_new(db);
	uint64_t dist_cap = 1, dist_at = 0;
	int rc = -1, fits = 1;

	if (!sub || !row || !dist || !out || !wk)
		goto done;
	s->kept_at = s->o.at;
	for (uint32_t b = 0; b < blocks; b++) {
		uint32_t first = tg->block_first[b], last = tg->block_first[b + 1];
		const uint32_t *list = db->block_transit + db->block_transit_first[b];
		uint32_t n = db->block_transit_first[b + 1] - db->block_transit_first[b];
		uint64_t nd = (uint64_t)(last - first) * n;

		/* D between the block's transit nodes, both ways. */
		for (uint32_t i = 0; i < n; i++) {
			uint32_t lo = UINT32_MAX, hi = 0;
			sub[(size_t)i * n + i] = (struct twz_tdist){ 0, 0 };
			for (uint32_t j = 0; j < n; j++)
				if (list[j] > list[i]) {
					lo = list[j] < lo ? list[j] : lo;
					hi = list[j] > hi ? list[j] : hi;
				}
			if (lo == UINT32_MAX)
				continue;
			uint64_t at = db->node_dist_count + table_row(m, list[i]) +
				      (lo - list[i] - 1);
			if (dist_read(s->spool, at, hi - lo + 1, row, s->piece) != 0)
				goto done;
			for (uint32_t j = 0; j < n; j++)
				if (list[j] > list[i])
					sub[(size_t)i * n + j] = sub[(size_t)j * n + i] =
						row[list[j] - lo];
		}
		if (nd > dist_cap) {
			struct twz_tdist *nd2 = realloc(dist, nd * sizeof *dist);
			struct twz_access_cand *no2 = realloc(out, nd * sizeof *out);
			if (nd2)
				dist = nd2;
			if (no2)
				out = no2;
			if (!nd2 || !no2)
				goto done;
			dist_cap = nd;
		}
		if (dist_read(s->spool, dist_at, nd, dist, s->piece) != 0)
			goto done;
		dist_at += nd;
		if (twz_transit_access_block(wk, db, b, dist, sub, out,
					     s->len + first) != 0)
			goto done;
		uint64_t kept = 0;
		for (uint32_t v = first; v < last; v++)
			kept += s->len[v];
		for (uint64_t y = 0; y < kept; y++) {
			uint8_t e[8];
			if (out[y].d.straight > UINT16_MAX ||
			    out[y].d.diagonal > UINT16_MAX)
				fits = 0;
			twz_put32(e, out[y].transit);
			twz_put16(e + 4, (uint16_t)out[y].d.straight);
			twz_put16(e + 6, (uint16_t)out[y].d.diagonal);
			s->used[out[y].transit] = 1;
			if (twz_spool_out_put(&s->o, e, 8) != 0)
				goto done;
		}
	}
	if (twz_spool_out_flush(&s->o) != 0)
		goto done;
	rc = fits ? 0 : 1;
done:
	free(sub);
	free(row);
	free(dist);
	free(out);
	twz_transit_access_worker_free(wk);
	return rc;
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

/* access_first, access_node, access_old and the old -> new map, as
 * twz_transit_access_build makes them. */
static int access_renumber(struct stream *s)
{
	struct twz_transit_db *db = s->db;
	const struct twz_graph *tg = &db->graph;
	uint32_t nn = tg->node_count, m = db->transit_count;
	uint64_t count = 0;

	db->max_access = 0;
	for (uint32_t v = 0; v < nn; v++) {
		count += s->len[v];
		if (s->len[v] > db->max_access)
			db->max_access = s->len[v];
	}
	if (count > UINT32_MAX) {
		db->access_count = count;
		errno = ERANGE;
		return -1;
	}
	db->access_first = malloc(((size_t)nn + 1) * sizeof *db->access_first);
	if (!db->access_first)
		return -1;
	count = 0;
	for (uint32_t v = 0; v < nn; v++) {
		db->access_first[v] = (uint32_t)count;
		count += s->len[v];
	}
	db->access_first[nn] = (uint32_t)count;
	db->access_count = count;
	uint32_t used = 0;
	for (uint32_t i = 0; i < m; i++)
		used += s->used[i];
	db->access_transits = used;
	db->access_node = malloc((used ? used : 1) * sizeof *db->access_node);
	db->access_old = malloc((used ? used : 1) * sizeof *db->access_old);
	if (!db->access_node || !db->access_old)
		return -1;
	used = 0;
	for (uint32_t i = 0; i < m; i++)
		if (s->used[i])
			db->access_node[used++] = db->transit_node[i];
	sort_comp = tg->node_comp;
	qsort(db->access_node, used, sizeof *db->access_node, by_region);
	for (uint32_t i = 0; i < used; i++) {
		uint32_t lo = 0, hi = m;
		while (hi - lo > 1) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (db->transit_node[mid] <= db->access_node[i])
				lo = mid;
			else
				hi = mid;
		}
		db->access_old[i] = lo;
		s->map[lo] = i;
	}
	return 0;
}

/* ACCESS from the kept entries: new indices, ties by them. */
static int access_entries(struct stream *s)
{
	const struct twz_transit_db *db = s->db;
	uint32_t nn = db->graph.node_count;
	uint32_t cap = db->max_access ? db->max_access : 1;
	uint8_t *in = malloc((size_t)cap * 8);
	struct twz_access *e = malloc((size_t)cap * sizeof *e);
	uint64_t at = s->kept_at;
	int rc = -1;

	s->access_at = s->o.at;
	if (!in || !e)
		goto done;
	for (uint32_t v = 0; v < nn; v++) {
		uint32_t n = s->len[v];
		if (n && twz_spool_pread(s->spool, at, in, (size_t)n * 8) != 0)
			goto done;
		at += (uint64_t)n * 8;
		for (uint32_t x = 0; x < n; x++)
			e[x] = (struct twz_access){ s->map[twz_le32(in + 8 * x)],
						    twz_le16(in + 8 * x + 4),
						    twz_le16(in + 8 * x + 6) };
		for (uint32_t x = 1; x < n; x++) {
			struct twz_access val = e[x];
			uint32_t y = x;
			while (y > 0 && e[y - 1].straight == val.straight &&
			       e[y - 1].diagonal == val.diagonal &&
			       e[y - 1].transit > val.transit) {
				e[y] = e[y - 1];
				y--;
			}
			e[y] = val;
		}
		for (uint32_t x = 0; x < n; x++) {
			uint8_t b[TWZ_AE_SIZE] = { 0 };
			twz_put32(b + TWZ_AE_TRANSIT, e[x].transit);
			twz_put16(b + TWZ_AE_STRAIGHT, e[x].straight);
			twz_put16(b + TWZ_AE_DIAGONAL, e[x].diagonal);
			if (twz_spool_out_put(&s->o, b, TWZ_AE_SIZE) != 0)
				goto done;
		}
	}
	rc = twz_spool_out_flush(&s->o);
done:
	free(in);
	free(e);
	return rc;
}

/* ACCESS_PACKED into the spool and the block lists in memory, block by
 * block from ACCESS (twz_transit_access_pack_block, as the bake in
 * memory packs them), unless the entries stay 8 bytes wide; s->pack
 * says whether every block packed. */
static int access_pack(struct stream *s)
{
	const struct twz_transit_db *db = s->db;
	const struct twz_graph *tg = &db->graph;
	uint32_t blocks = tg->cols * tg->rows, most = 1;
	uint64_t listed = 0, list_cap = 0;
	int rc = -1, fits = 1;

	s->pack = 0;
	if (s->opt->transit_far == TWZ_TRANSIT_ACCESS_WIDE)
		return 0;
	for (uint32_t b = 0; b < blocks; b++) {
		uint32_t k = db->access_first[tg->block_first[b + 1]] -
			     db->access_first[tg->block_first[b]];
		most = k > most ? k : most;
	}
	uint8_t *in = malloc((size_t)most * TWZ_AE_SIZE);
	struct twz_access *e = malloc((size_t)most * sizeof *e);
	uint32_t *list = malloc((size_t)most * sizeof *list);
	uint32_t *pk = malloc((size_t)most * sizeof *pk);
	uint32_t *bf = malloc(((size_t)blocks + 1) * sizeof *bf);
	uint32_t *bl = NULL;

	s->packed_at = s->o.at;
	if (!in || !e || !list || !pk || !bf)
		goto done;
	for (uint32_t b = 0; b < blocks && fits; b++) {
		uint32_t e0 = db->access_first[tg->block_first[b]];
		uint32_t k = db->access_first[tg->block_first[b + 1]] - e0, u;
		if (k && twz_spool_pread(s->spool, s->access_at + (uint64_t)e0 * TWZ_AE_SIZE,
					 in, (size_t)k * TWZ_AE_SIZE) != 0)
			goto done;
		for (uint32_t x = 0; x < k; x++) {
			const uint8_t *a = in + (size_t)x * TWZ_AE_SIZE;
			e[x] = (struct twz_access){ twz_le32(a + TWZ_AE_TRANSIT),
						    twz_le16(a + TWZ_AE_STRAIGHT),
						    twz_le16(a + TWZ_AE_DIAGONAL) };
		}
		bf[b] = (uint32_t)listed;
		fits = twz_transit_access_pack_block(db, b, e, list, &u, pk);
		if (!fits)
			break;
		if (listed + u > list_cap) {
			uint64_t nc = list_cap ? 2 * list_cap : 1024;
			nc = nc < listed + u ? listed + u : nc;
			uint32_t *nb = realloc(bl, nc * sizeof *bl);
			if (!nb)
				goto done;
			bl = nb;
			list_cap = nc;
		}
		if (u)  /* bl is still NULL while every list so far is empty */
			memcpy(bl + listed, list, (size_t)u * sizeof *list);
		listed += u;
		for (uint32_t x = 0; x < k; x++) {
			uint8_t w[4];
			twz_put32(w, pk[x]);
			if (twz_spool_out_put(&s->o, w, 4) != 0)
				goto done;
		}
	}
	if (twz_spool_out_flush(&s->o) != 0)
		goto done;
	rc = 0;
	if (fits) {
		bf[blocks] = (uint32_t)listed;
		s->pack = 1;
		s->bfirst = bf;
		s->blist = bl ? bl : malloc(4);
		bf = bl = NULL;
		if (!s->blist) {
			s->pack = 0;
			rc = -1;
		}
	}
done:
	free(in);
	free(e);
	free(list);
	free(pk);
	free(bf);
	free(bl);
	return rc;
}

static unsigned bits_for(uint64_t range)
{
	unsigned w = 0;

	while (w < 64 && (range >> w))
		w++;
	return w;
}

/* The table row of access node i's old index over old indices
 * [old[i] + 1, old[end - 1]] into row (row[k]: old index old[i] + 1 + k). */
static int access_row(struct stream *s, uint32_t i, uint32_t end,
		      struct twz_tdist *row)
{
	const struct twz_transit_db *db = s->db;
	uint32_t a = db->access_old[i];

	if (end <= i + 1)
		return 0;
	uint32_t last = db->access_old[end - 1];
	return dist_read(s->spool, db->node_dist_count +
			 table_row(db->transit_count, a), last - a, row, s->piece);
}

static void residual(const struct twz_transit_db *db, uint32_t i, uint32_t j,
		     struct twz_tdist d, int64_t *vs, int64_t *vd)
{
	const struct twz_graph *tg = &db->graph;
	uint32_t a = db->access_node[i], b = db->access_node[j];
	uint32_t dx = tg->node_x[a] > tg->node_x[b] ? tg->node_x[a] - tg->node_x[b]
						    : tg->node_x[b] - tg->node_x[a];
	uint32_t dy = tg->node_y[a] > tg->node_y[b] ? tg->node_y[a] - tg->node_y[b]
						    : tg->node_y[b] - tg->node_y[a];
	uint32_t rs, rd;

	twz_transit_reference(tg->connectivity, dx, dy, &rs, &rd);
	*vs = (int64_t)d.straight - rs;
	*vd = (int64_t)d.diagonal - rd;
}

/* ACCESS_NODES (in memory) and the size of ACCESS_TABLE, as
 * twz_transit_access_sections makes them; the rows read from the spool. */
static int access_nodes(struct stream *s, struct twz_tdist *row)
{
	const struct twz_transit_db *db = s->db;
	const struct twz_graph *tg = &db->graph;
	uint32_t m = db->access_transits;
	uint8_t *rec = calloc(m ? m : 1, TWZ_AN_SIZE);
	uint64_t bit = 0;

	if (!rec)
		return -1;
	s->an = rec;
	uint32_t end = m;
	for (uint32_t i = m; i-- > 0;) {
		uint8_t *r = rec + (size_t)i * TWZ_AN_SIZE;
		uint32_t v = db->access_node[i];
		if (i + 1 < m && tg->node_comp[db->access_node[i + 1]] != tg->node_comp[v])
			end = i + 1;
		int64_t lo_s = INT64_MAX, hi_s = INT64_MIN;
		int64_t lo_d = INT64_MAX, hi_d = INT64_MIN;
		if (access_row(s, i, end, row) != 0)
			return -1;
		for (uint32_t j = i + 1; j < end; j++) {
			int64_t vs, vd;
			residual(db, i, j, row[db->access_old[j] - db->access_old[i] - 1],
				 &vs, &vd);
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
	s->bits = bit;
	s->table_size = (size_t)((bit + 7) / 8) + TWZ_AT_PAD;
	return 0;
}

/* ACCESS_TABLE into the spool: the bits written through a window whose
 * bytes below the next field are final. */
static int access_table(struct stream *s, struct twz_tdist *row)
{
	const struct twz_transit_db *db = s->db;
	uint32_t m = db->access_transits;
	uint8_t *win = calloc(PIECE + 16, 1);
	uint64_t base = 0;           /* byte of the table at win[0] */

	if (!win)
		return -1;
	s->table_at = s->o.at;
	for (uint32_t i = 0; i < m; i++) {
		const uint8_t *r = s->an + (size_t)i * TWZ_AN_SIZE;
		unsigned ws = r[TWZ_AN_WIDTH_S], wd = r[TWZ_AN_WIDTH_D];
		int64_t bs = (int32_t)twz_le32(r + TWZ_AN_BASE_S);
		int64_t bd = (int32_t)twz_le32(r + TWZ_AN_BASE_D);
		uint64_t at = twz_le64(r + TWZ_AN_ROW_BIT);
		uint32_t end = twz_le32(r + TWZ_AN_ROW_END);
		if (access_row(s, i, end, row) != 0)
			goto fail;
		for (uint32_t j = i + 1; j < end; j++) {
			int64_t vs, vd;
			residual(db, i, j, row[db->access_old[j] - db->access_old[i] - 1],
				 &vs, &vd);
			uint64_t f = (uint64_t)(vs - bs) | (uint64_t)(vd - bd) << ws;
			if ((at >> 3) - base >= PIECE) {
				size_t keep = (size_t)((at >> 3) - base);
				if (twz_spool_out_put(&s->o, win, keep) != 0)
					goto fail;
				memmove(win, win + keep, PIECE + 16 - keep);
				memset(win + PIECE + 16 - keep, 0, keep);
				base += keep;
			}
			if (ws + wd) {
				uint8_t *p = win + ((at >> 3) - base);
				twz_put64(p, twz_le64(p) | f << (at & 7));
			}
			at += ws + wd;
		}
	}
	/* The rest, then the zero pad. */
	uint64_t left = s->table_size - base;
	while (left) {
		size_t k = left < PIECE ? (size_t)left : PIECE;
		if (twz_spool_out_put(&s->o, win, k) != 0)
			goto fail;
		memmove(win, win + k, PIECE + 16 - k);
		memset(win + PIECE + 16 - k, 0, k);
		left -= k;
	}
	free(win);
	return twz_spool_out_flush(&s->o);
fail:
	free(win);
	return -1;
}

/* ---- format 1.1's residual planes ---------------------------------------- */

/* Visit NODE_DIST's entries (from the spool, in order), then TABLE's.
 * With out (two writers: the straight and the diagonal plane) write
 * them, else find whether all fit the narrow planes. */
static int visit_planes(struct stream *s, int table, unsigned width,
			struct twz_spool_out *out, int *fits16)
{
	const struct twz_transit_db *db = s->db;
	const struct twz_graph *tg = &db->graph;
	struct dist_in in = { s->spool, 0, db->node_dist_count, s->piece, 0, 0 };
	struct twz_tdist d;
	int64_t vs, vd;

	if (table) {
		in.at = db->node_dist_count;
		in.end = db->node_dist_count + db->table_count;
	}
#define ENTRY(a, b)							\
	do {								\
		if (dist_next(&in, &d) != 0)				\
			return -1;					\
		twz_transit_plane_values(tg, width, d, a, b, &vs, &vd);	\
		if (!out) {						\
			if (!twz_transit_plane_fits16(d, vs, vd))	\
				*fits16 = 0;				\
		} else if (width == 4) {				\
			uint8_t p[2];					\
			twz_put16(p, (uint16_t)(int16_t)vs);		\
			if (twz_spool_out_put(&out[0], p, 2) != 0)		\
				return -1;				\
			twz_put16(p, (uint16_t)(int16_t)vd);		\
			if (twz_spool_out_put(&out[1], p, 2) != 0)		\
				return -1;				\
		} else {						\
			uint8_t p[4];					\
			twz_put32(p, (uint32_t)(int32_t)vs);		\
			if (twz_spool_out_put(&out[0], p, 4) != 0)		\
				return -1;				\
			twz_put32(p, (uint32_t)(int32_t)vd);		\
			if (twz_spool_out_put(&out[1], p, 4) != 0)		\
				return -1;				\
		}							\
	} while (0)
	if (!table) {
		uint32_t blocks = tg->cols * tg->rows;
		for (uint32_t b = 0; b < blocks; b++) {
			uint32_t f = db->block_transit_first[b];
			uint32_t n = db->block_transit_first[b + 1] - f;
			for (uint32_t v = tg->block_first[b]; v < tg->block_first[b + 1]; v++)
				for (uint32_t j = 0; j < n; j++)
					ENTRY(v, db->transit_node[db->block_transit[f + j]]);
		}
	} else {
		for (uint32_t i = 0; i < db->transit_count; i++)
			for (uint32_t j = i + 1; j < db->transit_count; j++)
				ENTRY(db->transit_node[i], db->transit_node[j]);
	}
#undef ENTRY
	return 0;
}

/* One distance section's two planes into the spool from s->o.at. */
static int write_planes(struct stream *s, int table, unsigned width,
			uint64_t *at)
{
	uint64_t count = table ? s->db->table_count : s->db->node_dist_count;
	uint64_t half = count * (width / 2);
	struct twz_spool_out out[2] = {
		{ s->spool, s->o.at, s->o.buf, 0 },
		{ s->spool, s->o.at + half, malloc(TWZ_SPOOL_OUT_PIECE), 0 },
	};
	int rc = -1;

	*at = s->o.at;
	if (out[1].buf && visit_planes(s, table, width, out, NULL) == 0 &&
	    twz_spool_out_flush(&out[0]) == 0 && twz_spool_out_flush(&out[1]) == 0)
		rc = 0;
	free(out[1].buf);
	s->o.at += 2 * half;
	return rc;
}

/* ---- the bake and the file ---------------------------------------------- */

/* The runs in block order: RUNS, from s->o.at. */
static int ordered_runs(struct stream *s)
{
	const struct twz_graph *tg = &s->db->graph;
	uint32_t blocks = tg->cols * tg->rows;

	s->runs_at = s->o.at;
	for (uint32_t b = 0; b < blocks; b++) {
		uint64_t n = (uint64_t)s->sink.block_runs[b] * 4;
		for (uint64_t k = 0; k < n; k += PIECE) {
			size_t m = n - k < PIECE ? (size_t)(n - k) : PIECE;
			if (twz_spool_pread(s->spool, s->sink.block_at[b] + k, s->piece, m) != 0 ||
			    twz_spool_out_put(&s->o, s->piece, m) != 0)
				return -1;
		}
	}
	return twz_spool_out_flush(&s->o);
}

/* The sections, as transit_file of method_transit.c adds them. */
static void stream_file(struct stream *s, const struct twz_grid *g,
			int access, unsigned width, uint8_t *params,
			struct twz_out_file *f, uint64_t *spool_at)
{
	const struct twz_transit_db *db = s->db;
	const struct twz_graph *tg = &db->graph;
	const struct twz_bake_options *opt = s->opt;
	uint32_t blocks = tg->cols * tg->rows;
	size_t cells = (size_t)tg->width * tg->height;

	memset(params, 0, TWZ_TP_SIZE);
	twz_put32(params + TWZ_TP_ORIGIN_X, tg->origin_x);
	twz_put32(params + TWZ_TP_ORIGIN_Y, tg->origin_y);
	twz_put32(params + TWZ_TP_SIDE, tg->side);
	twz_put32(params + TWZ_TP_COLS, tg->cols);
	twz_put32(params + TWZ_TP_ROWS, tg->rows);
	twz_put32(params + TWZ_TP_INNER, tg->inner);
	twz_put32(params + TWZ_TP_OUTER, tg->outer);
	twz_put32(params + TWZ_TP_TRANSITS, db->transit_count);
	twz_put32(params + TWZ_TP_MAX_LIST, db->max_block_transits);
	twz_put32(params + TWZ_TP_DIST_BYTES, width);
	twz_bake_header(&f->h, g, tg, opt, TWZ_METHOD_TRANSIT);
	f->h.minor = 1;
	twz_out_add_le32(f, TWZ_SECTION_CELL_NODE, tg->cell_node, cells);
	twz_out_add_le32(f, TWZ_SECTION_NODE_CELL, tg->node_cell, tg->node_count);
	twz_out_add_le32(f, TWZ_SECTION_NODE_COMPONENT, tg->node_comp, tg->node_count);
	if (access) {
		f->h.minor = 4;
		f->h.required_features |= TWZ_FEATURE_TRANSIT_ACCESS;
		twz_put32(params + TWZ_TP_TRANSITS, db->access_transits);
		twz_put32(params + TWZ_TP_MAX_LIST, db->max_access);
		twz_put32(params + TWZ_TP_DIST_BYTES, 0);
		twz_out_add(f, TWZ_SECTION_TRANSIT_PARAMS, params, TWZ_TP_SIZE);
		twz_out_add_le32(f, TWZ_SECTION_TRANSIT_ROW_OFFSETS, db->row_offsets,
				 (size_t)tg->node_count + 1);
		spool_at[f->count] = s->runs_at;
		twz_out_add(f, TWZ_SECTION_TRANSIT_RUNS, NULL, (size_t)db->run_count * 4);
		twz_out_add_le32(f, TWZ_SECTION_ACCESS_FIRST, db->access_first,
				 (size_t)tg->node_count + 1);
		if (!s->pack) {  /* 8-byte entries: some do not pack */
			spool_at[f->count] = s->access_at;
			twz_out_add(f, TWZ_SECTION_ACCESS, NULL,
				    (size_t)db->access_count * TWZ_AE_SIZE);
		}
		twz_out_add_owned(f, TWZ_SECTION_ACCESS_NODES, s->an,
				  (size_t)db->access_transits * TWZ_AN_SIZE);
		s->an = NULL;
		spool_at[f->count] = s->table_at;
		twz_out_add(f, TWZ_SECTION_ACCESS_TABLE, NULL, s->table_size);
		if (s->pack) {
			twz_out_add_le32(f, TWZ_SECTION_ACCESS_BLOCK_FIRST, s->bfirst,
					 (size_t)blocks + 1);
			twz_out_add_le32(f, TWZ_SECTION_ACCESS_BLOCK_LIST, s->blist,
					 s->bfirst[blocks]);
			spool_at[f->count] = s->packed_at;
			twz_out_add(f, TWZ_SECTION_ACCESS_PACKED, NULL,
				    (size_t)db->access_count * 4);
		}
		return;
	}
	uint8_t *blk = malloc(((size_t)blocks + 1) * TWZ_TB_SIZE);
	if (blk) {
		uint64_t dist = 0;
		for (uint32_t b = 0; b <= blocks; b++) {
			uint8_t *r = blk + (size_t)b * TWZ_TB_SIZE;
			twz_put32(r + TWZ_TB_FIRST_NODE, tg->block_first[b]);
			twz_put32(r + TWZ_TB_FIRST_LIST, db->block_transit_first[b]);
			twz_put64(r + TWZ_TB_FIRST_DIST, dist);
			if (b < blocks)
				dist += (uint64_t)(tg->block_first[b + 1] -
						   tg->block_first[b]) *
					(db->block_transit_first[b + 1] -
					 db->block_transit_first[b]);
		}
	}
	twz_out_add(f, TWZ_SECTION_TRANSIT_PARAMS, params, TWZ_TP_SIZE);
	twz_out_add_owned(f, TWZ_SECTION_TRANSIT_BLOCKS, blk,
			  ((size_t)blocks + 1) * TWZ_TB_SIZE);
	twz_out_add_le32(f, TWZ_SECTION_TRANSIT_LISTS, db->block_transit,
			 db->block_transit_first[blocks]);
	twz_out_add_le32(f, TWZ_SECTION_TRANSIT_NODES, db->transit_node,
			 db->transit_count);
	spool_at[f->count] = s->node_dist_at;
	twz_out_add(f, TWZ_SECTION_TRANSIT_NODE_DIST, NULL,
		    (size_t)db->node_dist_count * width);
	spool_at[f->count] = s->table_planes_at;
	twz_out_add(f, TWZ_SECTION_TRANSIT_TABLE, NULL,
		    (size_t)db->table_count * width);
	twz_out_add_le32(f, TWZ_SECTION_TRANSIT_ROW_OFFSETS, db->row_offsets,
			 (size_t)tg->node_count + 1);
	spool_at[f->count] = s->runs_at;
	twz_out_add(f, TWZ_SECTION_TRANSIT_RUNS, NULL, (size_t)db->run_count * 4);
}

/* Whether the access-node layout is the one written: made, every entry
 * in 16 bits, and (TWZ_TRANSIT_SMALLER) no larger than the block lists, as
 * twz_transit_finish_layout decides. */
static int access_wins(const struct stream *s)
{
	const struct twz_transit_db *db = s->db;
	uint32_t blocks = db->graph.cols * db->graph.rows;

	if (s->opt->transit_far != TWZ_TRANSIT_SMALLER)
		return 1;
	uint64_t lists = s->pack ? 4 * ((uint64_t)s->bfirst[blocks] + blocks + 1) : 0;
	uint64_t access_bytes = db->access_count * (s->pack ? 4 : TWZ_AE_SIZE) + lists +
				(uint64_t)db->access_transits * TWZ_AN_SIZE + s->table_size +
				4 * ((uint64_t)db->graph.node_count + 1);
	uint64_t list_bytes = 4 * (db->node_dist_count + db->table_count +
				   db->block_transit_first[blocks] +
				   db->transit_count) +
			      (uint64_t)TWZ_TB_SIZE * (blocks + 1);
	return access_bytes <= list_bytes;
}

int twz_transit_bake_streamed(const struct twz_grid *g,
			      const struct twz_bake_options *opt,
			      const struct twz_transit_options *topt,
			      const char *path,
			      struct twz_transit_stream_result *res,
			      struct twz_error *err)
{
	struct twz_spool spool = { -1, 0 };
	struct twz_transit_db db;
	struct stream s = { .opt = opt, .db = &db, .spool = &spool };
	struct twz_transit_sink sink = { sink_block, sink_table_row, &s.sink };
	struct twz_out_file f = { 0 };
	uint64_t spool_at[TWZ_MAX_SECTIONS];
	uint8_t params[TWZ_TP_SIZE];
	struct twz_tdist *row = NULL;
	int rc = -1;
	double t0 = twz_now_seconds();

	memset(&db, 0, sizeof db);
	if (twz_bake_check(g, opt, twz_transit_stream_estimate_bytes, topt, err) != 0)
		return -1;
	if (twz_spool_open(&spool, path, err) != 0)
		return -1;
	s.sink.spool = &spool;
	atomic_init(&s.sink.runs_end, 0);
	atomic_init(&s.sink.failed, 0);
	/* The blocks are known once the level is: the layout alone. */
	struct twz_graph lay;
	memset(&lay, 0, sizeof lay);
	if (twz_transit_layout(g, topt, &lay, err) != 0)
		goto done;
	size_t blocks = (size_t)lay.cols * lay.rows;
	s.sink.block_at = calloc(blocks ? blocks : 1, sizeof *s.sink.block_at);
	s.sink.block_runs = calloc(blocks ? blocks : 1, sizeof *s.sink.block_runs);
	if (!s.sink.block_at || !s.sink.block_runs)
		goto nomem;
	if (twz_bake_transit_sunk(g, opt, topt, &sink, &db, err) != 0) {
		if (atomic_load(&s.sink.failed))
			twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot write a temporary file: %s",
					   path, strerror(atomic_load(&s.sink.failed)));
		goto done;
	}
	const struct twz_graph *tg = &db.graph;
	uint32_t m = db.transit_count;
	s.o = (struct twz_spool_out){ &spool, runs_base(&db) + atomic_load(&s.sink.runs_end),
				  malloc(TWZ_SPOOL_OUT_PIECE), 0 };
	s.piece = malloc(PIECE);
	row = malloc((size_t)(m ? m : 1) * sizeof *row);
	if (!s.o.buf || !s.piece || !row)
		goto nomem;
	if (ordered_runs(&s) != 0)
		goto io;

	int access = 0;
	if (opt->transit_far != TWZ_TRANSIT_LISTS) {
		s.len = calloc(tg->node_count ? tg->node_count : 1, sizeof *s.len);
		s.used = calloc(m ? m : 1, 1);
		s.map = malloc((size_t)(m ? m : 1) * sizeof *s.map);
		if (!s.len || !s.used || !s.map)
			goto nomem;
		int k = access_kept(&s);
		if (k < 0)
			goto io;
		if (k == 0) {
			if (access_renumber(&s) != 0) {
				if (errno == ERANGE) {
					twz_error_set(err, "%s: %llu access nodes exceed the format limit",
						      opt->name,
						      (unsigned long long)db.access_count);
					goto done;
				}
				goto nomem;
			}
			if (access_nodes(&s, row) != 0 ||
			    access_entries(&s) != 0 || access_pack(&s) != 0)
				goto io;
			access = access_wins(&s);
		}
		free(s.used);
		s.used = NULL;
		if (access && access_table(&s, row) != 0)
			goto io;
		free(s.len);
		s.len = NULL;
	}
	free(row);
	row = NULL;
	unsigned width = 4;
	if (!access) {
		int fits16 = 1;
		if (visit_planes(&s, 0, 4, NULL, &fits16) != 0 ||
		    visit_planes(&s, 1, 4, NULL, &fits16) != 0)
			goto io;
		width = fits16 ? 4 : 8;
		if (write_planes(&s, 0, width, &s.node_dist_at) != 0 ||
		    write_planes(&s, 1, width, &s.table_planes_at) != 0)
			goto io;
	}
	free(s.piece);
	s.piece = NULL;
	free(s.o.buf);
	s.o.buf = NULL;
	for (unsigned i = 0; i < TWZ_MAX_SECTIONS; i++)
		spool_at[i] = UINT64_MAX;
	stream_file(&s, g, access, width, params, &f, spool_at);
	uint64_t spooled = s.o.at;
	if (twz_out_write_spooled(&f, &spool, spool_at, opt->name, path, err) != 0)
		goto done;
	if (res) {
		res->node_count = tg->node_count;
		res->component_count = tg->component_count;
		res->transit_count = db.transit_count;
		res->run_count = db.run_count;
		res->access = access;
		res->seconds = twz_now_seconds() - t0;
		res->spool_bytes = spooled;
	}
	rc = 0;
	goto done;
io:
	if (err && !err->msg[0])
		twz_error_kind_set(err, errno == ENOMEM ? TWZ_ERR_NOMEM : TWZ_ERR_IO,
				   "%s: cannot use a temporary file: %s", path,
				   strerror(errno ? errno : EIO));
	goto done;
nomem:
	twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
done:
	for (unsigned i = 0; i < f.count; i++)
		free(f.owned[i]);
	free(row);
	free(s.o.buf);
	free(s.piece);
	free(s.len);
	free(s.used);
	free(s.map);
	free(s.an);
	free(s.bfirst);
	free(s.blist);
	free(s.sink.block_at);
	free(s.sink.block_runs);
	twz_transit_db_free(&db);
	twz_spool_close(&spool);
	return rc;
}
