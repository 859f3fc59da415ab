/*
 * twz_validate.c - the container: header and section table (steps 1 and
 * 2 of FORMAT.md, "Validation order"), the checksum, and content
 * validation handed to the validator of the file's method; see
 * twz_validate.h.
 */
#include "twz_validate.h"
#include "twz_costs_format.h"
#include "twz_links_format.h"
#include "twz_validate_method.h"
#include "twz_build_info.h"
#include "twz_validate_graph.h"
#include "twz_validate_navmesh.h"
#include "twz_navmesh_format.h"
#include "twz_section_load.h"
#include "twz_validate_layers.h"

#include <xxhash.h>

/* The most a zstd block decodes to (the format's Block_Maximum_Size). */
#define TWZ_ZSTD_BLOCK_MAX 131072u

uint64_t twz_checksum(const void *data, size_t len)
{
	return XXH3_64bits(data, len);
}

/* The header of a graph level: no grid, nodes and regions only, the
 * CPD method over a DFS order (FORMAT.md section 5e). */
static twz_status parse_graph_header(const struct twz_container *c)
{
	if (c->width || c->height || c->connectivity ||
	    c->method != TWZ_METHOD_CPD || c->node_order != TWZ_ORDER_DFS ||
	    c->build_codec > TWZ_CODEC_ZSTD || c->minor < 4)
		return TWZ_E_DAMAGED;
	if (c->node_count > TWZ_MAX_NODES)
		return TWZ_E_LIMIT;
	if (c->component_count > c->node_count ||
	    (c->node_count > 0) != (c->component_count > 0))
		return TWZ_E_DAMAGED;
	/* Grid layouts' bits mean nothing here. */
	if (c->required_features & (TWZ_FEATURE_DIRECTION_SYMBOLS |
				    TWZ_FEATURE_BUCKETED_ROWS |
				    TWZ_FEATURE_NARROW_CELL_NODE |
				    TWZ_FEATURE_JUNCTIONS))
		return TWZ_E_DAMAGED;
	return TWZ_OK;
}

