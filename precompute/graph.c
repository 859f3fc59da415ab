/*
 * graph.c - the one graph (see graph.h): a grid's, its cells numbered
 * in DFS preorder per region or block by block with every node's legal
 * moves; any other level's, from the arcs its reader collected.
 */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

#include "twz_graph_format.h"

static int grid_walkable(const void *g, int64_t x, int64_t y)
{
	return twz_grid_walkable(g, x, y);
}

int twz_grid_move_legal(const struct twz_grid *g, uint32_t x, uint32_t y,
			unsigned m)
{
	return twz_grid_walkable(g, x, y) &&
	       twz_move_legal(grid_walkable, g, x, y, m);
}

void twz_graph_free(struct twz_graph *gr)
{
	free(gr->arc_first);
	free(gr->arc_head);
	free(gr->arc_cost);
	free(gr->arc_move);
	free(gr->coord);
	free(gr->link);
	free(gr->arc_link);
	free(gr->cell_node);
	free(gr->node_cell);
	free(gr->node_x);
	free(gr->node_y);
	free(gr->node_comp);
	free(gr->comp_first);
	free(gr->neighbour);
	free(gr->block_first);
	free(gr->node_block);
	free(gr->node_bx);
	free(gr->node_by);
	memset(gr, 0, sizeof *gr);
}

/* The arrays every order has, and the numbering stack (each cell is
 * pushed at most once per legal move into it). *walkable gets the
 * number of walkable cells. 0, or -1 with out freed. */
static uint32_t *alloc_graph(const struct twz_grid *g, unsigned connectivity,
			     struct twz_graph *out, size_t *walkable,
			     struct twz_error *err)
{
	size_t cells = (size_t)g->width * g->height, w = 0;
	uint32_t *stack;

	if (connectivity != 4 && connectivity != 8) {
		twz_error_set(err, "connectivity must be 4 or 8, not %u", connectivity);
		return NULL;
	}
	for (size_t c = 0; c < cells; c++)
		w += g->walkable[c];
	size_t nodes = w ? w : 1;
	out->width = g->width;
	out->height = g->height;
	out->connectivity = connectivity;
	out->level_hash = g->level_hash;
	out->cell_node = malloc(cells * sizeof *out->cell_node);
	out->node_cell = malloc(nodes * sizeof *out->node_cell);
	out->node_comp = malloc(nodes * sizeof *out->node_comp);
	out->node_x = malloc(nodes * sizeof *out->node_x);
	out->node_y = malloc(nodes * sizeof *out->node_y);
	out->neighbour = malloc(nodes * TWZ_MOVE_COUNT * sizeof *out->neighbour);
	if (out->order == TWZ_ORDER_DFS) {
		out->comp_first = malloc((w + 1) * sizeof *out->comp_first);
	} else {
		size_t blocks = (size_t)out->cols * out->rows;
		out->block_first = malloc((blocks + 1) * sizeof *out->block_first);
		out->node_block = malloc(nodes * sizeof *out->node_block);
		out->node_bx = malloc(nodes * sizeof *out->node_bx);
		out->node_by = malloc(nodes * sizeof *out->node_by);
	}
	stack = malloc((w * TWZ_MOVE_COUNT + 1) * sizeof *stack);
	if (!out->cell_node || !out->node_cell || !out->node_comp ||
	    !out->node_x || !out->node_y || !out->neighbour || !stack ||
	    (out->order == TWZ_ORDER_DFS ? !out->comp_first
	     : !out->block_first || !out->node_block || !out->node_bx ||
	       !out->node_by)) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "out of memory for a graph of %zu nodes", w);
		free(stack);
		twz_graph_free(out);
		return NULL;
	}
	memset(out->cell_node, 0xFF, cells * sizeof *out->cell_node);
	*walkable = w;
	return stack;
}

/*
 * Number the walkable cells of the rectangle [x0, x1) x [y0, y1) not
 * numbered yet, from n on: from each root in row-major order, DFS
 * preorder over the moves that stay in the rectangle, move 0 explored
 * first. Each tree gets the next number from *trees in node_comp, and
 * with comp_first its first node there. Returns the next node id.
 */
