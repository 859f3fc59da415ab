/*
 * twz_graph_format.h - the on-disk layout of graph levels (format 1.4,
 * TWZ_H_LEVEL_KIND = TWZ_LEVEL_GRAPH, feature bit 3, section kinds
 * 48..63): a weighted directed graph stored as CSR out-arcs, the file's
 * own vertex ids, and CPD rows whose symbols are out-arc indexes.
 * FORMAT.md, section 5e, is the spec; a navmesh file (kind 2) carries
 * the same sections for its polygon graph.
 */
#ifndef TWZ_GRAPH_FORMAT_H
#define TWZ_GRAPH_FORMAT_H

#include "twz_format.h"

/* Required by every file whose nodes are a graph's vertices. */
#define TWZ_FEATURE_GRAPH_LEVEL (1u << 3)

enum twz_graph_section_kind {
	TWZ_SECTION_GRAPH_PARAMS = 48,     /* TWZ_GP_SIZE bytes, below */
	TWZ_SECTION_GRAPH_REGIONS = 49,    /* u32[regions + 1]: first node */
	TWZ_SECTION_GRAPH_ARC_FIRST = 50,  /* u32[node_count + 1]: first arc */
	TWZ_SECTION_GRAPH_ARC_HEAD = 51,   /* u32[arcs]: head node */
	TWZ_SECTION_GRAPH_ARC_WEIGHT = 52, /* u64[arcs]: weight, >= 1 */
	TWZ_SECTION_GRAPH_NODE_ID = 53,    /* u32[node_count]: file id */
	TWZ_SECTION_GRAPH_ID_NODE = 54,    /* u32[node_count]: node of id */
	TWZ_SECTION_GRAPH_ROW_OFFSETS = 55, /* u32[node_count + 1]: first run */
	TWZ_SECTION_GRAPH_RUN_START = 56,  /* u32[runs]: first target */
	TWZ_SECTION_GRAPH_RUN_ARC = 57,    /* u8/u16/u32[runs]: out-arc */
	TWZ_SECTION_GRAPH_COORDS = 58,     /* i64[2 * node_count]: x, y */
};
#define TWZ_SECTION_GRAPH_FIRST 48
#define TWZ_SECTION_GRAPH_MAX 58
#define TWZ_SECTION_GRAPH_LAST 63      /* the range graph levels own */

/* GRAPH_PARAMS fields (byte offsets). */
#define TWZ_GP_ARC_COUNT 0     /* u32    arcs in ARC_HEAD and ARC_WEIGHT */
#define TWZ_GP_MAX_DEGREE 4    /* u32    most out-arcs of one node */
#define TWZ_GP_ARC_BYTES 8     /* u32    1, 2 or 4: a RUN_ARC entry */
#define TWZ_GP_FLAGS 12        /* u32    TWZ_GF_* */
#define TWZ_GP_RUN_COUNT 16    /* u64    entries of RUN_START, RUN_ARC */
#define TWZ_GP_MAX_WEIGHT 24   /* u64    no arc weighs more */
#define TWZ_GP_ID_BASE 32      /* u32    ids are id_base .. id_base + N - 1 */
#define TWZ_GP_RESERVED 36     /* u8[28] zero */
#define TWZ_GP_SIZE 64

#define TWZ_GF_COORDS 0x1u     /* GRAPH_COORDS is present */
#define TWZ_GF_KNOWN TWZ_GF_COORDS

/*
 * A run's arc is the index of one of the source's out-arcs (its arcs
 * are sorted by head node) that starts an optimal path to every target
 * of the run, or TWZ_GRAPH_UNREACHABLE(bytes) for targets of the region
 * that the source cannot reach. Rows keep every optimal arc of the
 * first TWZ_GRAPH_MASK_ARCS out-arcs as a choice; a node with more
 * out-arcs stores the lowest-index optimal arc.
 */
#define TWZ_GRAPH_MASK_ARCS 63u
static inline uint32_t twz_graph_unreachable(unsigned arc_bytes)
{
	return arc_bytes == 4 ? 0xFFFFFFFFu : (1u << (8 * arc_bytes)) - 1;
}

/* The run-arc entry i of a RUN_ARC section of arc_bytes entries. */
static inline uint32_t twz_graph_run_arc(const uint8_t *p, unsigned arc_bytes,
					 uint64_t i)
{
	if (arc_bytes == 1)
		return p[i];
	if (arc_bytes == 2)
		return twz_le16(p + 2 * i);
	return twz_le32(p + 4 * i);
}

/* The bytes a RUN_ARC entry needs for nodes of at most max_degree arcs. */
static inline unsigned twz_graph_arc_bytes(uint32_t max_degree)
{
	return max_degree < 0xFFu ? 1 : max_degree < 0xFFFFu ? 2 : 4;
}

/* Whether arcs of weight up to w can never overflow a u64 path cost
 * (UINT64_MAX stays free for "unreachable") over the n - 1 arcs of an
 * optimal path in n nodes. */
static inline int twz_graph_weight_ok(uint64_t w, uint32_t n)
{
	uint64_t arcs = n > 1 ? n - 1 : 1;
	return w <= (UINT64_MAX - 1) / arcs;
}

#endif /* TWZ_GRAPH_FORMAT_H */
