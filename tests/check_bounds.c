/*
 * check_bounds.c - what a crafted file may cost: the bounds of FORMAT.md
 * section 10a. Files are taken apart into their sections, changed, and
 * put together again with every checksum recomputed, so only the bounds
 * can refuse them:
 * - a zstd frame in each kind of section claiming far more bytes than
 *   the header and the TRANSIT parameters allow, refused before anything
 *   is allocated for it (the process's address space is capped);
 * - TRANSIT lists and local rows longer than their blocks allow, and a
 *   bucketed index step wider than its bucket;
 * - first moves that go round in a loop, which every walk of the runtime
 *   and of the tool reports as a damaged database instead of following,
 *   and a TRANSIT twz_next that loops where twz_path arrives;
 * - costs that disagree with the path walked, which `twigz verify`
 *   counts as failures.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake.h"
#include "test_support.h"
#include "transit.h"
#include "twigz.h"
#include "twz_format.h"
#include "twz_validate.h"

/* ---- files taken apart and put together again ------------------------- */

struct piece {
	uint32_t kind;
	uint16_t codec;
	uint8_t *bytes;           /* stored bytes, malloc'd */
	size_t size;
	uint64_t raw_size;
	uint64_t raw_checksum;    /* kept for zstd; raw is recomputed */
};

struct parts {
	uint8_t header[TWZ_HEADER_SIZE];
	unsigned n;
	struct piece p[TWZ_MAX_SECTIONS];
};

static void parts_of(const uint8_t *buf, size_t len, struct parts *ps)
{
	struct twz_container c;

	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	memset(ps, 0, sizeof *ps);
	memcpy(ps->header, buf, TWZ_HEADER_SIZE);
	ps->n = c.section_count;
	for (unsigned i = 0; i < ps->n; i++) {
		const struct twz_section_ref *s = &c.sections[i];
		struct piece *p = &ps->p[i];
		p->kind = s->kind;
		p->codec = s->codec;
		p->size = (size_t)s->size;
		p->raw_size = s->raw_size;
		p->raw_checksum = s->raw_checksum;
		p->bytes = malloc(p->size ? p->size : 1);
		ck_assert_ptr_nonnull(p->bytes);
		memcpy(p->bytes, buf + s->offset, p->size);
	}
}

static void parts_free(struct parts *ps)
{
	for (unsigned i = 0; i < ps->n; i++)
		free(ps->p[i].bytes);
	ps->n = 0;
}

static struct piece *part(struct parts *ps, uint32_t kind)
{
	for (unsigned i = 0; i < ps->n; i++)
		if (ps->p[i].kind == kind)
			return &ps->p[i];
	ck_abort_msg("no section of kind %u", kind);
	return NULL;
}

/* Section kind's bytes replaced by bytes (taken over), stored raw. */
static void part_set_raw(struct parts *ps, uint32_t kind, uint8_t *bytes,
			 size_t size)
{
	struct piece *p = part(ps, kind);

	free(p->bytes);
	p->bytes = bytes;
	p->size = size;
	p->raw_size = size;
	p->codec = TWZ_CODEC_RAW;
}

/* The file again: table, sections 64-aligned in table order, every
 * checksum recomputed as a crafter would. malloc'd, its length in *len. */
static uint8_t *assemble(const struct parts *ps, size_t *len)
{
	uint64_t at = TWZ_HEADER_SIZE + (uint64_t)ps->n * TWZ_SECTION_ENTRY_SIZE;
	uint64_t offset[TWZ_MAX_SECTIONS];

	for (unsigned i = 0; i < ps->n; i++) {
		at = (at + TWZ_SECTION_ALIGN - 1) / TWZ_SECTION_ALIGN * TWZ_SECTION_ALIGN;
		offset[i] = at;
		at += ps->p[i].size;
	}
	uint8_t *out = calloc(1, (size_t)at);
	ck_assert_ptr_nonnull(out);
	memcpy(out, ps->header, TWZ_HEADER_SIZE);
	for (unsigned i = 0; i < ps->n; i++) {
		const struct piece *p = &ps->p[i];
		uint8_t *e = out + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
		twz_put32(e + TWZ_S_KIND, p->kind);
		twz_put16(e + TWZ_S_CODEC, p->codec);
		twz_put64(e + TWZ_S_OFFSET, offset[i]);
		twz_put64(e + TWZ_S_SIZE, p->size);
		twz_put64(e + TWZ_S_RAW_SIZE, p->raw_size);
		twz_put64(e + TWZ_S_RAW_CHECKSUM,
			  p->codec == TWZ_CODEC_RAW ? twz_checksum(p->bytes, p->size)
						    : p->raw_checksum);
		memcpy(out + offset[i], p->bytes, p->size);
	}
	twz_put32(out + TWZ_H_SECTION_COUNT, ps->n);
	twz_put64(out + TWZ_H_FILE_SIZE, at);
	twz_put64(out + TWZ_H_TABLE_CHECKSUM,
		  twz_checksum(out + TWZ_HEADER_SIZE,
			       (size_t)ps->n * TWZ_SECTION_ENTRY_SIZE));
	twz_put64(out + TWZ_H_HEADER_CHECKSUM,
		  twz_checksum(out, TWZ_H_HEADER_CHECKSUM));
	*len = (size_t)at;
	return out;
}

/* The status of opening the parts put together. */
static twz_status parts_status(const struct parts *ps)
{
	size_t len;
	uint8_t *buf = assemble(ps, &len);
	twz_status st = twz_test_try_open(buf, len, 0);

	free(buf);
	return st;
}

static uint32_t u32(const uint8_t *base, size_t i)
{
	return twz_le32(base + 4 * i);
}

/* ---- the files --------------------------------------------------------- */

enum which {
	PLAIN,       /* CPD, format 1.0 rows */
	BUCKETED,    /* CPD, format 1.2 */
	TRANSIT,     /* TRANSIT, default options */
	WHICH_COUNT
};

static const char *const which_name[] = { "plain", "bucketed", "transit" };

/* A raw bake of a generated level of rooms: malloc'd bytes that open. */
static uint8_t *bake_which(enum which w, struct twz_grid *g, size_t *len)
{
	twz_test_generate(g, TWZ_TEST_ROOMS, 40, 30, 11);
	if (w == PLAIN)
		return twz_test_bake_layout(g, 8, TWZ_CODEC_RAW, 1,
					    TWZ_LAYOUT_PLAIN, len);
	if (w == BUCKETED)
		return twz_test_bake_layout(g, 8, TWZ_CODEC_RAW, 1,
					    TWZ_LAYOUT_NARROW, len);

	struct twz_bake_options opt;
	struct twz_transit_options topt = { 0, 0, 0 };
	struct twz_transit_db tdb;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf;

	twz_bake_options_default(&opt);
	opt.codec = TWZ_CODEC_RAW;
	opt.threads = 1;
	ck_assert_msg(twz_bake_transit(g, &opt, &topt, &tdb, &err) == 0, "%s", err.msg);
	ck_assert_msg(twz_transit_encode(&tdb, g, &opt, &buf, len, &err) == 0,
		      "%s", err.msg);
	twz_transit_db_free(&tdb);
	ck_assert_int_eq(twz_test_try_open(buf, *len, 0), TWZ_OK);
	return buf;
}

