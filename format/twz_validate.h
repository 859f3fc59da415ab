/*
 * twz_validate.h - the one validator of .twz files, pure (bytes in,
 * status out, no I/O, no allocation). The runtime runs it at open; the
 * writer's tests run it on what the writer made.
 *
 * Validation is two steps, in the order FORMAT.md gives:
 *   1. twz_parse_container() on the file bytes: header, section table,
 *      placement of every section;
 *   2. twz_validate_content() on the decoded section bytes: sizes against
 *      the header, and every cross-reference a query will follow.
 * After both succeed, queries may trust every offset and count.
 */
#ifndef TWZ_VALIDATE_H
#define TWZ_VALIDATE_H

#include "twigz.h"
#include "twz_format.h"

struct twz_section_ref {
	uint32_t kind;
	uint16_t codec;
	uint16_t flags;           /* TWZ_SF_* (1.4) */
	uint64_t offset;          /* stored bytes start here in the file */
	uint64_t size;            /* stored bytes */
	uint64_t raw_size;        /* decoded bytes */
	uint64_t raw_checksum;    /* XXH3-64 of the decoded bytes */
};

struct twz_container {
	uint16_t major;
	uint16_t minor;
	uint64_t required_features;
	uint64_t optional_features;
	uint64_t file_size;
	uint64_t level_hash;
	uint32_t width;
	uint32_t height;
	uint32_t node_count;
	uint32_t component_count;
	uint8_t method;
	uint8_t connectivity;
	uint8_t node_order;
	uint8_t build_codec;
	int8_t build_level;
	uint8_t level_kind;       /* 1.4: TWZ_LEVEL_*, 0 (grid) before */
	uint32_t section_count;
	struct twz_section_ref sections[TWZ_MAX_SECTIONS];
};

/* Whether CELL_NODE holds u16 entries (format 1.2). */
static inline int twz_narrow(const struct twz_container *c)
{
	return (c->required_features & TWZ_FEATURE_NARROW_CELL_NODE) != 0;
}

/* Decoded sections of a database, indexed by section kind, and the
 * working memory step 2 may use: the validator allocates nothing, so a
 * check that needs memory takes it from the caller. scratch holds
 * node_count u32 entries; a node order with no built-in proof that each
 * region is connected (TRANSIT's block order) needs it, and a file in
 * that order is refused with TWZ_E_NOMEM without it. */
struct twz_content {
	const uint8_t *data[TWZ_SECTION_KIND_LIMIT];
	uint64_t size[TWZ_SECTION_KIND_LIMIT];
	uint32_t *scratch;
	unsigned deferred;        /* TWZ_DEFER_*: sizes known, bytes (data
				     NULL) checked piece by piece later */
};

/* A chunked ROWS section that the reader inflates on use (1.4): step 2
 * checks every row's offsets, and twz_validate_cpd_rows each chunk's rows
 * as it is inflated. */
#define TWZ_DEFER_ROWS 0x1u
/* TRANSIT sections read on use (1.4, twz_validate_transit_lazy.c): step
 * 2 checks what the resident sections say of them (row offsets, access
 * ranges, sizes), the functions below each chunk as it is inflated. */
#define TWZ_DEFER_TRANSIT_RUNS 0x2u
#define TWZ_DEFER_ACCESS 0x4u
#define TWZ_DEFER_ACCESS_TABLE 0x8u
#define TWZ_DEFER_ACCESS_PACKED 0x10u

/* Whether step 2 of this file needs twz_content.scratch. */
static inline int twz_needs_scratch(const struct twz_container *c)
{
	return c->node_order != TWZ_ORDER_DFS;
}

/* Step 1. On success every section lies inside [0, len), 64-aligned,
 * without overlap, and its sizes are within limits. */
twz_status twz_parse_container(const uint8_t *buf, size_t len,
			       struct twz_container *c);

/* Step 1 of a file in the same container under another magic of
 * TWZ_MAGIC_SIZE bytes: the partial files of `twigz build --shard`
 * (FORMAT.md section 11). TWZ_E_NOT_TWIGZ when the magic differs. */
twz_status twz_parse_container_as(const uint8_t *buf, size_t len,
				  const char *magic, struct twz_container *c);

/* The raw size a known section must have, from the header alone; 0 when
 * it depends on the contents (RUNS). Used before allocating. */
static inline uint64_t twz_expected_raw_size(const struct twz_container *c,
					     uint32_t kind)
{
	switch (kind) {
	case TWZ_SECTION_CELL_NODE:
		return (uint64_t)c->width * c->height * (twz_narrow(c) ? 2 : 4);
	case TWZ_SECTION_NODE_CELL:
	case TWZ_SECTION_NODE_COMPONENT:
		return (uint64_t)c->node_count * 4;
	case TWZ_SECTION_ROW_OFFSETS:
		return ((uint64_t)c->node_count + 1) * 4;
	case TWZ_SECTION_NODE_RECORDS:
		return (uint64_t)c->node_count * TWZ_RECORD_SIZE;
	case TWZ_SECTION_REGIONS:
		return ((uint64_t)c->component_count + 1) * 4;
	case TWZ_SECTION_INLINE_RECORDS:
		return (uint64_t)c->node_count * TWZ_INLINE_RECORD_SIZE;
	case TWZ_SECTION_INLINE_RECORDS_WIDE:
		return (uint64_t)c->node_count * TWZ_INLINE_WIDE_RECORD_SIZE;
	default:
		return 0;
	}
}

/* TRANSIT_PARAMS (FORMAT.md section 5b), decoded. */
struct twz_tparams {
	uint32_t ox, oy;          /* the block grid's corner */
	uint32_t side, cols, rows;
	uint32_t inner, outer;
	uint32_t m;               /* transit nodes */
	uint32_t max_list;
	uint32_t dist_bytes;      /* bytes an entry of a distance section */
};

