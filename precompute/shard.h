/*
 * shard.h - a bake cut into shards that separate machines run, for any
 * method (bake_method.h) and agent sizes: the partial file one shard
 * writes (the .twz container under its own magic, so no runtime opens
 * it), and the merge of every shard's partial file into the database
 * the bake on one machine writes, byte for byte.
 *
 * A partial file carries the level file's bytes and every option that
 * decides the bytes, then, for each agent-size layer, the method's
 * results of the shard as streams (bake_method.h): a stream's items are
 * a contiguous range, so the merge lays the shards' streams end to end
 * and hands them to the method as the whole bake's.
 */
#ifndef SHARD_H
#define SHARD_H

#include <stddef.h>
#include <stdint.h>

#include "bake.h"
#include "agent_sizes.h"
#include "bake_method.h"
#include "level_map.h"
#include "twz_error.h"
#include "twz_writer.h"

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
	/* stream s of layer l: kind TWZ_PART_STREAM + 2 (TWZ_MAX_STREAMS l
	 * + s) holds u32 lo, u32 hi and, for a stream of recorded sizes,
	 * each item's size; the next kind its bytes */
	TWZ_PART_STREAM = 96,
};
#define TWZ_PART_NAME_MAX 4096u     /* bytes of a level's name */

/* TWZ_PART_INFO: the shard and every option its bytes depend on. */
#define TWZ_PI_VERSION 0      /* u32 3 */
#define TWZ_PI_INDEX 4        /* u32 shard, from 1 */
#define TWZ_PI_COUNT 8        /* u32 shards */
#define TWZ_PI_METHOD 12      /* u8  TWZ_BAKE_* */
#define TWZ_PI_LAYOUT 13      /* u8  option --format (TWZ_LAYOUT_*, 0) */
#define TWZ_PI_CONNECTIVITY 14 /* u8 4 or 8 */
#define TWZ_PI_CODEC 15       /* u8  TWZ_CODEC_* of the database */
#define TWZ_PI_LEVEL 16       /* i8  zstd level */
#define TWZ_PI_FAR 17         /* u8  TRANSIT's far layout, TWZ_TRANSIT_* */
#define TWZ_PI_MAX_SCAN 20    /* u32 option max_scan */
#define TWZ_PI_AGENT_SIZES 24 /* u32 option --agent-sizes, as bits */
#define TWZ_PI_CHUNK 28       /* u32 option --chunk, bytes (0: none) */
#define TWZ_PI_TGRID 32       /* u32 option --transit-grid (0: default) */
#define TWZ_PI_TINNER 36      /* u32 option --transit-inner (0: default) */
#define TWZ_PI_TOUTER 40      /* u32 option --transit-outer (0: default) */
#define TWZ_PI_SIZE 64        /* the rest zero */
#define TWZ_PI_VERSION_NOW 3

/* "I/N", two whole decimal numbers from 1 to TWZ_SHARD_MAX: 0, or -1.
 * I may exceed N: the caller says what is wrong. */
int twz_shard_parse(const char *s, unsigned *index, unsigned *count);

/* Whether buf starts as a partial file does. */
int twz_shard_is_partial(const uint8_t *buf, size_t len);

/* The partial file of shard opt->shard of opt->shards to sink: the
 * results of that shard of every layer of ly, baked by its method, and
 * the level file's bytes the layers were made from. 0, or -1 with err
 * set. */
int twz_shard_write(const struct twz_layers *ly, const uint8_t *level,
		    size_t level_len, const struct twz_bake_options *opt,
		    const struct twz_sink *sink, struct twz_error *err);

/* What a merge made. */
struct twz_merge_result {
	unsigned count;          /* shards */
	uint32_t node_count;     /* of the smallest agent size's layer */
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
