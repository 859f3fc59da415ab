/*
 * bench_ref.h - the reference the benchmark measures the runtime against:
 * SRC's first-move lookup (the GPPC-2014 CPD), a plain binary search in
 * the source's row for the last run whose start is at most the target,
 * over the very runs of the open database.
 *
 * A database in the plain row layout (ROW_OFFSETS + RUNS) is searched in
 * place. A bucketed one (format 1.1) is first unpacked into that layout:
 * the same runs with absolute starts, so only the way a run is found
 * differs. Direction symbols, where the database has them, are decoded
 * from the two nodes' cells as the runtime does.
 */
#ifndef BENCH_REF_H
#define BENCH_REF_H

#include <stddef.h>
#include <stdint.h>

#include "twigz.h"

struct twz_ref {
	const uint8_t *row_offsets;  /* u32 LE [node_count+1], run index */
	const uint8_t *runs;         /* u32 LE: start << 4 | symbol */
	uint8_t *owned;              /* both, when unpacked from buckets */
	uint32_t *node_cell;         /* [node_count]: y*width + x */
	uint32_t *cell_node;         /* [width*height]: node or TWZ_NONE */
	uint32_t *node_xy;           /* [node_count]: y << 16 | x */
	int32_t move_offset[8];      /* cell delta of each move */
	uint32_t node_count;
	uint32_t width;              /* grid size in cells */
	uint32_t height;
	uint64_t run_count;
};

/* Set up the reference for db (which must outlive it). 0 on success, 1
 * when db holds no all-pairs rows to search, -1 out of memory. */
int twz_ref_init(struct twz_ref *ref, const twz_db *db);

void twz_ref_free(struct twz_ref *ref);

/* The next node from s toward t (valid, distinct nodes of one region),
 * TWZ_NONE for a row with no move. */
twz_node twz_ref_next(const struct twz_ref *ref, twz_node s, twz_node t);

/* The whole path s -> t (nodes of one region) as the reference walks it,
 * each lookup waiting for the last: fills at most cap nodes of buf and
 * returns the node count (s and t included), or 0 when the walk fails.
 * *straight and *diagonal get the moves of the path. [Size: buf holds
 * cap nodes] */
size_t twz_ref_path(const struct twz_ref *ref, twz_node s, twz_node t,
		    twz_node *buf, size_t cap, uint32_t *straight,
		    uint32_t *diagonal);

#endif
