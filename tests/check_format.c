/*
 * check_format.c - the .twz container and its one validator: round trips,
 * every truncation, every bit of the header and section table, damaged
 * sections, version and feature rules, reserved fields, limits, and the
 * golden files of released format versions.
 *
 * The tests read structure through format/twz_format.h and change files
 * the way a damaged disk or a newer writer would, recomputing checksums
 * where the point is to get past them.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "bake.h"
#include "level_map.h"
#include "test_support.h"
#include "twigz.h"
#include "twz_format.h"
#include "twz_validate.h"

static const unsigned codecs[2] = { TWZ_CODEC_RAW, TWZ_CODEC_ZSTD };

/* ---- helpers ---------------------------------------------------------- */

struct baked {
	struct twz_grid grid;
	uint8_t *buf;
	size_t len;
	struct twz_container c;
};

static void bake(struct baked *b, unsigned connectivity, unsigned codec)
{
	twz_test_grid_from_text(&b->grid, twz_test_small_level);
	b->buf = twz_test_bake(&b->grid, connectivity, codec, 1, &b->len);
	ck_assert_int_eq(twz_parse_container(b->buf, b->len, &b->c), TWZ_OK);
}

static void baked_free(struct baked *b)
{
	free(b->buf);
	twz_grid_free(&b->grid);
}

static void fix_header(uint8_t *buf)
{
	twz_put64(buf + TWZ_H_HEADER_CHECKSUM,
		  twz_checksum(buf, TWZ_H_HEADER_CHECKSUM));
}

/* The status of opening f once its header checksum is made right again. */
static twz_status header_fixed_status(uint8_t *f, size_t len)
{
	fix_header(f);
	return twz_test_try_open(f, len, 0);
}

/* Recompute the table checksum (over the count the header states, capped
 * at the limit) and then the header's. */
static void fix_table(uint8_t *buf, size_t len)
{
	uint64_t n = twz_le32(buf + TWZ_H_SECTION_COUNT);
	uint64_t bytes = (n > TWZ_MAX_SECTIONS ? TWZ_MAX_SECTIONS : n) *
			 TWZ_SECTION_ENTRY_SIZE;

	if (TWZ_HEADER_SIZE + bytes <= len)
		twz_put64(buf + TWZ_H_TABLE_CHECKSUM,
			  twz_checksum(buf + TWZ_HEADER_SIZE, (size_t)bytes));
	fix_header(buf);
}

static uint8_t *entry(uint8_t *buf, unsigned i)
{
	return buf + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
}

/* A new file from the original's header and a chosen list of its
 * sections (plus any extra), laid out as the writer lays them out. */
struct piece {
	uint32_t kind;
	uint16_t codec;
	const uint8_t *bytes;
	uint64_t size;
	uint64_t raw_size;
	uint64_t raw_checksum;
};

static uint8_t *assemble(const uint8_t *header, const struct piece *p,
			 unsigned n, size_t *len)
{
	uint64_t pos = TWZ_HEADER_SIZE + (uint64_t)n * TWZ_SECTION_ENTRY_SIZE;
	uint64_t offset[TWZ_MAX_SECTIONS];

	ck_assert_uint_le(n, TWZ_MAX_SECTIONS);
	for (unsigned i = 0; i < n; i++) {
		pos = (pos + TWZ_SECTION_ALIGN - 1) & ~(uint64_t)(TWZ_SECTION_ALIGN - 1);
		offset[i] = pos;
		pos += p[i].size;
	}
	uint8_t *out = calloc(1, (size_t)pos);
	ck_assert_ptr_nonnull(out);
	memcpy(out, header, TWZ_HEADER_SIZE);
	for (unsigned i = 0; i < n; i++) {
		uint8_t *e = entry(out, i);
		twz_put32(e + TWZ_S_KIND, p[i].kind);
		twz_put16(e + TWZ_S_CODEC, p[i].codec);
		twz_put64(e + TWZ_S_OFFSET, offset[i]);
		twz_put64(e + TWZ_S_SIZE, p[i].size);
		twz_put64(e + TWZ_S_RAW_SIZE, p[i].raw_size);
		twz_put64(e + TWZ_S_RAW_CHECKSUM, p[i].raw_checksum);
		if (p[i].size)
			memcpy(out + offset[i], p[i].bytes, (size_t)p[i].size);
	}
	twz_put64(out + TWZ_H_FILE_SIZE, pos);
	twz_put32(out + TWZ_H_SECTION_COUNT, n);
	fix_table(out, (size_t)pos);
	*len = (size_t)pos;
	return out;
}

static struct piece piece_of(const struct baked *b, unsigned i)
{
	const struct twz_section_ref *s = &b->c.sections[i];
	return (struct piece){ s->kind, s->codec, b->buf + s->offset, s->size,
			       s->raw_size, s->raw_checksum };
}

static uint32_t count_walkable(const struct twz_grid *g)
{
	uint32_t n = 0;
	for (size_t c = 0; c < (size_t)g->width * g->height; c++)
		n += g->walkable[c];
	return n;
}

/* ---- Header ------------------------------------------------------------ */

