/*
 * check_hostile.c - files made to hurt: damaged and crafted .twz files
 * and level files, and the inputs fuzzing found (the regress-* files
 * of tests/fuzz/corpus). Each must be answered with a clean status: no crash, no
 * hang, no read out of bounds, no allocation the file's own size does not
 * justify, and nothing damaged accepted.
 *
 * Crafted files have their checksums recomputed ("resealed"): the point is
 * what the structural checks catch once a checksum no longer can. The
 * Crafted cases rebuild whole files section by section (zstd frames that
 * truly inflate to what they claim), and run the tool on them under an
 * address-space cap.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include "bake.h"
#include "level_map.h"
#include "level_scen.h"
#include "shard.h"
#include "test_support.h"
#include "transit.h"
#include "twigz.h"
#include "twz_build_info.h"
#include "twz_format.h"
#include "twz_navmesh_format.h"
#include "twz_validate.h"

/* ---- files -------------------------------------------------------------- */

/* ---- the section table, read and resealed ------------------------------ */

static uint8_t *entry_at(uint8_t *buf, unsigned i)
{
	return buf + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
}

/* The entry of a section kind, or NULL. */
static uint8_t *entry_of(uint8_t *buf, uint32_t kind)
{
	uint32_t n = twz_le32(buf + TWZ_H_SECTION_COUNT);
	for (uint32_t i = 0; i < n && i < TWZ_MAX_SECTIONS; i++)
		if (twz_le32(entry_at(buf, i) + TWZ_S_KIND) == kind)
			return entry_at(buf, i);
	return NULL;
}

/* The stored bytes of a raw section of the given kind. */
static uint8_t *raw_section(uint8_t *buf, uint32_t kind, uint64_t *size)
{
	uint8_t *e = entry_of(buf, kind);
	ck_assert_msg(e != NULL, "no section of kind %u", kind);
	ck_assert_uint_eq(twz_le16(e + TWZ_S_CODEC), TWZ_CODEC_RAW);
	*size = twz_le64(e + TWZ_S_SIZE);
	return buf + twz_le64(e + TWZ_S_OFFSET);
}

/* Recompute what a crafter would: each raw section's checksum (where the
 * section lies inside the file), the table checksum and the header
 * checksum. */
static void reseal(uint8_t *buf, size_t len)
{
	uint32_t n = twz_le32(buf + TWZ_H_SECTION_COUNT);
	if (n > TWZ_MAX_SECTIONS)
		n = TWZ_MAX_SECTIONS;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *e = entry_at(buf, i);
		uint64_t off = twz_le64(e + TWZ_S_OFFSET);
		uint64_t size = twz_le64(e + TWZ_S_SIZE);
		if (twz_le16(e + TWZ_S_CODEC) != TWZ_CODEC_RAW || off > len ||
		    size > len - off)
			continue;
		twz_put64(e + TWZ_S_RAW_CHECKSUM,
			  twz_checksum(buf + off, (size_t)size));
	}
	twz_put64(buf + TWZ_H_TABLE_CHECKSUM,
		  twz_checksum(buf + TWZ_HEADER_SIZE,
			       (size_t)n * TWZ_SECTION_ENTRY_SIZE));
	twz_put64(buf + TWZ_H_HEADER_CHECKSUM,
		  twz_checksum(buf, TWZ_H_HEADER_CHECKSUM));
}

/* ---- the golden 1.0 file, and its rows --------------------------------- */

struct v10 {
	uint8_t *buf;
	size_t len;
	uint32_t width, height, nodes;
	uint8_t *cell_node, *node_cell, *comp, *offsets, *runs;
	uint64_t run_count;
};

static void v10_load(struct v10 *f)
{
	uint64_t size;

	f->buf = twz_test_read_file(twz_test_source_file("tests/golden/v1_0.twz"),
				    &f->len);
	f->width = twz_le32(f->buf + TWZ_H_WIDTH);
	f->height = twz_le32(f->buf + TWZ_H_HEIGHT);
	f->nodes = twz_le32(f->buf + TWZ_H_NODE_COUNT);
	f->cell_node = raw_section(f->buf, TWZ_SECTION_CELL_NODE, &size);
	f->node_cell = raw_section(f->buf, TWZ_SECTION_NODE_CELL, &size);
	f->comp = raw_section(f->buf, TWZ_SECTION_NODE_COMPONENT, &size);
	f->offsets = raw_section(f->buf, TWZ_SECTION_ROW_OFFSETS, &size);
	f->runs = raw_section(f->buf, TWZ_SECTION_RUNS, &size);
	f->run_count = size / 4;
	ck_assert_int_eq(twz_test_try_open(f->buf, f->len, 0), TWZ_OK);
}

static uint32_t u32(const uint8_t *base, size_t i)
{
	return twz_le32(base + 4 * i);
}

static void put_u32(uint8_t *base, size_t i, uint32_t v)
{
	twz_put32(base + 4 * i, v);
}

/* The index of the run of row s that covers target t. */
static uint32_t run_covering(const struct v10 *f, twz_node s, twz_node t)
{
	uint32_t r = u32(f->offsets, s);
	while (r + 1 < u32(f->offsets, (size_t)s + 1) &&
	       u32(f->runs, (size_t)r + 1) >> TWZ_RUN_SYMBOL_BITS <= t)
		r++;
	return r;
}

static void set_symbol(struct v10 *f, uint32_t run, unsigned sym)
{
	uint32_t v = u32(f->runs, run);
	put_u32(f->runs, run, (v & ~TWZ_RUN_SYMBOL_MASK) | sym);
}

static twz_node node_at(const struct v10 *f, int64_t x, int64_t y)
{
	if (x < 0 || y < 0 || x >= f->width || y >= f->height)
		return TWZ_NONE;
	return u32(f->cell_node, (size_t)y * f->width + (size_t)x);
}

/* The move from node a to node b when they are neighbours, else -1. */
static int move_between(const struct v10 *f, twz_node a, twz_node b)
{
	uint32_t ca = u32(f->node_cell, a), cb = u32(f->node_cell, b);
	int64_t dx = (int64_t)(cb % f->width) - ca % f->width;
	int64_t dy = (int64_t)(cb / f->width) - ca / f->width;
	for (int m = 0; m < TWZ_MOVE_COUNT; m++)
		if (twz_move_dx[m] == dx && twz_move_dy[m] == dy)
			return m;
	return -1;
}

/* Reseal, open, and return the status; on success the handle in *out. */
static twz_status reopen(struct v10 *f, twz_db **out)
{
	reseal(f->buf, f->len);
	return twz_open_memory(f->buf, f->len, 0, out);
}

/* The status of a damaged file once resealed; then the damage is undone
 * from keep, the file's bytes before it, and keep freed. */
static twz_status undo_damage(uint8_t *buf, size_t len, uint8_t *keep)
{
	reseal(buf, len);
	twz_status st = twz_test_try_open(buf, len, 0);
	memcpy(buf, keep, len);
	free(keep);
	return st;
}

static twz_status reseal_status(struct v10 *f)
{
	reseal(f->buf, f->len);
	return twz_test_try_open(f->buf, f->len, 0);
}

/* ---- Messages: what the level-reader fuzzers found ------------------- */

static void assert_printable_line(const char *msg, const char *name)
{
	ck_assert_msg(strncmp(msg, name, strlen(name)) == 0,
		      "'%s' does not name %s", msg, name);
	for (const char *p = msg; *p; p++)
		ck_assert_msg((unsigned char)*p >= 0x20 && *p != 0x7f,
			      "message has control byte 0x%02x", (unsigned char)*p);
}

/* tests/fuzz/corpus/fuzz_map/regress-control-byte-in-type.map: a control
 * byte inside a header word was echoed into the message raw. */
START_TEST(test_hostile_map_message_printable)
{
	static const char *const texts[] = {
		"type  octile\x16\nheight\t2\nwidth 2\nmap\n@@\n@@\n",
		"type octile\nheight 2\x1b[2J\nwidth 2\nmap\n..\n..\n",
		"type octile\nheight 1\nwidth 2\nmap\n.\r.\n",
		"type octile\nheight 1\nwidth 1\nmap\n\x7f\n",
		"type octile\nheig\rht 1\nwidth 1\nmap\n.\n",
	};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		struct twz_grid g;
		struct twz_error err = { { 0 }, 0 };
		ck_assert_int_ne(twz_grid_parse((const uint8_t *)texts[i],
						strlen(texts[i]), "bad.map", &g,
						&err), 0);
		assert_printable_line(err.msg, "bad.map");
	}
	/* A file name with a line break is shown on one line too. */
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };
	ck_assert_int_ne(twz_grid_parse((const uint8_t *)"x", 1, "a\nb.map", &g,
					&err), 0);
	ck_assert_ptr_null(strchr(err.msg, '\n'));
}
END_TEST

/* tests/fuzz/corpus/fuzz_scen/regress-control-byte-in-field.scen */
START_TEST(test_hostile_scen_message_printable)
{
	static const char text[] =
		"version 1\r\n3\tbg.map\t64\t6\x01\t10\t20\t30\t40\t446.00\r\n\r\n";
	struct twz_scen sc;
	struct twz_error err = { { 0 }, 0 };

	ck_assert_int_ne(twz_scen_parse((const uint8_t *)text, sizeof text - 1,
					"bad.scen", &sc, &err), 0);
	assert_printable_line(err.msg, "bad.scen");
}
END_TEST

/* ---- Rows: crafted 1.0 rows, checksums recomputed ------------------------ */

/* Row offsets that go backwards, skip past the end or leave a row empty. */
START_TEST(test_hostile_row_offsets_non_monotonic)
{
	struct v10 f;

	v10_load(&f);
	for (int how = 0; how < 5; how++) {
		uint8_t *keep = twz_test_dup_bytes(f.buf, f.len);
		uint32_t s = f.nodes / 2;
		switch (how) {
		case 0:  /* row s ends before it starts */
			put_u32(f.offsets, s + 1, u32(f.offsets, s) - 1);
			break;
		case 1:  /* an empty row */
			put_u32(f.offsets, s + 1, u32(f.offsets, s));
			break;
		case 2:  /* past the runs */
			put_u32(f.offsets, s, (uint32_t)f.run_count + 5);
			break;
		case 3:  /* the first row does not start at 0 */
			put_u32(f.offsets, 0, 1);
			break;
		default: /* the last offset is not the run count */
			put_u32(f.offsets, f.nodes, (uint32_t)f.run_count - 1);
			break;
		}
		ck_assert_msg(undo_damage(f.buf, f.len, keep) == TWZ_E_DAMAGED,
			      "case %d", how);
	}
	free(f.buf);
}
END_TEST

/* Runs whose starts do not begin at 0, go backwards, or leave the nodes. */
START_TEST(test_hostile_run_starts)
{
	struct v10 f;

	v10_load(&f);
	/* A row of several runs. */
	twz_node s = 0;
	while (u32(f.offsets, (size_t)s + 1) - u32(f.offsets, s) < 3)
		s++;
	uint32_t r = u32(f.offsets, s);
	for (int how = 0; how < 4; how++) {
		uint8_t *keep = twz_test_dup_bytes(f.buf, f.len);
		uint32_t sym = u32(f.runs, r + 1) & TWZ_RUN_SYMBOL_MASK;
		switch (how) {
		case 0:  /* first run starts at 1 */
			put_u32(f.runs, r, 1u << TWZ_RUN_SYMBOL_BITS | (u32(f.runs, r) & 15));
			break;
		case 1:  /* second start equals the first */
			put_u32(f.runs, r + 1, sym);
			break;
		case 2:  /* third before the second */
			put_u32(f.runs, r + 2, u32(f.runs, r + 1) - (1u << TWZ_RUN_SYMBOL_BITS));
			break;
		default: /* a start at or past node_count, or near 2^28 */
			put_u32(f.runs, r + 1, (0x0FFFFFFFu << TWZ_RUN_SYMBOL_BITS) | sym);
			break;
		}
		ck_assert_msg(undo_damage(f.buf, f.len, keep) == TWZ_E_DAMAGED,
			      "case %d", how);
	}
	free(f.buf);
}
END_TEST

