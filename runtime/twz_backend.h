/*
 * twz_backend.h - what a query method gives the runtime: one table of
 * hooks, chosen once at open from the file's method (twz_open.c), through
 * which twz_api.c dispatches each public call after checking its
 * arguments and regions. twz_cpd.c and twz_transit.c each define one.
 */
#ifndef TWZ_BACKEND_H
#define TWZ_BACKEND_H

#include "twz_db.h"

struct twz_backend {
	/* After validation: derive what the queries read (directories,
	 * decoded tables) and add it to db->memory_size. */
	twz_status (*init)(struct twz_db *db);
	/* Free what init made, also after a failed init. */
	void (*fini)(struct twz_db *db);
	/* The next node from s toward t: s, t valid and distinct, both in
	 * s's region r. TWZ_NONE when the file is damaged. */
	twz_node (*next)(const struct twz_db *db, twz_node s, twz_node t,
			 const struct twz_span *r);
	/*
	 * Walk s -> t (valid, both in s's region r; s == t allowed): fills at
	 * most cap nodes of buf, the full node count in *len, the moves in
	 * *straight and *diagonal (each may be NULL). With len NULL only the
	 * cost is wanted. TWZ_E_BUFFER_TOO_SMALL when the path exceeds cap,
	 * TWZ_E_DAMAGED when the walk fails.
	 */
	twz_status (*walk)(const struct twz_db *db, twz_node s, twz_node t,
			   const struct twz_span *r, twz_node *buf, size_t cap,
			   size_t *len, uint32_t *straight, uint32_t *diagonal);
	/* next[n] for every node n toward t (valid, in region r): t for t,
	 * TWZ_NONE outside r. */
	void (*flow_field)(const struct twz_db *db, twz_node t,
			   const struct twz_span *r, twz_node *next);
};

extern const struct twz_backend twz_backend_cpd;
extern const struct twz_backend twz_backend_transit;

#endif
