/*
 * level_scen.h - Moving AI scenario files (.map.scen): an optional
 * "version 1" line, then one problem a line:
 *   bucket map width height start_x start_y goal_x goal_y optimal_length
 * separated by tabs (version 1) or spaces (older files). An optimal
 * length of -1, which generated scenario files write when there is no
 * path, marks an unreachable problem.
 */
#ifndef LEVEL_SCEN_H
#define LEVEL_SCEN_H

#include <stddef.h>
#include <stdint.h>

#include "level_map.h"
#include "twz_error.h"

#define TWZ_MAX_SCEN_BYTES ((size_t)256 << 20)

struct twz_scen_entry {
	uint32_t bucket;
	uint32_t map_width;
	uint32_t map_height;
	uint32_t sx, sy, gx, gy;
	double optimal;          /* as printed; -1 when unreachable */
	double tolerance;        /* how far a correct cost may be from it */
	int unreachable;         /* printed as -1: there is no path */
	unsigned long line;      /* in the file, for messages */
};

struct twz_scen {
	struct twz_scen_entry *entries;
	size_t count;
};

int twz_scen_parse(const uint8_t *buf, size_t len, const char *name,
		   struct twz_scen *sc, struct twz_error *err);
int twz_scen_load(const char *path, struct twz_scen *sc, struct twz_error *err);

/* For a reader that only wants the problems (query): the optimal length
 * column may be absent or hold anything; optimal is then 0. */
#define TWZ_SCEN_NO_OPTIMUM 1u

int twz_scen_parse_flags(const uint8_t *buf, size_t len, const char *name,
			 unsigned flags, struct twz_scen *sc,
			 struct twz_error *err);
int twz_scen_load_flags(const char *path, unsigned flags,
			struct twz_scen *sc, struct twz_error *err);
void twz_scen_free(struct twz_scen *sc);

/* Every entry fits the grid: same size, start and goal walkable cells. */
int twz_scen_check_grid(const struct twz_scen *sc, const char *name,
			uint32_t width, uint32_t height,
			int (*walkable)(const void *ctx, uint32_t x, uint32_t y),
			const void *ctx, struct twz_error *err);

/* A cost matches the printed optimum: within 1e-4 relative or half a
 * unit of the last printed digit, whichever is larger. */
static inline int twz_scen_cost_matches(const struct twz_scen_entry *e,
					double cost)
{
	double d = cost - e->optimal;
	return (d < 0 ? -d : d) <= e->tolerance;
}

#endif