/* A move into a wall, off the grid, or a symbol no move has. */
START_TEST(test_hostile_runs_into_walls_and_off_grid)
{
	struct v10 f;
	unsigned into_wall = 0, off_grid = 0;

	v10_load(&f);
	for (twz_node s = 0; s < f.nodes; s++) {
		uint32_t cell = u32(f.node_cell, s);
		int64_t x = cell % f.width, y = cell / f.width;
		for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
			int64_t nx = x + twz_move_dx[m], ny = y + twz_move_dy[m];
			int outside = nx < 0 || ny < 0 || nx >= f.width || ny >= f.height;
			int wall = !outside && node_at(&f, nx, ny) == TWZ_NONE;
			/* A diagonal past a blocked corner is a wall too. */
			if (!outside && !wall && twz_move_is_diagonal(m))
				wall = node_at(&f, nx, y) == TWZ_NONE ||
				       node_at(&f, x, ny) == TWZ_NONE;
			if (!outside && !wall)
				continue;
			unsigned *count = outside ? &off_grid : &into_wall;
			if (*count >= 12)
				continue;
			uint32_t r = u32(f.offsets, s) +
				     (u32(f.offsets, (size_t)s + 1) - u32(f.offsets, s)) / 2;
			uint8_t *keep = twz_test_dup_bytes(f.buf, f.len);
			set_symbol(&f, r, m);
			twz_status st = undo_damage(f.buf, f.len, keep);
			expect(st == TWZ_E_DAMAGED, "node %u move %u (%s): %s", s, m,
			       outside ? "off the grid" : "into a wall", twz_strerror(st));
			(*count)++;
		}
	}
	ck_assert_uint_gt(into_wall, 0);
	ck_assert_uint_gt(off_grid, 0);
	/* Symbols that are no move: 9 to 15 in a 1.0 file. */
	for (unsigned sym = TWZ_SYMBOL_NONE + 1; sym <= TWZ_RUN_SYMBOL_MASK; sym++) {
		uint8_t *keep = twz_test_dup_bytes(f.buf, f.len);
		set_symbol(&f, u32(f.offsets, 3), sym);
		ck_assert_msg(undo_damage(f.buf, f.len, keep) == TWZ_E_DAMAGED,
			      "symbol %u", sym);
	}
	free(f.buf);
}
END_TEST

/* "No move" in the row of a node that has neighbours would answer
 * "unreachable" for a reachable goal. */
START_TEST(test_hostile_no_move_symbol_in_a_region)
{
	struct v10 f;

	v10_load(&f);
	for (twz_node s = 0; s < f.nodes; s += 17) {
		uint8_t *keep = twz_test_dup_bytes(f.buf, f.len);
		set_symbol(&f, u32(f.offsets, s), TWZ_SYMBOL_NONE);
		twz_status st = undo_damage(f.buf, f.len, keep);
		ck_assert_msg(st == TWZ_E_DAMAGED, "node %u: %s", s, twz_strerror(st));
	}
	free(f.buf);
}
END_TEST

/* Two neighbours that send each other toward the same goal: a legal file
 * on every check but a loop. The walk is bounded and says so. */
START_TEST(test_hostile_cyclic_moves_do_not_hang)
{
	struct v10 f;
	twz_db *db;
	twz_node path[256];
	size_t len = 0;

	v10_load(&f);
	ck_assert_uint_le(f.nodes, 255);
	/* a and b neighbours of region 0, t far from both. */
	twz_node a = 0, b = TWZ_NONE, t = TWZ_NONE;
	for (twz_node v = 1; v < f.nodes && b == TWZ_NONE; v++)
		if (u32(f.comp, v) == 0 && move_between(&f, a, v) >= 0 &&
		    move_between(&f, a, v) < 4)
			b = v;
	for (twz_node v = f.nodes; v-- > 0 && t == TWZ_NONE;)
		if (u32(f.comp, v) == 0 && v != a && v != b &&
		    move_between(&f, a, v) < 0 && move_between(&f, b, v) < 0)
			t = v;
	ck_assert_uint_ne(b, TWZ_NONE);
	ck_assert_uint_ne(t, TWZ_NONE);
	set_symbol(&f, run_covering(&f, a, t), (unsigned)move_between(&f, a, b));
	set_symbol(&f, run_covering(&f, b, t), (unsigned)move_between(&f, b, a));

	twz_status st = reopen(&f, &db);
	if (st == TWZ_OK) {
		ck_assert_int_eq(twz_path(db, a, t, path, 256, &len), TWZ_E_DAMAGED);
		ck_assert_int_eq(twz_path(db, b, t, path, 256, &len), TWZ_E_DAMAGED);
		uint32_t s1, d1;
		ck_assert_int_eq(twz_cost_exact(db, a, t, &s1, &d1), TWZ_E_DAMAGED);
		ck_assert(twz_cost(db, a, t) < 0);
		/* Every other question still ends. */
		for (twz_node s = 0; s < f.nodes; s++) {
			for (twz_node u = 0; u < f.nodes; u++) {
				st = twz_path(db, s, u, path, 256, &len);
				expect(st == TWZ_OK || st == TWZ_E_UNREACHABLE ||
				       st == TWZ_E_DAMAGED, "%u->%u: %s", s, u,
				       twz_strerror(st));
				expect(len <= f.nodes, "%u->%u: %zu nodes", s, u, len);
			}
		}
		twz_close(db);
	} else {
		ck_assert_int_eq(st, TWZ_E_DAMAGED);
	}
	free(f.buf);
}
END_TEST

/* Region ids that disagree with the moves, with each other or with the
 * header; and regions whose nodes are not joined at all. */
START_TEST(test_hostile_component_ids_inconsistent)
{
	struct v10 f;

	v10_load(&f);
	ck_assert_uint_eq(twz_le32(f.buf + TWZ_H_COMPONENT_COUNT), 2);
	twz_node first1 = 0;
	while (u32(f.comp, first1) == 0)
		first1++;
	for (int how = 0; how < 6; how++) {
		uint8_t *keep = twz_test_dup_bytes(f.buf, f.len);
		switch (how) {
		case 0:  /* a node of region 0 in region 1 */
			put_u32(f.comp, first1 / 2, 1);
			break;
		case 1:  /* ids that do not start at 0 */
			for (twz_node v = 0; v < f.nodes; v++)
				put_u32(f.comp, v, u32(f.comp, v) + 1);
			twz_put32(f.buf + TWZ_H_COMPONENT_COUNT, 3);
			break;
		case 2:  /* an id that skips */
			for (twz_node v = first1; v < f.nodes; v++)
				put_u32(f.comp, v, 2);
			twz_put32(f.buf + TWZ_H_COMPONENT_COUNT, 3);
			break;
		case 3:  /* the header counts one region more */
			twz_put32(f.buf + TWZ_H_COMPONENT_COUNT, 3);
			break;
		case 4:  /* both regions claimed to be one: their nodes are not
			  * joined by any move */
			for (twz_node v = 0; v < f.nodes; v++)
				put_u32(f.comp, v, 0);
			twz_put32(f.buf + TWZ_H_COMPONENT_COUNT, 1);
			break;
		default: /* region 1 split in two where it is joined */
			put_u32(f.comp, f.nodes - 1, 2);
			twz_put32(f.buf + TWZ_H_COMPONENT_COUNT, 3);
			break;
		}
		twz_status st = undo_damage(f.buf, f.len, keep);
		ck_assert_msg(st == TWZ_E_DAMAGED, "case %d: %s", how, twz_strerror(st));
	}
	free(f.buf);
}
END_TEST

/* ---- Bytes: every bit of a file --------------------------------------- */

/* Every single-bit change anywhere in a raw file, padding included, is
 * refused: checksums cover the header, the table and the sections, and
 * the bytes between sections must be zero. */
START_TEST(test_hostile_every_bit_of_a_raw_file)
{
	struct v10 f;
	unsigned accepted = 0;
	size_t first = 0;

	v10_load(&f);
	for (size_t off = 0; off < f.len; off++) {
		for (unsigned bit = 0; bit < 8; bit++) {
			f.buf[off] ^= (uint8_t)(1u << bit);
			twz_db *db;
			twz_status st = twz_open_memory(f.buf, f.len, 0, &db);
			if (st == TWZ_OK) {
				if (!accepted++)
					first = off;
				twz_close(db);
			}
			f.buf[off] ^= (uint8_t)(1u << bit);
		}
	}
	ck_assert_msg(accepted == 0, "%u changed files accepted, the first at byte %zu",
		      accepted, first);
	free(f.buf);
}
END_TEST

/* Padding set to non-zero and everything resealed: still refused. */
START_TEST(test_hostile_padding_not_zero)
{
	struct v10 f;
	unsigned tried = 0;

	v10_load(&f);
	uint32_t n = twz_le32(f.buf + TWZ_H_SECTION_COUNT);
	uint64_t end = TWZ_HEADER_SIZE + (uint64_t)n * TWZ_SECTION_ENTRY_SIZE;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *e = entry_at(f.buf, i);
		uint64_t off = twz_le64(e + TWZ_S_OFFSET);
		for (uint64_t p = end; p < off; p++) {
			f.buf[p] = 0x5a;
			ck_assert_int_eq(reseal_status(&f), TWZ_E_RESERVED);
			f.buf[p] = 0;
			tried++;
		}
		end = off + twz_le64(e + TWZ_S_SIZE);
	}
	ck_assert_uint_gt(tried, 0);
	free(f.buf);
}
END_TEST

/* ---- Sections: placement and sizes ------------------------------------- */

/* Sections overlapping each other or the table, sizes near 2^64. */
START_TEST(test_hostile_section_placement)
{
	struct v10 f;

	v10_load(&f);
	uint32_t n = twz_le32(f.buf + TWZ_H_SECTION_COUNT);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *e = entry_at(f.buf, i);
		uint64_t off = twz_le64(e + TWZ_S_OFFSET);
		uint64_t size = twz_le64(e + TWZ_S_SIZE);
		const struct {
			unsigned field;
			uint64_t value;
		} cases[] = {
			{ TWZ_S_OFFSET, off - TWZ_SECTION_ALIGN },     /* into the one before */
			{ TWZ_S_OFFSET, 0 },                           /* over the header */
			{ TWZ_S_OFFSET, TWZ_HEADER_SIZE },             /* over the table */
			{ TWZ_S_OFFSET, UINT64_MAX - 63 },             /* offset + size wraps */
			{ TWZ_S_OFFSET, (uint64_t)1 << 63 },
			{ TWZ_S_SIZE, UINT64_MAX },
			{ TWZ_S_SIZE, UINT64_MAX - off + 1 },          /* off + size == 2^64 */
			{ TWZ_S_SIZE, size + TWZ_SECTION_ALIGN },      /* into the next */
		};
		for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
			uint8_t *keep = twz_test_dup_bytes(f.buf, f.len);
			twz_put64(e + cases[k].field, cases[k].value);
			if (cases[k].field == TWZ_S_SIZE)
				twz_put64(e + TWZ_S_RAW_SIZE, cases[k].value);
			twz_status st = undo_damage(f.buf, f.len, keep);
			ck_assert_msg(st == TWZ_E_DAMAGED || st == TWZ_E_LIMIT,
				      "section %u case %zu: %s", i, k, twz_strerror(st));
		}
	}
	free(f.buf);
}
END_TEST

/* The file with its last section (RUNS in a 1.0 file) replaced by a zstd
 * frame; the caller picks the frame and the raw size it claims. */
static uint8_t *with_zstd_section(const struct v10 *f, uint32_t kind,
				  const void *frame, size_t frame_len,
				  uint64_t raw_size, size_t *out_len)
{
	uint32_t n = twz_le32(f->buf + TWZ_H_SECTION_COUNT);
	uint8_t *e = entry_of(f->buf, kind);

	ck_assert_ptr_eq(e, entry_at(f->buf, n - 1));
	uint64_t off = twz_le64(e + TWZ_S_OFFSET);
	size_t len = (size_t)off + frame_len;
	uint8_t *out = calloc(1, len);
	ck_assert_ptr_nonnull(out);
	memcpy(out, f->buf, (size_t)off);
	memcpy(out + off, frame, frame_len);
	uint8_t *ne = out + (e - f->buf);
	twz_put16(ne + TWZ_S_CODEC, TWZ_CODEC_ZSTD);
	twz_put64(ne + TWZ_S_SIZE, frame_len);
	twz_put64(ne + TWZ_S_RAW_SIZE, raw_size);
	twz_put64(out + TWZ_H_FILE_SIZE, len);
	reseal(out, len);
	*out_len = len;
	return out;
}

/* A zstd frame whose header claims content_size bytes, followed by empty
 * raw blocks: small on disk, huge if believed. Returns its length. */
