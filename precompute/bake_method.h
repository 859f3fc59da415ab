/*
 * bake_method.h - a bake method as one entry of a table, chosen once
 * from the options (twz_bake_method_of), as the runtime picks its back end
 * once at open. An entry is its name, its memory estimate, and its bake
 * in the steps every road shares (in memory, through the spool, as a
 * shard, merged from shards, as an agent-size layer):
 *
 *   prepare   what does not depend on which sources are baked: the
 *             limits, the graph in the method's order, TRANSIT's
 *             selection; the big arrays go to the spool given
 *   bake      the searches of shard index of count (1 of 1: all)
 *   results   what shard index of count baked, as streams: one
 *             stream a kind of result, its items (rows, blocks, table
 *             rows) in order, each of a recorded size
 *   adopt     every shard's streams laid end to end (the merge)
 *   finish    what needs every result (TRANSIT's access nodes)
 *   emit      the sections, to the writer (twz_writer.h)
 *
 * Shards cut a method's items into contiguous ranges, so the streams
 * of shards 1..N end to end are the streams of the whole bake, and a
 * merged file is the single bake's, byte for byte.
 */
#ifndef BAKE_METHOD_H
#define BAKE_METHOD_H

#include <stddef.h>
#include <stdint.h>

#include "bake.h"
#include "graph.h"
#include "twz_format.h"
#include "twz_error.h"

struct twz_spool;
struct twz_out_file;

/* A shard's results of one kind: items [lo, hi), item i of
 * at[i + 1] - at[i] units of unit bytes (at NULL: items of sizes the
 * method knows from its graph alone), their bytes in order. */
struct twz_stream {
	uint32_t lo, hi;
	uint32_t *at;              /* [items + 1], absolute, or NULL */
	unsigned unit;
	void *bytes;
	uint64_t size;             /* bytes */
};

/* base + offset bytes for a stream's bytes, or NULL while base is: a
 * merge asks a database that is only prepared, whose arrays do not
 * exist yet, for its streams' items (C has no NULL + offset). */
static inline void *twz_stream_bytes(void *base, uint64_t offset)
{
	return base ? (uint8_t *)base + offset : NULL;
}

/* Most streams a method has. */
#define TWZ_MAX_STREAMS 4

/* An item of a stream that a merge's check blames (verify). */
struct twz_blame {
	unsigned stream;
	uint32_t item;
};

/* Whether run symbol sym may stand in source s's row, as the merged
 * file's checks ask (FORMAT.md checks 38, 47 and T11): a legal move from
 * s; 9 or 10 with direction symbols; 8 (no move) from a source without
 * a move, or from any source where it marks a wildcard (any_none, a
 * TRANSIT local row). */
static inline int twz_run_symbol_ok(const struct twz_graph *gr, uint32_t s,
				    unsigned sym, int direction, int any_none)
{
	if (sym == TWZ_SYMBOL_NONE)
		return any_none || !twz_graph_moves(gr, s);
	if (sym == TWZ_SYMBOL_TOWARD || sym == TWZ_SYMBOL_NEAREST)
		return direction;
	return sym < gr->connectivity && (twz_graph_moves(gr, s) >> sym & 1);
}

struct twz_bake_method {
	const char *name;          /* "cpd", "transit" (BUILD_INFO's) */
	const char *what;          /* in summaries: "", " (transit)" */
	/* Peak bytes of its bake of g (nodes walkable), in memory or
	 * through the spool; 0 when it cannot tell. */
	uint64_t (*estimate)(const struct twz_grid *g, uint64_t nodes,
			     const struct twz_bake_options *opt, int spooled);
	int (*prepare)(const struct twz_grid *g,
		       const struct twz_bake_options *opt,
		       struct twz_spool *spool, void **db,
		       struct twz_error *err);
	int (*bake)(void *db, const struct twz_bake_options *opt,
		    unsigned index, unsigned count, struct twz_error *err);
	/* Its streams of shard index of count into s; their count. */
	unsigned (*results)(const void *db, unsigned index, unsigned count,
			    struct twz_stream *s);
	/* s: every stream whole (items 0 to the end); db takes each one's
	 * at (malloc'd) and bytes (a big array of db's spool, spool.h). */
	int (*adopt)(void *db, const struct twz_bake_options *opt,
		     struct twz_stream *s, struct twz_error *err);
	/* After adopt, every item held to what the merged file's checks
	 * ask of it, so a part whose results no bake makes is named (the
	 * database's own checks may only look at some at open): 0, or the
	 * items blamed (1, or 2 that disagree) in bad, why set. */
	unsigned (*verify)(const void *db, struct twz_blame bad[2],
			   const char **why);
	int (*finish)(void *db, const struct twz_bake_options *opt,
		      struct twz_error *err);
	void (*emit)(const void *db, const struct twz_grid *g,
		     const struct twz_bake_options *opt,
		     struct twz_out_file *f);
	/* Its counts and times for the tool's summary: of shard index of
	 * count (0 of 0: the whole file). */
	void (*summary)(const void *db, unsigned index, unsigned count,
			struct twz_text *t);
	/* Its runs and the searches' wall time, for an agent layer's line. */
	void (*counts)(const void *db, uint64_t *runs, double *seconds);
	void (*free)(void *db);
};

extern const struct twz_bake_method twz_cpd_method;       /* method_cpd.c */
extern const struct twz_bake_method twz_transit_method;   /* method_transit.c */

/* The method opt->method names for a grid level, or NULL (junction
 * graphs bake by their own road, junctions.h). */
const struct twz_bake_method *twz_bake_method_of(const struct twz_bake_options *opt);

#endif
