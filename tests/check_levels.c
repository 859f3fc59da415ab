/*
 * check_levels.c - the level readers: Moving AI .map (level_map.c) and
 * .scen (level_scen.c). Good files in every variant the benchmark sets
 * use, and every malformed case: each must return -1 with one line that
 * names the file and, where there is one, the line.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "level_map.h"
#include "level_scen.h"
#include "test_support.h"
#include "twz_format.h"

/* ---- helpers ---------------------------------------------------------- */

/* Parse from an exact-size heap copy, so a read past the end is caught by
 * AddressSanitizer. */
static int parse_map(const char *text, size_t len, const char *name,
		     struct twz_grid *g, struct twz_error *err)
{
	uint8_t *buf = twz_test_dup_bytes((const uint8_t *)text, len);
	int rc = twz_grid_parse(buf, len, name, g, err);
	free(buf);
	return rc;
}

static int parse_scen(const char *text, size_t len, const char *name,
		      struct twz_scen *sc, struct twz_error *err)
{
	uint8_t *buf = twz_test_dup_bytes((const uint8_t *)text, len);
	int rc = twz_scen_parse(buf, len, name, sc, err);
	free(buf);
	return rc;
}

/* The message is one line, starts "name:line: " (or "name: " when line is
 * 0) and says what is wrong. */
static void assert_message(const struct twz_error *err, const char *name,
			   unsigned long line, const char *says)
{
	char prefix[4200];

	if (line)
		snprintf(prefix, sizeof prefix, "%s:%lu: ", name, line);
	else
		snprintf(prefix, sizeof prefix, "%s: ", name);
	ck_assert_msg(strncmp(err->msg, prefix, strlen(prefix)) == 0,
		      "message '%s' should start with '%s'", err->msg, prefix);
	ck_assert_msg(strstr(err->msg, says) != NULL,
		      "message '%s' should say '%s'", err->msg, says);
	ck_assert_msg(strchr(err->msg, '\n') == NULL, "message '%s' spans lines",
		      err->msg);
}

static void assert_cells(const struct twz_grid *g, uint32_t width,
			 uint32_t height, const char *const rows[])
{
	ck_assert_uint_eq(g->width, width);
	ck_assert_uint_eq(g->height, height);
	for (uint32_t y = 0; y < height; y++)
		for (uint32_t x = 0; x < width; x++)
			ck_assert_msg(g->walkable[(size_t)y * width + x] ==
					      (rows[y][x] == '.'),
				      "cell (%u,%u) should be %s", x, y,
				      rows[y][x] == '.' ? "walkable" : "blocked");
}

/* ---- .map: good input -------------------------------------------------- */

START_TEST(test_levels_map_crlf_and_trailing_blank_lines)
{
	/* width before height, CRLF line ends, blank lines at the end */
	static const char *const want[] = { "...@@@@", ".......", "@@@.@@@" };
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };
	const char *path = twz_test_level_file("crlf.map");

	ck_assert_msg(twz_grid_load(path, &g, &err) == 0, "%s", err.msg);
	assert_cells(&g, 7, 3, want);
	twz_grid_free(&g);
}
END_TEST

START_TEST(test_levels_map_every_cell_letter)
{
	/* . G S walkable; @ O T W blocked */
	static const char *const want[] = { "...@@@@", "@@@@...", };
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };

	ck_assert_msg(twz_grid_load(twz_test_level_file("letters.map"), &g, &err) == 0,
		      "%s", err.msg);
	assert_cells(&g, 7, 2, want);
	twz_grid_free(&g);
}
END_TEST

/* Variants a reader meets in the wild, each a good 3x2 level. */
static const char *const good_maps[] = {
	"type octile\nheight 2\nwidth 3\nmap\n.@.\n...\n",
	"type octile\nwidth 3\nheight 2\nmap\n.@.\n...\n",
	"height 2\nwidth 3\ntype octile\nmap\n.@.\n...\n",
	"type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.@.\r\n...\r\n",
	"type octile\nheight 2\nwidth 3\nmap\n.@.\n...",             /* no final LF */
	"type octile\nheight 2\nwidth 3\nmap\n.@.\n...\n\n\n",        /* blank tail */
	"type octile\nheight 2\nwidth 3\nmap\n.@.\n...\n  \t\n\r\n",  /* blank-ish */
	"type\toctile\nheight\t2\nwidth   3\nmap  \n.@.\n...\n",       /* tabs, runs */
	"type octile \nheight 2 \nwidth 3\t\nmap\n.@.\n...\n",        /* trailing */
	"type octile\nheight 2\nwidth 3\nmap\nSOG\nG.S\n",
	"\xef\xbb\xbftype octile\nheight 2\nwidth 3\nmap\n.@.\n...\n", /* UTF-8 BOM */
};

/* XXH3-64 of text with the CR of each CR LF left out, worked out on a
 * copy (the level hash of FORMAT.md, section 3). */