static size_t claiming_frame(uint8_t *out, uint64_t content_size,
			     unsigned blocks)
{
	size_t n = 0;

	twz_put32(out, 0xFD2FB528u);            /* zstd magic */
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

/* Frames claiming more than they can hold are refused before anything is
 * allocated for them: run in a process whose address space is capped, the
 * status is DAMAGED or LIMIT, never NOMEM. */
START_TEST(test_hostile_zstd_claims_huge_content)
{
	static const uint64_t claims[] = {
		(uint64_t)1 << 30, (uint64_t)4 << 30, ((uint64_t)0xFFFFFFF0u) * 4,
		(uint64_t)1 << 40, ((uint64_t)1 << 40) + 4, UINT64_MAX - 1,
	};
	struct v10 f;
	uint8_t frame[32];

	v10_load(&f);
	int capped = twz_test_cap_address_space(64ul << 20);
	for (size_t i = 0; i < sizeof claims / sizeof claims[0]; i++) {
		size_t n = claiming_frame(frame, claims[i], 1), len;
		uint8_t *file = with_zstd_section(&f, TWZ_SECTION_RUNS, frame, n,
						  claims[i], &len);
		twz_status st = twz_test_try_open(file, len, 0);
		ck_assert_msg(st == TWZ_E_DAMAGED || st == TWZ_E_LIMIT,
			      "claim %llu: %s (address space %s)",
			      (unsigned long long)claims[i], twz_strerror(st),
			      capped ? "capped" : "not capped");
		free(file);
	}
	free(f.buf);
}
END_TEST

/* Frames that are not one whole frame of the stated sizes. */
START_TEST(test_hostile_zstd_frames_malformed)
{
	struct v10 f;
	uint64_t raw_size;

	v10_load(&f);
	const uint8_t *runs = raw_section(f.buf, TWZ_SECTION_RUNS, &raw_size);
	size_t bound = ZSTD_compressBound((size_t)raw_size);
	uint8_t *frame = malloc(2 * bound + 64);
	ck_assert_ptr_nonnull(frame);
	size_t n = ZSTD_compress(frame, bound, runs, (size_t)raw_size, 3);
	ck_assert(!ZSTD_isError(n));

	/* The honest frame opens: the test's own construction is sound. */
	size_t len;
	uint8_t *file = with_zstd_section(&f, TWZ_SECTION_RUNS, frame, n,
					  raw_size, &len);
	ck_assert_int_eq(twz_test_try_open(file, len, 0), TWZ_OK);
	free(file);

	for (int how = 0; how < 6; how++) {
		size_t flen = n;
		uint64_t claim = raw_size;
		uint8_t *copy = malloc(2 * bound + 64);
		ck_assert_ptr_nonnull(copy);
		memcpy(copy, frame, n);
		switch (how) {
		case 0:  /* the table says more than the frame */
			claim = raw_size + 4;
			break;
		case 1:  /* the table says less */
			claim = raw_size - 4;
			break;
		case 2:  /* two frames back to back */
			memcpy(copy + n, frame, n);
			flen = 2 * n;
			break;
		case 3:  /* the frame cut short */
			flen = n - 3;
			break;
		case 4:  /* a skippable frame claiming nothing */
			twz_put32(copy, 0x184D2A50u);
			twz_put32(copy + 4, (uint32_t)n - 8);
			break;
		default: /* bytes after the frame */
			memset(copy + n, 0, 8);
			flen = n + 8;
			break;
		}
		file = with_zstd_section(&f, TWZ_SECTION_RUNS, copy, flen, claim, &len);
		twz_status st = twz_test_try_open(file, len, 0);
		ck_assert_msg(st == TWZ_E_DAMAGED || st == TWZ_E_LIMIT,
			      "case %d: %s", how, twz_strerror(st));
		free(file);
		free(copy);
	}
	free(frame);
	free(f.buf);
}
END_TEST

/* A frame long enough to be believed (thousands of blocks) claiming more
 * runs than rows of this file's nodes can hold: at most node_count runs a
 * row. Refused before the claim is allocated. */
START_TEST(test_hostile_runs_larger_than_rows_can_be)
{
	struct v10 f;
	const unsigned blocks = 3000;
	const uint64_t claim = (uint64_t)256 << 20;

	v10_load(&f);
	ck_assert_uint_lt((uint64_t)f.nodes * f.nodes * 4, claim);
	uint8_t *frame = malloc(16 + 3 * (size_t)blocks);
	ck_assert_ptr_nonnull(frame);
	size_t n = claiming_frame(frame, claim, blocks), len;
	uint8_t *file = with_zstd_section(&f, TWZ_SECTION_RUNS, frame, n, claim, &len);
	int capped = twz_test_cap_address_space(64ul << 20);
	twz_status st = twz_test_try_open(file, len, 0);
	ck_assert_msg(st == TWZ_E_DAMAGED, "%s (address space %s)", twz_strerror(st),
		      capped ? "capped" : "not capped");
	free(file);
	free(frame);
	free(f.buf);
}
END_TEST

/* ---- Bucketed: crafted 1.1 rows, checksums recomputed ---------------- */

/* A fresh raw 1.1 bake of a level with rooms, doors and a pocket. */
struct v11 {
	struct twz_grid grid;
	uint8_t *buf;
	size_t len;
	uint32_t nodes, regions_count;
	uint8_t *records, *regions, *rows;
	uint64_t row_words;
};

static const char *const v11_level =
	"..........@.......\n"
	".@@@@.....@..@@@..\n"
	".@........@..@.@..\n"
	".@..@@@@..@..@@@..\n"
	".@..@.........@...\n"
	"....@..@..@@@.@...\n"
	"@@.@@..@..@.......\n"
	"......@@..@..@@@@@\n"
	".@@@.....@@..@....\n"
	".@....@...@..@.@..\n";

static void v11_bake(struct v11 *f)
{
	uint64_t size;

	twz_test_grid_from_text(&f->grid, v11_level);
	f->buf = twz_test_bake(&f->grid, 8, TWZ_CODEC_RAW, 1, &f->len);
	ck_assert_msg(twz_le64(f->buf + TWZ_H_REQUIRED) & TWZ_FEATURE_BUCKETED_ROWS,
		      "the bake did not write bucketed rows");
	f->nodes = twz_le32(f->buf + TWZ_H_NODE_COUNT);
	f->regions_count = twz_le32(f->buf + TWZ_H_COMPONENT_COUNT);
	f->records = raw_section(f->buf, TWZ_SECTION_NODE_RECORDS, &size);
	f->regions = raw_section(f->buf, TWZ_SECTION_REGIONS, &size);
	f->rows = raw_section(f->buf, TWZ_SECTION_ROWS, &size);
	f->row_words = size / 2;
	ck_assert_int_eq(twz_test_try_open(f->buf, f->len, 0), TWZ_OK);
}

static void v11_free(struct v11 *f)
{
	free(f->buf);
	twz_grid_free(&f->grid);
}

struct row11 {
	uint32_t lo, len, shift, buckets, runs;
	uint8_t *index;     /* u16[buckets + 1] */
	uint8_t *run;       /* u16[runs] */
};

static void row_of(const struct v11 *f, twz_node n, struct row11 *r)
{
	uint32_t word = twz_le32(f->records + (size_t)n * TWZ_RECORD_SIZE + TWZ_R_ROW);
	uint32_t k = twz_region_of(f->regions, f->regions_count, n);

	r->lo = u32(f->regions, k);
	r->len = u32(f->regions, (size_t)k + 1) - r->lo;
	r->shift = word >> TWZ_ROW_OFFSET_BITS;
	r->buckets = ((r->len - 1) >> r->shift) + 1;
	r->index = f->rows + 2 * (size_t)(word & TWZ_ROW_OFFSET_MASK);
	r->run = r->index + 2 * ((size_t)r->buckets + 1);
	r->runs = twz_le16(r->index + 2 * (size_t)r->buckets) + 1u;
}

/* The run of node s's row covering target t (same region). */
static uint8_t *run11_covering(const struct v11 *f, twz_node s, twz_node t)
{
	struct row11 r;

	row_of(f, s, &r);
	uint32_t rel = t - r.lo, b = rel >> r.shift;
	uint32_t inside = rel & ((1u << r.shift) - 1);
	uint32_t j = twz_le16(r.index + 2 * (size_t)b);
	uint32_t last = twz_le16(r.index + 2 * ((size_t)b + 1));
	for (uint32_t k = j + 1; k <= last; k++) {
		uint32_t start = twz_le16(r.run + 2 * (size_t)k) >> TWZ_RUN_SYMBOL_BITS;
		if (start == 0 || start > inside)
			break;
		j = k;
	}
	return r.run + 2 * (size_t)j;
}

static void set_symbol11(uint8_t *run, unsigned sym)
{
	twz_put16(run, (uint16_t)((twz_le16(run) & ~TWZ_RUN_SYMBOL_MASK) | sym));
}

static void xy11(const struct v11 *f, twz_node n, int64_t *x, int64_t *y)
{
	*x = twz_le16(f->records + (size_t)n * TWZ_RECORD_SIZE + TWZ_R_X);
	*y = twz_le16(f->records + (size_t)n * TWZ_RECORD_SIZE + TWZ_R_Y);
}

static int move11(const struct v11 *f, twz_node a, twz_node b)
{
	int64_t ax, ay, bx, by;
	xy11(f, a, &ax, &ay);
	xy11(f, b, &bx, &by);
	for (int m = 0; m < 4; m++)
		if (ax + twz_move_dx[m] == bx && ay + twz_move_dy[m] == by)
			return m;
	return -1;
}

static twz_status reseal11(struct v11 *f)
{
	reseal(f->buf, f->len);
	return twz_test_try_open(f->buf, f->len, 0);
}

/* Every query of db ends, with a clean status and a path no longer than
 * the nodes. */
static void all_queries_end(const twz_db *db, uint32_t nodes)
{
	twz_node *path = malloc(((size_t)nodes + 1) * sizeof *path);
	ck_assert_ptr_nonnull(path);
	for (twz_node s = 0; s < nodes; s++) {
		for (twz_node t = 0; t < nodes; t++) {
			size_t len = 0;
			twz_status st = twz_path(db, s, t, path, (size_t)nodes + 1, &len);
			expect(st == TWZ_OK || st == TWZ_E_UNREACHABLE ||
			       st == TWZ_E_DAMAGED, "%u->%u: %s", s, t, twz_strerror(st));
			expect(len <= nodes, "%u->%u: %zu nodes", s, t, len);
			twz_node next = twz_next(db, s, t);
			expect(next == TWZ_NONE || next < nodes, "next %u", next);
		}
	}
	free(path);
}

START_TEST(test_hostile_bucketed_no_move_symbol)
{
	struct v11 f;

	v11_bake(&f);
	for (twz_node s = 0; s < f.nodes; s += 7) {
		struct row11 r;
		row_of(&f, s, &r);
		if (r.len == 1)
			continue;
		uint8_t *keep = twz_test_dup_bytes(f.buf, f.len);
		set_symbol11(r.run + 2 * (size_t)(r.runs - 1), TWZ_SYMBOL_NONE);
		twz_status st = undo_damage(f.buf, f.len, keep);
		ck_assert_msg(st == TWZ_E_DAMAGED, "node %u: %s", s, twz_strerror(st));
	}
	v11_free(&f);
}
END_TEST

START_TEST(test_hostile_bucketed_index_and_offsets)
{
	struct v11 f;

	v11_bake(&f);
	/* A node of the big region with a row of several runs. */
	twz_node s = 0;
	struct row11 r;
	for (;; s++) {
		ck_assert_uint_lt(s, f.nodes);
		row_of(&f, s, &r);
		if (r.runs >= 3)
			break;
	}
	uint8_t *rec = f.records + (size_t)s * TWZ_RECORD_SIZE;
	uint32_t word = twz_le32(rec + TWZ_R_ROW);
	for (int how = 0; how < 8; how++) {
		uint8_t *keep = twz_test_dup_bytes(f.buf, f.len);
		switch (how) {
		case 0:  /* an index entry past the runs */
			twz_put16(r.index + 2, (uint16_t)r.runs);
			break;
		case 1:  /* index entries that go back */
			twz_put16(r.index + 2 * (size_t)r.buckets - 2,
				  (uint16_t)(twz_le16(r.index + 2 * (size_t)r.buckets) + 1));
			break;
		case 2:  /* the first entry is not run 0 */
			twz_put16(r.index, 1);
			break;
		case 3:  /* the sentinel is not the last run */
			twz_put16(r.index + 2 * (size_t)r.buckets, (uint16_t)(r.runs - 2));
			break;
		case 4:  /* a bucket shift over 12 */
			twz_put32(rec + TWZ_R_ROW, (word & TWZ_ROW_OFFSET_MASK) |
				  13u << TWZ_ROW_OFFSET_BITS);
			break;
		case 5:  /* the row starts after the next one */
			twz_put32(rec + TWZ_R_ROW, (uint32_t)f.row_words - 1);
			break;
		case 6:  /* the first row does not start at 0 */
			twz_put32(f.records + TWZ_R_ROW,
				  twz_le32(f.records + TWZ_R_ROW) + 1);
			break;
		default: /* a row offset past ROWS */
			twz_put32(rec + TWZ_R_ROW, TWZ_ROW_OFFSET_MASK);
			break;
		}
		twz_status st = undo_damage(f.buf, f.len, keep);
		ck_assert_msg(st == TWZ_E_DAMAGED || st == TWZ_E_LIMIT, "case %d: %s",
			      how, twz_strerror(st));
	}
	v11_free(&f);
}
END_TEST

/* Moves that cycle, and direction symbols whose move is a wall: the file
 * opens (no check short of decoding every target could tell), and every
 * query still ends with a clean status. */
START_TEST(test_hostile_bucketed_cycles_and_walls)
{
	struct v11 f;
	twz_db *db;
	twz_node path[256];
	size_t len;

	v11_bake(&f);
	ck_assert_uint_lt(f.nodes, 255);
	twz_node a = 0, b = TWZ_NONE, t = TWZ_NONE;
	for (twz_node v = 1; v < f.nodes && b == TWZ_NONE; v++)
		if (move11(&f, a, v) >= 0)
			b = v;
	struct row11 ra;
	row_of(&f, a, &ra);
	for (twz_node v = ra.lo + ra.len; v-- > ra.lo && t == TWZ_NONE;)
		if (v != a && v != b && move11(&f, a, v) < 0 && move11(&f, b, v) < 0)
			t = v;
	ck_assert_uint_ne(b, TWZ_NONE);
	ck_assert_uint_ne(t, TWZ_NONE);
	set_symbol11(run11_covering(&f, a, t), (unsigned)move11(&f, a, b));
	set_symbol11(run11_covering(&f, b, t), (unsigned)move11(&f, b, a));
	reseal(f.buf, f.len);
	ck_assert_int_eq(twz_open_memory(f.buf, f.len, 0, &db), TWZ_OK);
	ck_assert_int_eq(twz_path(db, a, t, path, 256, &len), TWZ_E_DAMAGED);
	ck_assert(twz_cost(db, b, t) < 0);
	all_queries_end(db, f.nodes);
	twz_close(db);
	v11_free(&f);

	/* Every run of every row made TOWARD, then NEAREST. */
	for (unsigned sym = TWZ_SYMBOL_TOWARD; sym <= TWZ_SYMBOL_NEAREST; sym++) {
		v11_bake(&f);
		for (twz_node s = 0; s < f.nodes; s++) {
			struct row11 r;
			row_of(&f, s, &r);
			for (uint32_t j = 0; j < r.runs; j++)
				if ((twz_le16(r.run + 2 * (size_t)j) & TWZ_RUN_SYMBOL_MASK) !=
				    TWZ_SYMBOL_NONE)
					set_symbol11(r.run + 2 * (size_t)j, sym);
		}
		reseal(f.buf, f.len);
		ck_assert_int_eq(twz_open_memory(f.buf, f.len, 0, &db), TWZ_OK);
		all_queries_end(db, f.nodes);
		twz_close(db);
		v11_free(&f);
	}
}
END_TEST

/* Feature bits that do not match the sections or the symbols. */
START_TEST(test_hostile_feature_bits_and_layouts)
{
	struct v10 f;
	struct v11 g;
	twz_db *db;

	/* 1.0 runs made direction symbols, with the bit that allows them:
	 * opens, and every query ends cleanly. */
	v10_load(&f);
	for (uint64_t r = 0; r < f.run_count; r++)
		if ((u32(f.runs, r) & TWZ_RUN_SYMBOL_MASK) != TWZ_SYMBOL_NONE)
			set_symbol(&f, (uint32_t)r, r % 2 ? TWZ_SYMBOL_TOWARD
							 : TWZ_SYMBOL_NEAREST);
	ck_assert_int_eq(reseal_status(&f), TWZ_E_DAMAGED);   /* no bit yet */
	twz_put64(f.buf + TWZ_H_REQUIRED, TWZ_FEATURE_DIRECTION_SYMBOLS);
	reseal(f.buf, f.len);
	ck_assert_int_eq(twz_open_memory(f.buf, f.len, 0, &db), TWZ_OK);
	all_queries_end(db, f.nodes);
	twz_close(db);
	/* The bucketed bit over 1.0 sections. */
	twz_put64(f.buf + TWZ_H_REQUIRED, TWZ_FEATURE_DIRECTION_SYMBOLS |
					  TWZ_FEATURE_BUCKETED_ROWS);
	ck_assert_int_eq(reseal_status(&f), TWZ_E_DAMAGED);
	free(f.buf);

	/* 1.1 sections without the bucketed bit, or holding direction
	 * symbols without their bit. */
	v11_bake(&g);
	uint64_t features = twz_le64(g.buf + TWZ_H_REQUIRED);
	twz_put64(g.buf + TWZ_H_REQUIRED, features & ~(uint64_t)TWZ_FEATURE_BUCKETED_ROWS);
	ck_assert_int_eq(reseal11(&g), TWZ_E_DAMAGED);
	twz_put64(g.buf + TWZ_H_REQUIRED, features);
	int toward = 0;
	for (twz_node s = 0; s < g.nodes && !toward; s++) {
		struct row11 r;
		row_of(&g, s, &r);
		for (uint32_t j = 0; j < r.runs; j++)
			toward |= (twz_le16(r.run + 2 * (size_t)j) & TWZ_RUN_SYMBOL_MASK) >=
				  TWZ_SYMBOL_TOWARD;
	}
	ck_assert_msg(toward, "the bake wrote no direction symbol");
	twz_put64(g.buf + TWZ_H_REQUIRED,
		  features & ~(uint64_t)TWZ_FEATURE_DIRECTION_SYMBOLS);
	ck_assert_int_eq(reseal11(&g), TWZ_E_DAMAGED);
	v11_free(&g);
}
END_TEST

/* A raw TRANSIT file of a generated level, one thread, default options:
 * malloc'd bytes that open. */
static uint8_t *transit_raw(enum twz_test_level_kind kind, uint32_t w,
			    uint32_t h, uint64_t seed, size_t *len)
{
	struct twz_grid g;
	struct twz_bake_options opt;
	struct twz_transit_options topt = { 0, 0, 0 };
	struct twz_transit_db tdb;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf;

	twz_test_generate(&g, kind, w, h, seed);
	twz_bake_options_default(&opt);
	opt.codec = TWZ_CODEC_RAW;
	opt.threads = 1;
	ck_assert_msg(twz_bake_transit(&g, &opt, &topt, &tdb, &err) == 0, "%s", err.msg);
	ck_assert_msg(twz_transit_encode(&tdb, &g, &opt, &buf, len, &err) == 0,
		      "%s", err.msg);
	ck_assert_int_eq(twz_test_try_open(buf, *len, 0), TWZ_OK);
	twz_transit_db_free(&tdb);
	twz_grid_free(&g);
	return buf;
}

/* A TRANSIT file whose regions are merged into one id: its node order
 * proves nothing about connectedness, so the validator joins the pieces
 * itself and refuses an id that names several (else a pair of the two
 * pieces would be answered from tables that cannot join them). */
START_TEST(test_hostile_transit_joined_regions)
{
	size_t len;
	uint64_t size;
	uint8_t *buf = transit_raw(TWZ_TEST_POCKETS, 40, 30, 3, &len);

	ck_assert_uint_gt(twz_le32(buf + TWZ_H_COMPONENT_COUNT), 1);
	uint8_t *comp = raw_section(buf, TWZ_SECTION_NODE_COMPONENT, &size);
	memset(comp, 0, (size_t)size);
	twz_put32(buf + TWZ_H_COMPONENT_COUNT, 1);
	reseal(buf, len);
	ck_assert_int_eq(twz_test_try_open(buf, len, 0), TWZ_E_DAMAGED);
	free(buf);
}
END_TEST

/* A raw TRANSIT file of the access-node layout (format 1.4, 8-byte
 * entries), of a generated level or, with text, of that level. */
static uint8_t *access_raw(enum twz_test_level_kind kind, uint32_t w,
			   uint32_t h, uint64_t seed, const char *text,
			   size_t *len)
{
	struct twz_grid g;
	struct twz_bake_options opt;
	struct twz_transit_options topt = { 10, 1, 2 };
	struct twz_transit_db tdb;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf;

	if (text)
		twz_test_grid_from_text(&g, text);
	else
		twz_test_generate(&g, kind, w, h, seed);
	twz_bake_options_default(&opt);
	opt.codec = TWZ_CODEC_RAW;
	opt.threads = 1;
	/* 8-byte entries: the sections below name ACCESS (check_transit_access.c
	 * crafts the packed ones) */
	opt.transit_far = TWZ_TRANSIT_ACCESS_WIDE;
	ck_assert_msg(twz_bake_transit(&g, &opt, &topt, &tdb, &err) == 0, "%s", err.msg);
	ck_assert_msg(twz_transit_encode(&tdb, &g, &opt, &buf, len, &err) == 0,
		      "%s", err.msg);
	ck_assert(twz_le64(buf + TWZ_H_REQUIRED) & TWZ_FEATURE_TRANSIT_ACCESS);
	ck_assert_int_eq(twz_test_try_open(buf, *len, 0), TWZ_OK);
	twz_transit_db_free(&tdb);
	twz_grid_free(&g);
	return buf;
}

/* An access table claiming more than the transit count allows: refused
 * before the claim is allocated (FORMAT.md 10a). */
START_TEST(test_hostile_access_table_claim)
{
	size_t len, flen;
	const uint64_t claim = (uint64_t)256 << 20;
	const unsigned blocks = 3000;
	uint8_t *buf = access_raw(TWZ_TEST_ROOMS, 40, 30, 8, NULL, &len);
	struct v10 f = { .buf = buf, .len = len };
	uint8_t *frame = malloc(16 + 3 * (size_t)blocks);

	ck_assert_ptr_nonnull(frame);
	flen = claiming_frame(frame, claim, blocks);
	uint8_t *file = with_zstd_section(&f, TWZ_SECTION_ACCESS_TABLE, frame, flen,
					  claim, &len);
	int capped = twz_test_cap_address_space(64ul << 20);
	twz_status st = twz_test_try_open(file, len, 0);
	ck_assert_msg(st == TWZ_E_DAMAGED, "%s (address space %s)", twz_strerror(st),
		      capped ? "capped" : "not capped");
	free(file);
	free(frame);
	free(buf);
}
END_TEST

/* Resealed access nodes that would send a query across regions (whose
 * pairs the table has no row for), or out of the node's outer square:
 * refused at open. */
START_TEST(test_hostile_access_entries)
{
	size_t len;
	uint64_t size, asize, nsize;
	/* Two open halves a wall apart: two regions with far pairs. */
	char text[41 * 19 + 1];
	for (int y = 0; y < 19; y++) {
		memset(text + 41 * y, y == 9 ? '@' : '.', 40);
		text[41 * y + 40] = '\n';
	}
	text[41 * 19] = 0;
	uint8_t *buf = access_raw(TWZ_TEST_ROOMS, 0, 0, 0, text, &len);
	uint8_t *copy = malloc(len);

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, buf, len);
	uint8_t *acc = raw_section(copy, TWZ_SECTION_ACCESS, &asize);
	uint8_t *rec = raw_section(copy, TWZ_SECTION_ACCESS_NODES, &nsize);
	uint8_t *comp = raw_section(copy, TWZ_SECTION_NODE_COMPONENT, &size);
	uint32_t m = (uint32_t)(nsize / TWZ_AN_SIZE);
	ck_assert_uint_gt(asize, 0);
	/* The first entry's transit node, swapped for one of another
	 * region. */
	uint32_t i = twz_le32(acc + TWZ_AE_TRANSIT);
	uint32_t ci = twz_le32(comp + 4 * (size_t)twz_le32(rec + (size_t)i * TWZ_AN_SIZE));
	uint32_t j = 0;
	while (j < m && twz_le32(comp + 4 * (size_t)twz_le32(rec + (size_t)j * TWZ_AN_SIZE)) == ci)
		j++;
	ck_assert_uint_lt(j, m);
	twz_put32(acc + TWZ_AE_TRANSIT, j);
	reseal(copy, len);
	ck_assert_int_eq(twz_test_try_open(copy, len, 0), TWZ_E_DAMAGED);
	/* An index past the last transit node. */
	memcpy(copy, buf, len);
	acc = raw_section(copy, TWZ_SECTION_ACCESS, &asize);
	twz_put32(acc + TWZ_AE_TRANSIT, m);
	reseal(copy, len);
	ck_assert_int_eq(twz_test_try_open(copy, len, 0), TWZ_E_DAMAGED);
	/* The access bit on the CPD layout's sections, and off this one's. */
	memcpy(copy, buf, len);
	twz_put64(copy + TWZ_H_REQUIRED, 0);
	reseal(copy, len);
	ck_assert_int_eq(twz_test_try_open(copy, len, 0), TWZ_E_DAMAGED);
	free(copy);
	free(buf);
}
END_TEST

