/*
 * rows.h - run-length rows, for every level kind. A source's row lists,
 * over the targets in node order, runs of targets that share one stored
 * first move: a grid move or direction symbol (packed start << 4 |
 * symbol), or a graph's arc index (runs of two words: start, arc).
 * Targets whose move does not matter (the source itself, other regions:
 * the runtime answers those before it reads a row) are wildcards and
 * join any run.
 */
#ifndef ROWS_H
#define ROWS_H

#include <stdint.h>

#include "graph.h"
#include "search.h"

/* A growable array of encoded runs (start << 4 | symbol, or a graph's
 * start and arc), in u32 words. */
struct twz_runs {
	uint32_t *v;
	uint32_t len;
	uint32_t cap;
};

/* Append n words. 0, or -1 out of memory. */
int twz_runs_append(struct twz_runs *r, const uint32_t *v, unsigned n);

/* A graph row's arc for targets it cannot reach. */
#define TWZ_ROW_NO_ARC 0xFFFFFFFFu

/*
 * Encode the row of source from moves[] (optimal first-move bits of each
 * target of the source's region). Greedy: extend the current run while the
 * intersection of the move sets stays non-empty, which gives the fewest
 * runs for one row. Appends to out; 0 on success, -1 out of memory.
 */
int twz_row_encode(const struct twz_graph *gr, uint32_t source,
		   const uint8_t *moves, struct twz_runs *out);

/*
 * The same with the direction symbols of format 1.1 (TWZ_SYMBOL_TOWARD,
 * TWZ_SYMBOL_NEAREST) as further choices: a target admits a direction
 * symbol when the move it stands for from the source is optimal.
 */
int twz_row_encode_direction(const struct twz_graph *gr, uint32_t source,
			     const uint8_t *moves, struct twz_runs *out);

/* A source and what its row is made of: the nodes' coordinates (for
 * the direction symbols), the optimal first moves of each target, and
 * optionally which targets have them (known[t] & known_bit; the others
 * are wildcards). */
struct twz_row_source {
	uint32_t source;
	const uint16_t *node_x;
	const uint16_t *node_y;
	unsigned connectivity;
	const uint8_t *moves;
	const uint8_t *known;     /* NULL: every target of the ranges */
	uint8_t known_bit;
};

/* A row encoded a stretch of targets at a time: begin, feed stretches
 * of the source's region in order (targets between them, and before
 * the first, are wildcards), end. The runs are those twz_row_encode
 * (direction 0) or twz_row_encode_direction (1) makes of the same
 * moves. */
struct twz_row_stream {
	struct twz_row_source src;
	uint64_t all;               /* the symbols a wildcard admits */
	uint64_t cur;               /* those the open run may still store */
	uint32_t start;             /* where the open run starts */
	int32_t sx, sy;             /* the source's cell */
	int direction;              /* direction symbols are choices */
};

void twz_row_stream_begin(struct twz_row_stream *rs,
			  const struct twz_graph *gr, uint32_t source,
			  int direction);

/* Targets [lo, hi), after those fed before: moves[t - lo] their optimal
 * first moves (t == source is a wildcard whatever its entry). 0, or -1
 * out of memory. */
int twz_row_stream_feed(struct twz_row_stream *rs, uint32_t lo, uint32_t hi,
			const uint8_t *moves, struct twz_runs *out);

/* The row's last run. 0, or -1 out of memory. */
int twz_row_stream_end(struct twz_row_stream *rs, struct twz_runs *out);

/*
 * A graph's row (format 1.4, FORMAT.md 5e) over the source's region from
 * the entries the search of first_moves.h left (first[t]: t's cost key
 * and first arcs, as arc index bits, or the lowest index of one when
 * twz_search_lowest_arc): each run stores one arc optimal for all its
 * targets, and unreachable targets make runs of their own
 * (TWZ_ROW_NO_ARC). Appends runs of two words, start and arc; 0, or -1
 * out of memory.
 */
int twz_row_encode_arcs(const struct twz_graph *g, uint32_t source,
			const struct twz_entry *first, struct twz_runs *out);

/*
 * The row over the node ranges [range[2i], range[2i+1]) in order, all
 * other targets wildcards, with the direction symbols, preferring them
 * when a run may store either (TRANSIT's local rows). Appends to out; 0,
 * or -1 out of memory.
 */
int twz_row_encode_ranges(const struct twz_row_source *src,
			  const uint32_t *range, uint32_t ranges,
			  struct twz_runs *out);

/* Bucketed row (format 1.1) of one source from its runs (starts absolute;
 * the region's first node is lo, its size len). Chooses the
 * largest bucket shift that keeps at most max_scan runs starting inside
 * any bucket. Writes index (buckets + 1 entries) and runs to out,
 * returns the u16 count, or 0 when the row cannot be bucketed
 * (more than TWZ_MAX_ROW_RUNS runs). */
uint32_t twz_row_bucketize(const uint32_t *runs, uint32_t run_count,
			   uint32_t lo, uint32_t len, unsigned max_scan,
			   uint16_t *out, uint8_t *shift, uint16_t *buckets);

/* Upper bound of twz_row_bucketize's output for a row, in u16. */
static inline uint64_t twz_row_bucketized_max(uint32_t run_count, uint32_t len)
{
	uint64_t b = len > 65535u ? 65535u : len;
	return run_count + b + 1;
}

/* A run's start relative to the region's first node lo (the first run
 * may start below it, over wildcards). */
static inline uint32_t twz_row_rel_start(uint32_t run, uint32_t lo)
{
	uint32_t start = run >> TWZ_RUN_SYMBOL_BITS;
	return start > lo ? start - lo : 0;
}

/* Runs starting strictly inside any one bucket of 1 << shift targets, at
 * most, over a row's n runs (the first is not counted). */
uint32_t twz_row_max_inside(const uint32_t *runs, uint32_t n, uint32_t lo,
			    unsigned shift);

void twz_runs_free(struct twz_runs *r);

/*
 * Join rows gathered chunk by chunk (chunk k's runs in chunk[k], in row
 * order, a run `words` u32 wide) into one array *runs (malloc'd), and
 * row_offsets[0 .. rows] (in runs) from each row's run count row_len[r].
 * The chunks are freed. *run_count gets the total. 0, 1 when there are
 * more than TWZ_MAX_RUNS runs, -1 out of memory.
 */
int twz_rows_join(struct twz_runs *chunk, uint32_t chunks, unsigned words,
		  const uint32_t *row_len, uint32_t rows, uint32_t **runs,
		  uint32_t *row_offsets, uint64_t *run_count);

#endif
