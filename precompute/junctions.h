/*
 * junctions.h - CPD over a junction graph (`twigz build --junctions`,
 * format 1.4, TWZ_FEATURE_JUNCTIONS). Chains of cells with exactly two
 * legal moves collapse into links between junctions (every other cell,
 * and one cell of each region that is a closed loop with none); rows of
 * first moves cover the junctions only, and each link gets a row of
 * d(A, t) - d(B, t) over the junctions t of its region, from which the
 * runtime finds the end a chain cell leaves by. The result does not
 * depend on the number of threads.
 */
#ifndef JUNCTIONS_H
#define JUNCTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "bake.h"

/* twz_bake_options.junction_search: 0 lets the bake pick; these two
 * force how the searches run (the bytes are the same). */
#define TWZ_JUNCTIONS_SEARCH_GRAPH 2   /* Dijkstra over the junctions */
#define TWZ_JUNCTIONS_SEARCH_GRID 3    /* the CPD search over the cells */

struct twz_junction_db {
	struct twz_graph graph;   /* nodes in the junction order: DFS over the
				     junctions, each chain's cells in a row
				     from its end A (neighbour is NULL) */
	uint32_t junction_count;  /* J */
	uint32_t link_count;      /* L: links with at least one chain cell */
	uint32_t *junction_node;  /* [J]: node of each junction, ascending */
	uint32_t *links;          /* [4 L]: A, B (junctions), first node,
				     chain cells */
	uint32_t *row_offsets;    /* [J + 1], into runs */
	uint32_t *runs;           /* start << 4 | symbol, starts junctions */
	uint64_t run_count;
	uint32_t *link_offsets;   /* [L + 1], into link_runs */
	uint32_t *link_runs;      /* [3 link_run_count]: first target
				     junction, d(A,t) - d(B,t) straight and
				     diagonal parts (two's complement) */
	uint64_t link_run_count;
	double seconds;           /* wall time of the searches */
};

/* Bake g as a junction graph: twz_bake_check_limits first, then the
 * graph, the order, one search a junction (and one more from the far end
 * of each link it starts) on the worker pool. 0, or -1 with err set. */
int twz_bake_junctions(const struct twz_grid *g,
		       const struct twz_bake_options *opt,
		       struct twz_junction_db *out, struct twz_error *err);

void twz_junction_db_free(struct twz_junction_db *db);

/* The header and sections of db's file into f (format 1.4). */
void twz_junctions_out_file(const struct twz_junction_db *db,
			    const struct twz_grid *g,
			    const struct twz_bake_options *opt,
			    struct twz_out_file *f);

/* Write atomically to path, or encode into memory (malloc'd). */
int twz_junctions_write(const struct twz_junction_db *db,
			const struct twz_grid *g,
			const struct twz_bake_options *opt, const char *path,
			struct twz_error *err);
int twz_junctions_encode(const struct twz_junction_db *db,
			 const struct twz_grid *g,
			 const struct twz_bake_options *opt, uint8_t **buf,
			 size_t *len, struct twz_error *err);

#endif