/* tests/fuzz/corpus/fuzz_twz/regress-transit-bucketed-bit.twz: a TRANSIT
 * file with the bucketed-rows bit set opened, and the first query read
 * the bucketed sections it does not have (a NULL pointer). */
START_TEST(test_hostile_transit_feature_bits)
{
	size_t len;
	twz_db *db;
	uint8_t *buf = transit_raw(TWZ_TEST_ROOMS, 40, 30, 8, &len);
	uint32_t nodes = twz_le32(buf + TWZ_H_NODE_COUNT);

	twz_put64(buf + TWZ_H_REQUIRED, TWZ_FEATURE_BUCKETED_ROWS);
	reseal(buf, len);
	ck_assert_int_eq(twz_test_try_open(buf, len, 0), TWZ_E_DAMAGED);
	twz_put64(buf + TWZ_H_REQUIRED, TWZ_FEATURE_BUCKETED_ROWS |
				       TWZ_FEATURE_DIRECTION_SYMBOLS);
	reseal(buf, len);
	ck_assert_int_eq(twz_test_try_open(buf, len, 0), TWZ_E_DAMAGED);
	/* The direction bit alone changes nothing a TRANSIT reader does. */
	twz_put64(buf + TWZ_H_REQUIRED, TWZ_FEATURE_DIRECTION_SYMBOLS);
	reseal(buf, len);
	ck_assert_int_eq(twz_open_memory(buf, len, 0, &db), TWZ_OK);
	all_queries_end(db, nodes);
	twz_close(db);
	free(buf);
}
END_TEST

