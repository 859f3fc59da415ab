/*
 * check_transit_chunks.c - TRANSIT databases larger than their cache
 * budget (twigz build --method transit --chunk, twz_open_ex): the local
 * rows of both layouts, and the access entries and bit-packed table of
 * the access-node layout (1.4), its entries packed (4 bytes) or not (8),
 * read chunk by chunk on use. Every pair
 * of small levels against a plain Dijkstra and against the database
 * inflated at open, at a tenth of the lazy sections and at one slot;
 * the budget honoured; a Moving AI level's scenarios against their
 * published lengths (larger levels, chunked, are the benchmark's:
 * ninja bench-chunks-transit); eight threads on one slot; damaged chunks of each kind found
 * at query time and never answered from.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level_scen.h"
#include "test_support.h"
#include "transit.h"
#include "twigz.h"
#include "twz_chunk_dir.h"
#include "twz_inspect.h"

/* A race report must fail the test, not just print. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "halt_on_error=1:abort_on_error=1";
}

/* ---- helpers ---------------------------------------------------------- */

/* g baked by TRANSIT in the block-list layout (1.1, access 0) or the
 * access-node one (1.4: access 1 packs its entries, TWZ_TRANSIT_ACCESS_WIDE
 * keeps them 8 bytes), sections chunked at about `chunk` bytes, on a
 * block grid `grid` blocks across (0: the default). */
static uint8_t *bake_transit_chunked(const struct twz_grid *g,
				     unsigned connectivity, int access,
				     unsigned grid, uint64_t chunk, size_t *len)
{
	struct twz_bake_options opt;
	struct twz_transit_options topt = { grid, 0, 0 };
	struct twz_transit_db db;
	struct twz_error err;
	uint8_t *buf = NULL;

	twz_bake_options_default(&opt);
	opt.connectivity = connectivity;
	opt.threads = 2;
	opt.level = 3;
	opt.chunk = chunk;
	opt.name = "test level";
	opt.transit_far = access;
	memset(&err, 0, sizeof err);
	ck_assert_msg(twz_bake_transit(g, &opt, &topt, &db, &err) == 0,
		      "bake: %s", err.msg);
	int rc = twz_transit_encode(&db, g, &opt, &buf, len, &err);
	twz_transit_db_free(&db);
	ck_assert_msg(rc == 0, "encode: %s", err.msg);
	return buf;
}

static twz_status open_cache(const uint8_t *buf, size_t len, uint64_t budget,
			     twz_db **db)
{
	twz_open_options o;

	memset(&o, 0, sizeof o);
	o.cache_bytes = budget;
	return twz_open_memory_ex(buf, len, &o, db);
}

/* The kinds a budget leaves in chunks: the local rows, and in the
 * access layout its entries (either form) and table. */
static int lazy_kind(uint32_t kind, int access)
{
	return kind == TWZ_SECTION_TRANSIT_RUNS ||
	       (access && (kind == TWZ_SECTION_ACCESS ||
			   kind == TWZ_SECTION_ACCESS_PACKED ||
			   kind == TWZ_SECTION_ACCESS_TABLE));
}

/* The kind of the entries the bake was asked for: packed unless wide
 * (the test's levels all pack). */
static uint32_t entry_kind(int access)
{
	return access == TWZ_TRANSIT_ACCESS_WIDE ? TWZ_SECTION_ACCESS
						 : TWZ_SECTION_ACCESS_PACKED;
}

/* Raw bytes of the sections a budget leaves in chunks: the local rows
 * and access entries must be chunked (the test's levels are large
 * enough), the table when it is larger than one chunk. */
static uint64_t lazy_raw_size(const uint8_t *buf, size_t len, int access)
{
	struct twz_container c;
	uint64_t raw = 0;
	unsigned kinds = 0, entries = 0;

	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	ck_assert_int_eq((c.required_features & TWZ_FEATURE_TRANSIT_ACCESS) != 0,
			 access != 0);
	for (uint32_t i = 0; i < c.section_count; i++) {
		const struct twz_section_ref *s = &c.sections[i];
		if (!lazy_kind(s->kind, access))
			continue;
		if (s->kind == TWZ_SECTION_ACCESS_TABLE &&
		    !(s->flags & TWZ_SF_CHUNKED))
			continue;
		ck_assert_msg(s->flags & TWZ_SF_CHUNKED, "section %u not chunked",
			      (unsigned)s->kind);
		raw += s->raw_size;
		kinds++;
		entries += access && s->kind == entry_kind(access);
	}
	ck_assert_uint_ge(kinds, access ? 2 : 1);
	ck_assert_uint_eq(entries, access ? 1 : 0);
	return raw;
}