/* ---- 1. claims: every kind, refused before it is allocated ------------- */

/* A zstd frame whose header claims content_size bytes, followed by empty
 * raw blocks, enough of them that the frame's size justifies the claim
 * (check 22). Returns its length. */
static size_t claiming_frame(uint8_t *out, uint64_t content_size,
			     unsigned blocks)
{
	size_t n = 0;

	twz_put32(out, 0xFD2FB528u);
	n = 4;
	out[n++] = 0xE0;                        /* 8-byte size, one segment */
	twz_put64(out + n, content_size);
	n += 8;
	for (unsigned b = 0; b < blocks; b++) {
		out[n++] = b + 1 == blocks;     /* raw block of 0 bytes */
		out[n++] = 0;
		out[n++] = 0;
	}
	return n;
}

/* Each section of each kind of file in turn made a frame that claims 256
 * MiB, more than the kind may hold in this file but not more than check
 * 22 lets the frame's size claim: refused as damaged, in a process that
 * could not have allocated the claim (NOMEM would show it tried). */
START_TEST(test_bounds_claims_every_kind)
{
	const unsigned blocks = 3000;
	const uint64_t claim = (uint64_t)256 << 20;
	struct parts ps[WHICH_COUNT];
	struct twz_grid g;
	uint8_t *frame = malloc(16 + 3 * (size_t)blocks);
	size_t flen = claiming_frame(frame, claim, blocks);

	ck_assert_ptr_nonnull(frame);
	ck_assert_uint_le((claim + 131071) / 131072, flen / 4);
	for (int w = 0; w < WHICH_COUNT; w++) {
		size_t len;
		uint8_t *buf = bake_which((enum which)w, &g, &len);
		struct twz_container c;
		struct twz_tparams tp, *pr = NULL;
		parts_of(buf, len, &ps[w]);
		ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
		if (w == TRANSIT) {
			ck_assert_int_eq(twz_transit_params_read(
				&c, part(&ps[w], TWZ_SECTION_TRANSIT_PARAMS)->bytes, &tp),
					 TWZ_OK);
			pr = &tp;
		}
		/* The claim is beyond what each kind may hold here. */
		for (unsigned i = 0; i < ps[w].n; i++) {
			int exact;
			uint64_t limit = twz_section_raw_limit(&c, pr, ps[w].p[i].kind,
							       &exact);
			ck_assert_msg(limit < claim, "%s kind %u: limit %llu",
				      which_name[w], ps[w].p[i].kind,
				      (unsigned long long)limit);
		}
		free(buf);
		twz_grid_free(&g);
	}

	int capped = twz_test_cap_address_space(64ul << 20);
	for (int w = 0; w < WHICH_COUNT; w++) {
		for (unsigned i = 0; i < ps[w].n; i++) {
			struct piece keep = ps[w].p[i];
			struct piece *p = &ps[w].p[i];
			p->bytes = frame;
			p->size = flen;
			p->codec = TWZ_CODEC_ZSTD;
			p->raw_size = claim;
			twz_status st = parts_status(&ps[w]);
			*p = keep;
			ck_assert_msg(st == TWZ_E_DAMAGED,
				      "%s, kind %u claiming %llu bytes: %s (address space %s)",
				      which_name[w], p->kind, (unsigned long long)claim,
				      twz_strerror(st), capped ? "capped" : "not capped");
		}
		/* Untouched, the parts open: the construction is sound. */
		ck_assert_int_eq(parts_status(&ps[w]), TWZ_OK);
		parts_free(&ps[w]);
	}
	free(frame);
}
END_TEST

/* ---- TRANSIT sections, decoded for editing ----------------------------- */

struct tfile {
	struct parts ps;
	struct twz_container c;
	struct twz_tparams tp;
	struct twz_grid g;
	uint8_t *buf;             /* the file as baked, which db reads */
	size_t len;
	twz_db *db;
};

static void tfile_load(struct tfile *f)
{
	f->buf = bake_which(TRANSIT, &f->g, &f->len);
	parts_of(f->buf, f->len, &f->ps);
	ck_assert_int_eq(twz_parse_container(f->buf, f->len, &f->c), TWZ_OK);
	ck_assert_int_eq(twz_transit_params_read(
		&f->c, part(&f->ps, TWZ_SECTION_TRANSIT_PARAMS)->bytes, &f->tp),
			 TWZ_OK);
	ck_assert_int_eq(twz_open_memory(f->buf, f->len, 0, &f->db), TWZ_OK);
}

static void tfile_free(struct tfile *f)
{
	twz_close(f->db);
	parts_free(&f->ps);
	free(f->buf);
	twz_grid_free(&f->g);
}

/* Block coordinates of node n. */
static void tblock(const struct tfile *f, twz_node n, uint32_t *bx, uint32_t *by)
{
	uint32_t x, y;

	ck_assert_int_eq(twz_node_xy(f->db, n, &x, &y), TWZ_OK);
	*bx = (x - f->tp.ox) / f->tp.side;
	*by = (y - f->tp.oy) / f->tp.side;
}

static int tnear(const struct tfile *f, uint32_t ax, uint32_t ay, uint32_t bx,
		 uint32_t by)
{
	return (ax > bx ? ax - bx : bx - ax) <= f->tp.outer &&
	       (ay > by ? ay - by : by - ay) <= f->tp.outer;
}

/* Whether node n lies on the ring of block (bx, by) (FORMAT.md 5b). */
static int ton_ring(const struct tfile *f, twz_node n, uint32_t bx, uint32_t by)
{
	uint32_t ux, uy;
	const struct twz_tparams *tp = &f->tp;

	ck_assert_int_eq(twz_node_xy(f->db, n, &ux, &uy), TWZ_OK);
	int64_t x = ux, y = uy;
	int64_t x0 = tp->ox + ((int64_t)bx - tp->inner) * tp->side;
	int64_t y0 = tp->oy + ((int64_t)by - tp->inner) * tp->side;
	int64_t x1 = tp->ox + ((int64_t)bx + 1 + tp->inner) * tp->side;
	int64_t y1 = tp->oy + ((int64_t)by + 1 + tp->inner) * tp->side;
	return x >= x0 && x <= x1 && y >= y0 && y <= y1 &&
	       (x == x0 || x == x1 || y == y0 || y == y1);
}

/* One half of entry k of a distance section of count entries (plane 0:
 * straight, 1: diagonal). */
static int64_t half_at(const struct tfile *f, const uint8_t *d, uint64_t count,
		       uint64_t k, int plane)
{
	uint64_t at = (uint64_t)plane * count + k;

	return f->tp.dist_bytes == 4 ? (int16_t)twz_le16(d + 2 * at)
				     : (int32_t)twz_le32(d + 4 * at);
}

