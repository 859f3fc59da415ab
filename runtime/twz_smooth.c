/*
 * twz_smooth.c - any-angle paths: twz_smooth and twz_smooth_filtered
 * pull a path tight by line of sight, keeping its nodes at the corners
 * only, and twz_line_of_sight asks the test itself. Sight is the level
 * kind's (twz_geometry.h): on a grid the exact segment test between cell
 * centres. No allocation, no locks, no I/O.
 */
#include "twz_geometry.h"

/*
 * Greedy string pulling, then corners only. The anchor is the last
 * waypoint kept; path[i] is the farthest node seen from it so far. While
 * the anchor sees path[i+1], path[i] is dropped; otherwise path[i]
 * becomes a waypoint. That can leave a waypoint its two neighbours see
 * past (one lying straight between them, say): the second pass drops
 * every waypoint whose neighbours see each other, going back as far as a
 * drop allows, so no kept waypoint can go. Every grid move is a clear
 * segment, so on a path of moves each kept segment is clear; a segment
 * of the input that is not clear (a caller's own waypoints) is kept as
 * it is. Writes only at or behind the read position, so it runs in
 * place.
 */
twz_status twz_smooth_filtered(const twz_db *db, const twz_filter *filter,
			       twz_node *path, size_t len, size_t *out_len)
{
	struct twz__filter f;
	size_t out = 1;

	if (out_len)
		*out_len = 0;
	if (!out_len)
		return TWZ_E_ARGUMENT;
	twz_status st = twz__path_args(db, filter, path, len, &f);
	if (st != TWZ_OK)
		return st;
	if (len <= 2) {
		*out_len = len;
		return TWZ_OK;
	}
	const struct twz_geometry *geo = twz__geometry(db);
	twz_node anchor = path[0];
	for (size_t i = 1; i + 1 < len; i++) {
		if (geo->sight(db, &f, anchor, path[i + 1]))
			continue;
		path[out++] = anchor = path[i];
	}
	path[out++] = path[len - 1];
	size_t kept = 1;
	for (size_t i = 1; i < out; i++) {
		while (kept >= 2 && geo->sight(db, &f, path[kept - 2], path[i]))
			kept--;
		path[kept++] = path[i];
	}
	*out_len = kept;
	return TWZ_OK;
}

twz_status twz_smooth(const twz_db *db, twz_node *path, size_t len,
		      size_t *out_len)
{
	return twz_smooth_filtered(db, NULL, path, len, out_len);
}

twz_status twz_line_of_sight(const twz_db *db, const twz_filter *filter,
			     twz_node a, twz_node b)
{
	struct twz__filter f;

	if (!db || a >= db->c.node_count || b >= db->c.node_count)
		return TWZ_E_ARGUMENT;
	twz_status st = twz__filter_make(db, filter, &f);
	if (st != TWZ_OK)
		return st;
	return twz__geometry(db)->sight(db, &f, a, b) ? TWZ_OK
						      : TWZ_E_UNREACHABLE;
}