/* ROWS claiming more than rows of this many nodes can hold: refused
 * before the claim is allocated. */
START_TEST(test_hostile_bucketed_rows_claim)
{
	struct v11 f;
	const unsigned blocks = 3000;
	const uint64_t claim = (uint64_t)256 << 20;

	v11_bake(&f);
	uint32_t n = twz_le32(f.buf + TWZ_H_SECTION_COUNT);
	ck_assert_uint_eq(twz_le32(entry_at(f.buf, n - 1) + TWZ_S_KIND),
			  TWZ_SECTION_ROWS);
	ck_assert_uint_lt((uint64_t)f.nodes * (2 * (uint64_t)f.nodes + 1) * 2, claim);
	uint8_t *frame = malloc(16 + 3 * (size_t)blocks);
	ck_assert_ptr_nonnull(frame);
	size_t flen = claiming_frame(frame, claim, blocks), len;
	struct v10 as_last = { .buf = f.buf, .len = f.len };
	uint8_t *file = with_zstd_section(&as_last, TWZ_SECTION_ROWS, frame, flen,
					  claim, &len);
	int capped = twz_test_cap_address_space(64ul << 20);
	twz_status st = twz_test_try_open(file, len, 0);
	ck_assert_msg(st == TWZ_E_DAMAGED, "%s (address space %s)", twz_strerror(st),
		      capped ? "capped" : "not capped");
	free(file);
	free(frame);
	v11_free(&f);
}
END_TEST

/* ---- Limits: levels too big to bake are refused before the bake ------- */

START_TEST(test_hostile_limits_max_nodes)
{
	struct twz_grid g;
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	struct twz_cpd cpd;

	twz_test_grid_from_text(&g, "...@\n.@..\n....\n");
	twz_bake_options_default(&opt);
	opt.name = "tiny.map";
	opt.max_nodes = 10;
	ck_assert_int_eq(twz_bake_check_limits(&g, &opt, &err), 0);
	opt.max_nodes = 9;
	ck_assert_int_ne(twz_bake_check_limits(&g, &opt, &err), 0);
	assert_printable_line(err.msg, "tiny.map: ");
	ck_assert_ptr_nonnull(strstr(err.msg, "10 walkable cells exceed --max-nodes 9"));
	ck_assert_int_eq(err.kind, TWZ_ERR_INPUT);
	/* The bake itself refuses, and leaves nothing to free. */
	ck_assert_int_ne(twz_bake_cpd(&g, &opt, &cpd, &err), 0);
	ck_assert_ptr_null(cpd.runs);
	ck_assert_ptr_null(cpd.graph.cell_node);
	twz_grid_free(&g);
}
END_TEST

START_TEST(test_hostile_limits_memory_estimate)
{
	struct twz_grid g;
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };

	/* More cells, nodes or threads never need less. */
	uint64_t small = twz_bake_estimate_bytes(1000, 500, 1, TWZ_CODEC_RAW, 9);
	ck_assert_uint_gt(small, 500 * 26);
	ck_assert_uint_gt(twz_bake_estimate_bytes(1000, 1000, 1, TWZ_CODEC_RAW, 9), small);
	ck_assert_uint_gt(twz_bake_estimate_bytes(4000, 500, 1, TWZ_CODEC_RAW, 9), small);
	ck_assert_uint_gt(twz_bake_estimate_bytes(1000, 500, 8, TWZ_CODEC_RAW, 9), small);
	ck_assert_uint_gt(twz_bake_estimate_bytes(1000, 500, 1, TWZ_CODEC_ZSTD, 19), small);
	/* The largest level the format allows is far beyond any machine. */
	ck_assert_uint_gt(twz_bake_estimate_bytes(TWZ_MAX_CELLS, TWZ_MAX_NODES, 1,
						  TWZ_CODEC_RAW, 1),
			  (uint64_t)1 << 40);
	ck_assert_uint_gt(twz_memory_available(), 0);

	twz_test_generate(&g, TWZ_TEST_CAVES, 64, 64, 3);
	twz_bake_options_default(&opt);
	opt.name = "caves.map";
	opt.threads = 2;
	uint64_t cells = 64 * 64, nodes = 0;
	for (uint64_t c = 0; c < cells; c++)
		nodes += g.walkable[c];
	uint64_t need = twz_bake_estimate_bytes(cells, nodes, 2, opt.codec, opt.level);
	opt.max_memory = need;
	ck_assert_int_eq(twz_bake_check_limits(&g, &opt, &err), 0);
	opt.max_memory = need - 1;
	ck_assert_int_ne(twz_bake_check_limits(&g, &opt, &err), 0);
	assert_printable_line(err.msg, "caves.map: ");
	ck_assert_ptr_nonnull(strstr(err.msg, "--max-nodes"));
	/* An explicit --max-nodes is the way past the estimate. */
	opt.max_nodes = (uint32_t)nodes;
	ck_assert_int_eq(twz_bake_check_limits(&g, &opt, &err), 0);
	twz_grid_free(&g);
}
END_TEST

/* The tool refuses with one line and exit 3 before it bakes: a level of
 * 16.8 million open cells needs hundreds of GiB. */
START_TEST(test_hostile_limits_tool_refuses_before_baking)
{
	char map[4200], out[4300];
	const unsigned side = 4096;
	struct twz_test_run r;
	snprintf(map, sizeof map, "%s/twz_hostile_big_XXXXXX", twz_test_temp_dir());
	int fd = mkstemp(map);

	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "type octile\nheight %u\nwidth %u\nmap\n", side, side);
	char *row = malloc(side + 1);
	ck_assert_ptr_nonnull(row);
	memset(row, '.', side);
	row[side] = '\n';
	for (unsigned y = 0; y < side; y++)
		ck_assert_uint_eq(fwrite(row, 1, side + 1, f), side + 1);
	ck_assert_int_eq(fclose(f), 0);
	free(row);
	snprintf(out, sizeof out, "%s.twz", map);

	const char *const args[] = { "build", map, "-o", out, NULL };
	/* Without sanitizers the child is also capped at 1 GiB: the estimate
	 * must see the cap, and the refusal must come before the graph. */
#ifdef UNDER_ASAN
	unsigned long capped = 0;
#else
	unsigned long capped = 1ul << 30;
#endif
	twz_test_run_tool(args, NULL, capped, &r);
	ck_assert_msg(r.status == 3, "exit %d: %s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "needs about") && strstr(r.err, "16777216 nodes"),
		      "%s", r.err);
	ck_assert_msg(strchr(r.err, '\n') == strrchr(r.err, '\n') &&
		      strchr(r.err, '\n')[1] == 0, "not one line: %s", r.err);
	ck_assert_int_ne(access(out, F_OK), 0);
	twz_test_run_free(&r);

	const char *const small[] = { "build", twz_test_level_file("rooms.map"), "-o",
				      out, "--max-nodes", "5", NULL };
	twz_test_run_tool(small, NULL, 0, &r);
	ck_assert_msg(r.status == 3 && strstr(r.err, "exceed --max-nodes 5"),
		      "exit %d: %s", r.status, r.err);
	ck_assert_int_ne(access(out, F_OK), 0);
	twz_test_run_free(&r);
	unlink(map);
}
END_TEST

/* ---- Crafted: whole sections replaced, every checksum valid ----------- */

/* A file rebuilt section by section (a .twz or a partial file: the header
 * keeps its magic), so a crafted section may take any size and codec. */
struct piece {
	uint32_t kind;
	uint16_t codec;
	uint8_t *stored;          /* owned */
	uint64_t size, raw_size, checksum;
};

struct rebuild {
	uint8_t head[TWZ_HEADER_SIZE];
	unsigned count;
	struct piece p[TWZ_MAX_SECTIONS];
};

static void rebuild_read(struct rebuild *r, const uint8_t *buf, size_t len)
{
	memset(r, 0, sizeof *r);
	ck_assert_uint_ge(len, TWZ_HEADER_SIZE);
	memcpy(r->head, buf, TWZ_HEADER_SIZE);
	r->count = twz_le32(buf + TWZ_H_SECTION_COUNT);
	ck_assert_uint_le(r->count, TWZ_MAX_SECTIONS);
	for (unsigned i = 0; i < r->count; i++) {
		const uint8_t *e = entry_at((uint8_t *)buf, i);
		struct piece *p = &r->p[i];
		p->kind = twz_le32(e + TWZ_S_KIND);
		p->codec = twz_le16(e + TWZ_S_CODEC);
		p->size = twz_le64(e + TWZ_S_SIZE);
		p->raw_size = twz_le64(e + TWZ_S_RAW_SIZE);
		p->checksum = twz_le64(e + TWZ_S_RAW_CHECKSUM);
		p->stored = twz_test_dup_bytes(buf + twz_le64(e + TWZ_S_OFFSET),
					       (size_t)p->size);
	}
}

static void rebuild_free(struct rebuild *r)
{
	for (unsigned i = 0; i < r->count; i++)
		free(r->p[i].stored);
	r->count = 0;
}

static int rebuild_has(const struct rebuild *r, uint32_t kind)
{
	for (unsigned i = 0; i < r->count; i++)
		if (r->p[i].kind == kind)
			return 1;
	return 0;
}

/* The piece of kind, added last when the file has none. */
static struct piece *rebuild_piece(struct rebuild *r, uint32_t kind)
{
	for (unsigned i = 0; i < r->count; i++)
		if (r->p[i].kind == kind)
			return &r->p[i];
	ck_assert_uint_lt(r->count, TWZ_MAX_SECTIONS);
	struct piece *p = &r->p[r->count++];
	memset(p, 0, sizeof *p);
	p->kind = kind;
	return p;
}

/* The decoded bytes of kind's piece, stored raw from now on, for the
 * caller to edit in place; *n their count. */