static void half_put(const struct tfile *f, uint8_t *d, uint64_t count,
		     uint64_t k, int plane, int64_t v)
{
	uint64_t at = (uint64_t)plane * count + k;

	if (f->tp.dist_bytes == 4)
		twz_put16(d + 2 * at, (uint16_t)(int16_t)v);
	else
		twz_put32(d + 4 * at, (uint32_t)(int32_t)v);
}

/* ---- 2. TRANSIT lists and rows that cost more than their blocks allow --- */

/* The two residuals of the table's entry between transit nodes i != j. */
static void table_halves(struct tfile *f, uint32_t i, uint32_t j,
			 int64_t v[2])
{
	const struct piece *t = part(&f->ps, TWZ_SECTION_TRANSIT_TABLE);
	uint64_t m = f->tp.m, lo = i < j ? i : j, hi = i < j ? j : i;
	uint64_t count = t->size / f->tp.dist_bytes;
	uint64_t k = lo * (2 * m - lo - 1) / 2 + (hi - lo - 1);

	for (int pl = 0; pl < 2; pl++)
		v[pl] = half_at(f, t->bytes, count, k, pl);
}

/*
 * One block's transit list made every transit node of its outer square:
 * as valid as any list before the ring was checked (ascending, in the
 * outer square, with distances in range), and as long as the parameters
 * let a crafter make it, which a global query would scan in full, pair by
 * pair. The ring holds the block's transit nodes, so a list is at most
 * the ring's cells long and names nothing off it.
 */
/* The status of f with block best's list made every transit node of its
 * outer square (off_ring) or only those on its ring added to it. */
static twz_status relist(struct tfile *f, uint32_t best, int off_ring,
			 uint32_t *listed)
{
	struct parts ps;
	uint32_t blocks = f->tp.cols * f->tp.rows, m = f->tp.m;
	const uint8_t *blk = part(&f->ps, TWZ_SECTION_TRANSIT_BLOCKS)->bytes;
	const uint8_t *lists = part(&f->ps, TWZ_SECTION_TRANSIT_LISTS)->bytes;
	const uint8_t *nodes = part(&f->ps, TWZ_SECTION_TRANSIT_NODES)->bytes;
	struct piece *ndp = part(&f->ps, TWZ_SECTION_TRANSIT_NODE_DIST);
	uint64_t count = ndp->size / f->tp.dist_bytes;
	uint32_t *near = malloc((m ? m : 1) * sizeof *near);
	uint32_t bx = best % f->tp.cols, by = best / f->tp.cols, len = 0;
	uint32_t l0 = u32(blk, 4 * (size_t)best + 1), l1 = u32(blk, 4 * ((size_t)best + 1) + 1);

	ck_assert_ptr_nonnull(near);
	for (uint32_t i = 0; i < m; i++) {
		uint32_t ax, ay;
		int listed_before = 0;
		for (uint32_t l = l0; l < l1; l++)
			listed_before |= u32(lists, l) == i;
		tblock(f, u32(nodes, i), &ax, &ay);
		if (listed_before || (tnear(f, ax, ay, bx, by) &&
				      (off_ring || ton_ring(f, u32(nodes, i), bx, by))))
			near[len++] = i;
	}
	*listed = len;
	uint32_t n0 = u32(blk, 4 * (size_t)best), n1 = u32(blk, 4 * ((size_t)best + 1));
	uint32_t total = u32(blk, 4 * (size_t)blocks + 1) - (l1 - l0) + len;
	uint64_t ncount = count + (uint64_t)(n1 - n0) * len - (uint64_t)(n1 - n0) * (l1 - l0);
	uint8_t *nl = malloc(4 * (size_t)total + 4);
	uint8_t *nb = malloc(((size_t)blocks + 1) * TWZ_TB_SIZE);
	uint8_t *nd = malloc((size_t)ncount * f->tp.dist_bytes + 8);
	ck_assert(nl && nb && nd);
	uint32_t lk = 0;
	uint64_t dk = 0, ok = 0;
	for (uint32_t b = 0; b <= blocks; b++) {
		uint8_t *r = nb + (size_t)b * TWZ_TB_SIZE;
		twz_put32(r + TWZ_TB_FIRST_NODE, u32(blk, 4 * (size_t)b));
		twz_put32(r + TWZ_TB_FIRST_LIST, lk);
		twz_put64(r + TWZ_TB_FIRST_DIST, dk);
		if (b == blocks)
			break;
		uint32_t b0 = u32(blk, 4 * (size_t)b + 1), b1 = u32(blk, 4 * ((size_t)b + 1) + 1);
		uint32_t bn = u32(blk, 4 * ((size_t)b + 1)) - u32(blk, 4 * (size_t)b);
		if (b != best) {
			for (uint32_t l = b0; l < b1; l++)
				twz_put32(nl + 4 * (size_t)lk++, u32(lists, l));
			for (uint64_t k = 0; k < (uint64_t)bn * (b1 - b0); k++, dk++, ok++)
				for (int pl = 0; pl < 2; pl++)
					half_put(f, nd, ncount, dk, pl,
						 half_at(f, ndp->bytes, count, ok, pl));
			continue;
		}
		for (uint32_t j = 0; j < len; j++)
			twz_put32(nl + 4 * (size_t)lk++, near[j]);
		for (uint32_t n = 0; n < bn; n++) {
			uint32_t node = u32(blk, 4 * (size_t)b) + n, self = UINT32_MAX;
			for (uint32_t i = 0; i < m; i++)
				if (u32(nodes, i) == node)
					self = i;
			for (uint32_t j = 0; j < len; j++, dk++) {
				/* The old distance where there was one, a
				 * transit node's the table's (T10 holds the
				 * two alike), else the reference cost
				 * (residual 0). */
				int64_t v[2] = { 0, 0 };
				if (self != UINT32_MAX && self != near[j])
					table_halves(f, self, near[j], v);
				for (uint32_t l = b0; l < b1; l++)
					if (u32(lists, l) == near[j])
						for (int pl = 0; pl < 2; pl++)
							v[pl] = half_at(f, ndp->bytes, count,
									ok + (uint64_t)n * (b1 - b0) +
									(l - b0), pl);
				for (int pl = 0; pl < 2; pl++)
					half_put(f, nd, ncount, dk, pl, v[pl]);
			}
		}
		ok += (uint64_t)bn * (b1 - b0);
	}
	ck_assert_uint_eq(lk, total);
	ck_assert_uint_eq(dk, ncount);

	/* A copy of the parts with the three sections and max_list. */
	ps = f->ps;
	for (unsigned i = 0; i < ps.n; i++) {
		ps.p[i].bytes = malloc(ps.p[i].size + 1);
		ck_assert_ptr_nonnull(ps.p[i].bytes);
		memcpy(ps.p[i].bytes, f->ps.p[i].bytes, ps.p[i].size);
	}
	part_set_raw(&ps, TWZ_SECTION_TRANSIT_LISTS, nl, 4 * (size_t)total);
	part_set_raw(&ps, TWZ_SECTION_TRANSIT_BLOCKS, nb,
		     ((size_t)blocks + 1) * TWZ_TB_SIZE);
	part_set_raw(&ps, TWZ_SECTION_TRANSIT_NODE_DIST, nd,
		     (size_t)ncount * f->tp.dist_bytes);
	uint8_t *params = part(&ps, TWZ_SECTION_TRANSIT_PARAMS)->bytes;
	if (len > f->tp.max_list)
		twz_put32(params + TWZ_TP_MAX_LIST, len);
	twz_status st = parts_status(&ps);
	parts_free(&ps);
	free(near);
	return st;
}