static uint64_t hash_without_crlf(const char *text, size_t len)
{
	char *copy = malloc(len ? len : 1);
	size_t n = 0;

	ck_assert_ptr_nonnull(copy);
	for (size_t i = 0; i < len; i++)
		if (!(text[i] == '\r' && i + 1 < len && text[i + 1] == '\n'))
			copy[n++] = text[i];
	uint64_t h = XXH3_64bits(copy, n);
	free(copy);
	return h;
}

START_TEST(test_levels_map_header_variants)
{
	static const char *const want[] = { ".@.", "..." };
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };
	const char *text = good_maps[_i];

	ck_assert_msg(parse_map(text, strlen(text), "good.map", &g, &err) == 0,
		      "variant %d: %s", _i, err.msg);
	assert_cells(&g, 3, 2, want);
	ck_assert_uint_eq(g.level_hash, hash_without_crlf(text, strlen(text)));
	if (!memchr(text, '\r', strlen(text)))
		ck_assert_uint_eq(g.level_hash, XXH3_64bits(text, strlen(text)));
	twz_grid_free(&g);
}
END_TEST

START_TEST(test_levels_map_hash_is_of_the_bytes)
{
	const char *a = good_maps[0], *b = good_maps[3];
	struct twz_grid ga, gb, gc;
	struct twz_error err = { { 0 }, 0 };

	ck_assert_int_eq(parse_map(a, strlen(a), "a.map", &ga, &err), 0);
	ck_assert_int_eq(parse_map(b, strlen(b), "b.map", &gb, &err), 0);
	ck_assert_int_eq(parse_map(a, strlen(a), "c.map", &gc, &err), 0);
	/* Same cells, other line ends (CR LF): the same hash; other bytes
	 * (a final LF missing): another. */
	ck_assert_uint_eq(ga.level_hash, gb.level_hash);
	ck_assert_uint_eq(ga.level_hash, gc.level_hash);
	struct twz_grid gd;
	const char *d = good_maps[4];
	ck_assert_int_eq(parse_map(d, strlen(d), "d.map", &gd, &err), 0);
	ck_assert_uint_ne(ga.level_hash, gd.level_hash);
	twz_grid_free(&gd);
	twz_grid_free(&ga);
	twz_grid_free(&gb);
	twz_grid_free(&gc);
}
END_TEST

