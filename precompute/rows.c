/*
 * rows.c - greedy run-length encoding of one first-move row.
 */
#include "rows.h"

#include <stdlib.h>

static int append(struct twz_runs *r, uint32_t start, unsigned symbol)
{
	if (r->len == r->cap) {
		uint32_t ncap = r->cap ? r->cap * 2 : 16;
		uint32_t *nv = realloc(r->v, (size_t)ncap * sizeof *nv);
		if (!nv)
			return -1;
		r->v = nv;
		r->cap = ncap;
	}
	r->v[r->len++] = start << TWZ_RUN_SYMBOL_BITS | symbol;
	return 0;
}

/* The stored move of a run: the lowest move in the shared set. */
static unsigned pick(unsigned set, unsigned all)
{
	if (set == all)
		return TWZ_SYMBOL_NONE;  /* wildcards only: a one-node region */
	return (unsigned)__builtin_ctz(set);
}

int twz_row_encode(const struct twz_graph *gr, uint32_t source,
		   const uint8_t *moves, struct twz_runs *out)
{
	uint32_t comp = gr->node_comp[source];
	uint32_t lo = gr->comp_first[comp], hi = gr->comp_first[comp + 1];
	unsigned all = (1u << gr->connectivity) - 1;
	unsigned cur = all;
	uint32_t start = 0;  /* targets below lo are wildcards */

	for (uint32_t t = lo; t < hi; t++) {
		unsigned m = t == source ? all : moves[t];
		if (cur & m) {
			cur &= m;
			continue;
		}
		if (append(out, start, pick(cur, all)) != 0)
			return -1;
		start = t;
		cur = m;
	}
	return append(out, start, pick(cur, all));
}

void twz_runs_free(struct twz_runs *r)
{
	free(r->v);
	r->v = NULL;
	r->len = r->cap = 0;
}