START_TEST(test_format_round_trip)
{
	unsigned codec = codecs[_i % 2], conn = _i < 2 ? 8 : 4;
	struct baked b;
	struct twz_graph gr;
	struct twz_error err = { { 0 }, 0 };
	twz_db *db;
	twz_info in;

	bake(&b, conn, codec);
	ck_assert_int_eq(twz_graph_build(&b.grid, conn, &gr, &err), 0);
	ck_assert_int_eq(twz_open_memory(b.buf, b.len, 0, &db), TWZ_OK);
	ck_assert_int_eq(twz_get_info(db, &in), TWZ_OK);
	ck_assert_uint_eq(in.format_major, TWZ_FORMAT_MAJOR);
	ck_assert_uint_le(in.format_minor, TWZ_FORMAT_MINOR);
	ck_assert_uint_eq(in.method, 1);
	ck_assert_uint_eq(in.connectivity, conn);
	ck_assert_uint_eq(in.width, 10);
	ck_assert_uint_eq(in.height, 7);
	ck_assert_uint_eq(in.node_count, count_walkable(&b.grid));
	/* Without corner cutting, 4- and 8-connected regions are the same. */
	ck_assert_uint_eq(in.component_count, 5);
	ck_assert_uint_eq(in.component_count, gr.component_count);
	ck_assert_uint_eq(in.level_hash, b.grid.level_hash);
	ck_assert_uint_eq(in.file_size, b.len);
	ck_assert_uint_eq(in.build_codec, codec);
	ck_assert_uint_gt(in.run_count, 0);
	ck_assert_uint_eq(twz_node_count(db), in.node_count);

	/* The container parse agrees, and the layout is the documented
	 * one: 64-aligned sections in order, the last one ends the file. */
	ck_assert_uint_eq(b.c.major, in.format_major);
	ck_assert_uint_eq(b.c.minor, in.format_minor);
	ck_assert_uint_eq(b.c.width, in.width);
	ck_assert_uint_eq(b.c.node_count, in.node_count);
	ck_assert_uint_eq(b.c.level_hash, in.level_hash);
	ck_assert_uint_ge(b.c.section_count, 1);
	uint64_t end = 0;
	for (uint32_t i = 0; i < b.c.section_count; i++) {
		const struct twz_section_ref *s = &b.c.sections[i];
		ck_assert_uint_eq(s->offset % TWZ_SECTION_ALIGN, 0);
		ck_assert_uint_ge(s->offset, end);
		ck_assert(s->codec == TWZ_CODEC_RAW || s->codec == codec);
		end = s->offset + s->size;
	}
	ck_assert_uint_eq(end, b.len);

	/* Cells map to the same nodes the bake numbered. */
	for (uint32_t y = 0; y < 7; y++)
		for (uint32_t x = 0; x < 10; x++)
			ck_assert_uint_eq(twz_node_at(db, x, y),
					  gr.cell_node[y * 10 + x]);
	twz_close(db);
	twz_graph_free(&gr);
	baked_free(&b);
}
END_TEST

START_TEST(test_format_header_every_bit_flip)
{
	struct baked b;

	bake(&b, 8, codecs[_i]);
	size_t span = TWZ_HEADER_SIZE;
	for (size_t off = 0; off < span; off++) {
		for (unsigned bit = 0; bit < 8; bit++) {
			b.buf[off] ^= (uint8_t)(1u << bit);
			twz_status st = twz_test_try_open(b.buf, b.len, 0);
			twz_status want = TWZ_E_CHECKSUM;
			if (off < TWZ_MAGIC_SIZE)
				want = TWZ_E_NOT_TWIGZ;
			else if (off == TWZ_H_MAJOR || off == TWZ_H_MAJOR + 1)
				want = twz_le16(b.buf + TWZ_H_MAJOR) > TWZ_FORMAT_MAJOR
					       ? TWZ_E_VERSION : TWZ_E_CHECKSUM;
			ck_assert_msg(st == want, "header byte %zu bit %u: %s, expected %s",
				      off, bit, twz_strerror(st), twz_strerror(want));
			b.buf[off] ^= (uint8_t)(1u << bit);
		}
	}
	ck_assert_int_eq(twz_test_try_open(b.buf, b.len, 0), TWZ_OK);
	baked_free(&b);
}
END_TEST

START_TEST(test_format_future_major_refused)
{
	static const uint16_t majors[] = { TWZ_FORMAT_MAJOR + 1, 0x100, 0xFFFF };
	struct baked b;

	bake(&b, 8, codecs[_i]);
	for (size_t i = 0; i < sizeof majors / sizeof majors[0]; i++) {
		uint8_t *f = twz_test_dup_bytes(b.buf, b.len);
		twz_put16(f + TWZ_H_MAJOR, majors[i]);
		ck_assert_int_eq(header_fixed_status(f, b.len), TWZ_E_VERSION);
		/* Even when the rest is unreadable: a newer major may move
		 * anything, so the version decides first. */
		memset(f + TWZ_H_MINOR, 0xA5, TWZ_HEADER_SIZE - TWZ_H_MINOR);
		ck_assert_int_eq(twz_test_try_open(f, b.len, 0), TWZ_E_VERSION);
		ck_assert_int_eq(twz_test_try_open(f, TWZ_H_MINOR, 0), TWZ_E_DAMAGED);
		free(f);
	}
	/* Major 0 was never released. */
	uint8_t *f = twz_test_dup_bytes(b.buf, b.len);
	twz_put16(f + TWZ_H_MAJOR, 0);
	ck_assert_int_eq(header_fixed_status(f, b.len), TWZ_E_DAMAGED);
	free(f);
	baked_free(&b);
}
END_TEST

START_TEST(test_format_newer_minor_opens)
{
	static const uint16_t bumps[] = { 1, 2, 100 };
	struct baked b;

	bake(&b, 8, codecs[_i]);
	for (size_t i = 0; i < sizeof bumps / sizeof bumps[0]; i++) {
		uint8_t *f = twz_test_dup_bytes(b.buf, b.len);
		uint16_t minor = (uint16_t)(TWZ_FORMAT_MINOR + bumps[i]);
		twz_db *db;
		twz_info in;
		twz_put16(f + TWZ_H_MINOR, minor);
		fix_header(f);
		ck_assert_int_eq(twz_open_memory(f, b.len, 0, &db), TWZ_OK);
		ck_assert_int_eq(twz_get_info(db, &in), TWZ_OK);
		ck_assert_uint_eq(in.format_minor, minor);
		ck_assert_uint_eq(in.node_count, count_walkable(&b.grid));
		twz_close(db);
		free(f);
	}
	baked_free(&b);
}
END_TEST

/* Sets each bit of the feature field at off that known does not name, one
 * at a time, and checks the file then opens with want; returns how many
 * bits it tried. */
static unsigned each_unknown_feature(const struct baked *b, size_t off,
				     uint64_t known, twz_status want,
				     const char *what)
{
	uint64_t base = twz_le64(b->buf + off);
	unsigned tried = 0;

	for (unsigned bit = 0; bit < 64; bit++) {
		uint64_t mask = (uint64_t)1 << bit;
		if (known & mask)
			continue;
		uint8_t *f = twz_test_dup_bytes(b->buf, b->len);
		twz_put64(f + off, base | mask);
		ck_assert_msg(header_fixed_status(f, b->len) == want, "%s bit %u",
			      what, bit);
		free(f);
		tried++;
	}
	return tried;
}