static uint32_t number_rect(const struct twz_grid *g, struct twz_graph *out,
			    uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1,
			    uint32_t *stack, uint32_t n, uint32_t *trees)
{
	for (uint32_t ry = y0; ry < y1; ry++)
		for (uint32_t rx = x0; rx < x1; rx++) {
			size_t root = (size_t)ry * g->width + rx;
			if (!g->walkable[root] || out->cell_node[root] != TWZ_NODE_NONE)
				continue;
			if (out->comp_first)
				out->comp_first[*trees] = n;
			size_t top = 0;
			stack[top++] = (uint32_t)root;
			while (top) {
				uint32_t cell = stack[--top];
				if (out->cell_node[cell] != TWZ_NODE_NONE)
					continue;
				uint32_t x = cell % g->width, y = cell / g->width;
				out->cell_node[cell] = n;
				out->node_cell[n] = cell;
				out->node_x[n] = (uint16_t)x;
				out->node_y[n] = (uint16_t)y;
				out->node_comp[n] = *trees;
				n++;
				/* Reverse order so move 0 is explored first. */
				for (unsigned m = out->connectivity; m-- > 0;) {
					if (!twz_move_legal(grid_walkable, g, x, y, m))
						continue;
					uint32_t nx = x + twz_move_dx[m];
					uint32_t ny = y + twz_move_dy[m];
					if (nx < x0 || nx >= x1 || ny < y0 || ny >= y1)
						continue;
					uint32_t nc = ny * g->width + nx;
					if (out->cell_node[nc] == TWZ_NODE_NONE)
						stack[top++] = nc;
				}
			}
			(*trees)++;
		}
	return n;
}

/* Every node's neighbour by move, TWZ_NODE_NONE where it cannot go. */
static void link_neighbours(const struct twz_grid *g, struct twz_graph *out)
{
	for (uint32_t v = 0; v < out->node_count; v++) {
		uint32_t x = out->node_x[v], y = out->node_y[v];
		for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
			uint32_t w = TWZ_NODE_NONE;
			if (m < out->connectivity &&
			    twz_move_legal(grid_walkable, g, x, y, m))
				w = out->cell_node[(y + twz_move_dy[m]) * g->width +
						   (x + twz_move_dx[m])];
			out->neighbour[(size_t)v * TWZ_MOVE_COUNT + m] = w;
		}
	}
}

int twz_graph_build(const struct twz_grid *g, unsigned connectivity,
		    struct twz_graph *out, struct twz_error *err)
{
	uint32_t comps = 0;
	size_t walkable;
	uint32_t *stack;

	memset(out, 0, sizeof *out);
	out->order = TWZ_ORDER_DFS;
	stack = alloc_graph(g, connectivity, out, &walkable, err);
	if (!stack)
		return -1;
	/* One tree a region: the whole grid is the rectangle. */
	out->node_count = number_rect(g, out, 0, 0, g->width, g->height, stack,
				      0, &comps);
	out->comp_first[comps] = out->node_count;
	out->component_count = comps;
	free(stack);
	link_neighbours(g, out);
	return 0;
}

/* Regions by breadth-first search, numbered in order of their first node. */
static void label_components(struct twz_graph *gr, uint32_t *queue)
{
	uint32_t comps = 0;

	for (uint32_t v = 0; v < gr->node_count; v++)
		gr->node_comp[v] = TWZ_NODE_NONE;
	for (uint32_t root = 0; root < gr->node_count; root++) {
		if (gr->node_comp[root] != TWZ_NODE_NONE)
			continue;
		size_t head = 0, tail = 0;
		queue[tail++] = root;
		gr->node_comp[root] = comps;
		while (head < tail) {
			uint32_t v = queue[head++];
			const uint32_t *nb = gr->neighbour + (size_t)v * TWZ_MOVE_COUNT;
			for (unsigned m = 0; m < gr->connectivity; m++) {
				uint32_t w = nb[m];
				if (w != TWZ_NODE_NONE &&
				    gr->node_comp[w] == TWZ_NODE_NONE) {
					gr->node_comp[w] = comps;
					queue[tail++] = w;
				}
			}
		}
		comps++;
	}
	gr->component_count = comps;
}

int twz_graph_build_blocks(const struct twz_grid *g, unsigned connectivity,
			   struct twz_graph *out, struct twz_error *err)
{
	uint32_t blocks = out->cols * out->rows, n = 0, trees = 0;
	size_t walkable;
	uint32_t *stack;

