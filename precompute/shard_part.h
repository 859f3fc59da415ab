/*
 * shard_part.h - what shard.c (CPD shards, reading and checking partial
 * files, the merge) and shard_transit.c (TRANSIT shards) share: a partial
 * file as read, and the steps both methods' writing and merging take.
 * Private to precompute/.
 */
#ifndef SHARD_PART_H
#define SHARD_PART_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "shard.h"
#include "twz_format.h"
#include "twz_writer.h"

/* One partial file, checked and decoded. */
struct twz_part {
	const char *name;
	uint64_t level_hash;
	uint32_t node_count;
	unsigned version;           /* TWZ_PI_VERSION: 1 CPD, 2 TRANSIT */
	unsigned index, count;
	uint32_t first, end, max_scan;
	uint8_t method, layout, connectivity, codec;
	int8_t level;
	/* TRANSIT */
	uint32_t block_lo, block_hi, table_lo, table_hi;
	uint32_t grid, inner, outer;
	uint32_t chunk;
	const uint8_t *sec[TWZ_PART_KINDS];  /* decoded, by kind - TWZ_PART_INFO */
	uint64_t size[TWZ_PART_KINDS];
	void *owned[TWZ_PART_KINDS];
};

/* Whether run symbol sym may stand in source s's row, as the merged
 * file's checks ask (FORMAT.md checks 38, 47 and T11): a legal move from
 * s; 9 or 10 with direction symbols; 8 (no move) from a source without
 * a move, or from any source where it marks a wildcard (any_none, a
 * TRANSIT local row). */
static inline int twz_part_symbol_ok(const struct twz_graph *gr, uint32_t s,
				     unsigned sym, int direction, int any_none)
{
	if (sym == TWZ_SYMBOL_NONE)
		return any_none || !twz_graph_moves(gr, s);
	if (sym == TWZ_SYMBOL_TOWARD || sym == TWZ_SYMBOL_NEAREST)
		return direction;
	return sym < gr->connectivity && (twz_graph_moves(gr, s) >> sym & 1);
}

/* f (a partial file's sections, header made by twz_bake_header) encoded
 * under the partial magic; frees what f owns. */
int twz_part_encode(struct twz_out_file *f, const char *name, uint8_t **buf,
		    size_t *len, struct twz_error *err);

/* The level file at level_path, refused if its hash is not g's (it
 * changed since g was read); malloc'd. */
uint8_t *twz_part_level(const char *level_path, uint64_t level_hash,
			size_t *len, struct twz_error *err);

/* A copy of n bytes (malloc'd, NULL out of memory). */
void *twz_part_dup(const void *p, size_t n);

/* The merged database file: checked as the runtime will check it, then
 * written atomically to out. */
int twz_part_write_db(const uint8_t *file, size_t len, const char *out,
		      struct twz_error *err);

/* The merge of TRANSIT shards (shard_transit.c): by_index[1..count], each
 * read, of one bake and in its place; grid is the level they carry. */
int twz_shard_merge_transit(struct twz_part *const *by_index, unsigned count,
			    const struct twz_grid *grid, const char *level_name,
			    unsigned threads, const char *out,
			    struct twz_merge_result *res, struct twz_error *err);

#endif