START_TEST(test_format_unknown_required_feature_refused)
{
	struct baked b;

	bake(&b, 8, codecs[_i]);
	unsigned tried = each_unknown_feature(&b, TWZ_H_REQUIRED,
					      TWZ_FEATURES_KNOWN_REQUIRED,
					      TWZ_E_FEATURE, "required");
	ck_assert_uint_gt(tried, 0);
	baked_free(&b);
}
END_TEST

START_TEST(test_format_unknown_optional_feature_opens)
{
	struct baked b;

	bake(&b, 8, codecs[_i]);
	each_unknown_feature(&b, TWZ_H_OPTIONAL, TWZ_FEATURES_KNOWN_OPTIONAL, TWZ_OK,
			     "optional");
	/* All of them at once, too. */
	uint8_t *f = twz_test_dup_bytes(b.buf, b.len);
	twz_put64(f + TWZ_H_OPTIONAL, ~(uint64_t)0);
	ck_assert_int_eq(header_fixed_status(f, b.len), TWZ_OK);
	free(f);
	baked_free(&b);
}
END_TEST

START_TEST(test_format_reserved_header_bytes_refused)
{
	struct baked b;

	bake(&b, 8, codecs[_i]);
	for (size_t off = TWZ_H_RESERVED; off < TWZ_H_RESERVED_END; off++) {
		for (unsigned v = 1; v < 256; v <<= 1) {
			uint8_t *f = twz_test_dup_bytes(b.buf, b.len);
			f[off] = (uint8_t)v;
			ck_assert_msg(header_fixed_status(f, b.len) == TWZ_E_RESERVED,
				      "reserved byte %zu = %u", off, v);
			free(f);
		}
	}
	baked_free(&b);
}
END_TEST

/* Header fields that must hold a fixed value or agree with the file. */
START_TEST(test_format_header_fields_checked)
{
	static const struct {
		size_t off;
		unsigned size;      /* 1, 4 or 8 bytes */
		uint64_t value;
		twz_status want;
	} cases[] = {
		{ TWZ_H_HEADER_SIZE, 4, TWZ_HEADER_SIZE + 8, TWZ_E_DAMAGED },
		{ TWZ_H_HEADER_SIZE, 4, 0, TWZ_E_DAMAGED },
		{ TWZ_H_TABLE_OFFSET, 4, TWZ_HEADER_SIZE + 64, TWZ_E_DAMAGED },
		{ TWZ_H_FILE_SIZE, 8, 0, TWZ_E_DAMAGED },
		{ TWZ_H_FILE_SIZE, 8, ~(uint64_t)0, TWZ_E_DAMAGED },
		{ TWZ_H_SECTION_COUNT, 4, TWZ_MAX_SECTIONS + 1, TWZ_E_LIMIT },
		{ TWZ_H_SECTION_COUNT, 4, 0xFFFFFFFFu, TWZ_E_LIMIT },
		{ TWZ_H_WIDTH, 4, 0, TWZ_E_LIMIT },
		{ TWZ_H_HEIGHT, 4, 0, TWZ_E_LIMIT },
		{ TWZ_H_WIDTH, 4, TWZ_MAX_SIDE + 1, TWZ_E_LIMIT },
		{ TWZ_H_HEIGHT, 4, 0xFFFFFFFFu, TWZ_E_LIMIT },
		{ TWZ_H_NODE_COUNT, 4, 10 * 7 + 1, TWZ_E_DAMAGED },
		{ TWZ_H_COMPONENT_COUNT, 4, 0, TWZ_E_DAMAGED },
		{ TWZ_H_COMPONENT_COUNT, 4, 10 * 7, TWZ_E_DAMAGED },
		{ TWZ_H_METHOD, 1, 0, TWZ_E_DAMAGED },
		{ TWZ_H_METHOD, 1, 0xFF, TWZ_E_DAMAGED },
		{ TWZ_H_CONNECTIVITY, 1, 6, TWZ_E_DAMAGED },
		{ TWZ_H_CONNECTIVITY, 1, 0, TWZ_E_DAMAGED },
		{ TWZ_H_BUILD_CODEC, 1, 0xFF, TWZ_E_DAMAGED },
		/* An order not the method's would skip the region checks. */
		{ TWZ_H_NODE_ORDER, 1, 0, TWZ_E_DAMAGED },
		{ TWZ_H_NODE_ORDER, 1, TWZ_ORDER_BLOCKS, TWZ_E_DAMAGED },
		{ TWZ_H_NODE_ORDER, 1, 0xFF, TWZ_E_DAMAGED },
		/* u16 cells belong to the bucketed layout, and are sized so. */
		{ TWZ_H_REQUIRED, 8, TWZ_FEATURE_DIRECTION_SYMBOLS |
				     TWZ_FEATURE_NARROW_CELL_NODE, TWZ_E_DAMAGED },
		{ TWZ_H_REQUIRED, 8, TWZ_FEATURE_DIRECTION_SYMBOLS |
				     TWZ_FEATURE_BUCKETED_ROWS, TWZ_E_DAMAGED },
	};
	struct baked b;

	bake(&b, 8, codecs[_i]);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint8_t *f = twz_test_dup_bytes(b.buf, b.len);
		if (cases[i].size == 1)
			f[cases[i].off] = (uint8_t)cases[i].value;
		else if (cases[i].size == 4)
			twz_put32(f + cases[i].off, (uint32_t)cases[i].value);
		else
			twz_put64(f + cases[i].off, cases[i].value);
		twz_status st = header_fixed_status(f, b.len);
		ck_assert_msg(st == cases[i].want, "case %zu (offset %zu): %s, expected %s",
			      i, cases[i].off, twz_strerror(st),
			      twz_strerror(cases[i].want));
		free(f);
	}
	/* u16 cells cannot name node 0xFFFF or above: a header claiming so
	 * many nodes is refused before any section is read. */
	for (uint32_t nodes = 0xFFFE; nodes <= 0x10000; nodes++) {
		struct twz_container c;
		uint8_t *g = twz_test_dup_bytes(b.buf, b.len);
		twz_put32(g + TWZ_H_WIDTH, 300);
		twz_put32(g + TWZ_H_HEIGHT, 300);
		twz_put32(g + TWZ_H_NODE_COUNT, nodes);
		fix_header(g);
		ck_assert_int_eq(twz_parse_container(g, b.len, &c),
				 nodes < 0xFFFF ? TWZ_OK : TWZ_E_DAMAGED);
		free(g);
	}
	/* Width and height swapped: same cell count, but the cells no
	 * longer match the node map. */
	uint8_t *f = twz_test_dup_bytes(b.buf, b.len);
	twz_put32(f + TWZ_H_WIDTH, 7);
	twz_put32(f + TWZ_H_HEIGHT, 10);
	ck_assert_int_eq(header_fixed_status(f, b.len), TWZ_E_DAMAGED);
	free(f);
	baked_free(&b);
}
END_TEST

