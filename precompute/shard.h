/*
 * shard.h - a bake cut into shards that separate machines run: which
 * sources shard I of N bakes, the partial file one shard writes (the
 * .twz container under its own magic, so no runtime opens it), and the
 * merge of every shard's partial file into the database the bake on one
 * machine writes, byte for byte.
 */
#ifndef SHARD_H
#define SHARD_H

#include <stddef.h>
#include <stdint.h>

#include "bake.h"
#include "graph.h"
#include "level_map.h"
#include "twz_error.h"

/* A partial file's magic: a .twz's with 'P' for 'Z', so twz_open refuses
 * it as not a database. */
#define TWZ_PARTIAL_MAGIC "\x89TWP\r\n\x1a\n"

/* Most shards a bake is cut into. */
#define TWZ_SHARD_MAX 65536u

/* Sections of a partial file (their own numbering: a partial is not a
 * database). */
enum twz_partial_section {
	TWZ_PART_INFO = 80,         /* TWZ_PI_SIZE bytes, below */
	TWZ_PART_LEVEL = 81,        /* the level file's bytes */
	TWZ_PART_NAME = 82,         /* the level's name, for messages */
	TWZ_PART_ROW_LENGTHS = 83,  /* u32[end - first]: runs of each row */
	TWZ_PART_RUNS = 84,         /* u32[]: the rows' runs, in order */
	/* TRANSIT shards (version 2) only */
	TWZ_PART_NODE_DIST = 85,    /* u32 pairs: the shard's blocks' node
				       to transit distances (straight,
				       diagonal), in NODE_DIST order */
	TWZ_PART_TABLE = 86,        /* u32 pairs: the shard's table rows */
	TWZ_PART_TRANSITS = 87,     /* the selection: u32 M, u32 listed,
				       u32 transit_node[M], u32
				       block_transit_first[blocks+1], u32
				       block_transit[listed] */
};
#define TWZ_PART_KINDS 8
/* The longest level name a partial file carries, bytes. */
#define TWZ_PART_NAME_MAX 4096u

/* TWZ_PART_INFO: the shard and every option the rows' bytes depend on.
 * Version 1: a CPD shard, bytes from TWZ_PI_LEVEL + 1 zero; version 2:
 * a TRANSIT shard, with the TWZ_PI_T* fields (FIRST and END are then the
 * nodes of its blocks). */
#define TWZ_PI_VERSION 0      /* u32 1 (CPD) or 2 (TRANSIT) */
#define TWZ_PI_INDEX 4        /* u32 shard, from 1 */
#define TWZ_PI_COUNT 8        /* u32 shards */
#define TWZ_PI_FIRST 12       /* u32 first source */
#define TWZ_PI_END 16         /* u32 source after the last */
#define TWZ_PI_MAX_SCAN 20    /* u32 option max_scan */
#define TWZ_PI_METHOD 24      /* u8  TWZ_METHOD_CPD */
#define TWZ_PI_LAYOUT 25      /* u8  TWZ_LAYOUT_* */
#define TWZ_PI_CONNECTIVITY 26 /* u8 4 or 8 */
#define TWZ_PI_CODEC 27       /* u8  TWZ_CODEC_* of the database */
#define TWZ_PI_LEVEL 28       /* i8  zstd level */
#define TWZ_PI_TBLOCK_LO 32   /* u32 TRANSIT: first block of the shard */
#define TWZ_PI_TBLOCK_HI 36   /* u32 block after its last */
#define TWZ_PI_TTABLE_LO 40   /* u32 first transit table row */
#define TWZ_PI_TTABLE_HI 44   /* u32 row after its last */
#define TWZ_PI_TGRID 48       /* u32 option --transit-grid (0: default) */
#define TWZ_PI_TINNER 52      /* u32 option --transit-inner (0: default) */
#define TWZ_PI_TOUTER 56      /* u32 option --transit-outer (0: default) */
#define TWZ_PI_CHUNK 60       /* u32 option --chunk, bytes (0: none) */
#define TWZ_PI_SIZE 64        /* the rest zero */

/* "I/N", two whole decimal numbers from 1 to TWZ_SHARD_MAX: 0, or -1.
 * I may exceed N: the caller says what is wrong. */
int twz_shard_parse(const char *s, unsigned *index, unsigned *count);

/*
 * The sources [*first, *end) of shard index (from 1) of count. Shards
 * are contiguous in the bake's source order and balanced by work, not
 * by count: a CPD search from a source settles its whole region, so a
 * source weighs its region's size, and shard I ends where the running
 * weight first reaches I/N of the total.
 */
void twz_shard_range(const struct twz_graph *gr, unsigned index,
		     unsigned count, uint32_t *first, uint32_t *end);

/* The CPD bake of shard index of count's rows (method_cpd.c); the rows
 * of other shards are empty. */
int twz_bake_cpd_shard(const struct twz_grid *g,
		       const struct twz_bake_options *opt, unsigned index,
		       unsigned count, struct twz_cpd *out,
		       struct twz_error *err);

/* Encode cpd's rows of shard index of count as a partial file (malloc'd),
 * with the level file's bytes (level, whose hash is g->level_hash). */
int twz_shard_encode(const struct twz_cpd *cpd, const struct twz_grid *g,
		     const uint8_t *level, size_t level_len,
		     const struct twz_bake_options *opt, unsigned index,
		     unsigned count, uint8_t **buf, size_t *len,
		     struct twz_error *err);

/* twz_shard_encode, written atomically to path, with the level file
 * read again from level_path (refused if it changed since g was read). */
int twz_shard_write(const struct twz_cpd *cpd, const struct twz_grid *g,
		    const char *level_path, const struct twz_bake_options *opt,
		    unsigned index, unsigned count, const char *path,
		    struct twz_error *err);

struct twz_transit_db;
struct twz_transit_options;

/* The TRANSIT counterparts of twz_shard_encode and twz_shard_write
 * (shard_transit.c): db is the bake of shard index of count made with
 * topt (twz_bake_transit_shard). */
int twz_shard_transit_encode(const struct twz_transit_db *db,
			     const struct twz_grid *g,
			     const struct twz_transit_options *topt,
			     const uint8_t *level, size_t level_len,
			     const struct twz_bake_options *opt, unsigned index,
			     unsigned count, uint8_t **buf, size_t *len,
			     struct twz_error *err);
int twz_shard_transit_write(const struct twz_transit_db *db,
			    const struct twz_grid *g,
			    const struct twz_transit_options *topt,
			    const char *level_path,
			    const struct twz_bake_options *opt, unsigned index,
			    unsigned count, const char *path,
			    struct twz_error *err);

/* Whether buf starts as a partial file does. */
int twz_shard_is_partial(const uint8_t *buf, size_t len);

/* What a merge made. */
struct twz_merge_result {
	unsigned count;          /* shards */
	uint32_t node_count;
	uint32_t component_count;
	uint64_t run_count;
};

/*
 * Merge the partial files bufs[0..n) (named names[i] in messages, in any
 * order) into the database the bake on one machine writes, written
 * atomically to out. They must be every shard of one bake exactly once:
 * one level, one set of options, one count, each file whole. threads
 * compress the sections (0: every core). Nothing is written on error.
 */
int twz_shard_merge(const uint8_t *const *bufs, const size_t *lens,
		    const char *const *names, unsigned n, unsigned threads,
		    const char *out, struct twz_merge_result *res,
		    struct twz_error *err);

#endif