START_TEST(test_levels_map_one_cell_and_long_sides)
{
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };
	const char *one = "type octile\nheight 1\nwidth 1\nmap\n@\n";

	ck_assert_int_eq(parse_map(one, strlen(one), "one.map", &g, &err), 0);
	ck_assert_uint_eq(g.width, 1);
	ck_assert_uint_eq(g.walkable[0], 0);
	twz_grid_free(&g);

	/* A side of exactly TWZ_MAX_SIDE, both ways round. */
	size_t cap = 64 + 2 * (TWZ_MAX_SIDE + 1);
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	int n = snprintf(text, cap, "type octile\nheight 1\nwidth %u\nmap\n",
			 TWZ_MAX_SIDE);
	memset(text + n, '.', TWZ_MAX_SIDE);
	text[n + TWZ_MAX_SIDE] = '\n';
	ck_assert_msg(parse_map(text, (size_t)n + TWZ_MAX_SIDE + 1, "wide.map",
				&g, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(g.width, TWZ_MAX_SIDE);
	ck_assert_uint_eq(g.walkable[TWZ_MAX_SIDE - 1], 1);
	twz_grid_free(&g);

	n = snprintf(text, cap, "type octile\nheight %u\nwidth 1\nmap\n",
		     TWZ_MAX_SIDE);
	for (uint32_t y = 0; y < TWZ_MAX_SIDE; y++) {
		text[n + 2 * y] = y == 5 ? 'T' : 'G';
		text[n + 2 * y + 1] = '\n';
	}
	ck_assert_msg(parse_map(text, (size_t)n + 2 * TWZ_MAX_SIDE, "tall.map",
				&g, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(g.height, TWZ_MAX_SIDE);
	ck_assert_uint_eq(g.walkable[4], 1);
	ck_assert_uint_eq(g.walkable[5], 0);
	twz_grid_free(&g);
	free(text);
}
END_TEST

/* ---- .map: malformed input ---------------------------------------------- */

struct bad_text {
	const char *text;
	size_t len;           /* 0: strlen(text) */
	unsigned long line;   /* the line the message names, 0 for none */
	const char *says;     /* part of the message */
};

#define HDR "type octile\nheight 2\nwidth 2\nmap\n"

static const struct bad_text bad_maps[] = {
	/* missing header fields */
	{ "height 2\nwidth 2\nmap\n..\n..\n", 0, 3, "'type'" },
	{ "type octile\nwidth 2\nmap\n..\n..\n", 0, 3, "'height'" },
	{ "type octile\nheight 2\nmap\n..\n..\n", 0, 3, "'width'" },
	{ "type octile\nheight 2\nwidth 2\n", 0, 3, "no 'map' line" },
	{ "type octile\nheight 2\nwidth 2\nmaps\n..\n..\n", 0, 4, "unknown header line" },
	/* non-numeric, zero, huge */
	{ "type octile\nheight two\nwidth 2\nmap\n..\n..\n", 0, 2, "not a number" },
	{ "type octile\nheight 2\nwidth -2\nmap\n..\n..\n", 0, 3, "not a number" },
	{ "type octile\nheight 2x\nwidth 2\nmap\n..\n..\n", 0, 2, "not a number" },
	{ "type octile\nheight 0x2\nwidth 2\nmap\n..\n..\n", 0, 2, "not a number" },
	{ "type octile\nheight\nwidth 2\nmap\n..\n..\n", 0, 2, "not a number" },
	{ "type octile\nheight 2 3\nwidth 2\nmap\n..\n..\n", 0, 2, "not a number" },
	{ "type octile\nheight 0\nwidth 2\nmap\n", 0, 2, "out of range" },
	{ "type octile\nheight 2\nwidth 16385\nmap\n", 0, 3, "out of range" },
	{ "type octile\nheight 4294967295\nwidth 2\nmap\n", 0, 2, "out of range" },
	{ "type octile\nheight 2\nwidth 99999999999\nmap\n", 0, 3, "not a number" },
	/* unknown map type and header lines */
	{ "type hex\nheight 2\nwidth 2\nmap\n..\n..\n", 0, 1, "unknown map type 'hex'" },
	{ "type\nheight 2\nwidth 2\nmap\n..\n..\n", 0, 1, "unknown map type" },
	{ "type octile\nheight 2\nwidth 2\ncolour red\nmap\n..\n..\n", 0, 4,
	  "unknown header line 'colour red'" },
	{ "type octile\nheight 2\nwidth 2\nmap 2\n..\n..\n", 0, 4, "unknown header line" },
	{ "type octile\n\nheight 2\nwidth 2\nmap\n..\n..\n", 0, 2, "empty line" },
	{ "..\n..\n", 0, 1, "unknown header line" },
	/* rows */
	{ HDR "..\n.\n", 0, 6, "row 1 has 1 cells, expected 2" },
	{ HDR "...\n..\n", 0, 5, "row 0 has 3 cells, expected 2" },
	{ HDR "..\n\n", 0, 6, "row 1 has 0 cells" },
	{ HDR ".. \n..\n", 0, 5, "row 0 has 3 cells" },
	{ "type octile\nheight 3\nwidth 2\nmap\n..\n..\n", 0, 6, "only 2 of 3 map rows" },
	{ "type octile\nheight 3\nwidth 2\nmap\n..\n..\n\n", 0, 7, "row 2 has 0 cells" },
	{ HDR "..\n..\n..\n", 0, 7, "more than 2 map rows" },
	{ HDR "..\n..\n\n..\n", 0, 8, "more than 2 map rows" },
	{ HDR "..\n.x\n", 0, 6, "column 2: unknown cell 'x'" },
	{ HDR "..\n#.\n", 0, 6, "column 1: unknown cell '#'" },
	{ HDR "\t.\n..\n", 0, 5, "unknown cell \\x09" },
	{ HDR ".\r\n..\n", 0, 5, "row 0 has 1 cells" },
	{ HDR "\r.\n..\n", 0, 5, "unknown cell \\x0d" },
	{ HDR "..\n.\xc3\xa9\n", 0, 6, "row 1 has 3 cells" },
	{ HDR "..\n\xff.\n", 0, 6, "unknown cell \\xff" },
	/* binary junk, NUL bytes, empty */
	{ HDR "..\n.\0\n", sizeof(HDR "..\n.\0\n") - 1, 0, "NUL" },
	{ "\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16, 0, "binary" },
	{ "\x89TWZ\r\n\x1a\n\x01\x02\x03", 0, 1, "unknown header line" },
	{ "\x7f" "ELF\x02\x01\x01", 0, 1, "unknown header line" },
	{ "", 0, 0, "empty" },
	{ "\n", 0, 1, "empty line" },
	/* a field given twice: neither silently wins */
	{ "type octile\nheight 2\nwidth 2\nheight 3\nmap\n..\n..\n", 0, 4,
	  "'height' given again (first on line 2)" },
	{ "type octile\nwidth 2\nheight 2\nwidth 2\nmap\n..\n..\n", 0, 4,
	  "'width' given again" },
	{ "type octile\nheight 2\ntype octile\nwidth 2\nmap\n..\n..\n", 0, 3,
	  "'type' given again" },
	/* sizes beyond the limits, refused before the rows are read */
	{ "type octile\nheight 16384\nwidth 16384\nmap\n", 0, 0, "exceed the limit" },
	{ "type octile\nheight 8192\nwidth 8193\nmap\n", 0, 0, "exceed the limit" },
	{ "type octile\nheight 8192\nwidth 8192\nmap\n", 0, 0, "too short" },
	{ "type octile\nheight 100\nwidth 100\nmap\n....\n", 0, 0, "too short" },
};

START_TEST(test_levels_map_malformed)
{
	const struct bad_text *c = &bad_maps[_i];
	size_t len = c->len ? c->len : strlen(c->text);
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };

	memset(&g, 0x5a, sizeof g);
	ck_assert_msg(parse_map(c->text, len, "bad.map", &g, &err) == -1,
		      "case %d was accepted", _i);
	ck_assert_int_eq(err.kind, TWZ_ERR_INPUT);
	assert_message(&err, "bad.map", c->line, c->says);
	/* Nothing is left allocated or half-filled. */
	ck_assert_ptr_null(g.walkable);
	ck_assert_uint_eq(g.width, 0);
	ck_assert_uint_eq(g.height, 0);
}
END_TEST

static const struct {
	const char *file;
	unsigned long line;
	const char *says;
} bad_map_files[] = {
	{ "bad_row.map", 7, "row 2 has 5 cells, expected 6" },
	{ "bad_cell.map", 6, "unknown cell 'X'" },
	{ "bad_short.map", 6, "only 2 of 3 map rows" },
	{ "bad_repeat.map", 4, "'height' given again (first on line 2)" },
	{ "no_such_level.map", 0, "cannot open" },
	{ "", 0, "cannot read" },       /* the directory itself */
};

START_TEST(test_levels_map_malformed_files)
{
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };
	char path[4096];

	snprintf(path, sizeof path, "%s", twz_test_level_file(bad_map_files[_i].file));
	ck_assert_int_eq(twz_grid_load(path, &g, &err), -1);
	assert_message(&err, path, bad_map_files[_i].line, bad_map_files[_i].says);
	ck_assert_ptr_null(g.walkable);
	/* A file that is not there is an I/O failure, not bad input. */
	if (strstr(bad_map_files[_i].says, "cannot"))
		ck_assert_int_eq(err.kind, TWZ_ERR_IO);
	else
		ck_assert_int_eq(err.kind, TWZ_ERR_INPUT);
}
END_TEST

/* ---- .map: limits, without allocating --------------------------------- */

START_TEST(test_levels_map_huge_header_refused_without_allocation)
{
	static const char *const texts[] = {
		"type octile\nheight 16384\nwidth 16384\nmap\n",
		"type octile\nheight 8192\nwidth 8192\nmap\n",
		"type octile\nwidth 16384\nheight 4096\nmap\n.\n",
	};
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };

	/* Capped a little above what is mapped now, so an allocation of
	 * tens of megabytes fails (not under AddressSanitizer, where the
	 * messages alone are checked). */
	if (twz_test_cap_address_space(16ul << 20)) {
		/* The cap works: a map-sized allocation fails. (Called
		 * through a volatile pointer so it cannot be folded away.) */
		void *(*volatile alloc)(size_t) = malloc;
		void *p = alloc((size_t)64 << 20);
		ck_assert_ptr_null(p);
		free(p);
	}
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		ck_assert_int_eq(parse_map(texts[i], strlen(texts[i]), "big.map",
					   &g, &err), -1);
		/* Refused for its size, not for failing to allocate it. */
		ck_assert_msg(err.kind == TWZ_ERR_INPUT, "%s", err.msg);
		ck_assert_msg(strstr(err.msg, "exceed") || strstr(err.msg, "too short"),
			      "%s", err.msg);
		assert_message(&err, "big.map", 0, "map");
	}
}
END_TEST