	out->order = TWZ_ORDER_BLOCKS;
	stack = alloc_graph(g, connectivity, out, &walkable, err);
	if (!stack)
		return -1;
	for (uint32_t b = 0; b < blocks; b++) {
		uint32_t bx = b % out->cols, by = b / out->cols;
		uint32_t x0 = out->origin_x + bx * out->side;
		uint32_t y0 = out->origin_y + by * out->side;
		uint32_t x1 = x0 + out->side < g->width ? x0 + out->side : g->width;
		uint32_t y1 = y0 + out->side < g->height ? y0 + out->side : g->height;

		out->block_first[b] = n;
		n = number_rect(g, out, x0, y0, x1, y1, stack, n, &trees);
		for (uint32_t v = out->block_first[b]; v < n; v++) {
			out->node_block[v] = b;
			out->node_bx[v] = (uint16_t)bx;
			out->node_by[v] = (uint16_t)by;
		}
	}
	out->block_first[blocks] = n;
	out->node_count = (uint32_t)walkable;
	link_neighbours(g, out);
	label_components(out, stack);
	free(stack);
	return 0;
}

/* ---- any other level: a graph from its arcs ------------------------------ */

static int arc_cmp(const void *a, const void *b)
{
	const struct twz_arc *x = a, *y = b;

	if (x->tail != y->tail)
		return x->tail < y->tail ? -1 : 1;
	if (x->head != y->head)
		return x->head < y->head ? -1 : 1;
	return (x->cost > y->cost) - (x->cost < y->cost);
}

/* The flat arc arrays for count arcs; 0, or -1 out of memory. */
static int alloc_arcs(struct twz_graph *g, uint32_t n, size_t count,
		      int moves)
{
	g->arc_first = calloc((size_t)n + 1, sizeof *g->arc_first);
	g->arc_head = malloc((count ? count : 1) * sizeof *g->arc_head);
	g->arc_cost = malloc((count ? count : 1) * sizeof *g->arc_cost);
	if (moves)
		g->arc_move = malloc(count ? count : 1);
	return g->arc_first && g->arc_head && g->arc_cost &&
	       (!moves || g->arc_move) ? 0 : -1;
}

int twz_graph_from_arcs(struct twz_graph *g, uint32_t n, struct twz_arc *arcs,
			size_t count, const char *name, struct twz_error *err)
{
	size_t kept = 0;

	memset(g, 0, sizeof *g);
	for (size_t i = 0; i < count; i++) {
		if (arcs[i].tail >= n || arcs[i].head >= n) {
			twz_error_set(err, "%s: arc %u -> %u names a node beyond %u",
				      name, arcs[i].tail, arcs[i].head, n);
			return -1;
		}
		if (!arcs[i].cost) {
			twz_error_set(err, "%s: arc %u -> %u has weight 0", name,
				      arcs[i].tail, arcs[i].head);
			return -1;
		}
	}
	if (count)
		qsort(arcs, count, sizeof *arcs, arc_cmp);
	/* Loops never help a path; the cheapest parallel arc sorts first. */
	for (size_t i = 0; i < count; i++) {
		if (arcs[i].tail == arcs[i].head)
			continue;
		if (kept && arcs[kept - 1].tail == arcs[i].tail &&
		    arcs[kept - 1].head == arcs[i].head)
			continue;
		arcs[kept++] = arcs[i];
	}
	if (kept > UINT32_MAX - 1) {
		twz_error_set(err, "%s: %zu arcs exceed the format's 2^32 - 1", name,
			      kept);
		return -1;
	}
	g->node_count = n;
	g->arc_count = (uint32_t)kept;
	if (alloc_arcs(g, n, kept, 0) != 0) {
		twz_graph_free(g);
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory for %zu arcs",
				   name, kept);
		return -1;
	}
	for (size_t i = 0; i < kept; i++) {
		g->arc_first[arcs[i].tail + 1]++;
		g->arc_head[i] = arcs[i].head;
		g->arc_cost[i] = arcs[i].cost;
		if (arcs[i].cost > g->max_cost)
			g->max_cost = arcs[i].cost;
	}
	for (uint32_t v = 0; v < n; v++)
		g->arc_first[v + 1] += g->arc_first[v];
	if (!twz_graph_weight_ok(g->max_cost, n)) {
		twz_error_set(err, "%s: a weight of %llu could overflow a 64-bit path "
			      "cost over %u nodes", name,
			      (unsigned long long)g->max_cost, n);
		twz_graph_free(g);
		return -1;
	}
	return 0;
}