/* Decode TRANSIT_PARAMS (TWZ_TP_SIZE bytes) and check it against the
 * header: checks T2 to T4. The reader runs it before it inflates any
 * other TRANSIT section, whose sizes follow from it. */
twz_status twz_transit_params_read(const struct twz_container *c,
				   const uint8_t *p,
				   struct twz_tparams *pr);

/* Whether kind is a TRANSIT kind the reader decodes in c: 32 to 39, and
 * 112 to 115 in a file of the access-node layout (1.4). */
static inline int twz_transit_kind(const struct twz_container *c,
				   uint32_t kind)
{
	if (kind >= TWZ_SECTION_TRANSIT_FIRST && kind <= TWZ_SECTION_TRANSIT_MAX)
		return 1;
	return (c->required_features & TWZ_FEATURE_TRANSIT_ACCESS) &&
	       kind >= TWZ_SECTION_ACCESS_FIRST_KIND &&
	       kind <= TWZ_SECTION_ACCESS_MAX;
}

/* The most transit nodes one block's list can hold: the cells of its
 * ring, the border of a square of (2 inner + 1) side + 1 cells a side,
 * and no more than max_list. */
static inline uint64_t twz_transit_list_cap(const struct twz_tparams *pr)
{
	uint64_t ring = 4 * (2 * (uint64_t)pr->inner + 1) * pr->side;

	return ring < pr->max_list ? ring : pr->max_list;
}

/*
 * The largest raw size section `kind` may claim in this file, from the
 * header and, for the TRANSIT kinds, the parameters pr (NULL in a CPD
 * file); *exact is set when it is the only size the kind may have. The
 * reader checks it before anything is allocated for the section
 * (FORMAT.md section 10a). TWZ_NO_LIMIT (UINT64_MAX) for a kind it does
 * not decode, which twz_section_claim refuses.
 */
uint64_t twz_section_raw_limit(const struct twz_container *c,
			       const struct twz_tparams *pr,
			       uint32_t kind, int *exact);

/* Whether the reader reads (claims, decodes, checks) a section of this
 * kind in this file: the kinds of the file's own layout, which the
 * header's method and feature bits name (FORMAT.md section 4), and
 * BUILD_INFO; in a graph or navmesh file also the grid's kinds, to
 * refuse them (G2). Other kinds, a newer version's or another layout's,
 * are skipped: they cost nothing. */
int twz_section_read(const struct twz_container *c, uint32_t kind);

/* Checks 25 to 28 of section s of this file: its raw size against
 * twz_section_raw_limit (and RUNS against the reach of u32 offsets), so
 * that nothing is allocated for a claim the file cannot justify. */
twz_status twz_section_claim(const struct twz_container *c,
			     const struct twz_tparams *pr,
			     const struct twz_section_ref *s);

/* Step 2, by the validator of the header's method (twz_validate_cpd.c,
 * twz_validate_transit.c). */
twz_status twz_validate_content(const struct twz_container *c,
				const struct twz_content *v);

/* The bucketed rows of nodes [first, last) of a CPD file whose ROWS was
 * deferred (TWZ_DEFER_ROWS, v as step 2 saw it): each must lie whole in
 * ROWS' u16 units [base, base + avail), which are at bytes, and hold a
 * valid index and symbols (FORMAT.md checks 43 to 47). */
twz_status twz_validate_cpd_rows(const struct twz_container *c,
				 const struct twz_content *v,
				 const uint8_t *bytes, uint64_t base,
				 uint64_t avail, uint32_t first, uint32_t last);

/* The same for 1.4's inline rows (INLINE_ROWS deferred, checks I5 and
 * I6 of FORMAT.md 5i). */
twz_status twz_validate_cpd_inline_rows(const struct twz_container *c,
					const struct twz_content *v,
					const uint8_t *bytes, uint64_t base,
					uint64_t avail, uint32_t first,
					uint32_t last);

/* The local rows of TRANSIT nodes [first, last) when TRANSIT_RUNS was
 * deferred: each lies whole in runs [base, base + avail), which are at
 * bytes, and holds runs check T11 (TA8) admits. */
twz_status twz_validate_transit_runs(const struct twz_container *c,
				     const struct twz_content *v,
				     const uint8_t *bytes, uint64_t base,
				     uint64_t avail, uint32_t first,
				     uint32_t last);

/* The access lists of nodes [first, last) when ACCESS or ACCESS_PACKED
 * was deferred: each lies whole in entries [base, base + avail), at
 * bytes, and passes TA7. */
twz_status twz_validate_access_entries(const struct twz_container *c,
				       const struct twz_content *v,
				       const uint8_t *bytes, uint64_t base,
				       uint64_t avail, uint32_t first,
				       uint32_t last);

/* Bytes [base, base + len) of a deferred ACCESS_TABLE, at bytes: the
 * padding of TA5 where they hold it. The entries' ranges (TA6) are
 * checked as each is read. */
twz_status twz_validate_access_table(const struct twz_container *c,
				     const struct twz_content *v,
				     const uint8_t *bytes, uint64_t base,
				     uint64_t len);

/* XXH3-64 with seed 0, the checksum of FORMAT.md. */
uint64_t twz_checksum(const void *data, size_t len);


/* Areas (FORMAT.md 5k, twz_validate_costs.c): the raw size kind 11 or 12
 * may claim, and checks C1 to C4. */
uint64_t twz_costs_raw_limit(const struct twz_container *c, uint32_t kind,
			     int *exact);
twz_status twz_validate_costs(const struct twz_container *c,
			      const struct twz_content *v);

#endif /* TWZ_VALIDATE_H */
