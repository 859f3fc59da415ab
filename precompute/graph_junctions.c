/*
 * graph_junctions.c - the junction reduction of a grid's graph (see
 * graph_junctions.h): find the junctions and the chains of two-move
 * cells between them, number the nodes junction by junction in DFS
 * order with each chain's cells in a row, and make the junction graph.
 */
#include "graph_junctions.h"

#include <stdlib.h>
#include <string.h>

/* The move from cell a to the adjacent cell b. */
static unsigned move_between(const struct twz_graph *gr, uint32_t a, uint32_t b)
{
	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		if (gr->neighbour[(size_t)a * TWZ_MOVE_COUNT + m] == b)
			return m;
	return 0;  /* not reached: b is a neighbour */
}

/* The chain cell after c coming from prev: its other neighbour. */
static uint32_t chain_next(const struct twz_graph *gr, uint32_t c, uint32_t prev)
{
	const uint32_t *nb = gr->neighbour + (size_t)c * TWZ_MOVE_COUNT;

	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		if (nb[m] != TWZ_NODE_NONE && nb[m] != prev)
			return nb[m];
	return TWZ_NODE_NONE;  /* not reached: chain cells have two moves */
}

/* ---- numbering ---------------------------------------------------------- */

struct order {
	uint32_t *new_id;        /* [N] base node -> new node */
	uint32_t *old_of;        /* [N] new node -> base node */
	uint32_t *jidx;          /* [N] base node -> junction, or NONE */
	uint32_t n, jcount;
	uint32_t *jnode;         /* [N] junction -> new node */
	uint32_t *links;         /* [4 N] */
	uint32_t lcount;
};

static void emit(struct order *o, const uint8_t *is_junction, uint32_t v)
{
	o->new_id[v] = o->n;
	o->old_of[o->n] = v;
	if (is_junction[v]) {
		o->jidx[v] = o->jcount;
		o->jnode[o->jcount++] = o->n;
	}
	o->n++;
}

/*
 * Junctions in DFS preorder over the junction graph, region by region
 * from each region's first junction in base order. A junction's moves are
 * taken in move order: onto an unnumbered junction, which is numbered and
 * entered; into a chain not numbered yet, whose cells are numbered in a
 * row from this end, then its far junction if new. Each node then has an
 * earlier neighbour (DFS order as the validator proves it).
 */
static int number(const struct twz_graph *gr, const uint8_t *is_junction,
		  struct order *o)
{
	uint32_t n = gr->node_count;
	uint32_t *stack = malloc((n ? n : 1) * sizeof *stack);
	uint8_t *cursor = calloc(n ? n : 1, 1);

	if (!stack || !cursor) {
		free(stack);
		free(cursor);
		return -1;
	}
	memset(o->new_id, 0xFF, (size_t)n * sizeof *o->new_id);
	memset(o->jidx, 0xFF, (size_t)n * sizeof *o->jidx);
	for (uint32_t k = 0; k < gr->component_count; k++) {
		uint32_t root = gr->comp_first[k];
		while (!is_junction[root])
			root++;  /* every region has one */
		size_t top = 0;
		emit(o, is_junction, root);
		stack[top++] = root;
		while (top) {
			uint32_t u = stack[top - 1];
			const uint32_t *nb = gr->neighbour + (size_t)u * TWZ_MOVE_COUNT;
			uint32_t pushed = TWZ_NODE_NONE;
			while (cursor[u] < TWZ_MOVE_COUNT && pushed == TWZ_NODE_NONE) {
				uint32_t w = nb[cursor[u]++];
				if (w == TWZ_NODE_NONE || o->new_id[w] != TWZ_NODE_NONE)
					continue;
				if (is_junction[w]) {
					emit(o, is_junction, w);
					pushed = w;
					break;
				}
				uint32_t first = o->n, prev = u, c = w;
				while (!is_junction[c]) {
					emit(o, is_junction, c);
					uint32_t nx = chain_next(gr, c, prev);
					prev = c;
					c = nx;
				}
				uint32_t count = o->n - first;
				if (o->new_id[c] == TWZ_NODE_NONE) {
					emit(o, is_junction, c);
					pushed = c;
				}
				uint32_t *l = o->links + 4 * (size_t)o->lcount++;
				l[0] = o->jidx[u];
				l[1] = o->jidx[c];
				l[2] = first;
				l[3] = count;
			}
			if (pushed != TWZ_NODE_NONE)
				stack[top++] = pushed;
			else
				top--;
		}
	}
	free(stack);
	free(cursor);
	return 0;
}

