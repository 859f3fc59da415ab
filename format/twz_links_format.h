/*
 * twz_links_format.h - off-mesh links (format 1.5, FORMAT.md section 5l):
 * what a graph level baked with `twigz build --links FILE` adds. Written
 * by precompute/ (level_links.c, bake_graph.c), checked by
 * format/twz_validate_links.c, read by runtime/twz_graph.c and the graph
 * geometry.
 */
#ifndef TWZ_LINKS_FORMAT_H
#define TWZ_LINKS_FORMAT_H

#include <stdint.h>

#include "twz_format.h"

/* Required feature bit: a reader that does not know it would take a
 * row's link for a missing arc and call the file damaged. */
#define TWZ_FEATURE_LINKS (1u << 10)
enum twz_links_section_kind {
	TWZ_SECTION_LINK_FIRST = 13,  /* u32[N + 1]: node n's link arcs are
				       * [first[n], first[n + 1]) */
	TWZ_SECTION_LINK_ARCS = 14,   /* TWZ_LA_SIZE bytes a link arc */
};
#define TWZ_SECTION_LINKS_FIRST 13
#define TWZ_SECTION_LINKS_MAX 14

/* Most link arcs a file holds (a two-way link is two), and so most
 * links a links file gives. */
#define TWZ_LINK_ARC_LIMIT (1u << 20)

/* A LINK_ARCS record: one way of one link. */
#define TWZ_LA_HEAD 0       /* u32 the node it leads to */
#define TWZ_LA_LINK 4       /* u32 the link's number: its line in the
			     * links file, from 0 */
#define TWZ_LA_WEIGHT 8     /* u64 its weight, 1 to max_weight */
#define TWZ_LA_SIZE 16

/* A link number no link has: "this step is an arc". */
#define TWZ_LINK_NONE 0xFFFFFFFFu

#endif /* TWZ_LINKS_FORMAT_H */
