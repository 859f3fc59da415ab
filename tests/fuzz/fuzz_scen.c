/*
 * fuzz_scen.c - libFuzzer target: the Moving AI .scen reader and the
 * check of a scenario against a level.
 *
 * A scenario is either refused with one printable line that names the
 * file, or every entry it yields is usable: a finite, non-negative optimum
 * that matches itself (or -1 marking a problem with no path), and a check
 * against a grid that answers rather than reading out of bounds. A file
 * the full reader takes, the problems-only reader takes too.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "level_scen.h"

#define NAME "fuzz.map.scen"

/* A small level: the grid bytes of a 64 x 64 checkerboard of blocks. */
struct fake_grid {
	uint32_t width;
	uint32_t height;
	uint8_t cells[64 * 64];
};

static int fake_walkable(const void *ctx, uint32_t x, uint32_t y)
{
	const struct fake_grid *g = ctx;
	/* Out of range here would be a bug in the caller. */
	require(x < g->width && y < g->height);
	return g->cells[(size_t)y * g->width + x];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct twz_scen sc;
	struct twz_error err = { { 0 }, 0 };

	if (twz_scen_parse(data, size, NAME, &sc, &err) != 0) {
		require(sc.entries == NULL && sc.count == 0);
		check_message(err.msg, NAME);
		return 0;
	}
	for (size_t i = 0; i < sc.count; i++) {
		const struct twz_scen_entry *e = &sc.entries[i];
		require(e->line >= 1);
		if (e->unreachable) {
			require(e->optimal == -1);
			continue;
		}
		require(isfinite(e->optimal) && e->optimal >= 0);
		require(isfinite(e->tolerance) && e->tolerance > 0);
		require(twz_scen_cost_matches(e, e->optimal));
	}
	struct twz_scen problems;
	require(twz_scen_parse_flags(data, size, NAME, TWZ_SCEN_NO_OPTIMUM,
				     &problems, &err) == 0);
	require(problems.count == sc.count);
	twz_scen_free(&problems);

	/* Against a level of the size the first entry names, when small. */
	struct fake_grid g = { 64, 64, { 0 } };
	if (sc.count && sc.entries[0].map_width >= 1 &&
	    sc.entries[0].map_width <= 64 && sc.entries[0].map_height >= 1 &&
	    sc.entries[0].map_height <= 64) {
		g.width = sc.entries[0].map_width;
		g.height = sc.entries[0].map_height;
	}
	for (size_t i = 0; i < (size_t)g.width * g.height; i++)
		g.cells[i] = ((i % g.width) + (i / g.width)) % 3 != 0;
	err.msg[0] = 0;
	if (twz_scen_check_grid(&sc, NAME, g.width, g.height, fake_walkable, &g,
				&err) != 0)
		check_message(err.msg, NAME);
	twz_scen_free(&sc);
	return 0;
}