/* The chunk directory of the section of kind in buf. */
static const uint8_t *section_dir(const uint8_t *buf, size_t len,
				  uint32_t kind, struct twz_chunk_dir *d)
{
	struct twz_container c;

	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	for (uint32_t i = 0; i < c.section_count; i++) {
		const struct twz_section_ref *s = &c.sections[i];
		if (s->kind != kind)
			continue;
		ck_assert(s->flags & TWZ_SF_CHUNKED);
		ck_assert_int_eq(twz_chunk_dir_read(buf + s->offset, s->size,
						    s->raw_size, d), TWZ_OK);
		return buf + s->offset;
	}
	ck_abort_msg("no section %u", (unsigned)kind);
	return NULL;
}

/*
 * The budget honoured: the lazy sections registered with the cache and
 * left out of memory at open (every one of them lazy), and the slots,
 * the only memory inflated chunks ever take, within the budget (one
 * slot at least: a budget below one chunk still gets one).
 */
static void expect_budget(const twz_db *db, const uint8_t *buf, size_t len,
			  int access, uint64_t budget)
{
	struct twz_cache_summary cs;
	struct twz_container c;
	uint64_t raw = lazy_raw_size(buf, len, access);

	ck_assert_int_eq(twz_inspect_cache(db, &cs), 0);
	ck_assert_uint_eq(cs.lazy_raw, raw);
	ck_assert_uint_le(cs.resident, cs.slots);
	ck_assert_msg(cs.slots == 1 || cs.slots * cs.slot_size <= budget,
		      "%u slots of %llu bytes over a budget of %llu", cs.slots,
		      (unsigned long long)cs.slot_size, (unsigned long long)budget);
	ck_assert_uint_lt(cs.slots * cs.slot_size, raw);
	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	for (uint32_t i = 0; i < c.section_count; i++) {
		struct twz_chunk_summary sum;
		int rc = twz_inspect_chunks(db, i, &sum);
		ck_assert_int_ge(rc, 0);
		ck_assert_int_eq(rc == 0 && sum.lazy,
				 lazy_kind(c.sections[i].kind, access) &&
					 (c.sections[i].flags & TWZ_SF_CHUNKED));
	}
}

/* ---- every pair, both layouts, both connectivities, two budgets -------- */

/* _i: bit 0 connectivity 4, bit 1 the access layout, bit 2 one slot,
 * bit 3 the access layout's 8-byte entries (bit 1 then unused). */
START_TEST(test_tchunks_every_pair)
{
	unsigned conn = _i & 1 ? 4 : 8;
	int access = _i & 8 ? TWZ_TRANSIT_ACCESS_WIDE : (_i & 2) != 0;
	int one_slot = (_i & 4) != 0;
	const enum twz_test_level_kind kinds[] = { TWZ_TEST_ROOMS, TWZ_TEST_POCKETS,
						   TWZ_TEST_CAVES, TWZ_TEST_MAZE };

	{
		struct twz_grid g;
		size_t len;
		/* 8-byte entries on the very levels of the packed cases
		 * (_i 2, 3, 6, 7): some other levels keep no access node. */
		static const unsigned wide_like[] = { 2, 3, 6, 7 };
		unsigned like = _i & 8 ? wide_like[_i & 3] : (unsigned)_i;
		twz_test_generate(&g, kinds[like % 4], 24, 18, 7 + like);
		/* Blocks of three squares: far pairs on a small level.
		 * Small chunks: the access layout's sections are small. */
		uint8_t *buf = bake_transit_chunked(&g, conn, access, 8,
						    access ? 96 : 256, &len);
		uint64_t raw = lazy_raw_size(buf, len, access);
		uint64_t budget = one_slot ? 1 : raw / 10;
		twz_db *eager, *lazy;
		ck_assert_int_eq(twz_open_memory(buf, len, 0, &eager), TWZ_OK);
		ck_assert_int_eq(open_cache(buf, len, budget, &lazy), TWZ_OK);
		expect_budget(lazy, buf, len, access, budget);
		twz_test_compare_lazy(&g, conn, lazy, eager, 1, 11);
		struct twz_cache_summary cs;
		twz_inspect_cache(lazy, &cs);
		ck_assert_uint_eq(cs.failures, 0);
		/* Chunks came and went: the budget held less than the
		 * sections at any time. */
		ck_assert_uint_gt(cs.misses, cs.slots);
		if (one_slot)
			ck_assert_uint_eq(cs.slots, 1);
		twz_close(lazy);
		twz_close(eager);
		free(buf);
		twz_grid_free(&g);
	}
}
END_TEST