static twz_status parse_header(const uint8_t *buf, size_t len,
			       const char *magic, struct twz_container *c)
{
	if (len < TWZ_MAGIC_SIZE || memcmp(buf, magic, TWZ_MAGIC_SIZE))
		return TWZ_E_NOT_TWIGZ;
	if (len < TWZ_HEADER_SIZE)
		return TWZ_E_DAMAGED;
	c->major = twz_le16(buf + TWZ_H_MAJOR);
	c->minor = twz_le16(buf + TWZ_H_MINOR);
	/* A newer major may move anything, the checksum included. */
	if (c->major > TWZ_FORMAT_MAJOR)
		return TWZ_E_VERSION;
	if (twz_checksum(buf, TWZ_H_HEADER_CHECKSUM) !=
	    twz_le64(buf + TWZ_H_HEADER_CHECKSUM))
		return TWZ_E_CHECKSUM;
	if (c->major == 0 ||
	    twz_le32(buf + TWZ_H_HEADER_SIZE) != TWZ_HEADER_SIZE)
		return TWZ_E_DAMAGED;
	if (!twz_all_zero(buf + TWZ_H_RESERVED, TWZ_H_RESERVED_END - TWZ_H_RESERVED))
		return TWZ_E_RESERVED;
	/* A level kind this reader has no back end for. */
	c->level_kind = buf[TWZ_H_LEVEL_KIND];
	if (c->level_kind != TWZ_LEVEL_GRID && c->level_kind != TWZ_LEVEL_GRAPH &&
	    c->level_kind != TWZ_LEVEL_NAVMESH)
		return TWZ_E_FEATURE;
	c->required_features = twz_le64(buf + TWZ_H_REQUIRED);
	c->optional_features = twz_le64(buf + TWZ_H_OPTIONAL);
	if (c->required_features & ~(uint64_t)TWZ_FEATURES_KNOWN_REQUIRED)
		return TWZ_E_FEATURE;
	/* Graph sections go with a graph's level kind, and only there. */
	if (!(c->required_features & TWZ_FEATURE_GRAPH_LEVEL) !=
	    (c->level_kind == TWZ_LEVEL_GRID))
		return TWZ_E_DAMAGED;
	/* Navmesh sections go with the navmesh kind, and only there. */
	if (!(c->required_features & TWZ_FEATURE_NAVMESH) !=
	    (c->level_kind != TWZ_LEVEL_NAVMESH))
		return TWZ_E_DAMAGED;
	c->file_size = twz_le64(buf + TWZ_H_FILE_SIZE);
	if (c->file_size != len)
		return TWZ_E_DAMAGED;
	c->section_count = twz_le32(buf + TWZ_H_SECTION_COUNT);
	c->level_hash = twz_le64(buf + TWZ_H_LEVEL_HASH);
	c->width = twz_le32(buf + TWZ_H_WIDTH);
	c->height = twz_le32(buf + TWZ_H_HEIGHT);
	c->node_count = twz_le32(buf + TWZ_H_NODE_COUNT);
	c->component_count = twz_le32(buf + TWZ_H_COMPONENT_COUNT);
	c->method = buf[TWZ_H_METHOD];
	c->connectivity = buf[TWZ_H_CONNECTIVITY];
	c->node_order = buf[TWZ_H_NODE_ORDER];
	c->build_codec = buf[TWZ_H_BUILD_CODEC];
	c->build_level = (int8_t)buf[TWZ_H_BUILD_LEVEL];

	if (c->section_count > TWZ_MAX_SECTIONS)
		return TWZ_E_LIMIT;
	if (twz_le32(buf + TWZ_H_TABLE_OFFSET) != TWZ_HEADER_SIZE)
		return TWZ_E_DAMAGED;
	if (c->level_kind != TWZ_LEVEL_GRID)
		return parse_graph_header(c);
	if (c->width == 0 || c->height == 0 || c->width > TWZ_MAX_SIDE ||
	    c->height > TWZ_MAX_SIDE)
		return TWZ_E_LIMIT;
	if ((uint64_t)c->width * c->height > TWZ_MAX_CELLS)
		return TWZ_E_LIMIT;
	if (c->node_count > (uint64_t)c->width * c->height ||
	    c->component_count > c->node_count ||
	    (c->node_count > 0 && c->component_count == 0))
		return TWZ_E_DAMAGED;
	/* The order names the method's layout; an unknown one would also
	 * skip the region checks that rest on DFS order. */
	if ((c->method != TWZ_METHOD_CPD && c->method != TWZ_METHOD_TRANSIT) ||
	    c->node_order != (c->method == TWZ_METHOD_CPD ? TWZ_ORDER_DFS
							  : TWZ_ORDER_BLOCKS) ||
	    (c->connectivity != 4 && c->connectivity != 8) ||
	    c->build_codec > TWZ_CODEC_ZSTD)
		return TWZ_E_DAMAGED;
	/* u16 cells name nodes below 0xFFFF, and only the bucketed CPD
	 * layout reads them. */
	if ((c->required_features & TWZ_FEATURE_NARROW_CELL_NODE) &&
	    (!(c->required_features & (TWZ_FEATURE_BUCKETED_ROWS |
				       TWZ_FEATURE_CPD_INLINE)) ||
	     c->method != TWZ_METHOD_CPD || c->node_count >= TWZ_NARROW_NONE))
		return TWZ_E_DAMAGED;
	/* 1.4's inline rows are a CPD layout of their own (check I1). */
	if ((c->required_features & TWZ_FEATURE_CPD_INLINE) &&
	    ((c->required_features & TWZ_FEATURE_BUCKETED_ROWS) ||
	     c->method != TWZ_METHOD_CPD))
		return TWZ_E_DAMAGED;
	return TWZ_OK;
}

static twz_status parse_table(const uint8_t *buf, size_t len,
			      struct twz_container *c)
{
	uint64_t table_end = TWZ_HEADER_SIZE +
			     (uint64_t)c->section_count * TWZ_SECTION_ENTRY_SIZE;
	if (table_end > len)
		return TWZ_E_DAMAGED;
	if (twz_checksum(buf + TWZ_HEADER_SIZE, table_end - TWZ_HEADER_SIZE) !=
	    twz_le64(buf + TWZ_H_TABLE_CHECKSUM))
		return TWZ_E_CHECKSUM;