START_TEST(test_bounds_transit_list_off_ring)
{
	struct tfile f;

	tfile_load(&f);
	uint32_t blocks = f.tp.cols * f.tp.rows, m = f.tp.m;
	const uint8_t *blk = part(&f.ps, TWZ_SECTION_TRANSIT_BLOCKS)->bytes;
	const uint8_t *nodes = part(&f.ps, TWZ_SECTION_TRANSIT_NODES)->bytes;

	/* The block whose outer square holds the most transit nodes off
	 * its ring. */
	uint32_t best = UINT32_MAX, best_off = 0;
	for (uint32_t b = 0; b < blocks; b++) {
		if (u32(blk, 4 * (size_t)b) == u32(blk, 4 * ((size_t)b + 1)))
			continue;
		uint32_t bx = b % f.tp.cols, by = b / f.tp.cols, off = 0;
		for (uint32_t i = 0; i < m; i++) {
			uint32_t ax, ay;
			tblock(&f, u32(nodes, i), &ax, &ay);
			off += tnear(&f, ax, ay, bx, by) &&
			       !ton_ring(&f, u32(nodes, i), bx, by);
		}
		if (off > best_off) {
			best = b;
			best_off = off;
		}
	}
	ck_assert_msg(best != UINT32_MAX, "no block has transit nodes off its ring");

	/* Ring nodes added: legal, if not what a bake would list. */
	uint32_t on, all;
	ck_assert_int_eq(relist(&f, best, 0, &on), TWZ_OK);
	ck_assert_int_eq(relist(&f, best, 1, &all), TWZ_E_DAMAGED);
	ck_assert_uint_gt(all, on);
	tfile_free(&f);
}
END_TEST

/* f's parts with one more run in row s, at target t, with the symbol of
 * the run before it (the row's answers stay the same): its status. */
static twz_status insert_run(struct tfile *f, twz_node s, twz_node t)
{
	struct parts ps;
	uint32_t n = f->c.node_count;
	struct piece *op = part(&f->ps, TWZ_SECTION_TRANSIT_ROW_OFFSETS);
	struct piece *rp = part(&f->ps, TWZ_SECTION_TRANSIT_RUNS);
	size_t runs = rp->size / 4;
	uint32_t at = u32(op->bytes, (size_t)s + 1);
	uint8_t *no = malloc(op->size), *nr = malloc(rp->size + 4);

	ck_assert(no && nr);
	for (uint32_t i = 0; i <= n; i++)
		twz_put32(no + 4 * (size_t)i, u32(op->bytes, i) + (i > s));
	memcpy(nr, rp->bytes, 4 * (size_t)at);
	twz_put32(nr + 4 * (size_t)at,
		  t << TWZ_RUN_SYMBOL_BITS |
			  (u32(rp->bytes, at - 1) & TWZ_RUN_SYMBOL_MASK));
	memcpy(nr + 4 * ((size_t)at + 1), rp->bytes + 4 * (size_t)at,
	       4 * (runs - at));
	ps = f->ps;
	for (unsigned i = 0; i < ps.n; i++) {
		ps.p[i].bytes = malloc(ps.p[i].size + 1);
		ck_assert_ptr_nonnull(ps.p[i].bytes);
		memcpy(ps.p[i].bytes, f->ps.p[i].bytes, ps.p[i].size);
	}
	part_set_raw(&ps, TWZ_SECTION_TRANSIT_ROW_OFFSETS, no, op->size);
	part_set_raw(&ps, TWZ_SECTION_TRANSIT_RUNS, nr, rp->size + 4);
	twz_status st = parts_status(&ps);
	parts_free(&ps);
	return st;
}

/*
 * A local row answers the targets near its source; a run starting at a
 * far target is one no bake writes, and runs like it would let a row
 * grow to a run a target of the whole level instead of a run a target of
 * the blocks near it. Refused; a run more at a near target is legal.
 */
START_TEST(test_bounds_transit_row_far_run)
{
	struct tfile f;

	tfile_load(&f);
	uint32_t n = f.c.node_count;
	const uint8_t *off = part(&f.ps, TWZ_SECTION_TRANSIT_ROW_OFFSETS)->bytes;
	const uint8_t *runs = part(&f.ps, TWZ_SECTION_TRANSIT_RUNS)->bytes;
	twz_node src = TWZ_NONE, near_t = TWZ_NONE, far_t = TWZ_NONE;

	for (twz_node s = 0; s < n && src == TWZ_NONE; s++) {
		uint32_t last = u32(runs, u32(off, (size_t)s + 1) - 1) >> TWZ_RUN_SYMBOL_BITS;
		uint32_t sx, sy;
		twz_node nt = TWZ_NONE, ft = TWZ_NONE;
		tblock(&f, s, &sx, &sy);
		for (twz_node t = last + 1; t < n; t++) {
			uint32_t tx, ty;
			tblock(&f, t, &tx, &ty);
			if (tnear(&f, sx, sy, tx, ty)) {
				if (nt == TWZ_NONE)
					nt = t;
			} else if (ft == TWZ_NONE) {
				ft = t;
			}
		}
		if (nt != TWZ_NONE && ft != TWZ_NONE) {
			src = s;
			near_t = nt;
			far_t = ft;
		}
	}
	ck_assert_msg(src != TWZ_NONE, "no row with both kinds of target after it");
	ck_assert_int_eq(insert_run(&f, src, near_t), TWZ_OK);
	ck_assert_int_eq(insert_run(&f, src, far_t), TWZ_E_DAMAGED);
	tfile_free(&f);
}
END_TEST

/* ---- bucketed rows whose index steps over more runs than a bucket holds - */

/*
 * Node s's bucketed row rewritten with buckets of one target (k = 0), its
 * runs kept: with the true index (index[b] the run covering target b, so
 * one step spans at most one run), or with index[1] two runs past
 * index[0] (crafted), which a lookup in bucket 0 would scan although the
 * bucket has one target. Returns the status of the file.
 */
