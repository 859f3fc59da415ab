/*
 * check_chunks.c - chunked sections (format 1.4, twigz build --chunk) and
 * databases opened with a cache budget smaller than their rows
 * (twz_open_ex): every answer against a plain Dijkstra and against the
 * database inflated at open, Moving AI scenarios against their published
 * lengths, many threads on a cache of one or a few chunks, damaged and
 * crafted chunks found at query time, hostile chunk directories refused
 * at open, the golden file, and the tool's --chunk and --cache.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "bake.h"
#include "bake_method.h"
#include "test_support.h"
#include "twigz.h"
#include "twz_chunk_dir.h"
#include "twz_inspect.h"
#include "twz_writer.h"

/* A race report must fail the test, not just print. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "halt_on_error=1:abort_on_error=1";
}

/* ---- helpers ---------------------------------------------------------- */

static void chunk_options(struct twz_bake_options *opt, unsigned connectivity,
			  uint64_t chunk)
{
	twz_bake_options_default(opt);
	opt->connectivity = connectivity;
	opt->threads = 2;
	opt->level = 3;
	opt->chunk = chunk;
	opt->name = "test level";
}

/* g baked with chunks of about `chunk` bytes, in memory. */
static uint8_t *bake_chunked(const struct twz_grid *g, unsigned connectivity,
			     uint64_t chunk, size_t *len)
{
	struct twz_bake_options opt;
	struct twz_cpd cpd;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf = NULL;

	chunk_options(&opt, connectivity, chunk);
	ck_assert_msg(twz_bake_cpd(g, &opt, &cpd, &err) == 0, "bake: %s", err.msg);
	int rc = twz_cpd_encode(&cpd, g, &opt, &buf, len, &err);
	twz_cpd_free(&cpd);
	ck_assert_msg(rc == 0, "encode: %s", err.msg);
	return buf;
}

static twz_status open_cache(const uint8_t *buf, size_t len, uint64_t budget,
			     unsigned flags, twz_db **db)
{
	twz_open_options o;

	memset(&o, 0, sizeof o);
	o.flags = flags;
	o.cache_bytes = budget;
	return twz_open_memory_ex(buf, len, &o, db);
}

/* Index of ROWS in the section table, and its chunk directory. */
static uint32_t rows_section(const uint8_t *buf, size_t len,
			     struct twz_chunk_dir *d)
{
	struct twz_container c;

	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	for (uint32_t i = 0; i < c.section_count; i++) {
		const struct twz_section_ref *s = &c.sections[i];
		if (s->kind != TWZ_SECTION_ROWS)
			continue;
		ck_assert_msg(s->flags & TWZ_SF_CHUNKED, "ROWS is not chunked");
		ck_assert_int_eq(twz_chunk_dir_read(buf + s->offset, s->size,
						    s->raw_size, d), TWZ_OK);
		return i;
	}
	ck_abort_msg("no ROWS section");
	return 0;
}

static uint64_t rows_raw_size(const uint8_t *buf, size_t len)
{
	struct twz_container c;

	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	for (uint32_t i = 0; i < c.section_count; i++)
		if (c.sections[i].kind == TWZ_SECTION_ROWS)
			return c.sections[i].raw_size;
	return 0;
}

/* The chunk holding node n's row: from its record's row offset. */
static uint32_t chunk_of_node(const twz_db *db, const struct twz_chunk_dir *d,
			      twz_node n)
{
	const uint8_t *rec;
	size_t size;

	twz_inspect_section(db, TWZ_SECTION_NODE_RECORDS, &rec, &size);
	ck_assert_ptr_nonnull(rec);
	uint64_t off = 2 * (uint64_t)(twz_le32(rec + (size_t)n * TWZ_RECORD_SIZE) &
				      TWZ_ROW_OFFSET_MASK);
	uint64_t at = 0;
	for (uint32_t i = 0; i < d->count; i++) {
		at += twz_chunk_raw_size(d, i);
		if (off < at)
			return i;
	}
	ck_abort_msg("row past ROWS");
	return 0;
}

/* After a change to the section table: its checksum, then the header's. */
static void fix_checksums(uint8_t *f)
{
	uint32_t count = twz_le32(f + TWZ_H_SECTION_COUNT);

	twz_put64(f + TWZ_H_TABLE_CHECKSUM,
		  twz_checksum(f + TWZ_HEADER_SIZE,
			       (size_t)count * TWZ_SECTION_ENTRY_SIZE));
	twz_put64(f + TWZ_H_HEADER_CHECKSUM,
		  twz_checksum(f, TWZ_H_HEADER_CHECKSUM));
}

/* ---- every answer against Dijkstra, under a small budget ---------------- */