static uint8_t *rebuild_raw(struct rebuild *r, uint32_t kind, size_t *n)
{
	struct piece *p = rebuild_piece(r, kind);

	if (p->codec == TWZ_CODEC_ZSTD) {
		uint8_t *raw = malloc(p->raw_size ? (size_t)p->raw_size : 1);
		ck_assert_ptr_nonnull(raw);
		size_t got = ZSTD_decompress(raw, (size_t)p->raw_size, p->stored,
					     (size_t)p->size);
		ck_assert(!ZSTD_isError(got) && got == p->raw_size);
		free(p->stored);
		p->stored = raw;
		p->codec = TWZ_CODEC_RAW;
		p->size = p->raw_size;
	}
	*n = (size_t)p->size;
	return p->stored;
}

/* Kind's piece := a zstd frame of RLE blocks that truly inflates to
 * raw_size zero bytes, 4 stored bytes a 128 KiB block (as dense as
 * FORMAT.md check 22 allows), with the checksum of those bytes. */
static void rebuild_bomb(struct rebuild *r, uint32_t kind, uint64_t raw_size)
{
	struct piece *p = rebuild_piece(r, kind);
	uint64_t blocks = raw_size ? (raw_size + 131071) / 131072 : 1;
	uint8_t *f = malloc(13 + 4 * (size_t)blocks);
	static const uint8_t zero[1 << 16];
	XXH3_state_t *h = XXH3_createState();
	size_t n = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(h);
	twz_put32(f, 0xFD2FB528u);              /* zstd magic */
	f[4] = 0xE0;                            /* 8-byte size, one segment */
	twz_put64(f + 5, raw_size);
	n = 13;
	for (uint64_t b = 0, left = raw_size; b < blocks; b++) {
		uint32_t size = left > 131072 ? 131072 : (uint32_t)left;
		uint32_t head = (b + 1 == blocks) | (raw_size ? 1u << 1 : 0) | size << 3;
		f[n++] = (uint8_t)head;
		f[n++] = (uint8_t)(head >> 8);
		f[n++] = (uint8_t)(head >> 16);
		if (raw_size)
			f[n++] = 0;             /* the byte an RLE block repeats */
		left -= size;
	}
	XXH3_64bits_reset(h);
	for (uint64_t left = raw_size; left;) {
		size_t k = left > sizeof zero ? sizeof zero : (size_t)left;
		XXH3_64bits_update(h, zero, k);
		left -= k;
	}
	free(p->stored);
	p->stored = f;
	p->codec = TWZ_CODEC_ZSTD;
	p->size = n;
	p->raw_size = raw_size;
	p->checksum = XXH3_64bits_digest(h);
	XXH3_freeState(h);
}

/* The file: header, table, 64-aligned pieces, every checksum computed. */
static uint8_t *rebuild_write(struct rebuild *r, size_t *len)
{
	uint64_t at = TWZ_HEADER_SIZE + (uint64_t)r->count * TWZ_SECTION_ENTRY_SIZE;
	uint64_t end = at;

	for (unsigned i = 0; i < r->count; i++)
		end = (end + TWZ_SECTION_ALIGN - 1) / TWZ_SECTION_ALIGN *
			      TWZ_SECTION_ALIGN + r->p[i].size;
	uint8_t *out = calloc(1, (size_t)end);
	ck_assert_ptr_nonnull(out);
	memcpy(out, r->head, TWZ_HEADER_SIZE);
	for (unsigned i = 0; i < r->count; i++) {
		const struct piece *p = &r->p[i];
		uint8_t *e = entry_at(out, i);
		at = (at + TWZ_SECTION_ALIGN - 1) / TWZ_SECTION_ALIGN * TWZ_SECTION_ALIGN;
		twz_put32(e + TWZ_S_KIND, p->kind);
		twz_put16(e + TWZ_S_CODEC, p->codec);
		twz_put64(e + TWZ_S_OFFSET, at);
		twz_put64(e + TWZ_S_SIZE, p->size);
		twz_put64(e + TWZ_S_RAW_SIZE, p->raw_size);
		/* Raw pieces edited in place get theirs here. */
		twz_put64(e + TWZ_S_RAW_CHECKSUM,
			  p->codec == TWZ_CODEC_RAW ? twz_checksum(p->stored, (size_t)p->size)
						    : p->checksum);
		memcpy(out + at, p->stored, (size_t)p->size);
		at += p->size;
	}
	twz_put32(out + TWZ_H_SECTION_COUNT, r->count);
	twz_put64(out + TWZ_H_FILE_SIZE, end);
	reseal(out, (size_t)end);
	*len = (size_t)end;
	return out;
}

/* The rebuilt file (r freed) opens with status TWZ_E_DAMAGED; what and
 * how name the case. */
static void rebuild_refused(struct rebuild *r, const char *what, int how)
{
	size_t n;
	uint8_t *bad = rebuild_write(r, &n);

	rebuild_free(r);
	twz_status st = twz_test_try_open(bad, n, 0);
	ck_assert_msg(st == TWZ_E_DAMAGED, "%s, case %d: %s", what, how,
		      twz_strerror(st));
	free(bad);
}

/* Honest inputs, baked by the tool into a fresh directory: a generated
 * rooms level as CPD, TRANSIT (the access layout, and the block lists of
 * format 1.1) and shards of each; the project's graph and navmesh. */
struct honest {
	char dir[4096];
	char path[16][4400];
};

enum honest_file {
	H_MAP, H_CPD, H_TRANSIT, H_TRANSIT11, H_GRAPH, H_NAVMESH,
	H_CPD1, H_CPD2, H_TR1, H_TR2, H_FILES
};

static const char *const honest_name[H_FILES] = {
	"level.map", "cpd.twz", "transit.twz", "transit11.twz", "graph.twz",
	"nav.twz", "cpd1.twp", "cpd2.twp", "tr1.twp", "tr2.twp",
};

/* The stream sections of a partial file's first layer (FORMAT.md
 * section 11): each stream's items, then its bytes. CPD has the rows;
 * TRANSIT the local rows, the blocks' distances and the table rows. */
enum part_stream_kind {
	P_ROW_ITEMS = TWZ_PART_STREAM, P_ROWS, P_DIST_ITEMS, P_DIST,
	P_TABLE_ITEMS, P_TABLE
};

static void run_ok(const char *const *args)
{
	struct twz_test_run r;

	twz_test_run_tool(args, NULL, 0, &r);
	ck_assert_msg(r.status == 0, "twigz %s: exit %d: %s", args[0], r.status, r.err);
	twz_test_run_free(&r);
}

static void honest_make(struct honest *h)
{
	struct twz_grid g;

	ck_assert_ptr_nonnull(twz_test_make_dir(h->dir, sizeof h->dir, "twz_crafted_"));
	for (unsigned i = 0; i < H_FILES; i++)
		snprintf(h->path[i], sizeof h->path[i], "%s/%s", h->dir, honest_name[i]);
	twz_test_generate(&g, TWZ_TEST_ROOMS, 40, 30, 5);
	twz_test_write_map(h->path[H_MAP], &g);
	twz_grid_free(&g);
	const char *map = h->path[H_MAP];
	const char *const bakes[][10] = {
		{ "build", map, "-o", h->path[H_CPD], "-q", NULL },
		{ "build", map, "-o", h->path[H_TRANSIT], "--method", "transit", "-q", NULL },
		{ "build", map, "-o", h->path[H_TRANSIT11], "--method", "transit",
		  "--format", "1.1", "-q", NULL },
		{ "build", twz_test_source_file("data/city.gr"), "-o", h->path[H_GRAPH],
		  "-q", NULL },
		{ "build", twz_test_source_file("data/rooms.obj"), "-o", h->path[H_NAVMESH],
		  "-q", NULL },
		{ "build", map, "-o", h->path[H_CPD1], "--shard", "1/2", "-q", NULL },
		{ "build", map, "-o", h->path[H_CPD2], "--shard", "2/2", "-q", NULL },
		{ "build", map, "-o", h->path[H_TR1], "--method", "transit", "--shard",
		  "1/2", "-q", NULL },
		{ "build", map, "-o", h->path[H_TR2], "--method", "transit", "--shard",
		  "2/2", "-q", NULL },
	};
	for (size_t i = 0; i < sizeof bakes / sizeof bakes[0]; i++)
		run_ok(bakes[i]);
}

/* path of a crafted file in h's directory. */
static const char *honest_out(struct honest *h, const char *name)
{
	snprintf(h->path[H_FILES], sizeof h->path[H_FILES], "%s/%s", h->dir, name);
	return h->path[H_FILES];
}

/* The tool, run on a crafted file under an address-space cap that an
 * honest run of these small files stays far below: it exits `status`
 * with one line on stderr naming `name` (and saying `says`). */
static void expect_tool(const char *const *args, int status, const char *name,
			const char *says)
{
	struct twz_test_run r;

#ifdef UNDER_ASAN
	unsigned long cap = 0;
#else
	unsigned long cap = 256ul << 20;
#endif
	twz_test_run_tool(args, NULL, cap, &r);
	ck_assert_msg(r.status == status, "twigz %s %s: exit %d, not %d: %s", args[0],
		      args[1], r.status, status, r.err);
	ck_assert_msg(strstr(r.err, name) && strchr(r.err, '\n') == r.err + r.err_len - 1,
		      "not one line naming %s: %s", name, r.err);
	ck_assert_msg(!says || strstr(r.err, says), "'%s' does not say '%s'", r.err, says);
	twz_test_run_free(&r);
}

/* A crafted part (n bytes at bad), written as name in h's directory and
 * merged with the honest part `other`: refused with one line naming it
 * and saying `says`, and no output. */
static void expect_part_refused(struct honest *h, const uint8_t *bad, size_t n,
				const char *name, enum honest_file other,
				const char *says)
{
	char part[4400], out[4400];

	snprintf(part, sizeof part, "%s/%s", h->dir, name);
	snprintf(out, sizeof out, "%s/merged.twz", h->dir);
	twz_test_write_file(part, bad, n);
	const char *const merge[] = { "merge", part, h->path[other], "-o", out, NULL };
	expect_tool(merge, 3, name, says);
	ck_assert_int_ne(access(out, F_OK), 0);
}

/* A BUILD_INFO frame that inflates to 640 MiB once made twigz info
 * allocate and inflate it all before check B1 (4096 bytes at most);
 * in any level kind it is refused before a byte is allocated for it.
 * So is one a byte over the limit, and in a graph or navmesh file a
 * grid's section, which no limit covers there. */
START_TEST(test_hostile_crafted_build_info)
{
	static const enum honest_file kinds[] = {
		H_CPD, H_TRANSIT, H_TRANSIT11, H_GRAPH, H_NAVMESH
	};
	struct honest h;
	struct rebuild r;
	size_t len, n;

	honest_make(&h);
	int capped = twz_test_cap_address_space(512ul << 20);
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		uint8_t *buf = twz_test_read_file(h.path[kinds[k]], &len);
		ck_assert_int_eq(twz_test_try_open(buf, len, 0), TWZ_OK);
		const uint64_t claims[] = { (uint64_t)640 << 20, TWZ_BUILD_INFO_MAX + 1 };
		for (size_t c = 0; c < 2; c++) {
			rebuild_read(&r, buf, len);
			rebuild_bomb(&r, TWZ_SECTION_BUILD_INFO, claims[c]);
			uint8_t *bad = rebuild_write(&r, &n);
			rebuild_free(&r);
			twz_status st = twz_test_try_open(bad, n, 0);
			ck_assert_msg(st == TWZ_E_DAMAGED, "%s, BUILD_INFO of %llu: %s (%s)",
				      honest_name[kinds[k]], (unsigned long long)claims[c],
				      twz_strerror(st), capped ? "capped" : "not capped");
			if (c == 0) {
				const char *out = honest_out(&h, "bomb.twz");
				twz_test_write_file(out, bad, n);
				const char *const info[] = { "info", out, NULL };
				expect_tool(info, 3, "bomb.twz", "damaged");
			}
			free(bad);
		}
		/* A grid's RUNS and inline rows where no grid is. */
		if (kinds[k] == H_GRAPH || kinds[k] == H_NAVMESH) {
			const uint32_t foreign[] = { TWZ_SECTION_RUNS, TWZ_SECTION_INLINE_ROWS };
			for (size_t f = 0; f < 2; f++) {
				rebuild_read(&r, buf, len);
				rebuild_bomb(&r, foreign[f], (uint64_t)64 << 20);
				rebuild_refused(&r, honest_name[kinds[k]], (int)f);
			}
		}
		free(buf);
	}
	twz_test_remove_tree(h.dir);
}
END_TEST

