/*
 * rows.c - greedy run-length encoding of one first-move row, for every
 * level kind and method: CPD rows over a region (a grid's moves, a
 * graph's arcs, a junction graph's moves), TRANSIT local rows over the
 * target ranges of an outer square; and the joining of rows made chunk
 * by chunk.
 */
#include "rows.h"

#include <stdlib.h>
#include <string.h>

#include "first_moves.h"

int twz_runs_append(struct twz_runs *r, const uint32_t *v, unsigned n)
{
	if (r->len + n > r->cap) {
		uint32_t ncap = r->cap ? r->cap : 16;
		while (r->len + n > ncap)
			ncap *= 2;
		uint32_t *nv = realloc(r->v, (size_t)ncap * sizeof *nv);
		if (!nv)
			return -1;
		r->v = nv;
		r->cap = ncap;
	}
	memcpy(r->v + r->len, v, n * sizeof *v);
	r->len += n;
	return 0;
}

/* What a row's flags ask (constants at each use of encode). */
enum row_flag {
	ROW_DIRECTION = 1u,  /* grid: direction symbols as further choices */
	ROW_PREFER = 2u,     /* ... stored whenever a run may take them */
	ROW_ARCS = 4u,       /* a graph's first arcs from search entries:
				runs of (start, arc), unreachable targets
				runs of their own */
	ROW_LOWEST = 8u,     /* ARCS: one arc a target, not a set */
};

/* A set no target has: a graph row's unreachable targets. */
#define SET_UNREACHED ((uint64_t)1 << TWZ_SEARCH_ARC_BITS)
/* Every symbol: a wildcard's set, and in a row of one arc a target
 * whose arc does not matter. */
#define SET_ALL UINT64_MAX

static inline __attribute__((always_inline)) int
append(struct twz_runs *r, uint32_t start, uint32_t symbol, const unsigned f)
{
	if (f & ROW_ARCS) {
		uint32_t run[2] = { start, symbol };
		return twz_runs_append(r, run, 2);
	}
	uint32_t word = start << TWZ_RUN_SYMBOL_BITS | symbol;
	return twz_runs_append(r, &word, 1);
}

/* Symbol sets: bits 0..7 the moves, then the direction symbols. */
#define SET_TOWARD (1u << TWZ_SYMBOL_TOWARD)
#define SET_NEAREST (1u << TWZ_SYMBOL_NEAREST)

/* The stored symbol of a run whose targets share `set`. On a grid: NONE
 * when they are all wildcards; the choice inside a set does not change
 * the run count, only what zstd sees: CPD rows prefer a plain move, then
 * NEAREST, then TOWARD; TRANSIT rows TOWARD, then NEAREST, then the
 * lowest move. On a graph: the lowest arc, or TWZ_ROW_NO_ARC for targets
 * not reached (and a row of wildcards alone). */
static inline __attribute__((always_inline)) uint32_t
pick(uint64_t set, uint64_t all, const unsigned f)
{
	if (f & ROW_ARCS) {
		if (set == SET_ALL || (!(f & ROW_LOWEST) && (set & SET_UNREACHED)))
			return TWZ_ROW_NO_ARC;
		return f & ROW_LOWEST ? (uint32_t)set
				      : (uint32_t)__builtin_ctzll(set);
	}
	if (set == all)
		return TWZ_SYMBOL_NONE;
	if (f & ROW_PREFER) {
		if (set & SET_TOWARD)
			return TWZ_SYMBOL_TOWARD;
		if (set & SET_NEAREST)
			return TWZ_SYMBOL_NEAREST;
		return (uint32_t)__builtin_ctzll(set);
	}
	if (set & 0xFFu)
		return (uint32_t)__builtin_ctzll(set & 0xFFu);
	if (set & SET_NEAREST)
		return TWZ_SYMBOL_NEAREST;
	return TWZ_SYMBOL_TOWARD;
}

/* The set of symbols target t admits (t is neither the source nor
 * unknown); m its first moves on a grid. */