START_TEST(test_format_not_twigz)
{
	static const char *const texts[] = {
		"", "\x89", "\x89TWZ\r\n\x1a", "\x89TWZ\n\x1a\n\n",
		"type octile\nheight 1\nwidth 1\nmap\n.\n",
		"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
	};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		size_t len = i == 5 ? 16 : strlen(texts[i]);
		ck_assert_msg(twz_test_try_open((const uint8_t *)texts[i], len, 0) ==
				      TWZ_E_NOT_TWIGZ, "text %zu", i);
	}
	/* The magic alone, or with a short header: a twigz file, damaged. */
	ck_assert_int_eq(twz_test_try_open((const uint8_t *)TWZ_MAGIC,
					   TWZ_MAGIC_SIZE, 0), TWZ_E_DAMAGED);
}
END_TEST

/* ---- SectionTable -------------------------------------------------------- */

START_TEST(test_format_table_every_bit_flip)
{
	struct baked b;

	bake(&b, 8, codecs[_i]);
	size_t end = TWZ_HEADER_SIZE + (size_t)b.c.section_count * TWZ_SECTION_ENTRY_SIZE;
	for (size_t off = TWZ_HEADER_SIZE; off < end; off++) {
		for (unsigned bit = 0; bit < 8; bit++) {
			b.buf[off] ^= (uint8_t)(1u << bit);
			twz_status st = twz_test_try_open(b.buf, b.len, 0);
			ck_assert_msg(st == TWZ_E_CHECKSUM, "table byte %zu bit %u: %s",
				      off, bit, twz_strerror(st));
			b.buf[off] ^= (uint8_t)(1u << bit);
		}
	}
	baked_free(&b);
}
END_TEST

/* Each entry field changed, table checksum recomputed: what the reader
 * must still catch. */
START_TEST(test_format_table_entries_checked)
{
	struct baked b;

	bake(&b, 8, codecs[_i]);
	uint32_t n = b.c.section_count;
	ck_assert_uint_ge(n, 2);
	for (uint32_t i = 0; i < n; i++) {
		const struct twz_section_ref *s = &b.c.sections[i];
		struct {
			size_t off;
			unsigned size;
			uint64_t value;
			twz_status want;
		} cases[] = {
			{ TWZ_S_FLAGS, 2, 1, TWZ_E_RESERVED },
			{ TWZ_S_FLAGS, 2, 0x8000, TWZ_E_RESERVED },
			{ TWZ_S_RESERVED, 8, 1, TWZ_E_RESERVED },
			{ TWZ_S_RESERVED, 8, (uint64_t)1 << 63, TWZ_E_RESERVED },
			{ TWZ_S_CODEC, 2, 0x7FFF, TWZ_E_DAMAGED },
			{ TWZ_S_CODEC, 2, 0xFFFF, TWZ_E_DAMAGED },
			{ TWZ_S_OFFSET, 8, s->offset + 1, TWZ_E_DAMAGED },
			{ TWZ_S_OFFSET, 8, s->offset + TWZ_SECTION_ALIGN * 1000,
			  TWZ_E_DAMAGED },
			{ TWZ_S_OFFSET, 8, ~(uint64_t)(TWZ_SECTION_ALIGN - 1), TWZ_E_DAMAGED },
			{ TWZ_S_OFFSET, 8, 0, TWZ_E_DAMAGED },
			{ TWZ_S_SIZE, 8, b.len - s->offset + 1, TWZ_E_DAMAGED },
			{ TWZ_S_SIZE, 8, ~(uint64_t)0, TWZ_E_DAMAGED },
			{ TWZ_S_RAW_SIZE, 8, TWZ_MAX_RAW_SECTION + 1, TWZ_E_LIMIT },
			{ TWZ_S_RAW_SIZE, 8, ~(uint64_t)0, TWZ_E_LIMIT },
			{ TWZ_S_RAW_SIZE, 8, s->raw_size + 4, TWZ_E_DAMAGED },
			{ TWZ_S_RAW_CHECKSUM, 8, s->raw_checksum ^ 1, TWZ_E_CHECKSUM },
		};
		for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
			uint8_t *f = twz_test_dup_bytes(b.buf, b.len);
			uint8_t *e = entry(f, i) + cases[k].off;
			if (cases[k].size == 2)
				twz_put16(e, (uint16_t)cases[k].value);
			else
				twz_put64(e, cases[k].value);
			fix_table(f, b.len);
			twz_status st = twz_test_try_open(f, b.len, 0);
			ck_assert_msg(st == cases[k].want,
				      "section %u field +%zu = %llu: %s, expected %s", i,
				      cases[k].off, (unsigned long long)cases[k].value,
				      twz_strerror(st), twz_strerror(cases[k].want));
			free(f);
		}
		if (i == 0)
			continue;
		/* Overlap with the section before, and a repeated kind. */
		uint8_t *f = twz_test_dup_bytes(b.buf, b.len);
		twz_put64(entry(f, i) + TWZ_S_OFFSET, b.c.sections[i - 1].offset);
		fix_table(f, b.len);
		ck_assert_int_eq(twz_test_try_open(f, b.len, 0), TWZ_E_DAMAGED);
		memcpy(f, b.buf, b.len);
		twz_put32(entry(f, i) + TWZ_S_KIND, b.c.sections[i - 1].kind);
		fix_table(f, b.len);
		ck_assert_int_eq(twz_test_try_open(f, b.len, 0), TWZ_E_DAMAGED);
		free(f);
	}
	/* More sections than the file holds entries for. */
	uint8_t *f = twz_test_dup_bytes(b.buf, b.len);
	twz_put32(f + TWZ_H_SECTION_COUNT, TWZ_MAX_SECTIONS);
	fix_table(f, b.len);
	ck_assert_int_ne(twz_test_try_open(f, b.len, 0), TWZ_OK);
	free(f);
	baked_free(&b);
}
END_TEST