int twz_graph_arcs(struct twz_graph *gr)
{
	size_t arcs = 0;

	for (size_t i = 0; i < (size_t)gr->node_count * TWZ_MOVE_COUNT; i++)
		arcs += gr->neighbour[i] != TWZ_NODE_NONE;
	if (alloc_arcs(gr, gr->node_count, arcs, 1) != 0)
		return -1;
	uint32_t a = 0;
	for (uint32_t v = 0; v < gr->node_count; v++) {
		const uint32_t *nb = gr->neighbour + (size_t)v * TWZ_MOVE_COUNT;
		gr->arc_first[v] = a;
		for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
			if (nb[m] == TWZ_NODE_NONE)
				continue;
			gr->arc_head[a] = nb[m];
			gr->arc_cost[a] = twz_move_key(m);
			gr->arc_move[a] = (uint8_t)m;
			if (gr->arc_cost[a] > gr->max_cost)
				gr->max_cost = gr->arc_cost[a];
			a++;
		}
	}
	gr->arc_first[gr->node_count] = a;
	gr->arc_count = a;
	return 0;
}

/* ---- a graph in the bake's order --------------------------------------- */

/* DFS preorder over the arcs taken both ways (see graph.h); a node's
 * neighbours are followed out-arcs first, in arc order, then in-arcs in
 * tail order. */
int twz_graph_order_dfs(const struct twz_graph *g, struct twz_graph *h,
			uint32_t **order_out)
{
	uint32_t n = g->node_count;
	uint32_t *in_first = calloc((size_t)n + 2, sizeof *in_first);
	uint32_t *in_tail = malloc(((size_t)g->arc_count + 1) * sizeof *in_tail);
	uint32_t *rank = malloc(((size_t)n + 1) * sizeof *rank);
	uint32_t *stack = malloc(((size_t)n + 1) * sizeof *stack);
	uint32_t *cursor = calloc((size_t)n + 1, sizeof *cursor);
	uint32_t *order = malloc(((size_t)n + 1) * sizeof *order);
	int rc = -1;

	memset(h, 0, sizeof *h);
	h->node_comp = malloc(((size_t)n + 1) * sizeof *h->node_comp);
	h->comp_first = malloc(((size_t)n + 1) * sizeof *h->comp_first);
	if (!in_first || !in_tail || !rank || !stack || !cursor || !order ||
	    !h->node_comp || !h->comp_first)
		goto out;
	/* In-arcs, by head (tails ascending). */
	for (uint32_t a = 0; a < g->arc_count; a++)
		in_first[g->arc_head[a] + 2]++;
	for (uint32_t v = 0; v < n; v++)
		in_first[v + 2] += in_first[v + 1];
	for (uint32_t u = 0; u < n; u++)
		for (uint32_t a = g->arc_first[u]; a < g->arc_first[u + 1]; a++)
			in_tail[in_first[g->arc_head[a] + 1]++] = u;
	for (uint32_t v = 0; v < n; v++)
		rank[v] = UINT32_MAX;
	uint32_t next = 0, regions = 0;
	for (uint32_t root = 0; root < n; root++) {
		if (rank[root] != UINT32_MAX)
			continue;
		uint32_t depth = 0;
		h->comp_first[regions++] = next;
		rank[root] = next;
		order[next++] = root;
		stack[depth++] = root;
		while (depth) {
			uint32_t u = stack[depth - 1];
			uint32_t out = g->arc_first[u + 1] - g->arc_first[u];
			uint32_t all = out + in_first[u + 1] - in_first[u];
			uint32_t w = UINT32_MAX;
			while (cursor[u] < all && w == UINT32_MAX) {
				uint32_t k = cursor[u]++;
				uint32_t x = k < out ? g->arc_head[g->arc_first[u] + k]
						     : in_tail[in_first[u] + k - out];
				if (rank[x] == UINT32_MAX)
					w = x;
			}
			if (w == UINT32_MAX) {
				depth--;
				continue;
			}
			rank[w] = next;
			order[next++] = w;
			stack[depth++] = w;
		}
	}
	h->component_count = regions;
	h->comp_first[regions] = n;
	for (uint32_t r = 0; r < regions; r++)
		for (uint32_t v = h->comp_first[r]; v < h->comp_first[r + 1]; v++)
			h->node_comp[v] = r;

	/* The arcs by new ids, each node's sorted by new head. */
	h->node_count = n;
	h->arc_count = g->arc_count;
	h->max_cost = g->max_cost;
	h->id_base = g->id_base;
	h->arc_first = malloc(((size_t)n + 1) * sizeof *h->arc_first);
	h->arc_head = malloc(((size_t)g->arc_count + 1) * sizeof *h->arc_head);
	h->arc_cost = malloc(((size_t)g->arc_count + 1) * sizeof *h->arc_cost);
	if (g->arc_link)
		h->arc_link = malloc(((size_t)g->arc_count + 1) * sizeof *h->arc_link);
	if (!h->arc_first || !h->arc_head || !h->arc_cost ||
	    (g->arc_link && !h->arc_link))
		goto out;
	uint32_t at = 0;
	for (uint32_t v = 0; v < n; v++) {
		uint32_t u = order[v];
		h->arc_first[v] = at;
		for (uint32_t a = g->arc_first[u]; a < g->arc_first[u + 1]; a++) {
			/* Insertion by head, link arcs after the node's own
			 * in their order: degrees are small. */
			uint32_t x = rank[g->arc_head[a]], i = at++;
			uint64_t wt = g->arc_cost[a];
			uint32_t link = g->arc_link ? g->arc_link[a] : TWZ_LINK_NONE;
			while (i > h->arc_first[v] && link == TWZ_LINK_NONE &&
			       ((h->arc_link && h->arc_link[i - 1] != TWZ_LINK_NONE) ||
				h->arc_head[i - 1] > x)) {
				h->arc_head[i] = h->arc_head[i - 1];
				h->arc_cost[i] = h->arc_cost[i - 1];
				if (h->arc_link)
					h->arc_link[i] = h->arc_link[i - 1];
				i--;
			}
			h->arc_head[i] = x;
			h->arc_cost[i] = wt;
			if (h->arc_link)
				h->arc_link[i] = link;
		}
	}
	h->arc_first[n] = at;
	rc = 0;
out:
	free(in_first);
	free(in_tail);
	free(rank);
	free(stack);
	free(cursor);
	if (rc) {
		twz_graph_free(h);
		free(order);
		order = NULL;
	}
	*order_out = order;
	return rc;
}