/* ---- the graphs ---------------------------------------------------------- */

/* The junction graph of the new numbering: arcs, links by A, regions. */
static int build_jgraph(const struct twz_graph *base, const struct order *o,
			const uint8_t *is_junction, struct twz_junction_graph *jg)
{
	struct twz_graph *g = &jg->junctions;
	uint32_t J = o->jcount, L = o->lcount, R = base->component_count;
	size_t arcs = 0;

	g->node_count = J;
	g->component_count = R;
	g->arc_first = calloc((size_t)J + 1, sizeof *g->arc_first);
	g->node_comp = malloc(((size_t)J + 1) * sizeof *g->node_comp);
	g->comp_first = malloc(((size_t)R + 1) * sizeof *g->comp_first);
	g->node_x = malloc(((size_t)J + 1) * sizeof *g->node_x);
	g->node_y = malloc(((size_t)J + 1) * sizeof *g->node_y);
	jg->link_first = calloc((size_t)J + 1, sizeof *jg->link_first);
	jg->link_ids = malloc(((size_t)L + 1) * sizeof *jg->link_ids);
	jg->junction_base = malloc(((size_t)J + 1) * sizeof *jg->junction_base);
	if (!g->arc_first || !g->node_comp || !g->comp_first || !g->node_x ||
	    !g->node_y || !jg->link_first || !jg->link_ids || !jg->junction_base)
		return -1;
	for (uint32_t j = 0; j < J; j++) {
		uint32_t v = o->old_of[o->jnode[j]];
		jg->junction_base[j] = v;
		g->node_x[j] = base->node_x[v];
		g->node_y[j] = base->node_y[v];
		arcs += __builtin_popcount(twz_graph_moves(base, v));
	}
	g->arc_head = malloc((arcs ? arcs : 1) * sizeof *g->arc_head);
	g->arc_move = malloc(arcs ? arcs : 1);
	g->arc_cost = malloc((arcs ? arcs : 1) * sizeof *g->arc_cost);
	if (!g->arc_head || !g->arc_move || !g->arc_cost)
		return -1;
	uint32_t a = 0;
	for (uint32_t j = 0; j < J; j++) {
		uint32_t v = o->old_of[o->jnode[j]];
		const uint32_t *nb = base->neighbour + (size_t)v * TWZ_MOVE_COUNT;
		g->arc_first[j] = a;
		for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
			if (nb[m] == TWZ_NODE_NONE)
				continue;
			uint64_t cost = twz_move_key(m);
			uint32_t prev = v, c = nb[m];
			while (!is_junction[c]) {
				uint32_t nx = chain_next(base, c, prev);
				cost += twz_move_key(move_between(base, c, nx));
				prev = c;
				c = nx;
			}
			if (c == v)
				continue;  /* a loop back: never on a shortest path */
			g->arc_head[a] = o->jidx[c];
			g->arc_move[a] = (uint8_t)m;
			g->arc_cost[a] = cost;
			if (cost > g->max_cost)
				g->max_cost = cost;
			a++;
		}
	}
	g->arc_first[J] = a;
	g->arc_count = a;
	for (uint32_t l = 0; l < L; l++)
		jg->link_first[o->links[4 * (size_t)l] + 1]++;
	for (uint32_t j = 0; j < J; j++)
		jg->link_first[j + 1] += jg->link_first[j];
	uint32_t *fill = calloc((size_t)J + 1, sizeof *fill);
	if (!fill)
		return -1;
	for (uint32_t l = 0; l < L; l++) {
		uint32_t A = o->links[4 * (size_t)l];
		jg->link_ids[jg->link_first[A] + fill[A]++] = l;
	}
	free(fill);
	/* The level's regions, each with a junction, in order. */
	for (uint32_t j = 0, r = 0; j < J; j++) {
		uint32_t k = base->node_comp[jg->junction_base[j]];
		if (j == 0 || k != base->node_comp[jg->junction_base[j - 1]])
			g->comp_first[r++] = j;
		g->node_comp[j] = r - 1;
	}
	g->comp_first[R] = J;
	return 0;
}