static twz_status rebucket(const struct parts *orig, twz_node s, int crafted)
{
	struct parts ps = *orig;
	struct twz_container c;
	size_t len;
	uint8_t *buf = assemble(orig, &len);

	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	free(buf);
	for (unsigned i = 0; i < ps.n; i++) {
		ps.p[i].bytes = malloc(ps.p[i].size + 1);
		ck_assert_ptr_nonnull(ps.p[i].bytes);
		memcpy(ps.p[i].bytes, orig->p[i].bytes, ps.p[i].size);
	}
	struct piece *rp = part(&ps, TWZ_SECTION_ROWS);
	uint8_t *rec = part(&ps, TWZ_SECTION_NODE_RECORDS)->bytes;
	const uint8_t *regions = part(&ps, TWZ_SECTION_REGIONS)->bytes;
	uint32_t word = twz_le32(rec + (size_t)s * TWZ_RECORD_SIZE + TWZ_R_ROW);
	uint32_t k = twz_region_of(regions, c.component_count, s);
	uint32_t rlen = u32(regions, (size_t)k + 1) - u32(regions, k);
	uint32_t shift = word >> TWZ_ROW_OFFSET_BITS;
	uint32_t buckets = ((rlen - 1) >> shift) + 1;
	uint32_t at = word & TWZ_ROW_OFFSET_MASK;
	const uint8_t *index = rp->bytes + 2 * (size_t)at;
	const uint8_t *run = index + 2 * ((size_t)buckets + 1);
	uint32_t runs = twz_le16(index + 2 * (size_t)buckets) + 1u;

	/* Each run's first target, from the bucket it starts in. */
	uint32_t *start = calloc(runs, sizeof *start);
	ck_assert_ptr_nonnull(start);
	for (uint32_t b = 0; b < buckets; b++) {
		uint32_t j0 = twz_le16(index + 2 * (size_t)b);
		uint32_t j1 = twz_le16(index + 2 * ((size_t)b + 1));
		for (uint32_t j = j0 + 1; j <= j1; j++) {
			uint32_t off = twz_le16(run + 2 * (size_t)j) >> TWZ_RUN_SYMBOL_BITS;
			start[j] = off ? (b << shift) + off : (b + 1) << shift;
		}
	}
	/* The row again: rlen + 1 index entries, then the runs. */
	size_t old_words = (size_t)buckets + 1 + runs;
	size_t new_words = (size_t)rlen + 1 + runs;
	size_t total = rp->size / 2 - old_words + new_words;
	uint8_t *nr = malloc(2 * total);
	ck_assert_ptr_nonnull(nr);
	memcpy(nr, rp->bytes, 2 * (size_t)at);
	uint8_t *ni = nr + 2 * (size_t)at, *nrun = ni + 2 * ((size_t)rlen + 1);
	uint32_t j = 0;
	for (uint32_t b = 0; b <= rlen; b++) {
		while (j + 1 < runs && start[j + 1] <= b)
			j++;
		uint32_t v = b == rlen ? runs - 1 : j;
		if (crafted && b == 1)
			v = 2;
		if (crafted && b > 1 && v < 2)
			v = 2;
		twz_put16(ni + 2 * (size_t)b, (uint16_t)v);
	}
	for (uint32_t q = 0; q < runs; q++)
		twz_put16(nrun + 2 * (size_t)q,
			  (uint16_t)(twz_le16(run + 2 * (size_t)q) & TWZ_RUN_SYMBOL_MASK));
	memcpy(nrun + 2 * (size_t)runs, rp->bytes + 2 * ((size_t)at + old_words),
	       2 * (rp->size / 2 - at - old_words));
	twz_put32(rec + (size_t)s * TWZ_RECORD_SIZE + TWZ_R_ROW, at);
	for (uint32_t v = s + 1; v < c.node_count; v++) {
		uint8_t *r = rec + (size_t)v * TWZ_RECORD_SIZE + TWZ_R_ROW;
		twz_put32(r, twz_le32(r) + (uint32_t)(new_words - old_words));
	}
	part_set_raw(&ps, TWZ_SECTION_ROWS, nr, 2 * total);
	twz_status st = parts_status(&ps);
	parts_free(&ps);
	free(start);
	return st;
}

/* A lookup scans the runs of one index step: a file whose step spans
 * more runs than the bucket has targets is refused (check 46), so no
 * lookup scans more than 2^k + 1 <= 4097 runs. */
START_TEST(test_bounds_bucket_step)
{
	struct twz_grid g;
	size_t len;
	uint8_t *buf = bake_which(BUCKETED, &g, &len);
	struct parts ps;
	twz_db *db;

	parts_of(buf, len, &ps);
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &db), TWZ_OK);
	/* A row of at least four runs. */
	struct twz_container c;
	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	const uint8_t *rec = part(&ps, TWZ_SECTION_NODE_RECORDS)->bytes;
	const uint8_t *regions = part(&ps, TWZ_SECTION_REGIONS)->bytes;
	const uint8_t *rows = part(&ps, TWZ_SECTION_ROWS)->bytes;
	twz_node s = TWZ_NONE;
	for (twz_node v = 0; v < twz_node_count(db) && s == TWZ_NONE; v++) {
		uint32_t word = twz_le32(rec + (size_t)v * TWZ_RECORD_SIZE + TWZ_R_ROW);
		uint32_t k = twz_region_of(regions, c.component_count, v);
		uint32_t rlen = u32(regions, (size_t)k + 1) - u32(regions, k);
		uint32_t buckets = ((rlen - 1) >> (word >> TWZ_ROW_OFFSET_BITS)) + 1;
		const uint8_t *index = rows + 2 * (size_t)(word & TWZ_ROW_OFFSET_MASK);
		if (twz_le16(index + 2 * (size_t)buckets) + 1u >= 4)
			s = v;
	}
	ck_assert_uint_ne(s, TWZ_NONE);
	ck_assert_int_eq(rebucket(&ps, s, 0), TWZ_OK);
	ck_assert_int_eq(rebucket(&ps, s, 1), TWZ_E_DAMAGED);
	twz_close(db);
	parts_free(&ps);
	free(buf);
	twz_grid_free(&g);
}
END_TEST

/* ---- 3. first moves in a loop: every walk ends, and says so ------------ */

/* The symbol of the run of row s covering t made sym: plain rows (CPD 1.0
 * and TRANSIT local rows) or bucketed ones. */
static void set_move(struct parts *ps, enum which w, twz_node s, twz_node t,
		     unsigned sym)
{
	if (w != BUCKETED) {
		uint32_t ko = w == PLAIN ? TWZ_SECTION_ROW_OFFSETS
					 : TWZ_SECTION_TRANSIT_ROW_OFFSETS;
		uint32_t kr = w == PLAIN ? TWZ_SECTION_RUNS : TWZ_SECTION_TRANSIT_RUNS;
		const uint8_t *off = part(ps, ko)->bytes;
		uint8_t *runs = part(ps, kr)->bytes;
		uint32_t k = u32(off, s);
		while (k + 1 < u32(off, (size_t)s + 1) &&
		       u32(runs, (size_t)k + 1) >> TWZ_RUN_SYMBOL_BITS <= t)
			k++;
		twz_put32(runs + 4 * (size_t)k,
			  (u32(runs, k) & ~TWZ_RUN_SYMBOL_MASK) | sym);
		return;
	}
	struct twz_container c;
	size_t len;
	uint8_t *buf = assemble(ps, &len);
	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	free(buf);
	const uint8_t *rec = part(ps, TWZ_SECTION_NODE_RECORDS)->bytes;
	const uint8_t *regions = part(ps, TWZ_SECTION_REGIONS)->bytes;
	uint8_t *rows = part(ps, TWZ_SECTION_ROWS)->bytes;
	uint32_t word = twz_le32(rec + (size_t)s * TWZ_RECORD_SIZE + TWZ_R_ROW);
	uint32_t k = twz_region_of(regions, c.component_count, s);
	uint32_t lo = u32(regions, k), rlen = u32(regions, (size_t)k + 1) - lo;
	uint32_t shift = word >> TWZ_ROW_OFFSET_BITS;
	uint32_t buckets = ((rlen - 1) >> shift) + 1;
	uint8_t *index = rows + 2 * (size_t)(word & TWZ_ROW_OFFSET_MASK);
	uint8_t *run = index + 2 * ((size_t)buckets + 1);
	uint32_t rel = t - lo, b = rel >> shift;
	uint32_t inside = rel & ((1u << shift) - 1);
	uint32_t j = twz_le16(index + 2 * (size_t)b);
	uint32_t last = twz_le16(index + 2 * ((size_t)b + 1));
	for (uint32_t q = j + 1; q <= last; q++) {
		uint32_t start = twz_le16(run + 2 * (size_t)q) >> TWZ_RUN_SYMBOL_BITS;
		if (start == 0 || start > inside)
			break;
		j = q;
	}
	uint8_t *r = run + 2 * (size_t)j;
	twz_put16(r, (uint16_t)((twz_le16(r) & ~TWZ_RUN_SYMBOL_MASK) | sym));
}