START_TEST(test_chunks_budget_matches_dijkstra)
{
	enum twz_test_level_kind kind = (enum twz_test_level_kind)(_i / 2);
	unsigned conn = _i % 2 ? 4 : 8;
	struct twz_grid g;
	size_t len;

	twz_test_generate(&g, kind, 24, 18, 7 + (uint64_t)_i);
	uint8_t *buf = bake_chunked(&g, conn, 128, &len);
	uint64_t raw = rows_raw_size(buf, len);
	twz_db *eager, *lazy;
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &eager), TWZ_OK);
	/* A tenth of the rows, and a budget below one chunk. */
	uint64_t budgets[] = { raw / 10, 1 };
	for (unsigned b = 0; b < 2; b++) {
		ck_assert_int_eq(open_cache(buf, len, budgets[b], 0, &lazy), TWZ_OK);
		struct twz_cache_summary cs;
		ck_assert_int_eq(twz_inspect_cache(lazy, &cs), 0);
		ck_assert_uint_eq(cs.lazy_raw, raw);
		ck_assert_uint_gt(cs.chunks, 4);
		/* Within the budget, one slot at least. */
		ck_assert(cs.slots == 1 || cs.slots * cs.slot_size <= budgets[b]);
		ck_assert_uint_lt(cs.slots * cs.slot_size, raw);
		twz_info a, e;
		twz_get_info(lazy, &a);
		twz_get_info(eager, &e);
		ck_assert_uint_eq(a.run_count, e.run_count);
		ck_assert_uint_lt(a.memory_size, e.memory_size);
		twz_test_compare_lazy(&g, conn, lazy, eager, b ? 7 : 3, 0);
		twz_inspect_cache(lazy, &cs);
		ck_assert_uint_gt(cs.misses, cs.slots);
		ck_assert_uint_eq(cs.failures, 0);
		twz_close(lazy);
	}
	twz_close(eager);
	free(buf);
	twz_grid_free(&g);
}
END_TEST

/* Flow fields and twz_cost under the smallest cache: as inflated. */
START_TEST(test_chunks_flow_fields)
{
	struct twz_grid g;
	size_t len;

	twz_test_generate(&g, TWZ_TEST_POCKETS, 36, 28, 11);
	uint8_t *buf = bake_chunked(&g, 8, 256, &len);
	twz_db *eager, *lazy;
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &eager), TWZ_OK);
	ck_assert_int_eq(open_cache(buf, len, 1, 0, &lazy), TWZ_OK);
	uint32_t n = twz_node_count(eager);
	twz_node *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
	ck_assert(a && b);
	for (twz_node t = 0; t < n; t += 13) {
		ck_assert_int_eq(twz_flow_field(lazy, t, a, n), TWZ_OK);
		ck_assert_int_eq(twz_flow_field(eager, t, b, n), TWZ_OK);
		ck_assert_mem_eq(a, b, n * sizeof *a);
		for (twz_node s = 0; s < n; s += 7)
			expect(twz_cost(lazy, s, t) == twz_cost(eager, s, t),
			       "cost %u->%u", s, t);
	}
	free(a);
	free(b);
	twz_close(lazy);
	twz_close(eager);
	free(buf);
	twz_grid_free(&g);
}
END_TEST

/* Without --chunk the bytes are those of the plain bake; with a chunk
 * size above every section, too (only BUILD_INFO would differ, and the
 * library's bake writes none). A chunked file opened without a budget
 * is inflated at open and answers as the plain one. */
START_TEST(test_chunks_plain_bytes_and_eager)
{
	struct twz_grid g;
	size_t plain_len, big_len, len;

	twz_test_generate(&g, TWZ_TEST_CAVES, 40, 30, 3);
	uint8_t *plain = bake_chunked(&g, 8, 0, &plain_len);
	uint8_t *big = bake_chunked(&g, 8, (uint64_t)1 << 28, &big_len);
	uint8_t *buf = bake_chunked(&g, 8, 512, &len);
	ck_assert_uint_eq(plain_len, big_len);
	ck_assert_mem_eq(plain, big, plain_len);

	struct twz_container c;
	ck_assert_int_eq(twz_parse_container(plain, plain_len, &c), TWZ_OK);
	ck_assert_uint_lt(c.minor, 4);
	ck_assert_uint_eq(c.required_features & TWZ_FEATURE_CHUNKED_SECTIONS, 0);
	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	ck_assert_uint_eq(c.minor, 4);
	ck_assert_uint_ne(c.required_features & TWZ_FEATURE_CHUNKED_SECTIONS, 0);

	twz_db *a, *b;
	ck_assert_int_eq(twz_open_memory(plain, plain_len, 0, &a), TWZ_OK);
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &b), TWZ_OK);
	struct twz_cache_summary cs;
	ck_assert_int_eq(twz_inspect_cache(b, &cs), 1);
	twz_info ia, ib;
	twz_get_info(a, &ia);
	twz_get_info(b, &ib);
	ck_assert_uint_eq(ia.run_count, ib.run_count);
	uint32_t n = twz_node_count(a);
	for (twz_node s = 0; s < n; s++)
		for (twz_node t = 0; t < n; t += 3)
			expect(twz_next(a, s, t) == twz_next(b, s, t), "%u->%u", s, t);
	/* A budget on a file without chunks changes nothing. */
	twz_db *d;
	ck_assert_int_eq(open_cache(plain, plain_len, 1000, 0, &d), TWZ_OK);
	ck_assert_int_eq(twz_inspect_cache(d, &cs), 1);
	twz_close(d);
	/* Reserved option fields must be zero. */
	twz_open_options o;
	memset(&o, 0, sizeof o);
	o.reserved[2] = 1;
	ck_assert_int_eq(twz_open_memory_ex(buf, len, &o, &d), TWZ_E_ARGUMENT);
	ck_assert_ptr_null(d);
	ck_assert_int_eq(twz_open_memory_ex(buf, len, NULL, &d), TWZ_OK);
	twz_close(d);
	twz_close(a);
	twz_close(b);
	free(plain);
	free(big);
	free(buf);
	twz_grid_free(&g);
}
END_TEST

