/*
 * baseline.c - what every baseline search shares (see baseline.h): the
 * kinds' names, the database's grid as a move graph, and the per-node
 * state stamped by search generation.
 */
#include "baseline.h"

#include <stdlib.h>
#include <string.h>

#include "astar.h"
#include "twz_format.h"

static const struct {
	const char *name;
	const char *title;
} kinds[TWZ_BASELINE_COUNT] = {
	[TWZ_BASELINE_DIJKSTRA] = { "dijkstra", "Dijkstra" },
	[TWZ_BASELINE_ASTAR] = { "astar", "A* (octile)" },
	[TWZ_BASELINE_GREEDY] = { "greedy", "greedy best-first" },
	[TWZ_BASELINE_BFS] = { "bfs", "breadth-first" },
	[TWZ_BASELINE_DFS] = { "dfs", "depth-first" },
	[TWZ_BASELINE_JPS] = { "jps", "jump point search" },
	[TWZ_BASELINE_EVASION] = { "evasion", "Evasion (tracing)" },
};

const char *twz_baseline_name(enum twz_baseline_kind k)
{
	return k < TWZ_BASELINE_COUNT ? kinds[k].name : "?";
}

const char *twz_baseline_title(enum twz_baseline_kind k)
{
	return k < TWZ_BASELINE_COUNT ? kinds[k].title : "?";
}

int twz_baseline_find(const char *name)
{
	for (int k = 0; k < TWZ_BASELINE_COUNT; k++)
		if (!strcmp(kinds[k].name, name))
			return k;
	return -1;
}

int twz_baseline_supported(enum twz_baseline_kind k, unsigned connectivity)
{
	if (k >= TWZ_BASELINE_COUNT)
		return 0;
	return k != TWZ_BASELINE_JPS || connectivity == 8;
}

int twz_baseline_optimal(enum twz_baseline_kind k, unsigned connectivity)
{
	switch (k) {
	case TWZ_BASELINE_DIJKSTRA:
	case TWZ_BASELINE_ASTAR:
	case TWZ_BASELINE_JPS:
		return 1;
	case TWZ_BASELINE_BFS:
		/* Fewest moves is cheapest only when every move costs 1. */
		return connectivity == 4;
	default:
		return 0;
	}
}

void twz_baseline_free(struct twz_baseline *b)
{
	free(b->neighbour);
	free(b->xy);
	free(b->cell);
	free(b->cell_node);
	free(b->open);
	free(b->state);
	free(b->heap);
	free(b->queue);
	free(b->walk);
	free(b->waypoint);
	memset(b, 0, sizeof *b);
}

int twz_baseline_init(struct twz_baseline *b, const twz_db *db)
{
	twz_info info;

	memset(b, 0, sizeof *b);
	if (twz_get_info(db, &info) != TWZ_OK)
		return -1;
	if (info.width > 0xFFFFu || info.height > 0xFFFFu)
		return -1;
	uint32_t n = info.node_count;
	size_t alloc_n = n ? n : 1;
	size_t cells = (size_t)(info.width + 2) * (info.height + 2);
	b->node_count = n;
	b->width = info.width;
	b->height = info.height;
	b->pw = info.width + 2;
	b->connectivity = info.connectivity == 4 ? 4 : 8;
	/* A closed node pushes at most one entry per move, plus the
	 * source. */
	b->heap_cap = (uint64_t)n * TWZ_MOVE_COUNT + 2;
	b->neighbour = malloc(alloc_n * TWZ_MOVE_COUNT * sizeof *b->neighbour);
	b->xy = malloc(alloc_n * sizeof *b->xy);
	b->cell = malloc(alloc_n * sizeof *b->cell);
	b->cell_node = malloc(cells * sizeof *b->cell_node);
	b->open = calloc(cells, 1);
	b->state = calloc(alloc_n, sizeof *b->state);
	b->heap = malloc((size_t)b->heap_cap * sizeof *b->heap);
	b->queue = malloc((alloc_n + 1) * sizeof *b->queue);
	if (!b->neighbour || !b->xy || !b->cell || !b->cell_node || !b->open ||
	    !b->state || !b->heap || !b->queue) {
		twz_baseline_free(b);
		return -1;
	}
	for (size_t c = 0; c < cells; c++)
		b->cell_node[c] = TWZ_NONE;
	twz_astar_node_moves(db, b->connectivity, b->xy, b->neighbour);
	for (uint32_t v = 0; v < n; v++) {
		uint32_t x = b->xy[v] & 0xFFFFu, y = b->xy[v] >> 16;
		b->cell[v] = (y + 1) * b->pw + x + 1;
		b->cell_node[b->cell[v]] = v;
		b->open[b->cell[v]] = 1;
	}
	return 0;
}

uint32_t twz_baseline_next_generation(struct twz_baseline *b)
{
	/* Start again from zero before the stamps would wrap. */
	if (b->generation >= 0x7FFFFFFEu) {
		for (uint32_t v = 0; v < b->node_count; v++)
			b->state[v].stamp = 0;
		b->generation = 0;
	}
	return ++b->generation;
}