static void assert_one_line(const struct twz_test_run *r, const char *what,
			    const char *says)
{
	ck_assert_msg(r->status > 0, "%s: exit status %d (signal %d)", what,
		      r->status, r->signal);
	ck_assert_msg(r->err_len > 0 && r->err[r->err_len - 1] == '\n' &&
			      memchr(r->err, '\n', r->err_len) == r->err + r->err_len - 1,
		      "%s: stderr is not one line: '%s'", what, r->err);
	if (says)
		ck_assert_msg(strstr(r->err, says), "%s: stderr '%s' should say '%s'",
			      what, r->err, says);
}

/*
 * Nodes a and b side by side, each told to step to the other on the way
 * to a target t near both: a file with valid checksums, every structure
 * sound, whose first moves loop. Every walk of the runtime and of the
 * tool stops within node_count steps and reports a damaged database.
 */
START_TEST(test_bounds_cycles_end)
{
	enum which w = (enum which)_i;
	struct twz_grid g;
	size_t len;
	uint8_t *buf = bake_which(w, &g, &len);
	twz_db *orig, *db;
	struct parts ps;

	ck_assert_int_eq(twz_open_memory(buf, len, 0, &orig), TWZ_OK);
	uint32_t n = twz_node_count(orig);
	struct twz_tparams tp = { 0 };
	parts_of(buf, len, &ps);
	if (w == TRANSIT) {
		struct twz_container c;
		ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
		ck_assert_int_eq(twz_transit_params_read(
			&c, part(&ps, TWZ_SECTION_TRANSIT_PARAMS)->bytes, &tp), TWZ_OK);
	}

	/* a, its east neighbour b, and t two or three cells away from
	 * both, in their region (for TRANSIT, in blocks near both). */
	twz_node a = TWZ_NONE, b = TWZ_NONE, t = TWZ_NONE;
	uint32_t ax = 0, ay = 0, tx = 0, ty = 0;
	for (twz_node v = 0; v < n && t == TWZ_NONE; v++) {
		ck_assert_int_eq(twz_node_xy(orig, v, &ax, &ay), TWZ_OK);
		twz_node e = twz_node_at(orig, (int64_t)ax + 1, ay);
		if (e == TWZ_NONE)
			continue;
		for (int dy = -3; dy <= 3 && t == TWZ_NONE; dy++) {
			for (int dx = -2; dx <= 4 && t == TWZ_NONE; dx++) {
				int64_t x = (int64_t)ax + dx, y = (int64_t)ay + dy;
				twz_node u = twz_node_at(orig, x, y);
				int da = abs(dx) > abs(dy) ? abs(dx) : abs(dy);
				int db_ = abs(dx - 1) > abs(dy) ? abs(dx - 1) : abs(dy);
				if (u == TWZ_NONE || da < 2 || db_ < 2 ||
				    !isfinite(twz_cost(orig, v, u)))
					continue;
				if (w == TRANSIT) {
					int64_t bx = ((int64_t)ax - tp.ox) / tp.side;
					int64_t by = ((int64_t)ay - tp.oy) / tp.side;
					int64_t ux = (x - tp.ox) / tp.side, uy = (y - tp.oy) / tp.side;
					int64_t ex = ((int64_t)ax + 1 - tp.ox) / tp.side;
					if (llabs(ux - bx) > tp.outer || llabs(uy - by) > tp.outer ||
					    llabs(ux - ex) > tp.outer)
						continue;
				}
				a = v;
				b = e;
				t = u;
				tx = (uint32_t)x;
				ty = (uint32_t)y;
			}
		}
	}
	ck_assert_msg(t != TWZ_NONE, "%s: no pair of neighbours with a target", which_name[w]);
	double optimum = twz_cost(orig, a, t);
	set_move(&ps, w, a, t, 1);  /* east, to b */
	set_move(&ps, w, b, t, 3);  /* west, to a */
	size_t clen;
	uint8_t *crafted = assemble(&ps, &clen);
	parts_free(&ps);

	/* The runtime. */
	ck_assert_int_eq(twz_open_memory(crafted, clen, 0, &db), TWZ_OK);
	twz_node *path = malloc(((size_t)n + 1) * sizeof *path);
	ck_assert_ptr_nonnull(path);
	size_t plen = 0;
	uint32_t st = 0, dg = 0;
	ck_assert_uint_eq(twz_next(db, a, t), b);
	ck_assert_uint_eq(twz_next(db, b, t), a);
	ck_assert_int_eq(twz_path(db, a, t, path, (size_t)n + 1, &plen), TWZ_E_DAMAGED);
	ck_assert_uint_le(plen, n);
	ck_assert_int_eq(twz_path(db, b, t, path, 4, &plen), TWZ_E_DAMAGED);
	ck_assert_int_eq(twz_cost_exact(db, a, t, &st, &dg), TWZ_E_DAMAGED);
	ck_assert(twz_cost(db, b, t) < 0);
	ck_assert_int_eq(twz_flow_field(db, t, path, n), TWZ_E_DAMAGED);
	/* The field still holds the moves, as twz_next gives them. */
	ck_assert_uint_eq(path[a], b);
	ck_assert_uint_eq(path[b], a);
	/* Toward another target the moves may still arrive. */
	twz_node other = a == 0 ? 1 : 0;
	twz_status fs = twz_flow_field(db, other, path, n);
	ck_assert(fs == TWZ_OK || fs == TWZ_E_DAMAGED);
	twz_close(db);

	/* The tool: one line, a non-zero exit, from every command. */
	char dir[4096], dbpath[4200], scen[4200], out[4200], arg[64], pt[64];
	struct twz_test_run r;
	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "twz-bounds-"));
	snprintf(dbpath, sizeof dbpath, "%s/loop.twz", dir);
	snprintf(scen, sizeof scen, "%s/loop.scen", dir);
	snprintf(out, sizeof out, "%s/loop.svg", dir);
	twz_test_write_file(dbpath, crafted, clen);
	char text[256];
	int tl = snprintf(text, sizeof text, "version 1\n0\tloop.map\t%u\t%u\t%u\t%u\t%u\t%u\t%.8f\n",
			  g.width, g.height, ax, ay, tx, ty, optimum);
	twz_test_write_file(scen, text, (size_t)tl);
	snprintf(arg, sizeof arg, "%u,%u,%u,%u", ax, ay, tx, ty);
	snprintf(pt, sizeof pt, "%u,%u", tx, ty);
	char sx[16], sy[16], gx[16], gy[16];
	snprintf(sx, sizeof sx, "%u", ax);
	snprintf(sy, sizeof sy, "%u", ay);
	snprintf(gx, sizeof gx, "%u", tx);
	snprintf(gy, sizeof gy, "%u", ty);
	const char *const query[] = { "query", dbpath, sx, sy, gx, gy, NULL };
	const char *const verify[] = { "verify", dbpath, scen, NULL };
	const char *const bench[] = { "bench", dbpath, scen, "--pairs", "100", NULL };
	const char *const rpath[] = { "render", dbpath, "-o", out, "--path", arg, NULL };
	const char *const rflow[] = { "render", dbpath, "-o", out, "--flow", pt, NULL };
	const char *const rdist[] = { "render", dbpath, "-o", out, "--distance", pt, NULL };
	const struct {
		const char *const *args;
		const char *says;
	} runs[] = {
		{ query, "damaged" }, { verify, "damaged" }, { bench, "damaged" },
		{ rpath, "damaged" }, { rflow, "damaged" }, { rdist, "damaged" },
	};
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		twz_test_run_tool(runs[i].args, NULL, 0, &r);
		char what[64];
		snprintf(what, sizeof what, "%s: twigz %s", which_name[w], runs[i].args[0]);
		assert_one_line(&r, what, runs[i].says);
		twz_test_run_free(&r);
	}
	twz_test_remove_tree(dir);
	free(path);
	free(crafted);
	twz_close(orig);
	free(buf);
	twz_grid_free(&g);
}
END_TEST

