/*
 * test_support.h - what the Check suites share: small levels made from
 * text or generated, in-memory bakes, a plain Dijkstra to compare with,
 * and where the Moving AI benchmark levels are.
 */
#ifndef TEST_SUPPORT_H
#define TEST_SUPPORT_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "bake.h"
#include "graph.h"
#include "level_map.h"

/* A grid from rows of '.' (walkable) and '@' (blocked), '\n' between rows;
 * aborts the test on malformed text. */
void twz_test_grid_from_text(struct twz_grid *g, const char *text);

/* Level kinds the generator makes, each with its own failure modes. */
enum twz_test_level_kind {
	TWZ_TEST_ROOMS,        /* rooms joined by one-cell doors */
	TWZ_TEST_MAZE,         /* one-cell corridors, many dead ends */
	TWZ_TEST_CAVES,        /* cellular-automaton caves, ragged walls */
	TWZ_TEST_OPEN_HOLLOW,  /* open ground with hollow obstacles (walls
				  around walkable insides) */
	TWZ_TEST_POCKETS,      /* several unconnected regions, some of one cell */
	TWZ_TEST_KIND_COUNT
};

/* A deterministic generated level (same kind, size, seed: same grid). */
void twz_test_generate(struct twz_grid *g, enum twz_test_level_kind kind,
		       uint32_t width, uint32_t height, uint64_t seed);

const char *twz_test_kind_name(enum twz_test_level_kind kind);

/* Bake g into an in-memory .twz (malloc'd); aborts the test on failure. */
uint8_t *twz_test_bake(const struct twz_grid *g, unsigned connectivity,
		       unsigned codec, unsigned threads, size_t *len);
/* The same with a TWZ_LAYOUT_* (0: the default). */
uint8_t *twz_test_bake_layout(const struct twz_grid *g, unsigned connectivity,
			      unsigned codec, unsigned threads, unsigned layout,
			      size_t *len);

/* Plain Dijkstra (binary heap, exact costs) from cell (sx, sy): dist has
 * width*height entries; unreachable and blocked cells get
 * {UINT32_MAX, UINT32_MAX}. */
void twz_test_dijkstra(const struct twz_grid *g, unsigned connectivity,
		       uint32_t sx, uint32_t sy, struct twz_cost *dist);

/* The Moving AI directory (env TWZ_MOVINGAI_DIR, else ../shared/data/
 * movingai from the source root) when it exists, else NULL. A path of
 * one benchmark file, e.g. "dao/arena.map", into buf. */
const char *twz_test_movingai_dir(void);
int twz_test_movingai_path(char *buf, size_t cap, const char *rel);

/* Where twz_test_movingai_dir looks, whether or not it exists (for the
 * "not found" note). twz_test_movingai_path returns 0, or -1 when the
 * directory is absent or the path does not fit. */
const char *twz_test_movingai_where(void);

/* The movement rule written from DESIGN.md, independently of graph.c:
 * move m (0..3 N E S W, 4..7 NE SE SW NW, y down) from (x, y) is legal. */
int twz_test_move_legal(const struct twz_grid *g, unsigned connectivity,
			uint32_t x, uint32_t y, unsigned m);
int twz_test_move_dx(unsigned m);
int twz_test_move_dy(unsigned m);

/* Runs a suite the way every check_*.c does: forking (so a crash fails one
 * test; CK_FORK=no in the environment still lets a debugger in), TAP on
 * stdout for meson. Returns main()'s exit status. */
int twz_test_run_suite(Suite *suite);

#endif