/* A section of a kind this reader does not know (a newer minor's) is
 * skipped; with a newer minor in the header, too. */
START_TEST(test_format_unknown_section_kind_ignored)
{
	static const uint8_t extra[100] = { 1, 2, 3, 4, 5 };
	/* 11: the first kind no version defines. */
	static const uint32_t kinds[] = { 11, 1000, 0xFFFFFFFFu };
	struct baked b;
	struct piece p[TWZ_MAX_SECTIONS];

	bake(&b, 8, codecs[_i]);
	uint32_t n = b.c.section_count;
	for (uint32_t i = 0; i < n; i++)
		p[i] = piece_of(&b, i);
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		p[n] = (struct piece){ kinds[k], TWZ_CODEC_RAW, extra, sizeof extra,
				       sizeof extra, twz_checksum(extra, sizeof extra) };
		size_t len;
		uint8_t *f = assemble(b.buf, p, n + 1, &len);
		ck_assert_uint_gt(len, b.len);
		ck_assert_msg(twz_test_try_open(f, len, 0) == TWZ_OK, "extra kind %u",
			      kinds[k]);
		twz_put16(f + TWZ_H_MINOR, TWZ_FORMAT_MINOR + 1);
		ck_assert_int_eq(header_fixed_status(f, len), TWZ_OK);
		free(f);
	}
	/* The same sections re-assembled without extras: the very same
	 * bytes the writer made. */
	size_t len;
	uint8_t *f = assemble(b.buf, p, n, &len);
	ck_assert_uint_eq(len, b.len);
	ck_assert_mem_eq(f, b.buf, len);
	free(f);
	baked_free(&b);
}
END_TEST

START_TEST(test_format_missing_section_refused)
{
	struct baked b;
	struct piece p[TWZ_MAX_SECTIONS];

	bake(&b, 8, codecs[_i]);
	uint32_t n = b.c.section_count;
	for (uint32_t drop = 0; drop < n; drop++) {
		uint32_t k = 0;
		for (uint32_t i = 0; i < n; i++)
			if (i != drop)
				p[k++] = piece_of(&b, i);
		size_t len;
		uint8_t *f = assemble(b.buf, p, k, &len);
		twz_status st = twz_test_try_open(f, len, 0);
		ck_assert_msg(st == TWZ_E_DAMAGED, "without section kind %u: %s",
			      b.c.sections[drop].kind, twz_strerror(st));
		free(f);
	}
	baked_free(&b);
}
END_TEST

/* ---- Sections ------------------------------------------------------------ */

START_TEST(test_format_truncated_at_every_offset)
{
	struct baked b;

	bake(&b, 8, codecs[_i]);
	for (size_t len = 0; len < b.len; len++) {
		twz_status st = twz_test_try_open(b.buf, len, 0);
		twz_status want = len < TWZ_MAGIC_SIZE ? TWZ_E_NOT_TWIGZ : TWZ_E_DAMAGED;
		ck_assert_msg(st == want, "truncated to %zu of %zu: %s", len, b.len,
			      twz_strerror(st));
		/* A truncation the header agrees with is still caught. */
		if (len >= TWZ_HEADER_SIZE) {
			uint8_t *f = twz_test_dup_bytes(b.buf, len);
			twz_put64(f + TWZ_H_FILE_SIZE, len);
			st = header_fixed_status(f, len);
			ck_assert_msg(st == TWZ_E_DAMAGED || st == TWZ_E_CHECKSUM,
				      "truncated to %zu with its size fixed: %s", len,
				      twz_strerror(st));
			free(f);
		}
	}
	/* Bytes after the end are damage too. */
	uint8_t *f = calloc(1, b.len + 64);
	ck_assert_ptr_nonnull(f);
	memcpy(f, b.buf, b.len);
	ck_assert_int_eq(twz_test_try_open(f, b.len + 1, 0), TWZ_E_DAMAGED);
	ck_assert_int_eq(twz_test_try_open(f, b.len + 64, 0), TWZ_E_DAMAGED);
	free(f);
	baked_free(&b);
}
END_TEST

/* Whether two databases answer every first move alike. */
static int same_answers(const twz_db *a, const twz_db *b)
{
	uint32_t n = twz_node_count(a);

	if (n != twz_node_count(b))
		return 0;
	for (twz_node s = 0; s < n; s++)
		for (twz_node t = 0; t < n; t++)
			if (twz_next(a, s, t) != twz_next(b, s, t))
				return 0;
	return 1;
}

START_TEST(test_format_section_byte_flip_is_checksum)
{
	static const uint8_t flips[] = { 0xFF, 0x10, 0x01 };
	struct baked b;
	twz_db *orig;
	unsigned flipped = 0, harmless = 0;

	bake(&b, 8, codecs[_i]);
	ck_assert_int_eq(twz_open_memory(b.buf, b.len, 0, &orig), TWZ_OK);
	for (uint32_t i = 0; i < b.c.section_count; i++) {
		const struct twz_section_ref *s = &b.c.sections[i];
		for (uint64_t off = s->offset; off < s->offset + s->size; off++) {
			for (size_t k = 0; k < sizeof flips; k++) {
				uint8_t *f = twz_test_dup_bytes(b.buf, b.len);
				twz_db *db;
				f[off] ^= flips[k];
				twz_status st = twz_open_memory(f, b.len, 0, &db);
				flipped++;
				/* Raw bytes are covered by their checksum. A zstd
				 * frame may fail to inflate first; or the flip hit
				 * a bit the decoder ignores, when the decoded bytes,
				 * checksummed, are the same. */
				if (s->codec == TWZ_CODEC_ZSTD && st == TWZ_OK) {
					ck_assert(same_answers(orig, db));
					harmless++;
					twz_close(db);
				} else {
					ck_assert_msg(st == TWZ_E_CHECKSUM ||
						      (s->codec == TWZ_CODEC_ZSTD &&
						       st == TWZ_E_DAMAGED),
						      "section %u (kind %u, codec %u) byte %llu ^ 0x%02x: %s",
						      i, s->kind, s->codec,
						      (unsigned long long)(off - s->offset), flips[k],
						      twz_strerror(st));
					ck_assert_ptr_null(db);
				}
				free(f);
			}
		}
	}
	ck_assert_uint_gt(flipped, 0);
	ck_assert_msg(harmless * 100 < flipped, "%u of %u flips went unnoticed",
		      harmless, flipped);
	twz_close(orig);
	baked_free(&b);
}
END_TEST