/* ---- many threads on a tiny cache ------------------------------------- */

#define THREADS 8
#define PAIRS 400

START_TEST(test_chunks_threads_tiny_cache)
{
	struct twz_grid g;
	size_t len;

	twz_test_generate(&g, TWZ_TEST_ROOMS, 48, 40, 5);
	uint8_t *buf = bake_chunked(&g, 8, 256, &len);
	twz_db *eager;
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &eager), TWZ_OK);
	uint32_t n = twz_node_count(eager);
	static twz_node s[PAIRS], t[PAIRS], next[PAIRS];
	static size_t plen[PAIRS];
	static uint64_t hash[PAIRS];
	twz_node path[4096];
	uint64_t x = 88172645463325252ull;
	for (unsigned i = 0; i < PAIRS; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		s[i] = (twz_node)(x % n);
		t[i] = (twz_node)((x >> 32) % n);
		next[i] = twz_next(eager, s[i], t[i]);
		plen[i] = 0;
		if (twz_path(eager, s[i], t[i], path, 4096, &plen[i]) == TWZ_OK)
			hash[i] = twz_test_path_hash(path, plen[i]);
		else
			plen[i] = 0;
	}
	/* One slot, then a few: every thread evicts the others' chunks. */
	uint64_t raw = rows_raw_size(buf, len);
	uint64_t budgets[] = { 1, raw / 20, raw / 4 };
	for (unsigned b = 0; b < 3; b++) {
		twz_db *db;
		ck_assert_int_eq(open_cache(buf, len, budgets[b], 0, &db), TWZ_OK);
		unsigned worst;
		int bad = twz_test_pairs_threaded(db, THREADS, 3, PAIRS, s, t,
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

/* ---- damaged and crafted chunks, found at query time -------------------- */

/* Every source's first move toward t: right, or TWZ_NONE exactly for the
 * sources whose row is in chunk `bad` (and twz_path says damaged). */
static void check_bad_chunk(const twz_db *lazy, const twz_db *ref,
			    const struct twz_chunk_dir *d, uint32_t bad)
{
	uint32_t n = twz_node_count(ref);
	unsigned hit = 0;
	twz_node path[4096];

	for (twz_node src = 0; src < n; src++) {
		for (twz_node dst = 0; dst < n; dst += 17) {
			twz_node want = twz_next(ref, src, dst);
			twz_node got = twz_next(lazy, src, dst);
			if (src == dst || want == TWZ_NONE) {
				expect(got == want, "%u->%u", src, dst);
				continue;
			}
			if (chunk_of_node(ref, d, src) == bad) {
				size_t len;
				expect(got == TWZ_NONE, "%u->%u: row in the bad chunk answered",
				       src, dst);
				expect(twz_path(lazy, src, dst, path, 4096, &len) ==
				       TWZ_E_DAMAGED, "%u->%u: path", src, dst);
				expect(twz_cost(lazy, src, dst) < 0, "%u->%u: cost", src, dst);
				hit++;
			} else {
				expect(got == want, "%u->%u: %u, want %u", src, dst,
				       got, want);
			}
		}
	}
	ck_assert_uint_gt(hit, 0);
	struct twz_cache_summary cs;
	twz_inspect_cache(lazy, &cs);
	ck_assert_uint_ge(cs.failures, 1);
}

START_TEST(test_chunks_damaged_chunk)
{
	struct twz_grid g;
	size_t len;

	twz_test_generate(&g, TWZ_TEST_CAVES, 40, 30, 21);
	uint8_t *buf = bake_chunked(&g, 8, 512, &len);
	struct twz_chunk_dir d;
	twz_db *ref;
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &ref), TWZ_OK);
	rows_section(buf, len, &d);
	uint32_t bad = d.count / 2;
	size_t at = (size_t)(d.frames - buf);
	for (uint32_t i = 0; i < bad; i++)
		at += twz_chunk_stored_size(&d, i);
	uint8_t *f = twz_test_dup_bytes(buf, len);
	/* A byte in the middle of the frame's blocks. */
	f[at + twz_chunk_stored_size(&d, bad) / 2] ^= 0x5A;

	twz_db *db = (twz_db *)1;
	twz_status st = twz_open_memory(f, len, 0, &db);
	ck_assert_msg(st == TWZ_E_CHECKSUM || st == TWZ_E_DAMAGED, "%s",
		      twz_strerror(st));
	ck_assert_ptr_null(db);
	/* With a budget open does not inflate it: the queries find it. */
	ck_assert_int_eq(open_cache(f, len, 2000, 0, &db), TWZ_OK);
	check_bad_chunk(db, ref, &d, bad);
	twz_close(db);
	twz_close(ref);
	free(f);
	free(buf);
	twz_grid_free(&g);
}
END_TEST