/* A section of another layout than the file's (RUNS in a bucketed CPD
 * file, NODE_DIST in an access-layout TRANSIT file, ACCESS in one of
 * block lists), inflating to 640 MiB: skipped unread, like a kind from
 * a newer version, so the file opens and costs nothing more. */
START_TEST(test_hostile_crafted_other_layouts)
{
	static const struct {
		enum honest_file file;
		uint32_t kind;
	} cases[] = {
		{ H_CPD, TWZ_SECTION_RUNS },
		{ H_TRANSIT, TWZ_SECTION_TRANSIT_NODE_DIST },
		{ H_TRANSIT11, TWZ_SECTION_ACCESS },
	};
	struct honest h;
	struct rebuild r;
	size_t len, n;

	honest_make(&h);
	int capped = twz_test_cap_address_space(512ul << 20);
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		uint8_t *buf = twz_test_read_file(h.path[cases[c].file], &len);
		rebuild_read(&r, buf, len);
		rebuild_bomb(&r, cases[c].kind, (uint64_t)640 << 20);
		uint8_t *file = rebuild_write(&r, &n);
		rebuild_free(&r);
		twz_status st = twz_test_try_open(file, n, 0);
		ck_assert_msg(st == TWZ_OK, "%s with kind %u: %s (%s)",
			      honest_name[cases[c].file], cases[c].kind, twz_strerror(st),
			      capped ? "capped" : "not capped");
		const char *out = honest_out(&h, "other.twz");
		twz_test_write_file(out, file, n);
		struct twz_test_run run;
		const char *const info[] = { "info", out, NULL };
#ifdef UNDER_ASAN
		twz_test_run_tool(info, NULL, 0, &run);
#else
		twz_test_run_tool(info, NULL, 256ul << 20, &run);
#endif
		ck_assert_msg(run.status == 0, "info: exit %d: %s", run.status, run.err);
		twz_test_run_free(&run);
		free(file);
		free(buf);
	}
	twz_test_remove_tree(h.dir);
}
END_TEST

/* A partial file whose section inflates to 640 MiB made twigz merge peak
 * at 1.3 GB (and exit 0); each kind is now held to a limit from the
 * part's header and PART_INFO before it is inflated, and refused naming
 * the part. */
START_TEST(test_hostile_crafted_part_bombs)
{
	static const struct {
		enum honest_file part, other;
		uint32_t kind;
	} cases[] = {
		{ H_CPD1, H_CPD2, TWZ_PART_LEVEL }, { H_CPD1, H_CPD2, TWZ_PART_NAME },
		{ H_CPD1, H_CPD2, P_ROW_ITEMS }, { H_CPD1, H_CPD2, P_ROWS },
		{ H_CPD1, H_CPD2, P_DIST }, { H_TR1, H_TR2, P_ROWS },
		{ H_TR1, H_TR2, P_DIST }, { H_TR1, H_TR2, P_TABLE },
		{ H_TR1, H_TR2, P_TABLE_ITEMS }, { H_TR1, H_TR2, TWZ_PART_INFO },
	};
	struct honest h;
	struct rebuild r;
	size_t len, n;

	honest_make(&h);
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		uint8_t *buf = twz_test_read_file(h.path[cases[c].part], &len);
		rebuild_read(&r, buf, len);
		rebuild_bomb(&r, cases[c].kind, (uint64_t)640 << 20);
		uint8_t *bad = rebuild_write(&r, &n);
		rebuild_free(&r);
		expect_part_refused(&h, bad, n, "bomb.twp", cases[c].other,
				    "damaged partial file");
		free(bad);
		free(buf);
	}
	twz_test_remove_tree(h.dir);
}
END_TEST

/* The parts' distances, each u32 straight then diagonal, set by how:
 * 0 all zero, 1 all 0xFFFFFFFE, 2 all unreachable, 3 every reachable one
 * of the table two straight moves longer (each a distance a path can
 * have, but not what the rows of the transit nodes say). */
static uint8_t *part_with_distances(const uint8_t *buf, size_t len, int how,
				    size_t *n)
{
	static const uint32_t kinds[] = { P_DIST, P_TABLE };
	struct rebuild r;

	rebuild_read(&r, buf, len);
	for (size_t k = how == 3; k < 2; k++) {
		size_t bytes;
		uint8_t *d = rebuild_raw(&r, kinds[k], &bytes);
		for (size_t i = 0; i + 8 <= bytes; i += 8) {
			uint32_t s = twz_le32(d + i);
			if (how == 3 && s != UINT32_MAX)
				twz_put32(d + i, s + 2);
			else if (how < 3)
				for (int half = 0; half < 2; half++)
					twz_put32(d + i + 4 * half,
						  how == 0 ? 0 : how == 1 ? 0xFFFFFFFEu
									  : UINT32_MAX);
		}
	}
	uint8_t *out = rebuild_write(&r, n);
	rebuild_free(&r);
	return out;
}

/* TRANSIT parts whose distances are all 0 or all 0xFFFFFFFE merged, and
 * the merged file answered 34 of 60 queries as damaged. The merge now
 * checks each part's distances as check T10 does, and the distances two
 * parts both hold against each other, naming the part. */
START_TEST(test_hostile_crafted_part_distances)
{
	struct honest h;
	size_t len1, len2, n;
	char out[4400], p1[4400], p2[4400];

	honest_make(&h);
	uint8_t *t1 = twz_test_read_file(h.path[H_TR1], &len1);
	uint8_t *t2 = twz_test_read_file(h.path[H_TR2], &len2);
	snprintf(out, sizeof out, "%s/merged.twz", h.dir);
	snprintf(p1, sizeof p1, "%s/lie1.twp", h.dir);
	snprintf(p2, sizeof p2, "%s/lie2.twp", h.dir);
	for (int how = 0; how < 4; how++) {
		uint8_t *b1 = part_with_distances(t1, len1, how, &n);
		twz_test_write_file(p1, b1, n);
		free(b1);
		uint8_t *b2 = part_with_distances(t2, len2, how, &n);
		twz_test_write_file(p2, b2, n);
		free(b2);
		/* Both parts crafted alike: the first is refused. */
		const char *const both[] = { "merge", p1, p2, "-o", out, NULL };
		if (how < 3) {
			expect_tool(both, 3, "lie1.twp", "distance");
			ck_assert_int_ne(access(out, F_OK), 0);
		}
		/* The second alone: refused naming it, or, where each of its
		 * distances is possible alone, naming the parts that
		 * disagree. */
		const char *const one[] = { "merge", h.path[H_TR1], p2, "-o", out, NULL };
		expect_tool(one, 3, "lie2.twp", how == 3 ? "differs between them" : "distance");
		ck_assert_int_ne(access(out, F_OK), 0);
	}
	/* The honest parts still merge. */
	const char *const honest[] = { "merge", h.path[H_TR1], h.path[H_TR2], "-o", out,
				       "-q", NULL };
	run_ok(honest);
	free(t1);
	free(t2);
	twz_test_remove_tree(h.dir);
}
END_TEST

/* The first part of a CPD pair and of a TRANSIT pair, every u32 of
 * their section kind from byte from on changed by change: each must be
 * refused naming the part, with says in the message. */
static void expect_first_parts_refused(uint32_t kind, size_t from,
				       uint32_t (*change)(uint32_t),
				       const char *name, const char *says)
{
	static const enum honest_file parts[][2] = {
		{ H_CPD1, H_CPD2 }, { H_TR1, H_TR2 },
	};
	struct honest h;
	struct rebuild r;
	size_t len, n, bytes;

	honest_make(&h);
	for (size_t k = 0; k < 2; k++) {
		uint8_t *buf = twz_test_read_file(h.path[parts[k][0]], &len);
		rebuild_read(&r, buf, len);
		uint8_t *raw = rebuild_raw(&r, kind, &bytes);
		for (size_t i = from; i + 4 <= bytes; i += 4)
			twz_put32(raw + i, change(twz_le32(raw + i)));
		uint8_t *bad = rebuild_write(&r, &n);
		rebuild_free(&r);
		expect_part_refused(&h, bad, n, name, parts[k][1], says);
		free(bad);
		free(buf);
	}
	twz_test_remove_tree(h.dir);
}

static uint32_t symbol_15(uint32_t run)
{
	return run | TWZ_RUN_SYMBOL_MASK;
}

static uint32_t largest_size(uint32_t size)
{
	(void)size;
	return UINT32_MAX;
}

/* Parts whose rows hold symbols no source may have (15): refused naming
 * the part, as the merged file's checks 38, 47 and T11 would refuse its
 * rows, for a CPD and a TRANSIT part. */
START_TEST(test_hostile_crafted_part_rows)
{
	expect_first_parts_refused(P_ROWS, 0, symbol_15, "rows.twp", "runs");
}
END_TEST

/* tests/fuzz/corpus/fuzz_part/regress-item-sizes-before-bytes.twp, and
 * parts whose rows' sizes claim 16 GiB a row (every size 0xFFFFFFFF)
 * while their rows' section holds a few kilobytes: the merge once took
 * the whole stream's memory from the sizes alone (a calloc of a gigabyte
 * from a 10 KiB part stalled the fuzzer, this one fails for want of
 * memory); each part's rows must now claim what its sizes add up to
 * first, and the part is refused by name, for CPD and TRANSIT. The
 * sizes follow the items' lo and hi (8 bytes). */
START_TEST(test_hostile_crafted_part_row_sizes)
{
	expect_first_parts_refused(P_ROW_ITEMS, 8, largest_size, "sizes.twp",
				   "claims");
}
END_TEST

/* Stored TRANSIT distances of a whole file, resealed: in the block-list
 * layout's planes, the rows of every node two straight moves longer than
 * the table, the unreachable mark inside a region, a table two moves
 * longer than the transit nodes' rows; in the access layout, a table two
 * moves longer than the transit nodes' own entries, and entries all 0. */
START_TEST(test_hostile_crafted_transit_distances)
{
	struct honest h;
	struct rebuild r;
	size_t len, bytes;

	honest_make(&h);
	uint8_t *buf = twz_test_read_file(h.path[H_TRANSIT11], &len);
	rebuild_read(&r, buf, len);
	const uint8_t *params = rebuild_raw(&r, TWZ_SECTION_TRANSIT_PARAMS, &bytes);
	uint32_t width = twz_le32(params + TWZ_TP_DIST_BYTES) / 2;
	rebuild_free(&r);
	for (int how = 0; how < 3; how++) {
		rebuild_read(&r, buf, len);
		uint32_t kind = how == 0 ? TWZ_SECTION_TRANSIT_NODE_DIST
					 : TWZ_SECTION_TRANSIT_TABLE;
		uint8_t *d = rebuild_raw(&r, kind, &bytes);
		uint64_t count = bytes / (2 * width);
		for (uint64_t k = 0; k < count; k++)
			for (int half = 0; half < 2; half++) {
				uint8_t *e = d + width * (half * count + k);
				int64_t v = width == 2 ? (int16_t)twz_le16(e)
						       : (int32_t)twz_le32(e);
				int64_t far = width == 2 ? TWZ_TRANSIT_FAR16 : TWZ_TRANSIT_FAR32;
				if (how == 1)
					v = far;
				else if (half == 0 && v != far)
					v += 2;
				if (width == 2)
					twz_put16(e, (uint16_t)(int16_t)v);
				else
					twz_put32(e, (uint32_t)(int32_t)v);
			}
		rebuild_refused(&r, "block lists", how);
	}
	free(buf);

	buf = twz_test_read_file(h.path[H_TRANSIT], &len);
	ck_assert(twz_le64(buf + TWZ_H_REQUIRED) & TWZ_FEATURE_TRANSIT_ACCESS);
	/* Each row's straight base two more. */
	rebuild_read(&r, buf, len);
	uint8_t *rec = rebuild_raw(&r, TWZ_SECTION_ACCESS_NODES, &bytes);
	for (size_t i = 0; i + TWZ_AN_SIZE <= bytes; i += TWZ_AN_SIZE)
		twz_put32(rec + i + TWZ_AN_BASE_S, twz_le32(rec + i + TWZ_AN_BASE_S) + 2);
	rebuild_refused(&r, "access table", 0);
	/* Every packed entry's counts at the reference's negative: 0. */
	rebuild_read(&r, buf, len);
	uint32_t ekind = rebuild_has(&r, TWZ_SECTION_ACCESS_PACKED)
				 ? TWZ_SECTION_ACCESS_PACKED : TWZ_SECTION_ACCESS;
	uint8_t *acc = rebuild_raw(&r, ekind, &bytes);
	if (ekind == TWZ_SECTION_ACCESS_PACKED)
		for (size_t i = 0; i + 4 <= bytes; i += 4)
			twz_put32(acc + i, twz_le32(acc + i) & 0xFFu);
	else
		for (size_t i = 0; i + TWZ_AE_SIZE <= bytes; i += TWZ_AE_SIZE)
			twz_put32(acc + i + TWZ_AE_STRAIGHT, 0);
	rebuild_refused(&r, "access entries", 0);
	free(buf);
	twz_test_remove_tree(h.dir);
}
END_TEST

