/*
 * twz_validate_layers.h - agent sizes (format 1.3, FORMAT.md section 5c):
 * the AGENT_SIZES section, which maps each agent size a file was baked
 * for to a layer, and the section kinds of each layer. Layer 0 is the
 * file's own sections; layer l >= 1 holds the same kinds moved up by
 * l * TWZ_LAYER_KIND_STRIDE. Pure like twz_validate.h: bytes in, status
 * out. The writer (precompute/agent_sizes.c) and the reader
 * (runtime/twz_layers.c) share these definitions.
 */
#ifndef TWZ_VALIDATE_LAYERS_H
#define TWZ_VALIDATE_LAYERS_H

#include "twz_validate.h"

#define TWZ_SECTION_AGENT_SIZES 10   /* size -> layer table, below */
#define TWZ_LAYER_KIND_STRIDE 256u   /* layer l's kinds: k + 256 * l */
#define TWZ_MAX_AGENT_SIZE 16u       /* sizes 1 to 16 cells */
#define TWZ_MAX_LAYERS 16u           /* layers 0 to 15: kinds below 4096 */
#define TWZ_LAYER_FORMAT_MINOR 3     /* the minor that added them */

/* AGENT_SIZES: a head, layer_count layer records, size_count size
 * records. */
#define TWZ_AS_SIZE_COUNT 0          /* u32  sizes listed, 1 to 16 */
#define TWZ_AS_LAYER_COUNT 4         /* u32  layers, 1 to size_count */
#define TWZ_AS_HEAD_SIZE 8
#define TWZ_AL_NODE_COUNT 0          /* u32  the layer's nodes */
#define TWZ_AL_COMPONENT_COUNT 4     /* u32  its regions */
#define TWZ_AL_REQUIRED 8            /* u64  its required feature bits */
#define TWZ_AL_SIZE 16
#define TWZ_AZ_SIZE 0                /* u32  agent size, cells */
#define TWZ_AZ_LAYER 4               /* u32  the layer answering it */
#define TWZ_AZ_RECORD 8
/* The largest table check A1 admits. */
#define TWZ_AS_MAX_SIZE \
	(TWZ_AS_HEAD_SIZE + TWZ_MAX_LAYERS * TWZ_AL_SIZE + \
	 TWZ_MAX_AGENT_SIZE * TWZ_AZ_RECORD)

/* What AGENT_SIZES says, once checked. */
struct twz_layer_table {
	unsigned size_count;
	unsigned layer_count;
	uint32_t size[TWZ_MAX_AGENT_SIZE];      /* ascending */
	uint8_t layer_of[TWZ_MAX_AGENT_SIZE];   /* size[i]'s layer */
	uint32_t node_count[TWZ_MAX_LAYERS];
	uint32_t component_count[TWZ_MAX_LAYERS];
	uint64_t required[TWZ_MAX_LAYERS];
};

/* Checks A1 to A5 of FORMAT.md section 5c on the decoded AGENT_SIZES
 * bytes of the file described by c, filling t. */
twz_status twz_validate_agent_sizes(const struct twz_container *c,
				    const uint8_t *data, uint64_t size,
				    struct twz_layer_table *t);

/* Layer l's database as a container of its own: c's grid, method and
 * order with the layer's counts and features, and its sections (kinds
 * moved down to 1 to 47) in place of the file's. The result is valid
 * input for twz_validate_content once its sections are decoded. */
void twz_layer_container(const struct twz_container *c,
			 const struct twz_layer_table *t, unsigned l,
			 struct twz_container *out);

/* The kind a layer-l section of kind `kind` has in the file. */
static inline uint32_t twz_layer_kind(unsigned l, uint32_t kind)
{
	return kind + TWZ_LAYER_KIND_STRIDE * l;
}

#endif /* TWZ_VALIDATE_LAYERS_H */