/* Rows whose checksums hold but whose contents break the format: the
 * validator refuses them at open, or as their chunk is inflated. */
START_TEST(test_chunks_crafted_rows)
{
	struct twz_grid g;
	struct twz_bake_options opt;
	struct twz_cpd cpd;
	struct twz_error err = { { 0 }, 0 };
	struct twz_out_file f;

	twz_test_generate(&g, TWZ_TEST_ROOMS, 40, 30, 9);
	chunk_options(&opt, 8, 512);
	ck_assert_int_eq(twz_bake_cpd(&g, &opt, &cpd, &err), 0);
	uint8_t *clean;
	size_t clean_len;
	ck_assert_int_eq(twz_cpd_encode(&cpd, &g, &opt, &clean, &clean_len, &err), 0);
	twz_db *ref;
	ck_assert_int_eq(twz_open_memory(clean, clean_len, 0, &ref), TWZ_OK);
	struct twz_chunk_dir d;
	rows_section(clean, clean_len, &d);

	/* kind: 0 an index entry past the row's runs, 1 moves onto a
	 * wall, 2 an index that does not start at the row's first run. */
	for (unsigned kind = 0; kind < 3; kind++) {
		memset(&f, 0, sizeof f);
		twz_cpd_method.emit(&cpd, &g, &opt, &f);
		ck_assert_int_eq(f.failed, 0);
		unsigned r = 0;
		while (f.sec[r].kind != TWZ_SECTION_ROWS)
			r++;
		uint8_t *rows = twz_test_dup_bytes(f.sec[r].raw, f.sec[r].raw_size);
		f.sec[r].raw = rows;
		/* A node in the middle; its row from its record. */
		const uint8_t *rec;
		size_t rec_size;
		twz_inspect_section(ref, TWZ_SECTION_NODE_RECORDS, &rec, &rec_size);
		twz_node victim = twz_node_count(ref) / 2;
		uint32_t word = twz_le32(rec + (size_t)victim * TWZ_RECORD_SIZE);
		uint32_t next = twz_le32(rec + ((size_t)victim + 1) * TWZ_RECORD_SIZE) &
				TWZ_ROW_OFFSET_MASK;
		uint8_t *row = rows + 2 * (size_t)(word & TWZ_ROW_OFFSET_MASK);
		uint8_t *row_end = rows + 2 * (size_t)next;
		if (kind == 0) {
			twz_put16(row + 2, 0xFFF0);
		} else if (kind == 1) {
			/* Every run a move to a blocked cell (or no move). */
			uint32_t x, y;
			twz_node_xy(ref, victim, &x, &y);
			unsigned wall = 0;
			while (wall < 8 && twz_grid_walkable(&g, x + twz_move_dx[wall],
							     y + twz_move_dy[wall]))
				wall++;
			if (wall == 8)
				wall = 8;  /* a row of "no move" where moves exist */
			for (uint8_t *p = row_end - 2; p > row; p -= 2)
				twz_put16(p, (uint16_t)((twz_le16(p) & ~0xFu) | wall));
		} else {
			/* A row's index starts at its first run. */
			twz_put16(row, 1);
		}
		uint8_t *buf;
		size_t len;
		ck_assert_int_eq(twz_out_encode(&f, &buf, &len, &err), 0);
		free(rows);

		twz_db *db = (twz_db *)1;
		ck_assert_int_eq(twz_open_memory(buf, len, 0, &db), TWZ_E_DAMAGED);
		ck_assert_ptr_null(db);
		for (unsigned skip = 0; skip < 2; skip++) {
			ck_assert_int_eq(open_cache(buf, len, 1500,
						    skip ? TWZ_OPEN_SKIP_CHECKSUMS : 0,
						    &db), TWZ_OK);
			check_bad_chunk(db, ref, &d, chunk_of_node(ref, &d, victim));
			twz_close(db);
		}
		free(buf);
	}
	twz_close(ref);
	free(clean);
	twz_cpd_free(&cpd);
	twz_grid_free(&g);
}
END_TEST

/* ---- hostile directories ------------------------------------------------ */