/*
 * In a TRANSIT file, twz_next toward a far target and the chunked walk of
 * twz_path choose their transit nodes apart: a node x's distance to one
 * of its block's transit nodes made small, and x's move toward that node
 * made a step back to s, makes twz_next go s -> x -> s -> ... while the
 * walk from s, keeping its first waypoint, still arrives. A game that
 * follows twz_next itself must count its steps (twigz.h); `twigz bench`,
 * whose timed walks follow twz_next, checks first that they arrive, and
 * `twigz verify` walks it as a game would.
 */
START_TEST(test_bounds_transit_next_loops_where_path_arrives)
{
	struct tfile f;

	tfile_load(&f);
	uint32_t n = f.c.node_count;
	const uint8_t *blk = part(&f.ps, TWZ_SECTION_TRANSIT_BLOCKS)->bytes;
	const uint8_t *lists = part(&f.ps, TWZ_SECTION_TRANSIT_LISTS)->bytes;
	const uint8_t *nodes = part(&f.ps, TWZ_SECTION_TRANSIT_NODES)->bytes;
	twz_node *path = malloc(((size_t)n + 1) * sizeof *path);
	uint8_t *crafted = NULL;
	size_t clen = 0;
	twz_node s = 0, t = 0;
	int found = 0;

	ck_assert_ptr_nonnull(path);
	for (s = 0; s < n && !found; s += 3) {
		for (uint32_t k = 1; k < 6 && !found; k++) {
			t = (twz_node)(((uint64_t)s * 2654435761u + k * 40503u) % n);
			uint32_t sbx, sby, tbx, tby;
			tblock(&f, s, &sbx, &sby);
			tblock(&f, t, &tbx, &tby);
			if (tnear(&f, sbx, sby, tbx, tby) || !isfinite(twz_cost(f.db, s, t)))
				continue;
			twz_node x = twz_next(f.db, s, t);
			if (x == TWZ_NONE || x == t)
				continue;
			uint32_t sx, sy, xx, xy;
			twz_node_xy(f.db, s, &sx, &sy);
			twz_node_xy(f.db, x, &xx, &xy);
			unsigned back = twz_direction_move(TWZ_SYMBOL_TOWARD,
							   (int32_t)sx - (int32_t)xx,
							   (int32_t)sy - (int32_t)xy);
			/* x's block, its list and x's distances to it. */
			uint32_t xbx, xby;
			tblock(&f, x, &xbx, &xby);
			uint32_t b = xby * f.tp.cols + xbx;
			uint32_t l0 = u32(blk, 4 * (size_t)b + 1);
			uint32_t l1 = u32(blk, 4 * ((size_t)b + 1) + 1);
			uint64_t d0 = twz_le64(blk + (size_t)b * TWZ_TB_SIZE + TWZ_TB_FIRST_DIST) +
				      (uint64_t)(x - u32(blk, 4 * (size_t)b)) * (l1 - l0);
			for (uint32_t l = l0; l < l1 && !found; l++) {
				struct parts ps = f.ps;
				for (unsigned i = 0; i < ps.n; i++) {
					ps.p[i].bytes = malloc(ps.p[i].size + 1);
					ck_assert_ptr_nonnull(ps.p[i].bytes);
					memcpy(ps.p[i].bytes, f.ps.p[i].bytes, ps.p[i].size);
				}
				struct piece *nd = part(&ps, TWZ_SECTION_TRANSIT_NODE_DIST);
				uint64_t count = nd->size / f.tp.dist_bytes;
				int64_t far = f.tp.dist_bytes == 4 ? -32768 : INT32_MIN;
				if (half_at(&f, nd->bytes, count, d0 + (l - l0), 0) != far)
					for (int pl = 0; pl < 2; pl++)
						half_put(&f, nd->bytes, count, d0 + (l - l0), pl, 0);
				set_move(&ps, TRANSIT, x, u32(nodes, u32(lists, l)), back);
				size_t len;
				uint8_t *buf = assemble(&ps, &len);
				parts_free(&ps);
				twz_db *db;
				size_t plen;
				if (twz_open_memory(buf, len, 0, &db) == TWZ_OK) {
					found = twz_next(db, s, t) == x && twz_next(db, x, t) == s &&
						twz_path(db, s, t, path, (size_t)n + 1, &plen) == TWZ_OK;
					twz_close(db);
				}
				if (found) {
					crafted = buf;
					clen = len;
				} else {
					free(buf);
				}
			}
		}
	}
	ck_assert_msg(found, "no far pair whose twz_next could be made to loop");
	s -= 3;

	twz_db *db;
	ck_assert_int_eq(twz_open_memory(crafted, clen, 0, &db), TWZ_OK);
	twz_node at = s;
	for (uint32_t k = 0; k <= n && at != t && at != TWZ_NONE; k++)
		at = twz_next(db, at, t);
	ck_assert_uint_ne(at, t);
	uint32_t st, dg;
	ck_assert_int_eq(twz_cost_exact(db, s, t, &st, &dg), TWZ_OK);
	uint32_t sx, sy, tx, ty;
	twz_node_xy(db, s, &sx, &sy);
	twz_node_xy(db, t, &tx, &ty);
	twz_close(db);

	char dir[4096], dbpath[4200], scen[4200], text[256];
	struct twz_test_run r;
	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "twz-bounds-"));
	snprintf(dbpath, sizeof dbpath, "%s/next.twz", dir);
	snprintf(scen, sizeof scen, "%s/next.scen", dir);
	twz_test_write_file(dbpath, crafted, clen);
	int tl = snprintf(text, sizeof text, "version 1\n0\tx.map\t%u\t%u\t%u\t%u\t%u\t%u\t%.8f\n",
			  f.g.width, f.g.height, sx, sy, tx, ty, twz_cost(f.db, s, t));
	twz_test_write_file(scen, text, (size_t)tl);
	const char *const args[] = { "bench", dbpath, scen, "--pairs", "100", NULL };
	twz_test_run_tool(args, NULL, 0, &r);
	assert_one_line(&r, "twigz bench", "twz_next does not lead to the goal");
	twz_test_run_free(&r);
	/* verify walks twz_next too, as a game would. */
	const char *const vargs[] = { "verify", dbpath, scen, NULL };
	twz_test_run_tool(vargs, NULL, 0, &r);
	assert_one_line(&r, "twigz verify", "twz_next does not lead to the goal");
	ck_assert_msg(strstr(r.out, "0 passed, 1 failed"), "stdout: %s", r.out);
	twz_test_run_free(&r);
	twz_test_remove_tree(dir);
	free(crafted);
	free(path);
	tfile_free(&f);
}
END_TEST

