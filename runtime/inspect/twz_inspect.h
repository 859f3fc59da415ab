/*
 * twz_inspect.h - what the twigz tool reads of an open database beyond
 * the public API: its container and decoded sections (unpack), the run
 * counts of its rows (pictures), its rows in the plain layout (the
 * benchmark's reference search) and its TRANSIT parameters (pictures).
 * Internal: compiled into the runtime's static core for the tool and the
 * tests, neither exported by libtwigz nor installed. Programs and tests
 * include this header, never the runtime's private twz_db.h.
 */
#ifndef TWZ_INSPECT_H
#define TWZ_INSPECT_H

#include <stddef.h>
#include <stdint.h>

#include "twigz.h"
#include "twz_validate.h"

/* The parsed header and section table. */
const struct twz_container *twz_inspect_container(const twz_db *db);

/* Section kind's decoded bytes (kind < TWZ_SECTION_KIND_LIMIT): *data is
 * NULL for a kind the file lacks or the runtime does not read. Returns
 * the buffer open inflated it into, or NULL when *data lies in the file's
 * own bytes. */
const void *twz_inspect_section(const twz_db *db, unsigned kind,
				const uint8_t **data, size_t *size);

/* Section index i of the table, decoded: the bytes open kept (in the
 * file or an inflated buffer), or inflated again into *owned (free() it)
 * when open freed them after use (TRANSIT distance planes). 0 on
 * success, 1 when the runtime does not read the section's kind, -1 when
 * it cannot be decoded (no memory, or the file changed since open). */
int twz_inspect_section_bytes(const twz_db *db, uint32_t i,
			      const uint8_t **data, size_t *size, void **owned);

/* The file's bytes as opened (the mapping, or the caller's buffer). */
void twz_inspect_file(const twz_db *db, const uint8_t **bytes, size_t *len);

/* Runs in node s's all-pairs row; 0 when s is no node or the database has
 * no such rows (TRANSIT). */
uint32_t twz_inspect_row_runs(const twz_db *db, twz_node s);

/* Every all-pairs row in the plain layout of format 1.0, whatever the
 * file's layout: bucketed rows are unpacked into owned buffers, so only
 * the way a run is found differs. */
struct twz_plain_rows {
	const uint8_t *row_offsets;  /* u32 LE [node_count+1], run index */
	const uint8_t *runs;         /* u32 LE: start << 4 | symbol */
	uint64_t run_count;
	uint8_t *owned;              /* both, when unpacked; free() it */
};

/* 0 on success, 1 when db holds no all-pairs rows (TRANSIT), -1 out of
 * memory. The rows borrow db's memory unless owned is set. */
int twz_inspect_plain_rows(const twz_db *db, struct twz_plain_rows *out);

/* A TRANSIT database's block grid and transit nodes. */
struct twz_transit_params {
	uint32_t origin_x, origin_y;  /* the block grid's top-left cell */
	uint32_t side;                /* block side, cells */
	uint32_t cols, rows;          /* blocks across, down */
	uint32_t transit_count;
	const uint8_t *nodes;         /* u32 LE, one every node_stride bytes:
					 their nodes */
	uint32_t node_stride;         /* 4, or 32 in the access-node layout */
};

/* 0, or -1 when db is not a TRANSIT database. */
int twz_inspect_transit(const twz_db *db, struct twz_transit_params *out);

/* A chunked section (format 1.4): its directory's figures, and whether
 * it is read on use (twz_open_ex with a cache budget). */
struct twz_chunk_summary {
	uint32_t count;
	uint32_t max_raw;
	uint64_t raw_size, stored_size;
	int lazy;
};

/* Section index i's chunks: 0, 1 when it is not chunked, -1 when i is
 * out of range. */
int twz_inspect_chunks(const twz_db *db, uint32_t i,
		       struct twz_chunk_summary *out);

/* The chunk cache of twz_open_ex: what it holds now and what it did.
 * resident is read without the cache's lock: a snapshot for tests and
 * tools, not for the query path. */
struct twz_cache_summary {
	uint64_t budget;
	uint32_t slots;
	uint64_t slot_size;
	uint32_t resident;            /* slots holding a chunk */
	uint64_t chunks;              /* chunks of the lazy sections */
	uint64_t lazy_raw;            /* their raw bytes */
	uint64_t misses, failures;    /* chunks inflated, and refused */
};

/* 0, or 1 when db has no cache (opened without a budget, or nothing in
 * it is read on use). */
int twz_inspect_cache(const twz_db *db, struct twz_cache_summary *out);

#endif