/* ---- .scen: good input -------------------------------------------------- */

/* The 14 problems of tests/levels/rooms.map, in the file's order. */
static const uint32_t rooms_xy[14][4] = {
	{ 15, 5, 11, 2 }, { 0, 7, 1, 1 }, { 8, 1, 15, 1 }, { 12, 6, 3, 1 },
	{ 7, 9, 14, 3 }, { 10, 0, 13, 1 }, { 19, 7, 8, 7 }, { 7, 1, 2, 4 },
	{ 14, 1, 10, 7 }, { 4, 1, 3, 2 }, { 17, 3, 4, 1 }, { 0, 7, 1, 1 },
	{ 4, 7, 5, 8 }, { 13, 8, 15, 8 },
};

/* Their exact costs, straight + diagonal * sqrt(2). */
static const uint32_t rooms_cost[14][2] = {
	{ 9, 0 }, { 5, 1 }, { 11, 3 }, { 14, 2 }, { 9, 3 }, { 12, 3 },
	{ 11, 2 }, { 6, 1 }, { 8, 2 }, { 0, 1 }, { 19, 4 }, { 5, 1 },
	{ 0, 1 }, { 2, 0 },
};

static void assert_rooms(const struct twz_scen *sc, unsigned long first_line)
{
	ck_assert_uint_eq(sc->count, 14);
	for (size_t i = 0; i < sc->count; i++) {
		const struct twz_scen_entry *e = &sc->entries[i];
		double exact = rooms_cost[i][0] + rooms_cost[i][1] * sqrt(2.0);
		ck_assert_uint_eq(e->bucket, i / 4);
		ck_assert_uint_eq(e->map_width, 20);
		ck_assert_uint_eq(e->map_height, 10);
		ck_assert_uint_eq(e->sx, rooms_xy[i][0]);
		ck_assert_uint_eq(e->sy, rooms_xy[i][1]);
		ck_assert_uint_eq(e->gx, rooms_xy[i][2]);
		ck_assert_uint_eq(e->gy, rooms_xy[i][3]);
		ck_assert_uint_eq(e->line, first_line + i);
		ck_assert_msg(twz_scen_cost_matches(e, exact),
			      "entry %zu: %.9f vs printed %.9f", i, exact, e->optimal);
		/* One straight move more is another cost; so is a straight
		 * traded for a diagonal, unless the length was printed as a
		 * whole number ("9": half a unit either way). */
		ck_assert(!twz_scen_cost_matches(e, exact + 1));
		if (e->tolerance < 0.4)
			ck_assert(!twz_scen_cost_matches(e, exact + sqrt(2.0) - 1));
	}
}