/* ---- 4. costs that disagree with the path ------------------------------ */

/*
 * Every distance from a node to its block's transit nodes one straight
 * move longer: still a legal file, and the paths (chosen by comparing
 * sums that all grow by two alike) stay optimal, but twz_cost_exact of a
 * far pair, which adds up the tables instead of walking, no longer agrees
 * with the path. `twigz verify` counts that as a failure and says why.
 */
START_TEST(test_bounds_verify_cost_disagrees)
{
	struct tfile f;

	tfile_load(&f);
	/* Every distance a straight move longer, in both sections alike,
	 * so each is one a path can have and a transit node's agree with
	 * the table's (T10): the file opens, and answers wrong. */
	static const uint32_t kinds[] = { TWZ_SECTION_TRANSIT_NODE_DIST,
					  TWZ_SECTION_TRANSIT_TABLE };
	int64_t far = f.tp.dist_bytes == 4 ? -32768 : INT32_MIN;
	for (size_t sec = 0; sec < 2; sec++) {
		struct piece *tbl = part(&f.ps, kinds[sec]);
		uint64_t count = tbl->size / f.tp.dist_bytes;
		for (uint64_t k = 0; k < count; k++) {
			int64_t v = half_at(&f, tbl->bytes, count, k, 0);
			if (v != far)
				half_put(&f, tbl->bytes, count, k, 0, v + 1);
		}
	}
	size_t clen;
	uint8_t *crafted = assemble(&f.ps, &clen);
	twz_db *db;
	ck_assert_int_eq(twz_open_memory(crafted, clen, 0, &db), TWZ_OK);

	/* Far pairs of one region, their optimum from the file as baked. */
	char *text = malloc(64 * 1024);
	ck_assert_ptr_nonnull(text);
	int tl = sprintf(text, "version 1\n");
	uint32_t n = f.c.node_count, found = 0, wrong = 0;
	for (twz_node s = 0; s < n && found < 40; s += 7) {
		twz_node t = (twz_node)(((uint64_t)s * 2654435761u) % n);
		uint32_t sbx, sby, tbx, tby, sx, sy, tx, ty;
		double cost = twz_cost(f.db, s, t);
		tblock(&f, s, &sbx, &sby);
		tblock(&f, t, &tbx, &tby);
		if (!isfinite(cost) || cost <= 0 || tnear(&f, sbx, sby, tbx, tby))
			continue;
		uint32_t st, dg;
		ck_assert_int_eq(twz_cost_exact(db, s, t, &st, &dg), TWZ_OK);
		wrong += fabs(st + dg * 1.41421356237309504880 - cost) > 1e-9;
		twz_node_xy(f.db, s, &sx, &sy);
		twz_node_xy(f.db, t, &tx, &ty);
		tl += sprintf(text + tl, "0\tx.map\t%u\t%u\t%u\t%u\t%u\t%u\t%.8f\n",
			      f.g.width, f.g.height, sx, sy, tx, ty, cost);
		found++;
	}
	ck_assert_uint_gt(found, 0);
	ck_assert_uint_gt(wrong, 0);
	twz_close(db);

	char dir[4096], dbpath[4200], good[4200], scen[4200];
	struct twz_test_run r;
	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "twz-bounds-"));
	snprintf(dbpath, sizeof dbpath, "%s/tables.twz", dir);
	snprintf(good, sizeof good, "%s/good.twz", dir);
	snprintf(scen, sizeof scen, "%s/far.scen", dir);
	twz_test_write_file(dbpath, crafted, clen);
	twz_test_write_file(good, f.buf, f.len);
	twz_test_write_file(scen, text, (size_t)tl);
	const char *const ok_args[] = { "verify", good, scen, NULL };
	twz_test_run_tool(ok_args, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "verify of the file as baked: %d: %s", r.status, r.err);
	twz_test_run_free(&r);
	const char *const args[] = { "verify", dbpath, scen, NULL };
	twz_test_run_tool(args, NULL, 0, &r);
	ck_assert_msg(r.status == 1, "exit status %d: %s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "twz_cost_exact differs from the cost of the path"),
		      "stderr: %s", r.err);
	char summary[64];
	snprintf(summary, sizeof summary, "%u failed", wrong);
	ck_assert_msg(strstr(r.out, summary), "stdout '%s' should say '%s'", r.out, summary);
	twz_test_run_free(&r);
	twz_test_remove_tree(dir);
	free(text);
	free(crafted);
	tfile_free(&f);
}
END_TEST

static Suite *twz_bounds_suite(void)
{
	Suite *s = suite_create("bounds");
	TCase *tc = tcase_create("Claims");
	tcase_add_test(tc, test_bounds_claims_every_kind);
	suite_add_tcase(s, tc);

	tc = tcase_create("Lists and rows");
	tcase_add_test(tc, test_bounds_transit_list_off_ring);
	tcase_add_test(tc, test_bounds_transit_row_far_run);
	tcase_add_test(tc, test_bounds_bucket_step);
	suite_add_tcase(s, tc);

	tc = tcase_create("Loops");
	tcase_add_loop_test(tc, test_bounds_cycles_end, 0, WHICH_COUNT);
	tcase_add_test(tc, test_bounds_transit_next_loops_where_path_arrives);
	tcase_add_test(tc, test_bounds_verify_cost_disagrees);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_bounds_suite());
}