static inline __attribute__((always_inline)) uint64_t
target_set(const struct twz_row_source *src, const struct twz_entry *first,
	   uint32_t t, unsigned m, int32_t sx, int32_t sy, const unsigned f)
{
	if (f & ROW_ARCS) {
		const struct twz_entry *e = &first[t];
		if (e->key == TWZ_KEY_NONE)
			return f & ROW_LOWEST ? TWZ_ROW_NO_ARC : SET_UNREACHED;
		return e->sets;
	}
	if (!(f & ROW_DIRECTION))
		return m;
	int32_t dx = src->node_x[t] - sx, dy = src->node_y[t] - sy;
	/* Moves are bits 0..7: no move (TWZ_SYMBOL_NONE, 8) tests 0. */
	unsigned set = m;
	if (m >> twz_direction_move(TWZ_SYMBOL_TOWARD, dx, dy) & 1)
		set |= SET_TOWARD;
	if (m >> twz_direction_move(TWZ_SYMBOL_NEAREST, dx, dy) & 1)
		set |= SET_NEAREST;
	return set;
}

/*
 * The one encoder, a stretch of targets at a time: begin, feed the
 * targets in order, end. The source, and with `known` the targets whose
 * known[t] & known_bit is clear, are wildcards (as are all targets not
 * fed); every other target admits its set of symbols (target_set: from
 * the moves fed, or with ROW_ARCS from a graph search's entries, first).
 * Greedy: a run grows while its targets' sets share a symbol (in a row
 * of one arc a target, while they have the same arc), which gives the
 * fewest runs. The flags are constants at each call, so each use
 * compiles to its own copy.
 */
static inline __attribute__((always_inline)) void
stream_begin(struct twz_row_stream *rs, const struct twz_row_source *src,
	     uint32_t start, const unsigned f)
{
	rs->src = *src;
	rs->all = f & ROW_ARCS ? SET_ALL
		  : ((1u << src->connectivity) - 1) |
		    (f & ROW_DIRECTION ? SET_TOWARD | SET_NEAREST : 0);
	rs->cur = rs->all;
	rs->start = start;
	rs->sx = rs->sy = 0;
	if (!(f & ROW_ARCS)) {
		rs->sx = src->node_x[src->source];
		rs->sy = src->node_y[src->source];
	}
}

/* Targets [lo, hi): on a grid, moves[t - base] their first moves. */
static inline __attribute__((always_inline)) int
stream_feed(struct twz_row_stream *rs, const struct twz_entry *first,
	    uint32_t lo, uint32_t hi, const uint8_t *moves, uint32_t base,
	    const unsigned f, struct twz_runs *out)
{
	const struct twz_row_source *src = &rs->src;
	const uint8_t *known = src->known;
	const uint64_t all = rs->all;
	uint64_t cur = rs->cur;
	uint32_t start = rs->start;

	for (uint32_t t = lo; t < hi; t++) {
		uint64_t m = all;
		if (t != src->source && (!known || (known[t] & src->known_bit))) {
			/* A run that has lost its direction symbols keeps
			 * only moves: the target's symbols need not be
			 * worked out while it shares one. */
			if ((f & ROW_DIRECTION) &&
			    !(cur & (SET_TOWARD | SET_NEAREST)) &&
			    (cur & moves[t - base])) {
				cur &= moves[t - base];
				continue;
			}
			m = target_set(src, first, t,
				       f & ROW_ARCS ? 0 : moves[t - base],
				       rs->sx, rs->sy, f);
		}
		if (f & ROW_LOWEST) {
			if (cur == all || m == all || m == cur) {
				cur = cur == all ? m : cur;
				continue;
			}
		} else if (cur & m) {
			cur &= m;
			continue;
		}
		if (append(out, start, pick(cur, all, f), f) != 0)
			return -1;
		start = t;
		cur = m;
	}
	rs->cur = cur;
	rs->start = start;
	return 0;
}

static inline __attribute__((always_inline)) int
stream_end(const struct twz_row_stream *rs, const unsigned f,
	   struct twz_runs *out)
{
	return append(out, rs->start, pick(rs->cur, rs->all, f), f);
}

/* The row over the ranges, in order. A grid row's targets before the
 * first range are wildcards; a graph row starts at its region. */
static inline __attribute__((always_inline)) int
encode(const struct twz_row_source *src, const struct twz_entry *first,
       const uint32_t *range, uint32_t ranges, const unsigned f,
       struct twz_runs *out)
{
	struct twz_row_stream rs;

