/*
 * fuzz_map.c - libFuzzer target: the Moving AI .map reader.
 *
 * A level is either refused with one printable line that names the file,
 * or accepted within the documented limits; an accepted level written
 * back out in canonical form reads back to the same grid.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "level_map.h"
#include "twz_format.h"

#define NAME "fuzz.map"

static void check_round_trip(const struct twz_grid *g)
{
	size_t cells = (size_t)g->width * g->height;
	size_t cap = cells + g->height + 64;
	char *text = malloc(cap);
	require(text != NULL);
	int n = snprintf(text, cap, "type octile\nheight %u\nwidth %u\nmap\n",
			 g->height, g->width);
	size_t pos = (size_t)n;
	for (uint32_t y = 0; y < g->height; y++) {
		for (uint32_t x = 0; x < g->width; x++)
			text[pos++] = g->walkable[(size_t)y * g->width + x] ? '.' : '@';
		text[pos++] = '\n';
	}
	struct twz_grid again;
	struct twz_error err = { { 0 }, 0 };
	require(twz_grid_parse((const uint8_t *)text, pos, NAME, &again, &err) == 0);
	require(again.width == g->width && again.height == g->height);
	require(memcmp(again.walkable, g->walkable, cells) == 0);
	twz_grid_free(&again);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };

	if (twz_grid_parse(data, size, NAME, &g, &err) != 0) {
		require(g.walkable == NULL);
		check_message(err.msg, NAME);
		return 0;
	}
	require(g.width >= 1 && g.width <= TWZ_MAX_SIDE);
	require(g.height >= 1 && g.height <= TWZ_MAX_SIDE);
	require((uint64_t)g.width * g.height <= TWZ_MAX_CELLS);
	for (size_t i = 0; i < (size_t)g.width * g.height; i++)
		require(g.walkable[i] <= 1);
	check_round_trip(&g);
	twz_grid_free(&g);
	return 0;
}
