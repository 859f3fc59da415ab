/*
 * twz_transit.h - the decoded TRANSIT sections of an open database
 * (method 2), private to the runtime: twz_transit.c fills the view at open
 * and answers queries from it; twz_inspect.c shows its parameters to the
 * tool.
 */
#ifndef TWZ_TRANSIT_H
#define TWZ_TRANSIT_H

#include <stddef.h>
#include <stdint.h>

#include "twigz.h"
#include "twz_validate.h"

struct twz_lazy;

/* The TRANSIT sections of an open database, decoded parameters first.
 * Pointers address the mapping or buffers inflated at open. */
struct twz_transit_view {
	uint32_t origin_x;         /* walkable bounding box corner */
	uint32_t origin_y;
	uint32_t side;             /* block side, squares */
	uint32_t cols;             /* blocks across, down */
	uint32_t rows;
	uint32_t inner;            /* inner box radius, blocks */
	uint32_t outer;            /* outer square radius, blocks */
	uint32_t transit_count;    /* M */
	uint32_t dist_bytes;       /* the file's: 4 (i16 planes) or 8 (i32) */
	uint32_t entry_bytes;      /* in memory: 4 (u16 pair) or 8 (u32) */
	uint64_t node_dist_count;  /* entries of node_dist */
	uint64_t table_count;      /* entries of table: M (M - 1) / 2 */
	const uint8_t *blocks;     /* TWZ_TB_SIZE bytes a block, +1 */
	const uint8_t *lists;      /* u32: each block's transit indices */
	const uint8_t *nodes;      /* u32[M]: node of each transit index */
	const uint8_t *node_dist;  /* entries: node -> its block's transits */
	const uint8_t *table;      /* entries: transit i < j */
	uint8_t *node_dist_own;    /* the two above, absolute, made at open */
	uint8_t *table_own;
	const uint8_t *row_offsets;/* u32[node_count+1] */
	const uint8_t *runs;       /* u32: start << 4 | symbol */
	uint64_t run_count;
	/* The access-node layout (1.4, TWZ_FEATURE_TRANSIT_ACCESS): the
	 * four sections below replace lists, nodes and both tables. */
	int access;
	const uint8_t *access_first;  /* u32[node_count+1] */
	const uint8_t *access_entries;/* TWZ_AE_SIZE bytes an entry */
	const uint8_t *access_nodes;  /* TWZ_AN_SIZE bytes a transit node */
	const uint8_t *access_table;  /* bit-packed rows */
	/* Under a cache budget (twz_chunks.h), the chunked sections read
	 * on use, through twz_transit_lazy.h; runs, access_entries (or
	 * access_packed) and access_table are then NULL; access_lazy is
	 * whichever form of the entries the file has. */
	const struct twz_lazy *runs_lazy;
	const struct twz_lazy *access_lazy;
	const struct twz_lazy *table_lazy;
	/* The packed entries (ACCESS_PACKED) in place of access_entries,
	 * or NULL; their places index the lists of the node's block. */
	const uint8_t *access_packed; /* u32 an entry */
	const uint8_t *access_block_first; /* u32[blocks+1] */
	const uint8_t *access_block_list;  /* u32 transit indices */
};

#endif