/* A navmesh whose spatial grid lies: with a cell side of 1e-300 (or the
 * grid moved away) every point on the mesh was "off the mesh" and twigz
 * verify passed with nothing checked. Check N7 holds every polygon's
 * vertices to the grid; and a verify that checks no query fails. */
START_TEST(test_hostile_crafted_navmesh_grid)
{
	struct honest h;
	struct rebuild r;
	size_t len, bytes;

	honest_make(&h);
	uint8_t *buf = twz_test_read_file(h.path[H_NAVMESH], &len);
	for (int how = 0; how < 4; how++) {
		rebuild_read(&r, buf, len);
		uint8_t *p = rebuild_raw(&r, TWZ_SECTION_NAVMESH_PARAMS, &bytes);
		if (how == 0)
			twz_putf64(p + TWZ_NP_CELL, 1e-300);
		else if (how == 1)
			twz_putf64(p + TWZ_NP_ORIGIN_X, twz_lef64(p + TWZ_NP_ORIGIN_X) + 1e6);
		else if (how == 2)
			twz_putf64(p + TWZ_NP_ORIGIN_Z, twz_lef64(p + TWZ_NP_ORIGIN_Z) - 1e6);
		if (how == 3) {
			/* One tiny cell that lists every polygon: each index
			 * box, clamped, meets it, yet no point finds it. */
			uint32_t polys = twz_le32(p + TWZ_NP_POLYS);
			twz_putf64(p + TWZ_NP_CELL, 1e-300);
			twz_put32(p + TWZ_NP_COLS, 1);
			twz_put32(p + TWZ_NP_ROWS, 1);
			twz_put32(p + TWZ_NP_ENTRIES, polys);
			struct piece *cells = rebuild_piece(&r, TWZ_SECTION_NAVMESH_CELLS);
			struct piece *list = rebuild_piece(&r, TWZ_SECTION_NAVMESH_CELL_POLYS);
			free(cells->stored);
			free(list->stored);
			cells->stored = calloc(1, 8);
			list->stored = calloc(polys, 4);
			ck_assert(cells->stored && list->stored);
			cells->codec = list->codec = TWZ_CODEC_RAW;
			cells->size = cells->raw_size = 8;
			list->size = list->raw_size = 4 * (uint64_t)polys;
			twz_put32(cells->stored + 4, polys);
			for (uint32_t q = 0; q < polys; q++)
				twz_put32(list->stored + 4 * (size_t)q, q);
		}
		rebuild_refused(&r, "navmesh grid", how);
	}
	free(buf);

	/* Queries that all miss the mesh, or none at all: exit 1, saying so. */
	const char *off = honest_out(&h, "off.points");
	twz_test_write_file(off, "1000 0 1000 1001 0 1001\n-500 0 3 4 0 5\n", 39);
	const char *const v1[] = { "verify", h.path[H_NAVMESH], off, NULL };
	expect_tool(v1, 1, "off.points", "nothing verified");
	const char *scen = honest_out(&h, "empty.scen");
	twz_test_write_file(scen, "version 1\n", 10);
	const char *const v2[] = { "verify", h.path[H_CPD], scen, NULL };
	expect_tool(v2, 1, "empty.scen", "nothing verified");
	const char *p2p = honest_out(&h, "empty.p2p");
	twz_test_write_file(p2p, "p aux sp p2p 0\n", 15);
	const char *const v3[] = { "verify", h.path[H_GRAPH], p2p, NULL };
	expect_tool(v3, 1, "empty.p2p", "nothing verified");
	twz_test_remove_tree(h.dir);
}
END_TEST

/* A chain of n nodes, as a graph (.gr), a one-cell-wide corridor that
 * winds down a grid (.map) and a strip of quads (.obj), written to dir:
 * n^2 node pairs to search, far beyond a second. */
static void write_chains(const char *dir, unsigned n, char gr[4400],
			 char map[4400], char obj[4400])
{
	size_t cap = (size_t)n * 64 + 4096, len = 0;
	char *text = malloc(cap);

	ck_assert_ptr_nonnull(text);
	snprintf(gr, 4400, "%s/chain.gr", dir);
	len = (size_t)snprintf(text, cap, "p sp %u %u\n", n, 2 * (n - 1));
	for (unsigned i = 1; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len, "a %u %u 1\na %u %u 1\n",
					i, i + 1, i + 1, i);
	twz_test_write_file(gr, text, len);

	/* Rows of width cells, every other one a wall open at alternate
	 * ends: a single corridor of about n cells. */
	const unsigned width = 200, rows = 2 * (n / width) + 1;
	snprintf(map, 4400, "%s/chain.map", dir);
	len = (size_t)snprintf(text, cap, "type octile\nheight %u\nwidth %u\nmap\n",
			       rows, width);
	for (unsigned y = 0; y < rows; y++) {
		for (unsigned x = 0; x < width; x++) {
			int open = y % 2 == 0 || x == ((y / 2) % 2 ? 0 : width - 1);
			text[len++] = open ? '.' : '@';
		}
		text[len++] = '\n';
	}
	twz_test_write_file(map, text, len);

	/* Quad k spans x in [k, k + 1], z in [0, 1]. */
	snprintf(obj, 4400, "%s/chain.obj", dir);
	len = 0;
	for (unsigned k = 0; k <= n; k++)
		len += (size_t)snprintf(text + len, cap - len, "v %u 0 0\nv %u 0 1\n",
					k, k);
	for (unsigned k = 0; k < n; k++)
		len += (size_t)snprintf(text + len, cap - len, "f %u %u %u %u\n",
					2 * k + 1, 2 * k + 3, 2 * k + 4, 2 * k + 2);
	twz_test_write_file(obj, text, len);
	free(text);
}

/* A bake says up front how long its searches will take, and
 * --max-seconds refuses one forecast longer, before the searches: a
 * chain of 20,000 nodes (4e8 node pairs) as a graph, a grid (CPD and
 * TRANSIT) and a navmesh. A small level bakes, saying its forecast
 * unless --quiet. */
START_TEST(test_hostile_limits_max_seconds)
{
	char dir[4096], gr[4400], map[4400], obj[4400], out[4400];
	struct twz_test_run r;

	ck_assert_ptr_nonnull(twz_test_make_dir(dir, sizeof dir, "twz_forecast_"));
	write_chains(dir, 20000, gr, map, obj);
	snprintf(out, sizeof out, "%s/out.twz", dir);
	const char *const bakes[][8] = {
		{ "build", gr, "-o", out, "--max-seconds", "1", NULL },
		{ "build", map, "-o", out, "--max-seconds", "1", NULL },
		{ "build", map, "-o", out, "--max-seconds", "1", "--method", "transit" },
		{ "build", obj, "-o", out, "--max-seconds", "1", NULL },
	};
	for (size_t k = 0; k < sizeof bakes / sizeof bakes[0]; k++) {
		const char *args[9];
		memcpy(args, bakes[k], sizeof bakes[k]);
		args[8] = NULL;
		double t0 = twz_now_seconds();
		twz_test_run_tool(args, NULL, 0, &r);
		ck_assert_msg(r.status == 3 && strstr(r.err, "more than --max-seconds 1") &&
			      strstr(r.err, "node pairs"), "%s: exit %d: %s", args[1],
			      r.status, r.err);
		ck_assert_msg(strchr(r.err, '\n') == r.err + r.err_len - 1,
			      "not one line: %s", r.err);
		ck_assert_int_ne(access(out, F_OK), 0);
		/* Refused up front, not after the searches. */
		ck_assert_msg(twz_now_seconds() - t0 < 60, "%s: refused late", args[1]);
		twz_test_run_free(&r);
	}
	/* A small level: its forecast on stderr, or nothing with -q. */
	const char *small = twz_test_level_file("rooms.map");
	const char *const said[] = { "build", small, "-o", out, "--max-seconds", "600",
				     NULL };
	twz_test_run_tool(said, NULL, 0, &r);
	ck_assert_msg(r.status == 0 && strstr(r.err, "node pairs at") &&
		      strstr(r.err, "searches timed): about"), "%s", r.err);
	twz_test_run_free(&r);
	const char *const quiet[] = { "build", small, "-o", out, "-q", NULL };
	twz_test_run_tool(quiet, NULL, 0, &r);
	ck_assert_msg(r.status == 0 && r.err_len == 0, "%s", r.err);
	twz_test_run_free(&r);
	twz_test_remove_tree(dir);
}
END_TEST

/* ---- suite --------------------------------------------------------------- */

static Suite *twz_hostile_suite(void)
{
	Suite *s = suite_create("hostile");
	TCase *tc;

	tc = tcase_create("Messages");
	tcase_add_test(tc, test_hostile_map_message_printable);
	tcase_add_test(tc, test_hostile_scen_message_printable);
	suite_add_tcase(s, tc);

	tc = tcase_create("Rows");
	tcase_add_test(tc, test_hostile_row_offsets_non_monotonic);
	tcase_add_test(tc, test_hostile_run_starts);
	tcase_add_test(tc, test_hostile_runs_into_walls_and_off_grid);
	tcase_add_test(tc, test_hostile_no_move_symbol_in_a_region);
	tcase_add_test(tc, test_hostile_cyclic_moves_do_not_hang);
	tcase_add_test(tc, test_hostile_component_ids_inconsistent);
	suite_add_tcase(s, tc);

	tc = tcase_create("Bytes");
	tcase_add_test(tc, test_hostile_every_bit_of_a_raw_file);
	tcase_add_test(tc, test_hostile_padding_not_zero);
	suite_add_tcase(s, tc);

	tc = tcase_create("Sections");
	tcase_add_test(tc, test_hostile_section_placement);
	tcase_add_test(tc, test_hostile_zstd_claims_huge_content);
	tcase_add_test(tc, test_hostile_zstd_frames_malformed);
	tcase_add_test(tc, test_hostile_runs_larger_than_rows_can_be);
	suite_add_tcase(s, tc);

	tc = tcase_create("Bucketed");
	tcase_add_test(tc, test_hostile_bucketed_no_move_symbol);
	tcase_add_test(tc, test_hostile_bucketed_index_and_offsets);
	tcase_add_test(tc, test_hostile_bucketed_cycles_and_walls);
	tcase_add_test(tc, test_hostile_bucketed_rows_claim);
	tcase_add_test(tc, test_hostile_feature_bits_and_layouts);
	tcase_add_test(tc, test_hostile_transit_feature_bits);
	tcase_add_test(tc, test_hostile_transit_joined_regions);
	tcase_add_test(tc, test_hostile_access_table_claim);
	tcase_add_test(tc, test_hostile_access_entries);
	suite_add_tcase(s, tc);

	tc = tcase_create("Crafted");
	tcase_add_test(tc, test_hostile_crafted_build_info);
	tcase_add_test(tc, test_hostile_crafted_other_layouts);
	tcase_add_test(tc, test_hostile_crafted_part_bombs);
	tcase_add_test(tc, test_hostile_crafted_part_distances);
	tcase_add_test(tc, test_hostile_crafted_part_rows);
	tcase_add_test(tc, test_hostile_crafted_part_row_sizes);
	tcase_add_test(tc, test_hostile_crafted_transit_distances);
	tcase_add_test(tc, test_hostile_crafted_navmesh_grid);
	suite_add_tcase(s, tc);

	tc = tcase_create("Limits");
	tcase_add_test(tc, test_hostile_limits_max_nodes);
	tcase_add_test(tc, test_hostile_limits_memory_estimate);
	tcase_add_test(tc, test_hostile_limits_tool_refuses_before_baking);
	tcase_add_test(tc, test_hostile_limits_max_seconds);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_hostile_suite());
}