/* Open f both ways: refused, and nothing left. */
static void expect_refused(const uint8_t *f, size_t len, const char *what)
{
	twz_db *db = (twz_db *)1;
	twz_status st = twz_open_memory(f, len, 0, &db);

	expect(st != TWZ_OK && db == NULL, "%s: opened (eager)", what);
	db = (twz_db *)1;
	st = open_cache(f, len, 4096, 0, &db);
	expect(st != TWZ_OK && db == NULL, "%s: opened (with a cache)", what);
	if (st == TWZ_OK)
		twz_close(db);
}

START_TEST(test_chunks_hostile_directory)
{
	struct twz_grid g;
	size_t len;

	twz_test_generate(&g, TWZ_TEST_MAZE, 40, 30, 4);
	uint8_t *buf = bake_chunked(&g, 8, 512, &len);
	struct twz_chunk_dir d;
	uint32_t ri = rows_section(buf, len, &d);
	ck_assert_uint_ge(d.count, 3);
	size_t dir = (size_t)(d.entries - buf) - TWZ_CHUNK_DIR_HEADER;
	size_t e0 = dir + TWZ_CHUNK_DIR_HEADER, e1 = e0 + TWZ_CHUNK_ENTRY_SIZE;
	uint32_t count = d.count, max_raw = d.max_raw;
	uint32_t r0 = twz_chunk_raw_size(&d, 0), s0 = twz_chunk_stored_size(&d, 0);
	uint32_t r1 = twz_chunk_raw_size(&d, 1), s1 = twz_chunk_stored_size(&d, 1);
	struct {
		const char *what;
		size_t at;
		unsigned bytes;     /* 4 or 8 */
		uint64_t value;
		size_t at2;         /* a second field, 0: none */
		uint32_t value2;
	} cases[] = {
		{ "count 0", dir + TWZ_CD_COUNT, 4, 0, 0, 0 },
		{ "count huge", dir + TWZ_CD_COUNT, 4, 0xFFFFFFFFu, 0, 0 },
		{ "count + 1", dir + TWZ_CD_COUNT, 4, count + 1, 0, 0 },
		{ "count - 1", dir + TWZ_CD_COUNT, 4, count - 1, 0, 0 },
		{ "max_raw + 2", dir + TWZ_CD_MAX_RAW, 4, max_raw + 2, 0, 0 },
		{ "max_raw - 2", dir + TWZ_CD_MAX_RAW, 4, max_raw - 2, 0, 0 },
		{ "reserved", dir + TWZ_CD_RESERVED, 8, 1, 0, 0 },
		{ "raw sizes short", e0 + TWZ_CE_RAW_SIZE, 4, r0 - 2, 0, 0 },
		{ "raw size 0", e0 + TWZ_CE_RAW_SIZE, 4, 0, e1 + TWZ_CE_RAW_SIZE,
		  r0 + r1 },
		{ "raw size huge", e0 + TWZ_CE_RAW_SIZE, 4, 0x80000000u, 0, 0 },
		{ "raw sizes moved", e0 + TWZ_CE_RAW_SIZE, 4, r0 - 2,
		  e1 + TWZ_CE_RAW_SIZE, r1 + 2 },
		{ "odd raw sizes", e0 + TWZ_CE_RAW_SIZE, 4, r0 - 1,
		  e1 + TWZ_CE_RAW_SIZE, r1 + 1 },
		{ "stored size + 1", e0 + TWZ_CE_STORED_SIZE, 4, s0 + 1, 0, 0 },
		{ "stored size 0", e0 + TWZ_CE_STORED_SIZE, 4, 0,
		  e1 + TWZ_CE_STORED_SIZE, s0 + s1 },
		{ "frames moved", e0 + TWZ_CE_STORED_SIZE, 4, s0 - 1,
		  e1 + TWZ_CE_STORED_SIZE, s1 + 1 },
		{ "frames moved back", e0 + TWZ_CE_STORED_SIZE, 4, s0 + 1,
		  e1 + TWZ_CE_STORED_SIZE, s1 - 1 },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		uint8_t *f = twz_test_dup_bytes(buf, len);
		if (cases[c].bytes == 8)
			twz_put64(f + cases[c].at, cases[c].value);
		else
			twz_put32(f + cases[c].at, (uint32_t)cases[c].value);
		if (cases[c].at2)
			twz_put32(f + cases[c].at2, cases[c].value2);
		expect_refused(f, len, cases[c].what);
		free(f);
	}

	/* The flag: on a raw section, off the chunked ROWS, and set in a
	 * file that does not require chunks. */
	uint8_t *f = twz_test_dup_bytes(buf, len);
	uint8_t *e = f + TWZ_HEADER_SIZE + (size_t)ri * TWZ_SECTION_ENTRY_SIZE;
	twz_put16(e + TWZ_S_FLAGS, 0);
	fix_checksums(f);
	expect_refused(f, len, "flag cleared");
	twz_put16(e + TWZ_S_FLAGS, TWZ_SF_CHUNKED);
	twz_put16(f + TWZ_HEADER_SIZE + TWZ_S_FLAGS, TWZ_SF_CHUNKED);
	fix_checksums(f);
	expect_refused(f, len, "flag on a raw section");
	twz_put16(f + TWZ_HEADER_SIZE + TWZ_S_FLAGS, 0);
	twz_put16(e + TWZ_S_FLAGS, 2);
	fix_checksums(f);
	expect_refused(f, len, "unknown flag");
	twz_put16(e + TWZ_S_FLAGS, TWZ_SF_CHUNKED);
	twz_put64(f + TWZ_H_REQUIRED, twz_le64(f + TWZ_H_REQUIRED) &
		  ~(uint64_t)TWZ_FEATURE_CHUNKED_SECTIONS);
	fix_checksums(f);
	ck_assert_int_eq(twz_test_try_open(f, len, 0), TWZ_E_RESERVED);
	free(f);

	/* Every byte of the directory and of the first frame flipped: open
	 * refuses or queries answer or say damaged, and never crash. */
	size_t end = (size_t)(d.frames - buf) + s0;
	for (size_t at = dir; at < end; at++) {
		f = twz_test_dup_bytes(buf, len);
		f[at] ^= (uint8_t)(0x11 << (at % 3));
		twz_db *db;
		if (open_cache(f, len, 2048, 0, &db) == TWZ_OK) {
			uint32_t n = twz_node_count(db);
			for (twz_node s = 0; s < n; s += 5) {
				twz_node nx = twz_next(db, s, n - 1 - s);
				expect(nx == TWZ_NONE || nx < n, "byte %zu", at);
			}
			twz_close(db);
		}
		free(f);
	}
	free(buf);
	twz_grid_free(&g);
}
END_TEST