/* ---- Moving AI scenarios under a tenth ------------------------------------ */

static const char movingai_level[] = "dao/arena";

/* _i: the access layout. */
START_TEST(test_tchunks_movingai)
{
	struct twz_grid g;
	struct twz_scen sc;
	char scen[4096];
	int access = _i;

	if (twz_test_movingai_load(movingai_level, &g, &sc, scen,
				   sizeof scen) != 0) {
		fprintf(stderr, "%s: Moving AI levels not found (%s): skipped\n",
			movingai_level, twz_test_movingai_where());
		return;
	}
	size_t len;
	uint8_t *buf = bake_transit_chunked(&g, 8, access, 0, 4096, &len);
	uint64_t raw = lazy_raw_size(buf, len, access);
	twz_db *db;
	ck_assert_int_eq(open_cache(buf, len, raw / 10, &db), TWZ_OK);
	expect_budget(db, buf, len, access, raw / 10);
	twz_test_check_scenarios(db, &g, &sc, scen);
	struct twz_cache_summary cs;
	twz_inspect_cache(db, &cs);
	ck_assert_uint_eq(cs.failures, 0);
	twz_close(db);
	free(buf);
	twz_scen_free(&sc);
	twz_grid_free(&g);
}
END_TEST

/* ---- eight threads on one slot and on a tenth ------------------------------ */

#define THREADS 8
#define PAIRS 200

START_TEST(test_tchunks_threads)
{
	struct twz_grid g;
	size_t len;
	int access = _i;

	twz_test_generate(&g, TWZ_TEST_ROOMS, 40, 32, 5);
	uint8_t *buf = bake_transit_chunked(&g, 8, access, 0, 512, &len);
	twz_db *eager;
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &eager), TWZ_OK);
	uint32_t n = twz_node_count(eager);
	static twz_node s[PAIRS], t[PAIRS], next[PAIRS];
	static size_t plen[PAIRS];
	static uint64_t hash[PAIRS];
	static twz_node path[8192];
	uint64_t x = 88172645463325252ull;
	for (unsigned i = 0; i < PAIRS; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		s[i] = (twz_node)(x % n);
		t[i] = (twz_node)((x >> 32) % n);
		next[i] = twz_next(eager, s[i], t[i]);
		plen[i] = 0;
		if (twz_path(eager, s[i], t[i], path, 8192, &plen[i]) == TWZ_OK)
			hash[i] = twz_test_path_hash(path, plen[i]);
		else
			plen[i] = 0;
	}
	uint64_t raw = lazy_raw_size(buf, len, access);
	uint64_t budgets[] = { 1, raw / 10 };
	for (unsigned b = 0; b < 2; b++) {
		twz_db *db;
		ck_assert_int_eq(open_cache(buf, len, budgets[b], &db), TWZ_OK);
		unsigned worst;
		int bad = twz_test_pairs_threaded(db, THREADS, 2, PAIRS, s, t,
						  next, plen, hash, &worst);
		ck_assert_msg(bad == 0, "budget %llu: thread %u: %d wrong answers",
			      (unsigned long long)budgets[b], worst, bad);
		struct twz_cache_summary cs;
		twz_inspect_cache(db, &cs);
		ck_assert_uint_eq(cs.failures, 0);
		ck_assert_uint_le(cs.resident, cs.slots);
		twz_close(db);
	}
	twz_close(eager);
	free(buf);
	twz_grid_free(&g);
}
END_TEST

/* ---- damaged chunks -------------------------------------------------------- */

/* Each lazy kind of each layout, one chunk of it damaged: open with a
 * budget succeeds (nothing is inflated), every answer is the right one
 * or a refusal (TWZ_NONE, TWZ_E_DAMAGED), some are refused, and the
 * cache counts the failure. Without a budget the file is refused. */