/* With checksums skipped, damaged sections must still be caught by the
 * structural checks or be harmless: no crash, no read out of bounds, no
 * walk that does not end, whatever the queries. */
START_TEST(test_format_section_damage_without_checksums)
{
	static const uint8_t flips[] = { 0x01, 0x80, 0xFF };
	struct baked b;
	unsigned opened = 0, refused = 0;

	bake(&b, 8, TWZ_CODEC_RAW);
	uint32_t nodes = count_walkable(&b.grid);
	twz_node *path = malloc(((size_t)nodes + 1) * sizeof *path);
	twz_node *flow = malloc((size_t)nodes * sizeof *flow);
	ck_assert_ptr_nonnull(path);
	ck_assert_ptr_nonnull(flow);
	for (uint32_t i = 0; i < b.c.section_count; i++) {
		const struct twz_section_ref *s = &b.c.sections[i];
		for (uint64_t off = s->offset; off < s->offset + s->size; off++) {
			for (size_t k = 0; k < sizeof flips; k++) {
				uint8_t *f = twz_test_dup_bytes(b.buf, b.len);
				twz_db *db;
				f[off] ^= flips[k];
				twz_status st = twz_open_memory(f, b.len,
								TWZ_OPEN_SKIP_CHECKSUMS, &db);
				if (st != TWZ_OK) {
					ck_assert_msg(st == TWZ_E_DAMAGED,
						      "kind %u byte %llu: %s", s->kind,
						      (unsigned long long)(off - s->offset),
						      twz_strerror(st));
					refused++;
					free(f);
					continue;
				}
				opened++;
				ck_assert_uint_eq(twz_node_count(db), nodes);
				for (twz_node t = 0; t < nodes; t++) {
					st = twz_flow_field(db, t, flow, nodes);
					/* A changed move may loop: the field says so. */
					expect(st == TWZ_OK || st == TWZ_E_DAMAGED,
					       "flow field: %s", twz_strerror(st));
					for (twz_node u = 0; u < nodes; u++) {
						size_t len;
						expect(flow[u] == TWZ_NONE || flow[u] < nodes,
						       "flow[%u] = %u", u, flow[u]);
						st = twz_path(db, u, t, path, (size_t)nodes + 1, &len);
						expect((st == TWZ_OK || st == TWZ_E_UNREACHABLE ||
							st == TWZ_E_DAMAGED) && len <= nodes,
						       "path %u->%u: %s, %zu nodes", u, t,
						       twz_strerror(st), len);
					}
				}
				twz_close(db);
				free(f);
			}
		}
	}
	/* Both outcomes happen: the structure catches some damage, and some
	 * (a different but legal move) only a checksum can. */
	ck_assert_uint_gt(refused, 0);
	ck_assert_uint_gt(opened, 0);
	free(path);
	free(flow);
	baked_free(&b);
}
END_TEST

/* Content that passes every checksum but contradicts itself: the cell
 * map no longer inverts the node map. */
START_TEST(test_format_inconsistent_content_refused)
{
	struct baked b;
	const struct twz_section_ref *cells = NULL;
	uint32_t ci = 0;

	bake(&b, 8, TWZ_CODEC_RAW);
	for (uint32_t i = 0; i < b.c.section_count; i++)
		if (b.c.sections[i].kind == TWZ_SECTION_CELL_NODE) {
			cells = &b.c.sections[i];
			ci = i;
		}
	ck_assert_ptr_nonnull(cells);
	/* The default bake of a small level: u16 cells (format 1.2). */
	ck_assert(b.c.required_features & TWZ_FEATURE_NARROW_CELL_NODE);
	ck_assert_uint_eq(cells->raw_size, 10 * 7 * 2);
	/* Cells (0,0) and (9,0) are walkable, in two regions; (4,0) is a
	 * wall. */
	const uint32_t walk_a = 0, walk_b = 9, wall = 4;
	ck_assert(b.grid.walkable[walk_a]);
	ck_assert(b.grid.walkable[walk_b]);
	ck_assert(!b.grid.walkable[wall]);

	for (int how = 0; how < 4; how++) {
		uint8_t *f = twz_test_dup_bytes(b.buf, b.len);
		uint8_t *cn = f + cells->offset;
		uint16_t a = twz_le16(cn + 2 * walk_a), bb = twz_le16(cn + 2 * walk_b);
		switch (how) {
		case 0:  /* two cells swap nodes */
			twz_put16(cn + 2 * walk_a, bb);
			twz_put16(cn + 2 * walk_b, a);
			break;
		case 1:  /* a walkable cell loses its node */
			twz_put16(cn + 2 * walk_a, TWZ_NARROW_NONE);
			break;
		case 2:  /* a wall gets one */
			twz_put16(cn + 2 * wall, a);
			break;
		default: /* a node id past the end */
			twz_put16(cn + 2 * walk_a, (uint16_t)b.c.node_count);
			break;
		}
		twz_put64(entry(f, ci) + TWZ_S_RAW_CHECKSUM,
			  twz_checksum(cn, (size_t)cells->raw_size));
		fix_table(f, b.len);
		twz_status st = twz_test_try_open(f, b.len, 0);
		ck_assert_msg(st == TWZ_E_DAMAGED, "change %d: %s", how, twz_strerror(st));
		free(f);
	}
	baked_free(&b);
}
END_TEST

