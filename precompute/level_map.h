/*
 * level_map.h - Moving AI grid levels (.map): "type octile", "height H",
 * "width W", "map", then H rows of W cells. Walkable: . G S; blocked:
 * @ O T W.
 */
#ifndef LEVEL_MAP_H
#define LEVEL_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "twz_error.h"

/* Level files larger than this are refused before they are read whole. */
#define TWZ_MAX_LEVEL_BYTES ((size_t)160 << 20)

struct twz_grid {
	uint32_t width;
	uint32_t height;
	uint8_t *walkable;   /* [height][width], 1 walkable, 0 blocked */
	uint64_t level_hash; /* twz_level_hash of the file bytes */
};

/* The level hash a database records (FORMAT.md, header): XXH3-64 of the
 * bytes with the CR of each CR LF left out, so line ends do not count. */
uint64_t twz_level_hash(const uint8_t *buf, size_t len);

/* Parse a level from memory; name is used in messages. 0 on success. */
int twz_grid_parse(const uint8_t *buf, size_t len, const char *name,
		   struct twz_grid *g, struct twz_error *err);

/* Read and parse a level file. 0 on success. */
int twz_grid_load(const char *path, struct twz_grid *g, struct twz_error *err);

/* The same keeping the file's letters, [height][width] (malloc'd; the
 * caller frees it), for the areas of level_costs.h. */
int twz_grid_load_letters(const char *path, struct twz_grid *g,
			  uint8_t **letters, struct twz_error *err);
int twz_grid_parse_letters(const uint8_t *buf, size_t len, const char *name,
			   struct twz_grid *g, uint8_t **letters,
			   struct twz_error *err);

void twz_grid_free(struct twz_grid *g);

static inline int twz_grid_walkable(const struct twz_grid *g, int64_t x,
				    int64_t y)
{
	return x >= 0 && y >= 0 && x < g->width && y < g->height &&
	       g->walkable[(size_t)y * g->width + (size_t)x];
}

/* Shared by the level and scenario readers: parse a decimal unsigned
 * integer that fills [s, s+len) exactly and is at most max. 0 on success. */
int twz_parse_u32(const char *s, size_t len, uint32_t max, uint32_t *out);

#endif
