/*
 * bench_ref.c - SRC's lookup over the database's runs (see bench_ref.h),
 * which twz_inspect.h hands over in the plain row layout. Kept
 * deliberately plain: what the runtime is measured against must not
 * borrow the runtime's own tricks.
 */
#include "bench_ref.h"

#include <stdlib.h>
#include <string.h>

#include "twz_format.h"
#include "twz_inspect.h"

static inline uint32_t u32_at(const uint8_t *base, size_t i)
{
	return twz_le32(base + 4 * i);
}

int twz_ref_init(struct twz_ref *ref, const twz_db *db)
{
	twz_info info;

	memset(ref, 0, sizeof *ref);
	twz_get_info(db, &info);
	size_t n = info.node_count ? info.node_count : 1;
	size_t cells = (size_t)info.width * info.height;
	ref->node_count = info.node_count;
	ref->width = info.width;
	ref->height = info.height;
	ref->node_cell = malloc(n * sizeof *ref->node_cell);
	ref->node_xy = malloc(n * sizeof *ref->node_xy);
	ref->cell_node = malloc((cells ? cells : 1) * sizeof *ref->cell_node);
	if (!ref->node_cell || !ref->node_xy || !ref->cell_node)
		goto fail;
	for (uint32_t v = 0; v < info.node_count; v++) {
		uint32_t x, y;
		twz_node_xy(db, v, &x, &y);
		ref->node_cell[v] = y * info.width + x;
		ref->node_xy[v] = y << 16 | x;
	}
	for (size_t c = 0; c < cells; c++)
		ref->cell_node[c] = twz_node_at(db, c % info.width, c / info.width);
	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		ref->move_offset[m] = twz_move_dx[m] +
				      twz_move_dy[m] * (int32_t)info.width;

	struct twz_plain_rows rows;
	int rc = twz_inspect_plain_rows(db, &rows);
	if (rc < 0)
		goto fail;
	if (rc > 0) {
		twz_ref_free(ref);
		return 1;   /* no all-pairs rows (another method) */
	}
	ref->row_offsets = rows.row_offsets;
	ref->runs = rows.runs;
	ref->run_count = rows.run_count;
	ref->owned = rows.owned;
	return 0;
fail:
	twz_ref_free(ref);
	return -1;
}

void twz_ref_free(struct twz_ref *ref)
{
	free(ref->owned);
	free(ref->node_cell);
	free(ref->cell_node);
	free(ref->node_xy);
	memset(ref, 0, sizeof *ref);
}

/* std::upper_bound over the row for (t, any symbol), then one back: the
 * row's first run starts at its region's first node, so at or before t. */
static inline unsigned ref_symbol(const struct twz_ref *ref, twz_node s,
				  twz_node t)
{
	uint32_t first = u32_at(ref->row_offsets, s);
	uint32_t count = u32_at(ref->row_offsets, (size_t)s + 1) - first;
	uint32_t key = t << TWZ_RUN_SYMBOL_BITS | TWZ_RUN_SYMBOL_MASK;

	while (count > 0) {
		uint32_t half = count / 2;
		if (u32_at(ref->runs, first + half) <= key) {
			first += half + 1;
			count -= half + 1;
		} else {
			count = half;
		}
	}
	return u32_at(ref->runs, first - 1) & TWZ_RUN_SYMBOL_MASK;
}

/* The move from s toward t, or TWZ_SYMBOL_NONE. */
static inline unsigned ref_move(const struct twz_ref *ref, twz_node s,
				twz_node t)
{
	unsigned sym = ref_symbol(ref, s, t);

	if (sym < TWZ_MOVE_COUNT)
		return sym;
	if (sym == TWZ_SYMBOL_TOWARD || sym == TWZ_SYMBOL_NEAREST) {
		uint32_t a = ref->node_xy[s], b = ref->node_xy[t];
		return twz_direction_move(sym,
			(int32_t)(b & 0xFFFF) - (int32_t)(a & 0xFFFF),
			(int32_t)(b >> 16) - (int32_t)(a >> 16));
	}
	return TWZ_SYMBOL_NONE;
}

static inline twz_node ref_step(const struct twz_ref *ref, twz_node s,
				unsigned move)
{
	return ref->cell_node[ref->node_cell[s] + ref->move_offset[move]];
}

twz_node twz_ref_next(const struct twz_ref *ref, twz_node s, twz_node t)
{
	unsigned move = ref_move(ref, s, t);

	if (move >= TWZ_MOVE_COUNT)
		return TWZ_NONE;
	return ref_step(ref, s, move);
}

size_t twz_ref_path(const struct twz_ref *ref, twz_node s, twz_node t,
		    twz_node *buf, size_t cap, uint32_t *straight,
		    uint32_t *diagonal)
{
	uint32_t st = 0, dg = 0;
	size_t len = 0;

	if (s >= ref->node_count || t >= ref->node_count)
		return 0;
	for (twz_node at = s;; ) {
		if (len < cap)
			buf[len] = at;
		len++;
		if (at == t)
			break;
		unsigned move = ref_move(ref, at, t);
		if (move >= TWZ_MOVE_COUNT || len > ref->node_count)
			return 0;
		if (twz_move_is_diagonal(move))
			dg++;
		else
			st++;
		/* This walk checks the data the timed loops then trust. */
		int64_t x = (ref->node_xy[at] & 0xFFFF) + twz_move_dx[move];
		int64_t y = (ref->node_xy[at] >> 16) + twz_move_dy[move];
		if (x < 0 || y < 0 || x >= ref->width || y >= ref->height)
			return 0;
		at = ref_step(ref, at, move);
		if (at == TWZ_NONE)
			return 0;
	}
	*straight = st;
	*diagonal = dg;
	return len;
}
