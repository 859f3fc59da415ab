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
#include "transit.h"
#include "twz_validate_layers.h"

/* What to bake: sizes ascending, without repeats, 1 to
 * TWZ_MAX_AGENT_SIZE; topt NULL for CPD, the TRANSIT options otherwise. */
struct twz_agent_request {
	unsigned sizes[TWZ_MAX_AGENT_SIZE];
	unsigned count;
	const struct twz_transit_options *topt;
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

/* Bake g for every size of req and encode one file into *buf (malloc'd).
 * 0, or -1 with err set. The bytes do not depend on opt->threads. */
int twz_agent_encode(const struct twz_grid *g,
		     const struct twz_bake_options *opt,
		     const struct twz_agent_request *req, uint8_t **buf,
		     size_t *len, struct twz_agent_result *res,
		     struct twz_error *err);

/* The same, written atomically to path. */
int twz_agent_write(const struct twz_grid *g,
		    const struct twz_bake_options *opt,
		    const struct twz_agent_request *req, const char *path,
		    struct twz_agent_result *res, struct twz_error *err);

#endif