static void damage_one(const struct twz_grid *g, int access, uint32_t kind)
{
	size_t len;
	uint8_t *buf = bake_transit_chunked(g, 8, access, 8, 256, &len);
	struct twz_chunk_dir d;
	section_dir(buf, len, kind, &d);
	uint32_t bad = d.count / 2;
	size_t at = (size_t)(d.frames - buf);
	for (uint32_t i = 0; i < bad; i++)
		at += twz_chunk_stored_size(&d, i);
	uint8_t *f = twz_test_dup_bytes(buf, len);
	f[at + twz_chunk_stored_size(&d, bad) / 2] ^= 0x5A;

	twz_db *ref, *db = (twz_db *)1;
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &ref), TWZ_OK);
	twz_status st = twz_open_memory(f, len, 0, &db);
	ck_assert_msg(st == TWZ_E_CHECKSUM || st == TWZ_E_DAMAGED, "%s",
		      twz_strerror(st));
	ck_assert_int_eq(open_cache(f, len, 2000, &db), TWZ_OK);

	uint32_t n = twz_node_count(ref);
	size_t cap = (size_t)n + 1;
	twz_node *pa = malloc(cap * sizeof *pa), *pb = malloc(cap * sizeof *pb);
	ck_assert(pa && pb);
	unsigned refused = 0, answered = 0;
	for (twz_node s = 0; s < n; s++)
		for (twz_node t = s % 7; t < n; t += 7) {
			twz_node want = twz_next(ref, s, t);
			twz_node got = twz_next(db, s, t);
			expect(got == want || (got == TWZ_NONE && s != t),
			       "%u->%u: %u, want %u", s, t, got, want);
			size_t la = 0, lb = 0;
			twz_status ra = twz_path(db, s, t, pa, cap, &la);
			twz_status rb = twz_path(ref, s, t, pb, cap, &lb);
			if (ra == TWZ_E_DAMAGED && rb == TWZ_OK) {
				refused++;
				continue;
			}
			expect(ra == rb && la == lb &&
			       (ra != TWZ_OK || !memcmp(pa, pb, la * sizeof *pa)),
			       "%u->%u: %s, want %s", s, t, twz_strerror(ra),
			       twz_strerror(rb));
			uint32_t xs, xd, ys, yd;
			twz_status ca = twz_cost_exact(db, s, t, &xs, &xd);
			twz_status cb = twz_cost_exact(ref, s, t, &ys, &yd);
			expect(ca == TWZ_E_DAMAGED ||
			       (ca == cb && (ca != TWZ_OK || (xs == ys && xd == yd))),
			       "%u->%u: exact cost", s, t);
			answered++;
		}
	ck_assert_msg(refused > 0, "kind %u: no query met the damaged chunk",
		      (unsigned)kind);
	ck_assert_uint_gt(answered, 0);
	struct twz_cache_summary cs;
	twz_inspect_cache(db, &cs);
	ck_assert_uint_ge(cs.failures, 1);
	free(pa);
	free(pb);
	twz_close(db);
	twz_close(ref);
	free(f);
	free(buf);
}

START_TEST(test_tchunks_damaged)
{
	struct twz_grid g;

	twz_test_generate(&g, TWZ_TEST_CAVES, 26, 22, 21);
	damage_one(&g, 0, TWZ_SECTION_TRANSIT_RUNS);
	damage_one(&g, 1, TWZ_SECTION_TRANSIT_RUNS);
	damage_one(&g, 1, TWZ_SECTION_ACCESS_PACKED);
	damage_one(&g, 1, TWZ_SECTION_ACCESS_TABLE);
	damage_one(&g, TWZ_TRANSIT_ACCESS_WIDE, TWZ_SECTION_ACCESS);
	twz_grid_free(&g);
}
END_TEST

static Suite *transit_chunks_suite(void)
{
	Suite *s = suite_create("transit_chunks");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_tchunks_every_pair, 0, 12);
	tcase_add_loop_test(tc, test_tchunks_movingai, 0, 2);
	tcase_add_loop_test(tc, test_tchunks_threads, 0, 2);
	tcase_add_test(tc, test_tchunks_damaged);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(transit_chunks_suite());
}
