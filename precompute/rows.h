/*
 * rows.h - run-length rows. A source's row lists, over the targets in node
 * order, runs of targets that share one stored first move. Targets whose
 * move does not matter (the source itself, other regions: the runtime
 * answers those before it reads a row) are wildcards and join any run.
 */
#ifndef ROWS_H
#define ROWS_H

#include <stdint.h>

#include "graph.h"

/* A growable array of encoded runs (start << 4 | symbol). */
struct twz_runs {
	uint32_t *v;
	uint32_t len;
	uint32_t cap;
};

/*
 * Encode the row of source from moves[] (optimal first-move bits of each
 * target of the source's region). Greedy: extend the current run while the
 * intersection of the move sets stays non-empty, which gives the fewest
 * runs for one row. Appends to out; 0 on success, -1 out of memory.
 */
int twz_row_encode(const struct twz_graph *gr, uint32_t source,
		   const uint8_t *moves, struct twz_runs *out);

void twz_runs_free(struct twz_runs *r);

#endif