/* The level in the new numbering (no neighbour table: the file does not
 * need it). */
static int renumber(const struct twz_graph *base, const struct order *o,
		    struct twz_graph *gr)
{
	uint32_t n = base->node_count;
	size_t cells = (size_t)base->width * base->height;

	*gr = *base;
	gr->cell_node = malloc(cells * sizeof *gr->cell_node);
	gr->node_cell = malloc((n ? n : 1) * sizeof *gr->node_cell);
	gr->node_x = malloc((n ? n : 1) * sizeof *gr->node_x);
	gr->node_y = malloc((n ? n : 1) * sizeof *gr->node_y);
	gr->node_comp = malloc((n ? n : 1) * sizeof *gr->node_comp);
	gr->comp_first = malloc(((size_t)base->component_count + 1) *
				sizeof *gr->comp_first);
	gr->neighbour = NULL;
	if (!gr->cell_node || !gr->node_cell || !gr->node_x || !gr->node_y ||
	    !gr->node_comp || !gr->comp_first)
		return -1;
	memcpy(gr->comp_first, base->comp_first,
	       ((size_t)base->component_count + 1) * sizeof *gr->comp_first);
	for (size_t c = 0; c < cells; c++)
		gr->cell_node[c] = base->cell_node[c] == TWZ_NODE_NONE
				   ? TWZ_NODE_NONE : o->new_id[base->cell_node[c]];
	for (uint32_t v = 0; v < n; v++) {
		uint32_t old = o->old_of[v];
		gr->node_cell[v] = base->node_cell[old];
		gr->node_x[v] = base->node_x[old];
		gr->node_y[v] = base->node_y[old];
		gr->node_comp[v] = base->node_comp[old];
	}
	return 0;
}

static void order_free(struct order *o)
{
	free(o->new_id);
	free(o->old_of);
	free(o->jidx);
	free(o->jnode);
	free(o->links);
	memset(o, 0, sizeof *o);
}

void twz_junction_graph_free(struct twz_junction_graph *jg)
{
	twz_graph_free(&jg->level);
	twz_graph_free(&jg->junctions);
	free(jg->junction_node);
	free(jg->junction_base);
	free(jg->links);
	free(jg->link_first);
	free(jg->link_ids);
	memset(jg, 0, sizeof *jg);
}

int twz_junction_graph_build(const struct twz_graph *base,
			     struct twz_junction_graph *out)
{
	struct order o = { 0 };
	uint32_t n = base->node_count;
	size_t nn = n ? n : 1;
	uint8_t *is_junction = malloc(nn);
	int rc = -1;

	memset(out, 0, sizeof *out);
	o.new_id = malloc(nn * sizeof *o.new_id);
	o.old_of = malloc(nn * sizeof *o.old_of);
	o.jidx = malloc(nn * sizeof *o.jidx);
	o.jnode = malloc(nn * sizeof *o.jnode);
	o.links = malloc(4 * nn * sizeof *o.links);
	if (!is_junction || !o.new_id || !o.old_of || !o.jidx || !o.jnode ||
	    !o.links)
		goto out;
	/* Junctions: every cell without exactly two moves, and in a region
	 * that is one closed loop, its first cell. */
	for (uint32_t v = 0; v < n; v++)
		is_junction[v] = __builtin_popcount(twz_graph_moves(base, v)) != 2;
	for (uint32_t k = 0; k < base->component_count; k++) {
		uint32_t v = base->comp_first[k], e = base->comp_first[k + 1];
		while (v < e && !is_junction[v])
			v++;
		if (v == e)
			is_junction[base->comp_first[k]] = 1;
	}
	if (number(base, is_junction, &o) != 0 ||
	    build_jgraph(base, &o, is_junction, out) != 0 ||
	    renumber(base, &o, &out->level) != 0)
		goto out;
	/* What the file keeps: the junctions' nodes and the links. */
	out->junction_node = o.jnode;
	o.jnode = NULL;
	out->links = o.links;
	o.links = NULL;
	out->link_count = o.lcount;
	rc = 0;
out:
	order_free(&o);
	free(is_junction);
	if (rc != 0)
		twz_junction_graph_free(out);
	return rc;
}