int twz_graph_with_links(const struct twz_graph *g, struct twz_graph *out,
			 const char *name, struct twz_error *err)
{
	uint32_t n = g->node_count;
	uint64_t arcs = (uint64_t)g->arc_count + g->link_count;
	uint32_t *at = calloc((size_t)n + 1, sizeof *at);

	memset(out, 0, sizeof *out);
	if (arcs > UINT32_MAX) {
		free(at);
		twz_error_set(err, "%s: more than 2^32 - 1 arcs and off-mesh links",
			      name);
		return -1;
	}
	out->node_count = n;
	out->arc_count = (uint32_t)arcs;
	out->max_cost = g->max_cost;
	out->level_hash = g->level_hash;
	out->id_base = g->id_base;
	out->arc_first = calloc((size_t)n + 1, sizeof *out->arc_first);
	out->arc_head = malloc(((size_t)arcs + 1) * sizeof *out->arc_head);
	out->arc_cost = malloc(((size_t)arcs + 1) * sizeof *out->arc_cost);
	out->arc_link = malloc(((size_t)arcs + 1) * sizeof *out->arc_link);
	if (!at || !out->arc_first || !out->arc_head || !out->arc_cost ||
	    !out->arc_link) {
		free(at);
		twz_graph_free(out);
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", name);
		return -1;
	}
	for (uint32_t i = 0; i < g->link_count; i++)
		out->arc_first[g->link[i].tail + 1]++;
	for (uint32_t v = 0; v < n; v++) {
		uint32_t a0 = g->arc_first[v], deg = g->arc_first[v + 1] - a0;
		uint32_t a = out->arc_first[v];
		out->arc_first[v + 1] += a + deg;
		for (uint32_t k = 0; k < deg; k++) {
			out->arc_head[a + k] = g->arc_head[a0 + k];
			out->arc_cost[a + k] = g->arc_cost[a0 + k];
			out->arc_link[a + k] = TWZ_LINK_NONE;
		}
		at[v] = a + deg;
	}
	for (uint32_t i = 0; i < g->link_count; i++) {
		uint32_t a = at[g->link[i].tail]++;
		out->arc_head[a] = g->link[i].head;
		out->arc_cost[a] = g->link[i].cost;
		out->arc_link[a] = g->link[i].number;
	}
	free(at);
	return 0;
}
