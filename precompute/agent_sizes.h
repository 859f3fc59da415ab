/*
 * agent_sizes.h - one file for agents of several sizes (agent_sizes.c):
 * the level each size sees (clearance.h), sizes that see the same cells
 * sharing one database, each database baked by the chosen method, and
 * the layered file of format section 5c written from them.
 */
#ifndef AGENT_SIZES_H
#define AGENT_SIZES_H

#include <stdint.h>

#include "bake.h"
#include "level_map.h"
#include "twz_validate_layers.h"

/* The rows' layout of a layer of a file with several agent sizes:
 * 1.4's inline records are a single database's (layer kinds stop at
 * 47, FORMAT.md section 5c), so a layer asked 1.4 keeps 1.2's. */
static inline unsigned twz_layer_layout(unsigned layout)
{
	return layout == TWZ_LAYOUT_INLINE ? TWZ_LAYOUT_NARROW : layout;
}

/* The sizes asked: ascending, without repeats, 1 to TWZ_MAX_AGENT_SIZE. */
struct twz_agent_request {
	unsigned sizes[TWZ_MAX_AGENT_SIZE];
	unsigned count;
};

/* What was baked, one entry a layer. */
struct twz_agent_layer {
	unsigned first_size, last_size;   /* the sizes it answers */
	uint32_t node_count, component_count;
	uint64_t run_count;
	double seconds;                   /* its bake's wall time */
};

struct twz_agent_result {
	unsigned layer_count;
	struct twz_agent_layer layer[TWZ_MAX_LAYERS];
	unsigned sections;                /* in the file */
};

/* Parse "1,2,3" (any order) into req. 0, or -1 with a message in err. */
int twz_agent_sizes_parse(const char *text, struct twz_agent_request *req,
			  struct twz_error *err);

struct twz_bake_method;
struct twz_sink;
struct twz_spool;

/*
 * The layers a bake of g lays into its file: without agent sizes (or
 * size 1 alone) one, g itself, written as a plain file; with them, one
 * a distinct set of cells the sizes stand on (clearance.h), the sizes
 * that see the same cells sharing one (FORMAT.md 5c). Each layer is a
 * bake of the method m, its state db[l].
 */
struct twz_layers {
	int layered;                      /* an AGENT_SIZES file */
	unsigned count;
	struct twz_grid grid[TWZ_MAX_LAYERS];
	int owned[TWZ_MAX_LAYERS];        /* grid[l] is made here */
	struct twz_agent_request req;     /* the sizes */
	uint8_t layer_of[TWZ_MAX_AGENT_SIZE];
	struct twz_agent_result res;      /* the sizes of each layer; the
					     bake fills in its counts */
	const struct twz_bake_method *m;
	void *db[TWZ_MAX_LAYERS];         /* prepared by twz_layer_prepare */
	struct twz_bake_options opt[TWZ_MAX_LAYERS]; /* each one's options */
	char name[TWZ_MAX_LAYERS][600];   /* each one's name in messages */
	uint32_t *milli[TWZ_MAX_LAYERS];  /* with areas: each one's cost
					     multipliers (made here) */
};

/* The layers of g for a bake of m with opt. 0, or -1 with err set (out
 * of memory; more layers than a file holds sections for, refused
 * before anything is baked). */
int twz_layers_make(const struct twz_grid *g, const struct twz_bake_options *opt,
		    const struct twz_bake_method *m, struct twz_layers *ly,
		    struct twz_error *err);
/* Frees every layer's grid and db. */
void twz_layers_free(struct twz_layers *ly);

/* Layer l prepared by the method (bake_method.h), its big arrays in
 * spool when not NULL; its options are ly->opt[l] (a layer keeps 1.2's
 * rows where the file asks 1.4's: FORMAT.md 5c, a layer's kinds stop at
 * 47). 0, or -1 with err set. */
int twz_layer_prepare(struct twz_layers *ly, unsigned l,
		      struct twz_spool *spool, struct twz_error *err);

/* The file of the bake with opt: every layer (baked and finished)
 * emitted by the method and laid into one, written to sink. 0, or -1
 * with err set. */
int twz_layers_write(struct twz_layers *ly, const struct twz_bake_options *opt,
		     struct twz_spool *spool, const struct twz_sink *sink,
		     struct twz_error *err);

#endif
