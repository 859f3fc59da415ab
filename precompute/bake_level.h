/*
 * bake_level.h - the bake's front door: a level file in, a database (or
 * one shard's partial file) out. The level's kind comes from its file
 * name; the options are checked once, against each other and the kind
 * (twz_bake_refusal holds every combination the bake refuses, with its
 * reason); the method and the road (in memory, through the spool, one
 * shard) are chosen once, here.
 */
#ifndef BAKE_LEVEL_H
#define BAKE_LEVEL_H

#include <stddef.h>
#include <stdint.h>

#include "agent_sizes.h"
#include "bake.h"
#include "twz_error.h"

/* The kind of level a file name says (TWZ_LEVEL_*): a graph for .gr, a
 * navmesh for .obj (any case), a grid otherwise. */
unsigned twz_level_kind_of(const char *path);

/* Why opt cannot bake a level of that kind (one line naming the options,
 * without the level's name), or NULL when it can. */
const char *twz_bake_refusal(const struct twz_bake_options *opt,
			     unsigned kind);

/* What a bake made, for the tool's summary. */
struct twz_bake_report {
	char what[16];           /* "" for a grid CPD, " (transit)", ... */
	int streamed;            /* it went through the spool */
	char summary[2048];      /* its counts and times, one line (agent
				    sizes: a line a layer after it) */
	struct twz_text text;    /* the summary being written */
	struct twz_agent_result agents;  /* its layers: one without agent
					    sizes */
};

/* Bake the level file at path with opt (refused first, with
 * TWZ_ERR_USAGE, when twz_bake_refusal says so) and write the database,
 * or shard opt->shard of opt->shards' partial file, atomically to out.
 * rep may be NULL. 0, or -1 with err set. */
int twz_bake_file(const char *path, const struct twz_bake_options *opt,
		  const char *out, struct twz_bake_report *rep,
		  struct twz_error *err);

/* The file of g baked with opt (CPD or TRANSIT, agent sizes too) into
 * memory (malloc'd), as twz_bake_file writes it from g's file. */
int twz_bake_grid_encode(const struct twz_grid *g,
			 const struct twz_bake_options *opt, uint8_t **buf,
			 size_t *len, struct twz_bake_report *rep,
			 struct twz_error *err);

/* Shard opt->shard of opt->shards of the grid level whose file's bytes
 * are level (name in messages), as a partial file in memory (malloc'd):
 * what each rank of an MPI bake sends to the one that merges. */
int twz_bake_part(const uint8_t *level, size_t level_len, const char *name,
		  const struct twz_bake_options *opt, uint8_t **part,
		  size_t *part_len, struct twz_error *err);

#endif