/*
 * Chunks cut through a row: the writer never makes them, a crafted file
 * can. ROWS re-chunked at fixed 100-byte steps (its last section in a
 * bake without BUILD_INFO, so only its sizes move): eager open reads it
 * whole and answers; with a cache, the chunks whose rows cross their end
 * are refused as they are inflated.
 */
START_TEST(test_chunks_cut_through_rows)
{
	struct twz_grid g;
	size_t len;

	twz_test_generate(&g, TWZ_TEST_OPEN_HOLLOW, 40, 30, 2);
	uint8_t *buf = bake_chunked(&g, 8, 512, &len);
	struct twz_chunk_dir d;
	struct twz_container c;
	uint32_t ri = rows_section(buf, len, &d);
	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	ck_assert_uint_eq(ri, c.section_count - 1);
	const struct twz_section_ref *s = &c.sections[ri];
	twz_db *ref;
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &ref), TWZ_OK);
	const uint8_t *raw;
	size_t raw_size;
	twz_inspect_section(ref, TWZ_SECTION_ROWS, &raw, &raw_size);

	uint32_t step = 100, n = (uint32_t)((raw_size + step - 1) / step);
	size_t cap = TWZ_CHUNK_DIR_HEADER + (size_t)n * TWZ_CHUNK_ENTRY_SIZE +
		     n * ZSTD_compressBound(step);
	uint8_t *sec = calloc(1, cap);
	ck_assert_ptr_nonnull(sec);
	size_t pos = TWZ_CHUNK_DIR_HEADER + (size_t)n * TWZ_CHUNK_ENTRY_SIZE;
	uint32_t largest = 0;
	for (uint32_t i = 0; i < n; i++) {
		size_t lo = (size_t)i * step;
		size_t m = raw_size - lo < step ? raw_size - lo : step;
		size_t got = ZSTD_compress(sec + pos, cap - pos, raw + lo, m, 3);
		ck_assert(!ZSTD_isError(got));
		uint8_t *e = sec + TWZ_CHUNK_DIR_HEADER + (size_t)i * TWZ_CHUNK_ENTRY_SIZE;
		twz_put32(e + TWZ_CE_RAW_SIZE, (uint32_t)m);
		twz_put32(e + TWZ_CE_STORED_SIZE, (uint32_t)got);
		twz_put64(e + TWZ_CE_CHECKSUM, twz_checksum(raw + lo, m));
		largest = m > largest ? (uint32_t)m : largest;
		pos += got;
	}
	twz_put32(sec + TWZ_CD_COUNT, n);
	twz_put32(sec + TWZ_CD_MAX_RAW, largest);
	size_t flen = (size_t)s->offset + pos;
	uint8_t *f = calloc(1, flen);
	ck_assert_ptr_nonnull(f);
	memcpy(f, buf, (size_t)s->offset);
	memcpy(f + s->offset, sec, pos);
	twz_put64(f + TWZ_HEADER_SIZE + (size_t)ri * TWZ_SECTION_ENTRY_SIZE +
		  TWZ_S_SIZE, pos);
	twz_put64(f + TWZ_H_FILE_SIZE, flen);
	fix_checksums(f);

	twz_db *eager, *lazy;
	ck_assert_int_eq(twz_open_memory(f, flen, 0, &eager), TWZ_OK);
	ck_assert_int_eq(open_cache(f, flen, 1000, 0, &lazy), TWZ_OK);
	uint32_t nodes = twz_node_count(ref);
	unsigned refused = 0, right = 0;
	for (twz_node a = 0; a < nodes; a++)
		for (twz_node b = 0; b < nodes; b += 11) {
			twz_node want = twz_next(ref, a, b);
			expect(twz_next(eager, a, b) == want, "eager %u->%u", a, b);
			twz_node got = twz_next(lazy, a, b);
			if (got == TWZ_NONE && want != TWZ_NONE)
				refused++;
			else {
				expect(got == want, "lazy %u->%u: %u, want %u", a, b,
				       got, want);
				right++;
			}
		}
	ck_assert_uint_gt(refused, 0);
	ck_assert_uint_gt(right, 0);
	twz_close(lazy);
	twz_close(eager);
	twz_close(ref);
	free(f);
	free(sec);
	free(buf);
	twz_grid_free(&g);
}
END_TEST