/* tests/levels/name holds the rooms scenario, its first entry on line
 * first_line, the third entry's length printed as optimal. */
static void check_rooms_file(const char *name, unsigned long first_line,
			     double optimal)
{
	struct twz_scen sc;
	struct twz_error err = { { 0 }, 0 };

	ck_assert_msg(twz_scen_load(twz_test_level_file(name), &sc, &err) == 0,
		      "%s", err.msg);
	assert_rooms(&sc, first_line);
	ck_assert_double_eq_tol(sc.entries[2].optimal, optimal, 1e-12);
	twz_scen_free(&sc);
}

START_TEST(test_levels_scen_version_1_tabs)
{
	check_rooms_file("rooms.map.scen", 2, 15.24264069);
}
END_TEST

START_TEST(test_levels_scen_old_spaces_no_version)
{
	check_rooms_file("rooms_old.scen", 1, 15.24);
}
END_TEST

START_TEST(test_levels_scen_version_1_0_crlf)
{
	check_rooms_file("rooms_v10.scen", 2, 15.2426);
}
END_TEST

START_TEST(test_levels_scen_layout_variants)
{
	static const char *const texts[] = {
		/* a map name with spaces in a tab file */
		"version 1\n3\tmy level.map\t8\t6\t1\t2\t3\t4\t2.82842712\n",
		/* runs of spaces, trailing blanks, blank lines, no final LF */
		"3  a.map 8 6   1 2 3 4 2.82842712  \n\n   \n3 a.map 8 6 1 2 3 4 2.83",
		"version\t1\r\n3\ta.map\t8\t6\t1\t2\t3\t4\t2.828427\t\r\n\r\n",
		"version 1.0\n3\ta.map\t8\t6\t1\t2\t3\t4\t2.8284271247461903\n",
		/* a UTF-8 byte-order mark, as editors on Windows write it */
		"\xef\xbb\xbfversion 1\n3\ta.map\t8\t6\t1\t2\t3\t4\t2.82842712\n",
	};
	struct twz_scen sc;
	struct twz_error err = { { 0 }, 0 };
	const char *t = texts[_i];

	ck_assert_msg(parse_scen(t, strlen(t), "ok.scen", &sc, &err) == 0,
		      "variant %d: %s", _i, err.msg);
	ck_assert_uint_ge(sc.count, 1);
	for (size_t i = 0; i < sc.count; i++) {
		const struct twz_scen_entry *e = &sc.entries[i];
		ck_assert_uint_eq(e->bucket, 3);
		ck_assert_uint_eq(e->map_width, 8);
		ck_assert_uint_eq(e->map_height, 6);
		ck_assert_uint_eq(e->sx, 1);
		ck_assert_uint_eq(e->sy, 2);
		ck_assert_uint_eq(e->gx, 3);
		ck_assert_uint_eq(e->gy, 4);
		ck_assert(twz_scen_cost_matches(e, 2 * sqrt(2.0)));
		ck_assert(!twz_scen_cost_matches(e, 3.0));
	}
	twz_scen_free(&sc);
}
END_TEST

/* ---- .scen: malformed input --------------------------------------------- */

#define ROW "0\ta.map\t8\t6\t1\t2\t3\t4\t2.82842712\n"