/* The validator on its own, as the writer's side uses it. */
START_TEST(test_format_validator_direct)
{
	struct baked b;
	struct twz_container c;
	struct twz_content v;

	ck_assert_int_eq(twz_parse_container(NULL, 0, &c), TWZ_E_ARGUMENT);
	bake(&b, 8, TWZ_CODEC_RAW);
	ck_assert_int_eq(twz_parse_container(b.buf, b.len, &c), TWZ_OK);
	memset(&v, 0, sizeof v);
	for (uint32_t i = 0; i < c.section_count; i++) {
		const struct twz_section_ref *s = &c.sections[i];
		ck_assert_uint_le(s->kind, TWZ_SECTION_KIND_MAX);
		ck_assert_uint_eq(s->codec, TWZ_CODEC_RAW);
		ck_assert_uint_eq(twz_checksum(b.buf + s->offset, (size_t)s->size),
				  s->raw_checksum);
		uint64_t want = twz_expected_raw_size(&c, s->kind);
		if (want)
			ck_assert_uint_eq(s->raw_size, want);
		v.data[s->kind] = b.buf + s->offset;
		v.size[s->kind] = s->raw_size;
	}
	ck_assert_int_eq(twz_validate_content(&c, &v), TWZ_OK);
	for (uint32_t i = 0; i < c.section_count; i++) {
		struct twz_content w = v;
		uint32_t k = c.sections[i].kind;
		w.data[k] = NULL;
		ck_assert_msg(twz_validate_content(&c, &w) == TWZ_E_DAMAGED,
			      "kind %u missing", k);
		w = v;
		w.size[k] += 4;
		if (twz_expected_raw_size(&c, k))
			ck_assert_msg(twz_validate_content(&c, &w) == TWZ_E_DAMAGED,
				      "kind %u too long", k);
	}
	baked_free(&b);
}
END_TEST

/* ---- Golden -------------------------------------------------------------- */

struct known {
	uint32_t sx, sy, gx, gy;
	int reachable;
	uint32_t straight, diagonal;
};

/* Answers for tests/golden/v1_0.map, worked out by hand and by an
 * independent Dijkstra. */
static const struct known golden_answers[] = {
	{ 0, 0, 9, 11, 1, 14, 3 },
	{ 0, 0, 0, 11, 1, 15, 0 },
	{ 2, 2, 8, 4, 1, 8, 0 },
	{ 5, 4, 9, 2, 1, 4, 1 },
	{ 11, 0, 15, 11, 1, 11, 2 },
	{ 14, 10, 11, 0, 1, 11, 2 },
	{ 3, 3, 3, 3, 1, 0, 0 },
	{ 0, 0, 15, 0, 0, 0, 0 },
	{ 15, 11, 9, 11, 0, 0, 0 },
};

static void check_golden_answers(const twz_db *db, unsigned minor)
{
	twz_info in;
	twz_node path[64];

	ck_assert_int_eq(twz_get_info(db, &in), TWZ_OK);
	ck_assert_uint_eq(in.format_major, 1);
	ck_assert_uint_eq(in.format_minor, minor);
	ck_assert_uint_eq(in.method, 1);
	ck_assert_uint_eq(in.connectivity, 8);
	ck_assert_uint_eq(in.width, 16);
	ck_assert_uint_eq(in.height, 12);
	ck_assert_uint_eq(in.node_count, 138);
	ck_assert_uint_eq(in.component_count, 2);
	ck_assert_uint_eq(twz_node_at(db, 10, 0), TWZ_NONE);   /* the wall */
	ck_assert_uint_eq(twz_node_at(db, 16, 0), TWZ_NONE);   /* off the map */
	for (size_t i = 0; i < sizeof golden_answers / sizeof golden_answers[0]; i++) {
		const struct known *k = &golden_answers[i];
		twz_node s = twz_node_at(db, k->sx, k->sy), t = twz_node_at(db, k->gx, k->gy);
		uint32_t st = 99, dg = 99;
		size_t len = 99;
		ck_assert_uint_ne(s, TWZ_NONE);
		ck_assert_uint_ne(t, TWZ_NONE);
		twz_status r = twz_cost_exact(db, s, t, &st, &dg);
		if (!k->reachable) {
			ck_assert_int_eq(r, TWZ_E_UNREACHABLE);
			ck_assert_uint_eq(twz_next(db, s, t), TWZ_NONE);
			ck_assert(isinf(twz_cost(db, s, t)));
			continue;
		}
		ck_assert_msg(r == TWZ_OK && st == k->straight && dg == k->diagonal,
			      "(%u,%u)->(%u,%u): %s, %u+%u*sqrt2", k->sx, k->sy, k->gx,
			      k->gy, twz_strerror(r), st, dg);
		ck_assert_int_eq(twz_path(db, s, t, path, 64, &len), TWZ_OK);
		ck_assert_uint_eq(len, k->straight + k->diagonal + 1);
		ck_assert_uint_eq(path[0], s);
		ck_assert_uint_eq(path[len - 1], t);
	}
}

/* Every golden file, raw and zstd, of every released format version. */
static const char *const golden_names[] = { "v1_0", "v1_1", "v1_2" };
#define GOLDEN_VERSIONS (sizeof golden_names / sizeof *golden_names)

static twz_db *golden_open(unsigned version, int zstd)
{
	char rel[64];
	twz_db *db = NULL;

	snprintf(rel, sizeof rel, "tests/golden/%s%s.twz", golden_names[version],
		 zstd ? "_zstd" : "");
	twz_status st = twz_open(twz_test_source_file(rel), 0, &db);
	ck_assert_msg(st == TWZ_OK, "%s: %s", rel, twz_strerror(st));
	return db;
}

START_TEST(test_format_golden_opens)
{
	size_t map_len;
	uint8_t *map = twz_test_try_read_file(
		twz_test_source_file("tests/golden/v1_0.map"), &map_len);

	ck_assert_msg(map != NULL, "tests/golden/v1_0.map is missing");
	for (unsigned v = 0; v < GOLDEN_VERSIONS; v++)
		for (int zstd = 0; zstd < 2; zstd++) {
			twz_db *db = golden_open(v, zstd);
			check_golden_answers(db, v);
			twz_info in;
			twz_get_info(db, &in);
			ck_assert_uint_eq(in.level_hash, XXH3_64bits(map, map_len));
			ck_assert_uint_eq(in.build_codec,
					  zstd ? TWZ_CODEC_ZSTD : TWZ_CODEC_RAW);
			twz_close(db);
		}
	free(map);
}
END_TEST

/* Every answer of each golden file against a plain Dijkstra on its level,
 * and the zstd file answers exactly as the raw one. */
