/*
 * rows.c - greedy run-length encoding of one first-move row, for every
 * method: CPD rows over a region, TRANSIT local rows over the target
 * ranges of an outer square.
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

/* Symbol sets: bits 0..7 the moves, then the direction symbols. */
#define SET_TOWARD (1u << TWZ_SYMBOL_TOWARD)
#define SET_NEAREST (1u << TWZ_SYMBOL_NEAREST)

/* The stored symbol of a run whose targets share `set`: NONE when they
 * are all wildcards. The choice inside a set does not change the run
 * count, only what zstd sees: CPD rows prefer a plain move, then NEAREST,
 * then TOWARD; TRANSIT rows TOWARD, then NEAREST, then the lowest move. */
static inline unsigned pick(unsigned set, unsigned all, int prefer_direction)
{
	if (set == all)
		return TWZ_SYMBOL_NONE;
	if (prefer_direction) {
		if (set & SET_TOWARD)
			return TWZ_SYMBOL_TOWARD;
		if (set & SET_NEAREST)
			return TWZ_SYMBOL_NEAREST;
		return (unsigned)__builtin_ctz(set);
	}
	if (set & 0xFFu)
		return (unsigned)__builtin_ctz(set & 0xFFu);
	if (set & SET_NEAREST)
		return TWZ_SYMBOL_NEAREST;
	return TWZ_SYMBOL_TOWARD;
}

/*
 * The one encoder. Over the targets of the ranges, in order: the source,
 * and with `known` the targets whose known[t] & known_bit is clear, are
 * wildcards (as are all targets outside the ranges); every other target
 * admits its optimal moves and, with `direction`, each direction symbol
 * whose move from the source is one of them. Greedy: a run grows while
 * its targets' sets share a symbol, which gives the fewest runs. The
 * flags are constants at each call, so each use compiles to its own copy.
 */
static inline __attribute__((always_inline)) int
encode(const struct twz_row_source *src, const uint32_t *range,
       uint32_t ranges, const int direction, const int prefer_direction,
       struct twz_runs *out)
{
	const uint8_t *moves = src->moves, *known = src->known;
	const uint16_t *node_x = src->node_x, *node_y = src->node_y;
	const unsigned all = ((1u << src->connectivity) - 1) |
			     (direction ? SET_TOWARD | SET_NEAREST : 0);
	uint32_t source = src->source;
	int32_t sx = node_x[source], sy = node_y[source];
	unsigned cur = all;
	uint32_t start = 0;  /* targets before the first range are wildcards */

	for (uint32_t r = 0; r < ranges; r++) {
		for (uint32_t t = range[2 * r]; t < range[2 * r + 1]; t++) {
			unsigned m = all;
			if (t != source && (!known || (known[t] & src->known_bit))) {
				m = moves[t];
				if (direction) {
					int32_t dx = node_x[t] - sx, dy = node_y[t] - sy;
					/* Moves are bits 0..7: no move
					 * (TWZ_SYMBOL_NONE, 8) tests 0. */
					unsigned set = m;
					if (m >> twz_direction_move(TWZ_SYMBOL_TOWARD, dx, dy) & 1)
						set |= SET_TOWARD;
					if (m >> twz_direction_move(TWZ_SYMBOL_NEAREST, dx, dy) & 1)
						set |= SET_NEAREST;
					m = set;
				}
			}
			if (cur & m) {
				cur &= m;
				continue;
			}
			if (append(out, start, pick(cur, all, prefer_direction)) != 0)
				return -1;
			start = t;
			cur = m;
		}
	}
	return append(out, start, pick(cur, all, prefer_direction));
}

/* A CPD row: the source's region, one range. */
static inline __attribute__((always_inline)) int
encode_region(const struct twz_graph *gr, uint32_t source,
	      const uint8_t *moves, const int direction, struct twz_runs *out)
{
	uint32_t comp = gr->node_comp[source];
	uint32_t range[2] = { gr->comp_first[comp], gr->comp_first[comp + 1] };
	struct twz_row_source src = { source, gr->node_x, gr->node_y,
				      gr->connectivity, moves, NULL, 0 };

	return encode(&src, range, 1, direction, 0, out);
}

int twz_row_encode(const struct twz_graph *gr, uint32_t source,
		   const uint8_t *moves, struct twz_runs *out)
{
	return encode_region(gr, source, moves, 0, out);
}

int twz_row_encode_direction(const struct twz_graph *gr, uint32_t source,
			     const uint8_t *moves, struct twz_runs *out)
{
	return encode_region(gr, source, moves, 1, out);
}

int twz_row_encode_ranges(const struct twz_row_source *src,
			  const uint32_t *range, uint32_t ranges,
			  struct twz_runs *out)
{
	return encode(src, range, ranges, 1, 1, out);
}

uint32_t twz_row_max_inside(const uint32_t *runs, uint32_t n, uint32_t lo,
			    unsigned shift)
{
	uint32_t best = 0, count = 0, bucket = 0;

	for (uint32_t j = 1; j < n; j++) {
		uint32_t rel = twz_row_rel_start(runs[j], lo);
		uint32_t b = rel >> shift;
		if (b != bucket) {
			bucket = b;
			count = 0;
		}
		if (rel & ((1u << shift) - 1))
			count++;
		if (count > best)
			best = count;
	}
	return best;
}

uint32_t twz_row_bucketize(const uint32_t *runs, uint32_t run_count,
			   uint32_t lo, uint32_t len, unsigned max_scan,
			   uint16_t *out, uint8_t *shift_out, uint16_t *buckets_out)
{
	unsigned shift = TWZ_MAX_BUCKET_SHIFT;

	if (run_count == 0 || run_count > TWZ_MAX_ROW_RUNS || len == 0)
		return 0;
	/* Largest shift (fewest buckets) whose scans stay short; the bucket
	 * count must fit u16 whatever the scans. */
	while (shift > 0 && (((uint64_t)len - 1) >> (shift - 1)) < 65535u &&
	       twz_row_max_inside(runs, run_count, lo, shift) > max_scan)
		shift--;
	uint32_t buckets = ((len - 1) >> shift) + 1;
	if (buckets > 65535u)
		return 0;

	uint16_t *index = out, *run = out + buckets + 1;
	uint32_t j = 0;
	for (uint32_t b = 0; b < buckets; b++) {
		uint32_t base = b << shift;
		while (j + 1 < run_count && twz_row_rel_start(runs[j + 1], lo) <= base)
			j++;
		index[b] = (uint16_t)j;
	}
	/* A sentinel, the last run, bounds the scan of the last bucket. */
	index[buckets] = (uint16_t)(run_count - 1);
	for (uint32_t k = 0; k < run_count; k++) {
		uint32_t rel = twz_row_rel_start(runs[k], lo);
		uint32_t in_bucket = rel & ((1u << shift) - 1);
		run[k] = (uint16_t)(in_bucket << TWZ_RUN_SYMBOL_BITS |
				    (runs[k] & TWZ_RUN_SYMBOL_MASK));
	}
	*shift_out = (uint8_t)shift;
	*buckets_out = (uint16_t)buckets;
	return buckets + 1 + run_count;
}

void twz_runs_free(struct twz_runs *r)
{
	free(r->v);
	r->v = NULL;
	r->len = r->cap = 0;
}