	uint64_t prev_end = table_end;
	for (uint32_t i = 0; i < c->section_count; i++) {
		const uint8_t *e = buf + TWZ_HEADER_SIZE +
				   (size_t)i * TWZ_SECTION_ENTRY_SIZE;
		struct twz_section_ref *s = &c->sections[i];
		s->kind = twz_le32(e + TWZ_S_KIND);
		s->codec = twz_le16(e + TWZ_S_CODEC);
		s->offset = twz_le64(e + TWZ_S_OFFSET);
		s->size = twz_le64(e + TWZ_S_SIZE);
		s->raw_size = twz_le64(e + TWZ_S_RAW_SIZE);
		s->raw_checksum = twz_le64(e + TWZ_S_RAW_CHECKSUM);
		s->flags = twz_le16(e + TWZ_S_FLAGS);
		/* The flags are reserved but in a file with chunks. */
		uint16_t known = c->required_features & TWZ_FEATURE_CHUNKED_SECTIONS
				 ? TWZ_SF_KNOWN : 0;
		if ((s->flags & ~known) || twz_le64(e + TWZ_S_RESERVED))
			return TWZ_E_RESERVED;
		if (s->codec > TWZ_CODEC_ZSTD)
			return TWZ_E_DAMAGED;
		/* Chunks are zstd frames. */
		if ((s->flags & TWZ_SF_CHUNKED) && s->codec != TWZ_CODEC_ZSTD)
			return TWZ_E_DAMAGED;
		/* Sections are stored in table order, ascending, aligned and
		 * apart: this rules out overlap with one comparison each. */
		if (s->offset % TWZ_SECTION_ALIGN || s->offset < prev_end ||
		    s->offset > len || s->size > len - s->offset)
			return TWZ_E_DAMAGED;
		/* Nothing hides between sections: no checksum covers it. */
		if (!twz_all_zero(buf + prev_end, (size_t)(s->offset - prev_end)))
			return TWZ_E_RESERVED;
		if (s->raw_size > TWZ_MAX_RAW_SECTION)
			return TWZ_E_LIMIT;
		if (s->codec == TWZ_CODEC_RAW && s->size != s->raw_size)
			return TWZ_E_DAMAGED;
		/* Each zstd block that yields bytes takes at least 4 and yields
		 * at most 128 KiB: a larger claim cannot be true, and is
		 * refused before anything is allocated for it. */
		if (s->codec == TWZ_CODEC_ZSTD &&
		    s->raw_size / TWZ_ZSTD_BLOCK_MAX +
				    (s->raw_size % TWZ_ZSTD_BLOCK_MAX != 0) > s->size / 4)
			return TWZ_E_DAMAGED;
		for (uint32_t j = 0; j < i; j++)
			if (c->sections[j].kind == s->kind)
				return TWZ_E_DAMAGED;
		prev_end = s->offset + s->size;
	}
	if (!twz_all_zero(buf + prev_end, (size_t)(len - prev_end)))
		return TWZ_E_RESERVED;
	return TWZ_OK;
}

twz_status twz_parse_container_as(const uint8_t *buf, size_t len,
				  const char *magic, struct twz_container *c)
{
	twz_status st;

	memset(c, 0, sizeof *c);
	if (!buf)
		return TWZ_E_ARGUMENT;
	st = parse_header(buf, len, magic, c);
	if (st != TWZ_OK)
		return st;
	return parse_table(buf, len, c);
}