START_TEST(test_format_golden_all_pairs)
{
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };
	unsigned v = (unsigned)_i;

	ck_assert_msg(twz_grid_load(twz_test_source_file("tests/golden/v1_0.map"),
				    &g, &err) == 0, "%s", err.msg);
	twz_db *raw = golden_open(v, 0), *zst = golden_open(v, 1);
	size_t cells = (size_t)g.width * g.height;
	struct twz_cost *dist = malloc(cells * sizeof *dist);
	ck_assert_ptr_nonnull(dist);
	for (uint32_t sy = 0; sy < g.height; sy++)
		for (uint32_t sx = 0; sx < g.width; sx++) {
			twz_node s = twz_node_at(raw, sx, sy);
			ck_assert_uint_eq(s == TWZ_NONE, !twz_grid_walkable(&g, sx, sy));
			if (s == TWZ_NONE)
				continue;
			twz_test_dijkstra(&g, 8, sx, sy, dist);
			for (size_t c = 0; c < cells; c++) {
				twz_node t = twz_node_at(raw, c % g.width, c / g.width);
				if (t == TWZ_NONE)
					continue;
				uint32_t st = 0, dg = 0;
				twz_status r = twz_cost_exact(raw, s, t, &st, &dg);
				if (dist[c].straight == UINT32_MAX)
					expect(r == TWZ_E_UNREACHABLE, "%s: %u->%u: %s",
					       golden_names[v], s, t, twz_strerror(r));
				else
					expect(r == TWZ_OK && st == dist[c].straight &&
					       dg == dist[c].diagonal,
					       "%s: %u->%u: %s, %u+%u*sqrt2, optimum %u+%u*sqrt2",
					       golden_names[v], s, t, twz_strerror(r), st, dg,
					       dist[c].straight, dist[c].diagonal);
				expect(twz_next(raw, s, t) == twz_next(zst, s, t),
				       "%s: %u->%u: raw and zstd files differ",
				       golden_names[v], s, t);
			}
		}
	free(dist);
	twz_close(raw);
	twz_close(zst);
	twz_grid_free(&g);
}
END_TEST

/* A fresh bake of the golden level, as tests/golden/README says it was
 * made, gives the golden file of the format version the writer makes now,
 * byte for byte. When this fails, the format changed: if on purpose, add
 * the new version's golden file and keep the old ones opening. */
START_TEST(test_format_golden_rebake_identical)
{
	/* The default first: it names the version the writer makes now. */
	static const unsigned layouts[] = { 0, TWZ_LAYOUT_BUCKETED, TWZ_LAYOUT_PLAIN };
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };

	ck_assert_msg(twz_grid_load(twz_test_source_file("tests/golden/v1_0.map"),
				    &g, &err) == 0, "%s", err.msg);
	for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
		struct twz_bake_options opt;
		struct twz_cpd cpd;
		uint8_t *buf;
		size_t len, golden_len;
		char rel[64];

		twz_bake_options_default(&opt);
		opt.codec = TWZ_CODEC_RAW;
		opt.level = 9;      /* recorded in the header; the default then */
		opt.threads = 1;
		if (layouts[i])
			opt.layout = layouts[i];
		ck_assert_msg(twz_bake_cpd(&g, &opt, &cpd, &err) == 0, "%s", err.msg);
		ck_assert_msg(twz_cpd_encode(&cpd, &g, &opt, &buf, &len, &err) == 0,
			      "%s", err.msg);
		ck_assert_uint_ge(len, TWZ_HEADER_SIZE);
		unsigned major = twz_le16(buf + TWZ_H_MAJOR);
		unsigned minor = twz_le16(buf + TWZ_H_MINOR);
		/* --format 1.1 and 1.0 still write their versions. */
		if (layouts[i])
			ck_assert_uint_eq(minor, layouts[i] == TWZ_LAYOUT_PLAIN ? 0 : 1);
		snprintf(rel, sizeof rel, "tests/golden/v%u_%u.twz", major, minor);
		uint8_t *golden = twz_test_try_read_file(twz_test_source_file(rel),
							 &golden_len);
		ck_assert_msg(golden != NULL,
			      "the writer makes format %u.%u but there is no %s: a "
			      "format change adds its golden file", major, minor, rel);
		size_t first = 0;
		while (first < len && first < golden_len && buf[first] == golden[first])
			first++;
		ck_assert_msg(len == golden_len && first == len,
			      "a fresh bake differs from %s (%zu vs %zu bytes, first at "
			      "byte %zu): the format or the bake changed", rel, len,
			      golden_len, first);
		free(golden);
		free(buf);
		twz_cpd_free(&cpd);
	}
	twz_grid_free(&g);
}
END_TEST

/* ---- suite --------------------------------------------------------------- */

static Suite *twz_format_suite(void)
{
	Suite *s = suite_create("format");
	TCase *tc;

	tc = tcase_create("Header");
	tcase_add_loop_test(tc, test_format_round_trip, 0, 4);
	tcase_add_loop_test(tc, test_format_header_every_bit_flip, 0, 2);
	tcase_add_loop_test(tc, test_format_future_major_refused, 0, 2);
	tcase_add_loop_test(tc, test_format_newer_minor_opens, 0, 2);
	tcase_add_loop_test(tc, test_format_unknown_required_feature_refused, 0, 2);
	tcase_add_loop_test(tc, test_format_unknown_optional_feature_opens, 0, 2);
	tcase_add_loop_test(tc, test_format_reserved_header_bytes_refused, 0, 2);
	tcase_add_loop_test(tc, test_format_header_fields_checked, 0, 2);
	tcase_add_test(tc, test_format_not_twigz);
	suite_add_tcase(s, tc);

	tc = tcase_create("SectionTable");
	tcase_add_loop_test(tc, test_format_table_every_bit_flip, 0, 2);
	tcase_add_loop_test(tc, test_format_table_entries_checked, 0, 2);
	tcase_add_loop_test(tc, test_format_unknown_section_kind_ignored, 0, 2);
	tcase_add_loop_test(tc, test_format_missing_section_refused, 0, 2);
	suite_add_tcase(s, tc);

	tc = tcase_create("Sections");
	tcase_add_loop_test(tc, test_format_truncated_at_every_offset, 0, 2);
	tcase_add_loop_test(tc, test_format_section_byte_flip_is_checksum, 0, 2);
	tcase_add_test(tc, test_format_section_damage_without_checksums);
	tcase_add_test(tc, test_format_inconsistent_content_refused);
	tcase_add_test(tc, test_format_validator_direct);
	suite_add_tcase(s, tc);

	tc = tcase_create("Golden");
	tcase_add_test(tc, test_format_golden_opens);
	tcase_add_loop_test(tc, test_format_golden_all_pairs, 0, GOLDEN_VERSIONS);
	tcase_add_test(tc, test_format_golden_rebake_identical);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_format_suite());
}
