/*
 * level_graph.h - weighted directed graphs in the DIMACS shortest-path
 * format of the 9th Implementation Challenge: the graph (.gr: "c"
 * comments, one "p sp N M", then M arcs "a U V W", ids from 1, integer
 * weights >= 1), its coordinates (.co: "p aux sp co N", then "v ID X Y")
 * and point-to-point queries (.p2p: "p aux sp p2p K", then "q S T").
 * Lines may end in CR LF and carry trailing blanks; fields are separated
 * by spaces or tabs. Every problem is refused as "FILE:LINE: problem".
 */
#ifndef LEVEL_GRAPH_H
#define LEVEL_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "twz_error.h"

/* Graph files larger than this are refused before they are read whole. */
#define TWZ_MAX_GRAPH_BYTES ((size_t)1 << 30)

/* Parse a .gr graph from memory (name in messages) into g: nodes are the
 * ids 1..N in order (id_base 1), loops dropped, parallel arcs merged into
 * the cheapest; the level hash is that of the bytes. Refuses a missing
 * or second p line, an arc before it, ids out of range, weights that are
 * not positive integers or could overflow a 64-bit path cost over N - 1
 * arcs, an arc count other than M, and any other line. 0 on success. */
int twz_graph_parse(const uint8_t *buf, size_t len, const char *name,
		    struct twz_graph *g, struct twz_error *err);
int twz_graph_load(const char *path, struct twz_graph *g,
		   struct twz_error *err);

/* Parse a .co file for g's nodes into g->coord: its p line must say g's
 * node count, and every id must be given once. 0 on success. */
int twz_coords_parse(const uint8_t *buf, size_t len, const char *name,
		     struct twz_graph *g, struct twz_error *err);
int twz_coords_load(const char *path, struct twz_graph *g,
		    struct twz_error *err);

/*
 * Off-mesh links for g (`twigz build LEVEL.gr --links FILE`, FORMAT.md
 * 5l): one link a line, `FROM TO COST oneway|both`, FROM and TO ids of
 * g (1..N, not equal), COST a whole weight of at least 1; blank lines
 * and lines starting with '#' skipped. A link is numbered by its place
 * among the file's links, from 0; `both` gives two link arcs of one
 * number. Fills g->link, g->link_count, g->link_numbers and raises
 * g->max_cost; refuses a weight that could overflow a path's cost and
 * more than TWZ_LINK_ARC_LIMIT link arcs. 0 on success.
 */
int twz_links_parse(const uint8_t *buf, size_t len, const char *name,
		    struct twz_graph *g, struct twz_error *err);
int twz_links_load(const char *path, struct twz_graph *g,
		   struct twz_error *err);

/* A .p2p query list: pairs of ids (as written; 1..max_id). */
struct twz_p2p {
	uint32_t count;
	uint32_t *pair;        /* [2 * count]: source id, target id */
};

/* Parse a .p2p file whose ids must lie in 1..max_id; the q lines must
 * be as many as its p line says. 0 on success. */
int twz_p2p_parse(const uint8_t *buf, size_t len, const char *name,
		  uint32_t max_id, struct twz_p2p *q, struct twz_error *err);
int twz_p2p_load(const char *path, uint32_t max_id, struct twz_p2p *q,
		 struct twz_error *err);
void twz_p2p_free(struct twz_p2p *q);

#endif /* LEVEL_GRAPH_H */