static const struct bad_text bad_scens[] = {
	/* too few / too many fields */
	{ "version 1\n0\ta.map\t8\t6\t1\t2\t3\t4\n", 0, 2, "too few fields" },
	{ "version 1\n" ROW "0\ta.map\t8\t6\t1\t2\t3\t4\t2.8\t9\n", 0, 3, "too many fields" },
	{ "0 a.map 8 6 1 2 3\n", 0, 1, "too few fields" },
	{ ROW "\n\n0 a.map 8 6 1 2 3 4 5 6\n", 0, 4, "too many fields" },
	{ "version 1\n" ROW "garbage\n", 0, 3, "too few fields" },
	/* non-numeric fields */
	{ "version 1\nx\ta.map\t8\t6\t1\t2\t3\t4\t2.8\n", 0, 2, "bucket is not" },
	{ "version 1\n0\ta.map\t8.5\t6\t1\t2\t3\t4\t2.8\n", 0, 2, "width is not" },
	{ "version 1\n0\ta.map\t8\t\t1\t2\t3\t4\t2.8\n", 0, 2, "height is not" },
	{ "version 1\n0\ta.map\t8\t6\t-1\t2\t3\t4\t2.8\n", 0, 2, "start x is not" },
	{ "version 1\n0\ta.map\t8\t6\t1\t+2\t3\t4\t2.8\n", 0, 2, "start y is not" },
	{ "version 1\n0\ta.map\t8\t6\t1\t2\t4294967296\t4\t2.8\n", 0, 2, "goal x is not" },
	{ "version 1\n0\ta.map\t8\t6\t1\t2\t3\t0x4\t2.8\n", 0, 2, "goal y is not" },
	{ "version 1\n0\ta.map\t8\t6\t1\t2\t3\t4\tabc\n", 0, 2, "optimal length is not" },
	{ "version 1\n0\ta.map\t8\t6\t1\t2\t3\t4\t1e3\n", 0, 2, "optimal length is not" },
	{ "version 1\n0\ta.map\t8\t6\t1\t2\t3\t4\t-2.8\n", 0, 2, "optimal length is not" },
	{ "version 1\n0\ta.map\t8\t6\t1\t2\t3\t4\t2.8.1\n", 0, 2, "optimal length is not" },
	{ "version 1\n0\ta.map\t8\t6\t1\t2\t3\t4\t.\n", 0, 2, "optimal length is not" },
	{ "version 1\n0\ta.map\t8\t6\t1\t2\t3\t4\tnan\n", 0, 2, "optimal length is not" },
	{ "version 1\n0\ta.map\t8\t6\t1\t2\t3\t4\tinf\n", 0, 2, "optimal length is not" },
	/* bad version lines */
	{ "version 2\n" ROW, 0, 1, "version" },
	{ "version\n" ROW, 0, 1, "version" },
	{ "version 1 2\n" ROW, 0, 1, "version" },
	{ "version x\n" ROW, 0, 1, "version" },
	{ "version 10\n" ROW, 0, 1, "version" },
	{ "version 1x\n" ROW, 0, 1, "version" },
	{ "version 1.5\n" ROW, 0, 1, "version" },
	{ "version 1.garbage\n" ROW, 0, 1, "version" },
	{ "version 1.\n" ROW, 0, 1, "version" },
	{ ROW "version 1\n", 0, 2, "too few fields" },
	/* binary */
	{ "version 1\n0\ta.map\t8\t6\t1\0\t2\t3\t4\t2.8\n", 30, 0, "NUL" },
};

START_TEST(test_levels_scen_malformed)
{
	const struct bad_text *c = &bad_scens[_i];
	size_t len = c->len ? c->len : strlen(c->text);
	struct twz_scen sc;
	struct twz_error err = { { 0 }, 0 };

	ck_assert_msg(parse_scen(c->text, len, "bad.scen", &sc, &err) == -1,
		      "case %d was accepted", _i);
	ck_assert_int_eq(err.kind, TWZ_ERR_INPUT);
	assert_message(&err, "bad.scen", c->line, c->says);
	ck_assert_ptr_null(sc.entries);
	ck_assert_uint_eq(sc.count, 0);
}
END_TEST

static const struct {
	const char *file;
	unsigned long line;
	const char *says;
} bad_scen_files[] = {
	{ "bad_fields.scen", 3, "too few fields" },
	{ "bad_number.scen", 4, "start x is not a non-negative integer: 'x'" },
	{ "bad_version.scen", 1, "version line 'version 2'" },
	{ "no_such.scen", 0, "cannot open" },
};

START_TEST(test_levels_scen_malformed_files)
{
	struct twz_scen sc;
	struct twz_error err = { { 0 }, 0 };
	char path[4096];

	snprintf(path, sizeof path, "%s", twz_test_level_file(bad_scen_files[_i].file));
	ck_assert_int_eq(twz_scen_load(path, &sc, &err), -1);
	assert_message(&err, path, bad_scen_files[_i].line, bad_scen_files[_i].says);
	ck_assert_ptr_null(sc.entries);
}
END_TEST

/* ---- .scen against the level -------------------------------------------- */

static int grid_walkable(const void *ctx, uint32_t x, uint32_t y)
{
	return twz_grid_walkable(ctx, x, y);
}