twz_status twz_parse_container(const uint8_t *buf, size_t len,
			       struct twz_container *c)
{
	return twz_parse_container_as(buf, len, TWZ_MAGIC, c);
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* The TRANSIT kinds: their sizes follow from the parameters. */
static uint64_t transit_limit(const struct twz_container *c,
			      const struct twz_tparams *pr,
			      uint32_t kind, int *exact)
{
	uint64_t n = c->node_count, m = pr->m;
	uint64_t blocks = (uint64_t)pr->cols * pr->rows;
	uint64_t list = twz_transit_list_cap(pr);
	/* Nodes of the blocks near one block: at most (2 outer + 1)^2
	 * blocks of side^2 cells, and at most all of them. */
	uint64_t near_side = (2 * (uint64_t)pr->outer + 1) * pr->side;
	uint64_t near = near_side > n ? n : min64(n, near_side * near_side);

	*exact = 1;
	switch (kind) {
	case TWZ_SECTION_TRANSIT_BLOCKS:
		return (blocks + 1) * TWZ_TB_SIZE;
	case TWZ_SECTION_TRANSIT_NODES:
		return 4 * m;
	case TWZ_SECTION_TRANSIT_TABLE:
		return pr->dist_bytes * (m * (m ? m - 1 : 0) / 2);
	case TWZ_SECTION_TRANSIT_ROW_OFFSETS:
	case TWZ_SECTION_ACCESS_FIRST:
		return 4 * (n + 1);
	case TWZ_SECTION_ACCESS_NODES:
		return TWZ_AN_SIZE * m;
	case TWZ_SECTION_ACCESS_BLOCK_FIRST:
		return 4 * (blocks + 1);
	}
	*exact = 0;
	switch (kind) {
	case TWZ_SECTION_TRANSIT_LISTS:
		/* Lists only in blocks with nodes. */
		return 4 * min64(blocks, n) * list;
	case TWZ_SECTION_TRANSIT_NODE_DIST:
		return pr->dist_bytes * n * list;
	case TWZ_SECTION_TRANSIT_RUNS:
		return 4 * min64(TWZ_MAX_RUNS, n * (1 + near));
	case TWZ_SECTION_ACCESS:
		return TWZ_AE_SIZE * n * list;
	case TWZ_SECTION_ACCESS_PACKED:
	case TWZ_SECTION_ACCESS_BLOCK_LIST:
		/* a block lists only what its nodes' entries name */
		return 4 * n * list;
	case TWZ_SECTION_ACCESS_TABLE:
		/* m <= node_count < 2^26: no overflow */
		return (m * (m ? m - 1 : 0) / 2 * 2 * TWZ_AN_MAX_WIDTH + 7) / 8 +
		       TWZ_AT_PAD;
	}
	return TWZ_NO_LIMIT;
}

uint64_t twz_section_raw_limit(const struct twz_container *c,
			       const struct twz_tparams *pr,
			       uint32_t kind, int *exact)
{
	uint64_t n = c->node_count;

	*exact = 0;
	/* Any file may say how it was baked: check B1's largest. */
	if (kind == TWZ_SECTION_BUILD_INFO)
		return TWZ_BUILD_INFO_MAX;
	if ((c->required_features & TWZ_FEATURE_AREAS) &&
	    kind >= TWZ_SECTION_COSTS_FIRST && kind <= TWZ_SECTION_COSTS_MAX)
		return twz_costs_raw_limit(c, kind, exact);
	if ((c->required_features & TWZ_FEATURE_LINKS) &&
	    kind >= TWZ_SECTION_LINKS_FIRST && kind <= TWZ_SECTION_LINKS_MAX)
		return twz_links_raw_limit(c, kind, exact);
	if (c->level_kind != TWZ_LEVEL_GRID) {
		if (c->level_kind == TWZ_LEVEL_NAVMESH &&
		    kind >= TWZ_SECTION_NAVMESH_FIRST &&
		    kind <= TWZ_SECTION_NAVMESH_MAX)
			return twz_navmesh_section_limit(c, kind, exact);
		if (kind >= TWZ_SECTION_GRAPH_FIRST && kind <= TWZ_SECTION_GRAPH_MAX)
			return twz_graph_section_limit(c, kind, exact);
		/* Nothing of a grid's (check G2): refused unread. */
		return TWZ_NO_LIMIT;
	}
	/* Agent sizes: the largest table check A1 admits. */
	if (kind == TWZ_SECTION_AGENT_SIZES)
		return TWZ_AS_MAX_SIZE;
	*exact = 1;
	switch (kind) {
	case TWZ_SECTION_CELL_NODE:
	case TWZ_SECTION_NODE_CELL:
	case TWZ_SECTION_NODE_COMPONENT:
	case TWZ_SECTION_ROW_OFFSETS:
	case TWZ_SECTION_NODE_RECORDS:
	case TWZ_SECTION_REGIONS:
		return twz_expected_raw_size(c, kind);
	case TWZ_SECTION_INLINE_RECORDS:
	case TWZ_SECTION_INLINE_RECORDS_WIDE:
		if (c->method == TWZ_METHOD_CPD)
			return twz_expected_raw_size(c, kind);
		break;
	case TWZ_SECTION_TRANSIT_PARAMS:
		if (c->method == TWZ_METHOD_TRANSIT)
			return TWZ_TP_SIZE;
		break;
	}
	*exact = 0;
	switch (kind) {
	case TWZ_SECTION_RUNS:
		/* A row has at most node_count runs. */
		return 4 * min64(TWZ_MAX_RUNS, n * n);
	case TWZ_SECTION_ROWS:
		/* A bucketed row holds at most one index entry and one run
		 * a target of its region, and a sentinel. */
		return 2 * (n * (2 * n + 1));
	case TWZ_SECTION_INLINE_ROWS:
		/* A row's runs start at distinct targets of its region, and
		 * it has fewer index entries than buckets in it. */
		if (c->method == TWZ_METHOD_CPD)
			return 2 * (2 * n * n);
		break;
	}
	if ((c->required_features & TWZ_FEATURE_JUNCTIONS) &&
	    kind >= TWZ_SECTION_JUNCTION_FIRST && kind <= TWZ_SECTION_JUNCTION_MAX)
		return twz_junctions_raw_limit(c, kind, exact);
	if (c->method != TWZ_METHOD_TRANSIT || !pr || !twz_transit_kind(c, kind))
		return TWZ_NO_LIMIT;
	return transit_limit(c, pr, kind, exact);
}

/* Whether kind is one of kinds [lo, hi]. */
static int kind_in(uint32_t kind, uint32_t lo, uint32_t hi)
{
	return kind >= lo && kind <= hi;
}

int twz_section_read(const struct twz_container *c, uint32_t kind)
{
	uint64_t f = c->required_features;

	if (kind == TWZ_SECTION_BUILD_INFO)
		return 1;
	/* 1.5 areas (section 5k), in any level kind. */
	if ((f & TWZ_FEATURE_AREAS) &&
	    kind_in(kind, TWZ_SECTION_COSTS_FIRST, TWZ_SECTION_COSTS_MAX))
		return 1;
	/* 1.5 off-mesh links (section 5l); L1 refuses them but in a
	 * graph level. */
	if ((f & TWZ_FEATURE_LINKS) &&
	    kind_in(kind, TWZ_SECTION_LINKS_FIRST, TWZ_SECTION_LINKS_MAX))
		return 1;
	if (c->level_kind != TWZ_LEVEL_GRID)
		/* A grid's kinds too, which have no limit here: check G2
		 * refuses them unread. */
		return kind_in(kind, 1, TWZ_SECTION_KIND_MAX) ||
		       kind_in(kind, TWZ_SECTION_INLINE_FIRST, TWZ_SECTION_INLINE_MAX) ||
		       kind_in(kind, TWZ_SECTION_GRAPH_FIRST, TWZ_SECTION_GRAPH_MAX) ||
		       (c->level_kind == TWZ_LEVEL_NAVMESH &&
			kind_in(kind, TWZ_SECTION_NAVMESH_FIRST, TWZ_SECTION_NAVMESH_MAX));
	if (f & TWZ_FEATURE_JUNCTIONS)
		return kind_in(kind, TWZ_SECTION_CELL_NODE, TWZ_SECTION_NODE_COMPONENT) ||
		       kind_in(kind, TWZ_SECTION_JUNCTION_FIRST, TWZ_SECTION_JUNCTION_MAX);
	if (c->method == TWZ_METHOD_TRANSIT) {
		if (kind_in(kind, TWZ_SECTION_CELL_NODE, TWZ_SECTION_NODE_COMPONENT) ||
		    kind == TWZ_SECTION_TRANSIT_PARAMS)
			return 1;
		if (!(f & TWZ_FEATURE_TRANSIT_ACCESS))
			return kind_in(kind, TWZ_SECTION_TRANSIT_FIRST, TWZ_SECTION_TRANSIT_MAX);
		return kind == TWZ_SECTION_TRANSIT_ROW_OFFSETS ||
		       kind == TWZ_SECTION_TRANSIT_RUNS ||
		       kind_in(kind, TWZ_SECTION_ACCESS_FIRST_KIND, TWZ_SECTION_ACCESS_MAX);
	}
	if (f & TWZ_FEATURE_CPD_INLINE)
		return kind == TWZ_SECTION_CELL_NODE || kind == TWZ_SECTION_REGIONS ||
		       kind_in(kind, TWZ_SECTION_INLINE_FIRST, TWZ_SECTION_INLINE_MAX);
	if (f & TWZ_FEATURE_BUCKETED_ROWS)
		return kind == TWZ_SECTION_CELL_NODE ||
		       kind_in(kind, TWZ_SECTION_NODE_RECORDS, TWZ_SECTION_ROWS);
	return kind_in(kind, TWZ_SECTION_CELL_NODE, TWZ_SECTION_RUNS);
}

twz_status twz_section_claim(const struct twz_container *c,
			     const struct twz_tparams *pr,
			     const struct twz_section_ref *s)
{
	int exact;
	uint64_t limit = twz_section_raw_limit(c, pr, s->kind, &exact);

	/* Check 26 before 27: more runs than u32 offsets reach. */
	if (s->kind == TWZ_SECTION_RUNS &&
	    s->raw_size > (uint64_t)TWZ_MAX_RUNS * 4)
		return TWZ_E_LIMIT;
	return twz_section_fits(s, limit, exact);
}

twz_status twz_validate_content(const struct twz_container *c,
				const struct twz_content *v)
{
	/* Any method's file may say how it was baked, and any level's
	 * places may have areas. */
	if (twz_validate_build_info(v->data[TWZ_SECTION_BUILD_INFO],
				    v->size[TWZ_SECTION_BUILD_INFO]) != TWZ_OK)
		return TWZ_E_DAMAGED;
	twz_status st = twz_validate_costs(c, v);
	if (st != TWZ_OK)
		return st;
	/* L1: off-mesh links are a graph level's (section 5l). */
	if ((c->required_features & TWZ_FEATURE_LINKS) &&
	    c->level_kind != TWZ_LEVEL_GRAPH)
		return TWZ_E_DAMAGED;
	if (c->level_kind == TWZ_LEVEL_NAVMESH) {
		twz_status st = twz_validate_graph(c, v);
		return st != TWZ_OK ? st : twz_validate_navmesh(c, v);
	}
	if (c->level_kind != TWZ_LEVEL_GRID)
		return twz_validate_graph(c, v);
	if (c->required_features & TWZ_FEATURE_JUNCTIONS)
		return twz_validate_junctions(c, v);
	if (c->method == TWZ_METHOD_TRANSIT) {
		/* Bucketed rows are a CPD layout: the runtime would look for
		 * their sections in a TRANSIT file, which has none. */
		if (c->required_features & TWZ_FEATURE_BUCKETED_ROWS)
			return TWZ_E_DAMAGED;
		if (c->required_features & TWZ_FEATURE_TRANSIT_ACCESS)
			return twz_validate_transit_access(c, v);
		return twz_validate_transit(c, v);
	}
	/* Access nodes are a TRANSIT layout. */
	if (c->required_features & TWZ_FEATURE_TRANSIT_ACCESS)
		return TWZ_E_DAMAGED;
	if (c->required_features & TWZ_FEATURE_CPD_INLINE)
		return twz_validate_cpd_inline(c, v);
	return twz_validate_cpd(c, v);
}