	stream_begin(&rs, src, f & ROW_ARCS ? range[0] : 0, f);
	for (uint32_t r = 0; r < ranges; r++)
		if (stream_feed(&rs, first, range[2 * r], range[2 * r + 1],
				src->moves, 0, f, out) != 0)
			return -1;
	return stream_end(&rs, f, out);
}

/* A CPD row: the source's region, one range. */
static inline __attribute__((always_inline)) int
encode_region(const struct twz_graph *gr, uint32_t source,
	      const uint8_t *moves, const struct twz_entry *first,
	      const unsigned f, struct twz_runs *out)
{
	uint32_t comp = gr->node_comp[source];
	uint32_t range[2] = { gr->comp_first[comp], gr->comp_first[comp + 1] };
	struct twz_row_source src = { source, gr->node_x, gr->node_y,
				      gr->connectivity, moves, NULL, 0 };

	return encode(&src, first, range, 1, f, out);
}

int twz_row_encode(const struct twz_graph *gr, uint32_t source,
		   const uint8_t *moves, struct twz_runs *out)
{
	return encode_region(gr, source, moves, NULL, 0, out);
}

int twz_row_encode_direction(const struct twz_graph *gr, uint32_t source,
			     const uint8_t *moves, struct twz_runs *out)
{
	return encode_region(gr, source, moves, NULL, ROW_DIRECTION, out);
}

void twz_row_stream_begin(struct twz_row_stream *rs,
			  const struct twz_graph *gr, uint32_t source,
			  int direction)
{
	struct twz_row_source src = { source, gr->node_x, gr->node_y,
				      gr->connectivity, NULL, NULL, 0 };

	stream_begin(rs, &src, 0, direction ? ROW_DIRECTION : 0);
	rs->direction = direction != 0;
}

int twz_row_stream_feed(struct twz_row_stream *rs, uint32_t lo, uint32_t hi,
			const uint8_t *moves, struct twz_runs *out)
{
	if (rs->direction)
		return stream_feed(rs, NULL, lo, hi, moves, lo, ROW_DIRECTION, out);
	return stream_feed(rs, NULL, lo, hi, moves, lo, 0, out);
}

int twz_row_stream_end(struct twz_row_stream *rs, struct twz_runs *out)
{
	return stream_end(rs, rs->direction ? ROW_DIRECTION : 0, out);
}

int twz_row_encode_ranges(const struct twz_row_source *src,
			  const uint32_t *range, uint32_t ranges,
			  struct twz_runs *out)
{
	return encode(src, NULL, range, ranges, ROW_DIRECTION | ROW_PREFER, out);
}

int twz_row_encode_arcs(const struct twz_graph *g, uint32_t source,
			const struct twz_entry *first, struct twz_runs *out)
{
	if (twz_search_lowest_arc(g, source))
		return encode_region(g, source, NULL, first,
				     ROW_ARCS | ROW_LOWEST, out);
	return encode_region(g, source, NULL, first, ROW_ARCS, out);
}

/* ---- rows made chunk by chunk, joined ----------------------------------- */

int twz_rows_join(struct twz_runs *chunk, uint32_t chunks, unsigned words,
		  const uint32_t *row_len, uint32_t rows, uint32_t **runs,
		  uint32_t *row_offsets, uint64_t *run_count)
{
	uint64_t total = 0;

	*runs = NULL;
	for (uint32_t k = 0; k < chunks; k++)
		total += chunk[k].len / words;
	*run_count = total;
	if (total > TWZ_MAX_RUNS)
		return 1;
	*runs = malloc((total ? total * words : 1) * sizeof **runs);
	if (!*runs)
		return -1;
	uint64_t pos = 0;
	for (uint32_t k = 0; k < chunks; k++) {
		if (chunk[k].len)
			memcpy(*runs + pos, chunk[k].v,
			       chunk[k].len * sizeof **runs);
		pos += chunk[k].len;
		twz_runs_free(&chunk[k]);
	}
	row_offsets[0] = 0;
	for (uint32_t r = 0; r < rows; r++)
		row_offsets[r + 1] = row_offsets[r] + row_len[r];
	return 0;
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