START_TEST(test_levels_scen_checked_against_grid)
{
	struct twz_grid g;
	struct twz_scen sc;
	struct twz_error err = { { 0 }, 0 };
	static const struct {
		const char *row;
		const char *says;
	} cases[] = {
		{ "0\tr\t20\t10\t0\t0\t19\t9\t1\n", NULL },
		{ "0\tr\t20\t11\t0\t0\t19\t9\t1\n", "for a 20x11 map, the level is 20x10" },
		{ "0\tr\t20\t10\t20\t0\t19\t9\t1\n", "start (20,0) is off" },
		{ "0\tr\t20\t10\t0\t0\t19\t10\t1\n", "goal (19,10) is off" },
		{ "0\tr\t20\t10\t5\t0\t19\t9\t1\n", "start (5,0) is a blocked cell" },
		{ "0\tr\t20\t10\t0\t0\t12\t9\t1\n", "goal (12,9) is a blocked cell" },
	};

	ck_assert_msg(twz_grid_load(twz_test_level_file("rooms.map"), &g, &err) == 0,
		      "%s", err.msg);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[256];
		int n = snprintf(text, sizeof text, "version 1\n\n%s", cases[i].row);
		ck_assert_int_eq(parse_scen(text, (size_t)n, "r.scen", &sc, &err), 0);
		int rc = twz_scen_check_grid(&sc, "r.scen", g.width, g.height,
					     grid_walkable, &g, &err);
		if (!cases[i].says) {
			ck_assert_msg(rc == 0, "%s", err.msg);
		} else {
			ck_assert_int_eq(rc, -1);
			assert_message(&err, "r.scen", 3, cases[i].says);
		}
		twz_scen_free(&sc);
	}
	twz_grid_free(&g);
}
END_TEST

/* ---- .scen tolerance ----------------------------------------------------- */

static struct twz_scen_entry entry_printed(const char *length)
{
	char text[128];
	struct twz_scen sc;
	struct twz_error err = { { 0 }, 0 };
	int n = snprintf(text, sizeof text, "0 m 1 1 0 0 0 0 %s\n", length);

	ck_assert_msg(parse_scen(text, (size_t)n, "t.scen", &sc, &err) == 0, "%s",
		      err.msg);
	ck_assert_uint_eq(sc.count, 1);
	struct twz_scen_entry e = sc.entries[0];
	twz_scen_free(&sc);
	return e;
}

START_TEST(test_levels_scen_tolerance_8_decimals)
{
	double c = 14 + 3 * sqrt(2.0);  /* 18.242640687... */
	struct twz_scen_entry e = entry_printed("18.24264069");

	ck_assert(twz_scen_cost_matches(&e, c));
	/* 1e-4 relative (0.00182) is larger than half the last digit. */
	ck_assert_double_eq_tol(e.tolerance, 1e-4 * 18.24264069, 1e-12);
	ck_assert(twz_scen_cost_matches(&e, 18.24264069 + 0.0018));
	ck_assert(twz_scen_cost_matches(&e, 18.24264069 - 0.0018));
	ck_assert(!twz_scen_cost_matches(&e, 18.24264069 + 0.0019));
	ck_assert(!twz_scen_cost_matches(&e, 18.24264069 - 0.0019));
	ck_assert(!twz_scen_cost_matches(&e, 15 + 2 * sqrt(2.0)));
	ck_assert(!twz_scen_cost_matches(&e, 13 + 4 * sqrt(2.0)));
}
END_TEST

START_TEST(test_levels_scen_tolerance_6_significant)
{
	double c = 1200 + 3 * sqrt(2.0);  /* 1204.2426... */
	struct twz_scen_entry e = entry_printed("1204.24");

	ck_assert(twz_scen_cost_matches(&e, c));
	ck_assert_double_eq_tol(e.tolerance, 0.120424, 1e-12);
	ck_assert(!twz_scen_cost_matches(&e, c + 1));

	e = entry_printed("2.82843");
	ck_assert(twz_scen_cost_matches(&e, 2 * sqrt(2.0)));
	ck_assert(!twz_scen_cost_matches(&e, 3.0));
	ck_assert(!twz_scen_cost_matches(&e, 2.0 + sqrt(2.0) / 2));
}
END_TEST

START_TEST(test_levels_scen_tolerance_2_decimals)
{
	/* 1 + sqrt(2) = 2.41421... printed 2.41: 1e-4 relative is 0.00024,
	 * half the last digit 0.005 is larger and decides. */
	struct twz_scen_entry e = entry_printed("2.41");

	ck_assert_double_eq_tol(e.tolerance, 0.005, 1e-15);
	ck_assert(twz_scen_cost_matches(&e, 1 + sqrt(2.0)));
	ck_assert(twz_scen_cost_matches(&e, 2.4149));
	ck_assert(!twz_scen_cost_matches(&e, 2.4151));
	ck_assert(!twz_scen_cost_matches(&e, 2.4049));

	/* Baldur's Gate style "446.00": 1e-4 relative (0.0446) decides. */
	e = entry_printed("446.00");
	ck_assert_double_eq_tol(e.tolerance, 0.0446, 1e-12);
	ck_assert(twz_scen_cost_matches(&e, 446.04));
	ck_assert(!twz_scen_cost_matches(&e, 446.05));

	/* An integer: half a unit. */
	e = entry_printed("9");
	ck_assert(twz_scen_cost_matches(&e, 9.49));
	ck_assert(!twz_scen_cost_matches(&e, 9.51));
	ck_assert(!twz_scen_cost_matches(&e, 7 + 2 * sqrt(2.0)));
}
END_TEST

/* ---- .scen: no path, and problems only ------------------------------------ */

/* "-1" (and "-1.0") is how generated scenario files say there is no
 * path; any other negative length is still refused. */