/* ---- the golden file --------------------------------------------------- */

START_TEST(test_chunks_golden)
{
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };
	size_t len;

	ck_assert_msg(twz_grid_load(twz_test_source_file("data/caves.map"), &g,
				    &err) == 0, "%s", err.msg);
	uint8_t *buf = twz_test_read_file(
		twz_test_source_file("tests/golden/v1_4_chunked.twz"), &len);
	struct twz_container c;
	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	ck_assert_uint_eq(c.minor, 4);
	ck_assert_uint_eq(c.required_features,
			  TWZ_FEATURE_DIRECTION_SYMBOLS | TWZ_FEATURE_BUCKETED_ROWS |
			  TWZ_FEATURE_NARROW_CELL_NODE | TWZ_FEATURE_CHUNKED_SECTIONS);
	struct twz_chunk_dir d;
	rows_section(buf, len, &d);
	ck_assert_uint_ge(d.count, 8);
	ck_assert_uint_ge(d.max_raw, 4096);

	twz_db *eager, *lazy;
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &eager), TWZ_OK);
	ck_assert_int_eq(open_cache(buf, len, 3 * d.max_raw, 0, &lazy), TWZ_OK);
	/* Every target of every 11th source: the file answers as its level's
	 * Dijkstra; of every 61st, lazy as eager (a budget of three chunks
	 * inflates a chunk for nearly every step of a path). */
	twz_test_compare_lazy(&g, 8, eager, eager, 11, 0);
	twz_test_compare_lazy(&g, 8, lazy, eager, 61, 0);
	twz_close(lazy);
	twz_close(eager);
	free(buf);
	twz_grid_free(&g);
}
END_TEST

/* ---- Moving AI scenarios under a tenth of the rows ------------------------ */

/* Larger levels, chunked, are the benchmark's (ninja bench-chunks). */
static const char *const movingai_levels[] = { "dao/arena" };

START_TEST(test_chunks_movingai_scenarios)
{
	struct twz_grid g;
	struct twz_scen sc;
	char scen[4096];

	if (twz_test_movingai_load(movingai_levels[_i], &g, &sc, scen,
				   sizeof scen) != 0) {
		fprintf(stderr, "%s: Moving AI levels not found (%s): skipped\n",
			movingai_levels[_i], twz_test_movingai_where());
		return;
	}
	size_t len;
	uint8_t *buf = bake_chunked(&g, 8, 4096, &len);
	uint64_t raw = rows_raw_size(buf, len);
	twz_db *db;
	ck_assert_int_eq(open_cache(buf, len, raw / 10, 0, &db), TWZ_OK);
	struct twz_cache_summary cs;
	ck_assert_int_eq(twz_inspect_cache(db, &cs), 0);
	ck_assert_uint_lt(cs.slots * cs.slot_size, raw);
	twz_test_check_scenarios(db, &g, &sc, scen);
	twz_inspect_cache(db, &cs);
	ck_assert_uint_eq(cs.failures, 0);
	twz_close(db);
	free(buf);
	twz_scen_free(&sc);
	twz_grid_free(&g);
}
END_TEST

/* ---- the tool ------------------------------------------------------------ */

static void run(const char *const args[], const char *dir, struct twz_test_run *r)
{
	twz_test_run_tool(args, dir, 0, r);
}

/* A refused command line: exit 2, one line naming the problem. */
static void expect_usage(const char *const args[], const char *dir,
			 const char *needle)
{
	struct twz_test_run r;

	run(args, dir, &r);
	ck_assert_msg(r.status == 2, "%s %s: exit %d", args[0], args[1], r.status);
	ck_assert_msg(strstr(r.err, needle) != NULL, "stderr: %s", r.err);
	ck_assert_msg(strncmp(r.err, "twigz: ", 7) == 0, "stderr: %s", r.err);
	twz_test_run_free(&r);
}