START_TEST(test_levels_scen_minus_one_is_no_path)
{
	static const char text[] = "version 1\n"
				   "0\ta.map\t8\t6\t1\t2\t3\t4\t-1\n"
				   "0\ta.map\t8\t6\t1\t2\t3\t4\t-1.00\n"
				   "0\ta.map\t8\t6\t1\t2\t3\t4\t2.5\n";
	struct twz_scen sc;
	struct twz_error err = { { 0 }, 0 };

	ck_assert_msg(parse_scen(text, sizeof text - 1, "gen.scen", &sc, &err) == 0,
		      "%s", err.msg);
	ck_assert_uint_eq(sc.count, 3);
	ck_assert_int_eq(sc.entries[0].unreachable, 1);
	ck_assert_int_eq(sc.entries[1].unreachable, 1);
	ck_assert_int_eq(sc.entries[2].unreachable, 0);
	ck_assert_double_eq(sc.entries[2].optimal, 2.5);
	twz_scen_free(&sc);

	static const char minus_two[] = "0\ta.map\t8\t6\t1\t2\t3\t4\t-2\n";
	ck_assert_int_eq(parse_scen(minus_two, sizeof minus_two - 1, "gen.scen",
				    &sc, &err), -1);
	assert_message(&err, "gen.scen", 1, "optimal length is not");
}
END_TEST

/* A reader of the problems alone takes any ninth field, or none. */
START_TEST(test_levels_scen_problems_only)
{
	static const char text[] = "0 a.map 8 6 1 2 3 4\n"
				   "0 a.map 8 6 5 2 3 1 whatever\n";
	uint8_t *buf = twz_test_dup_bytes((const uint8_t *)text, sizeof text - 1);
	struct twz_scen sc;
	struct twz_error err = { { 0 }, 0 };

	ck_assert_msg(twz_scen_parse_flags(buf, sizeof text - 1, "q.scen",
					   TWZ_SCEN_NO_OPTIMUM, &sc, &err) == 0,
		      "%s", err.msg);
	ck_assert_uint_eq(sc.count, 2);
	ck_assert_uint_eq(sc.entries[1].sx, 5);
	ck_assert_uint_eq(sc.entries[1].gy, 1);
	twz_scen_free(&sc);
	/* Without the flag, both lines are wrong. */
	ck_assert_int_eq(twz_scen_parse(buf, sizeof text - 1, "q.scen", &sc, &err), -1);
	assert_message(&err, "q.scen", 1, "too few fields");
	free(buf);
}
END_TEST

/* ---- suite --------------------------------------------------------------- */

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static Suite *twz_levels_suite(void)
{
	Suite *s = suite_create("levels");
	TCase *tc;

	tc = tcase_create("MapGood");
	tcase_add_test(tc, test_levels_map_crlf_and_trailing_blank_lines);
	tcase_add_test(tc, test_levels_map_every_cell_letter);
	tcase_add_loop_test(tc, test_levels_map_header_variants, 0, COUNT(good_maps));
	tcase_add_test(tc, test_levels_map_hash_is_of_the_bytes);
	tcase_add_test(tc, test_levels_map_one_cell_and_long_sides);
	suite_add_tcase(s, tc);

	tc = tcase_create("MapMalformed");
	tcase_add_loop_test(tc, test_levels_map_malformed, 0, COUNT(bad_maps));
	tcase_add_loop_test(tc, test_levels_map_malformed_files, 0,
			    COUNT(bad_map_files));
	suite_add_tcase(s, tc);

	tc = tcase_create("Limits");
	tcase_add_test(tc, test_levels_map_huge_header_refused_without_allocation);
	suite_add_tcase(s, tc);

	tc = tcase_create("ScenGood");
	tcase_add_test(tc, test_levels_scen_version_1_tabs);
	tcase_add_test(tc, test_levels_scen_old_spaces_no_version);
	tcase_add_test(tc, test_levels_scen_version_1_0_crlf);
	tcase_add_loop_test(tc, test_levels_scen_layout_variants, 0, 5);
	tcase_add_test(tc, test_levels_scen_checked_against_grid);
	suite_add_tcase(s, tc);

	/* The optimal length column: -1 for no path, or not read at all. */
	tc = tcase_create("ScenOptimum");
	tcase_add_test(tc, test_levels_scen_minus_one_is_no_path);
	tcase_add_test(tc, test_levels_scen_problems_only);
	suite_add_tcase(s, tc);

	tc = tcase_create("ScenMalformed");
	tcase_add_loop_test(tc, test_levels_scen_malformed, 0, COUNT(bad_scens));
	tcase_add_loop_test(tc, test_levels_scen_malformed_files, 0,
			    COUNT(bad_scen_files));
	suite_add_tcase(s, tc);

	tc = tcase_create("Tolerance");
	tcase_add_test(tc, test_levels_scen_tolerance_8_decimals);
	tcase_add_test(tc, test_levels_scen_tolerance_6_significant);
	tcase_add_test(tc, test_levels_scen_tolerance_2_decimals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_levels_suite());
}