START_TEST(test_chunks_tool)
{
	char dir[4096];
	struct twz_test_run r;
	const char *map = twz_test_source_file("data/caves.map");
	const char *scen = twz_test_source_file("data/caves.map.scen");

	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "chunks"));
	const char *build[] = { "build", map, "-o", "c.twz", "--chunk", "4K",
				"--threads", "2", "-q", NULL };
	run(build, dir, &r);
	ck_assert_msg(r.status == 0, "build: %s", r.err);
	twz_test_run_free(&r);

	const char *info[] = { "info", "c.twz", NULL };
	run(info, dir, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "format       1.4") != NULL, "%s", r.out);
	ck_assert_msg(strstr(r.out, "chunks       section 8:") != NULL, "%s", r.out);
	ck_assert_msg(strstr(r.out, "chunk=4096") != NULL, "%s", r.out);
	twz_test_run_free(&r);
	const char *info_json[] = { "info", "c.twz", "--json", NULL };
	run(info_json, dir, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "\"chunks\":[{\"kind\":8,") != NULL, "%s", r.out);
	twz_test_run_free(&r);

	const char *caches[] = { "1", "8K", "64K", "1G" };
	for (unsigned i = 0; i < 4; i++) {
		const char *verify[] = { "verify", "c.twz", scen, "--cache", caches[i], NULL };
		run(verify, dir, &r);
		ck_assert_msg(r.status == 0, "verify --cache %s: %s", caches[i], r.err);
		ck_assert_msg(strstr(r.out, " 0 failed") != NULL, "%s", r.out);
		twz_test_run_free(&r);
	}
	const char *query[] = { "query", "c.twz", "--scen", scen, "--cache", "6K", NULL };
	run(query, dir, &r);
	ck_assert_msg(r.status == 0, "query: %s", r.err);
	twz_test_run_free(&r);
	const char *bench[] = { "bench", "c.twz", "--cache", "8K", "--pairs", "2000",
				"--paths", "50", NULL };
	run(bench, dir, &r);
	ck_assert_msg(r.status == 0, "bench: %s", r.err);
	twz_test_run_free(&r);

	/* check knows the option; unpack writes a file without chunks. */
	const char *check[] = { "check", map, "c.twz", "--chunk", "4K", NULL };
	run(check, dir, &r);
	ck_assert_msg(r.status == 0, "check: %s%s", r.out, r.err);
	twz_test_run_free(&r);
	const char *unpack[] = { "unpack", "c.twz", "-o", "u.twz", NULL };
	run(unpack, dir, &r);
	ck_assert_msg(r.status == 0, "unpack: %s", r.err);
	twz_test_run_free(&r);
	const char *info_u[] = { "info", "u.twz", NULL };
	run(info_u, dir, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "chunks ") == NULL, "%s", r.out);
	twz_test_run_free(&r);

	const char *bad1[] = { "build", map, "-o", "x.twz", "--chunk", "12", NULL };
	expect_usage(bad1, dir, "--chunk");
	const char *bad2[] = { "build", map, "-o", "x.twz", "--chunk", "4X", NULL };
	expect_usage(bad2, dir, "--chunk");
	const char *bad3[] = { "build", map, "-o", "x.twz", "--chunk", "4K",
			       "--codec", "raw", NULL };
	expect_usage(bad3, dir, "--chunk");
	const char *bad4[] = { "verify", "c.twz", scen, "--cache", "lots", NULL };
	expect_usage(bad4, dir, "--cache");
	const char *bad5[] = { "query", "c.twz", "1", "1", "2", "2", "--cache", NULL };
	expect_usage(bad5, dir, "--cache");
	twz_test_remove_tree(dir);
}
END_TEST

static Suite *chunks_suite(void)
{
	Suite *s = suite_create("chunks");
	TCase *tc = tcase_create("Budget");
	tcase_add_loop_test(tc, test_chunks_budget_matches_dijkstra, 0,
			    2 * TWZ_TEST_KIND_COUNT);
	tcase_add_test(tc, test_chunks_flow_fields);
	tcase_add_test(tc, test_chunks_plain_bytes_and_eager);
	tcase_add_loop_test(tc, test_chunks_movingai_scenarios, 0,
			    sizeof movingai_levels / sizeof movingai_levels[0]);
	suite_add_tcase(s, tc);
	tc = tcase_create("Threads");
	tcase_add_test(tc, test_chunks_threads_tiny_cache);
	suite_add_tcase(s, tc);
	tc = tcase_create("Damage");
	tcase_add_test(tc, test_chunks_damaged_chunk);
	tcase_add_test(tc, test_chunks_crafted_rows);
	tcase_add_test(tc, test_chunks_hostile_directory);
	tcase_add_test(tc, test_chunks_cut_through_rows);
	suite_add_tcase(s, tc);
	tc = tcase_create("Files");
	tcase_add_test(tc, test_chunks_golden);
	tcase_add_test(tc, test_chunks_tool);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(chunks_suite());
}
