/*
 * twz_validate.c - header, section table and content validation; see
 * twz_validate.h and FORMAT.md ("Validation order").
 */
#include "twz_validate.h"

#include <xxhash.h>

/* The most a zstd block decodes to (the format's Block_Maximum_Size). */
#define TWZ_ZSTD_BLOCK_MAX 131072u

uint64_t twz_checksum(const void *data, size_t len)
{
	return XXH3_64bits(data, len);
}

static int all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static twz_status parse_header(const uint8_t *buf, size_t len,
			       struct twz_container *c)
{
	if (len < TWZ_MAGIC_SIZE || memcmp(buf, TWZ_MAGIC, TWZ_MAGIC_SIZE))
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
	if (!all_zero(buf + TWZ_H_RESERVED, TWZ_H_RESERVED_END - TWZ_H_RESERVED))
		return TWZ_E_RESERVED;
	c->required_features = twz_le64(buf + TWZ_H_REQUIRED);
	c->optional_features = twz_le64(buf + TWZ_H_OPTIONAL);
	if (c->required_features & ~(uint64_t)TWZ_FEATURES_KNOWN_REQUIRED)
		return TWZ_E_FEATURE;
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
	    (!(c->required_features & TWZ_FEATURE_BUCKETED_ROWS) ||
	     c->method != TWZ_METHOD_CPD || c->node_count >= TWZ_NARROW_NONE))
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
		if (twz_le16(e + TWZ_S_FLAGS) || twz_le64(e + TWZ_S_RESERVED))
			return TWZ_E_RESERVED;
		if (s->codec > TWZ_CODEC_ZSTD)
			return TWZ_E_DAMAGED;
		/* Sections are stored in table order, ascending, aligned and
		 * apart: this rules out overlap with one comparison each. */
		if (s->offset % TWZ_SECTION_ALIGN || s->offset < prev_end ||
		    s->offset > len || s->size > len - s->offset)
			return TWZ_E_DAMAGED;
		/* Nothing hides between sections: no checksum covers it. */
		if (!all_zero(buf + prev_end, (size_t)(s->offset - prev_end)))
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
	if (!all_zero(buf + prev_end, (size_t)(len - prev_end)))
		return TWZ_E_RESERVED;
	return TWZ_OK;
}

twz_status twz_parse_container(const uint8_t *buf, size_t len,
			       struct twz_container *c)
{
	twz_status st;

	memset(c, 0, sizeof *c);
	if (!buf)
		return TWZ_E_ARGUMENT;
	st = parse_header(buf, len, c);
	if (st != TWZ_OK)
		return st;
	return parse_table(buf, len, c);
}

uint64_t twz_expected_raw_size(const struct twz_container *c, uint32_t kind)
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
	default:
		return 0;
	}
}

/* Cells and nodes must be each other's inverse. */
static twz_status check_node_map(const struct twz_container *c,
				 const uint8_t *cell_node,
				 const uint8_t *node_cell)
{
	uint64_t cells = (uint64_t)c->width * c->height;
	uint64_t seen = 0;

	for (uint64_t i = 0; i < cells; i++) {
		uint32_t n = twz_cell_node_at(cell_node, twz_narrow(c), i);
		if (n == TWZ_NODE_NONE)
			continue;
		if (n >= c->node_count || twz_le32(node_cell + 4 * (size_t)n) != i)
			return TWZ_E_DAMAGED;
		seen++;
	}
	return seen == c->node_count ? TWZ_OK : TWZ_E_DAMAGED;
}

/* The neighbour of node n by move m, or TWZ_NODE_NONE when the move is not
 * legal there. Shared logic with the runtime's query path. */
static uint32_t neighbour(const struct twz_container *c,
			  const uint8_t *cell_node, uint32_t cell, unsigned m)
{
	uint32_t x = cell % c->width, y = cell / c->width;
	int64_t nx = (int64_t)x + twz_move_dx[m];
	int64_t ny = (int64_t)y + twz_move_dy[m];

	if (nx < 0 || ny < 0 || nx >= c->width || ny >= c->height)
		return TWZ_NODE_NONE;
	int narrow = twz_narrow(c);
	if (twz_move_is_diagonal(m)) {
		if (twz_cell_node_at(cell_node, narrow,
				     (uint64_t)y * c->width + (uint64_t)nx) ==
			    TWZ_NODE_NONE ||
		    twz_cell_node_at(cell_node, narrow,
				     (uint64_t)ny * c->width + x) == TWZ_NODE_NONE)
			return TWZ_NODE_NONE;
	}
	return twz_cell_node_at(cell_node, narrow,
				(uint64_t)ny * c->width + (uint64_t)nx);
}

/* Whether any move is legal from cell: false only in a region of one. */
static int has_move(const struct twz_container *c, const uint8_t *cell_node,
		    uint32_t cell)
{
	for (unsigned m = 0; m < c->connectivity; m++)
		if (neighbour(c, cell_node, cell, m) != TWZ_NODE_NONE)
			return 1;
	return 0;
}

/* Region ids ascend in node order, start at 0, step by one, and no legal
 * move joins two regions: then "same id" is exactly "reachable". */
static twz_status check_components(const struct twz_container *c,
				   const uint8_t *cell_node,
				   const uint8_t *node_cell,
				   const uint8_t *comp)
{
	uint32_t prev = 0;

	for (uint32_t n = 0; n < c->node_count; n++) {
		uint32_t k = twz_le32(comp + 4 * (size_t)n);
		if (n == 0 ? k != 0 : (k != prev && k != prev + 1))
			return TWZ_E_DAMAGED;
		/* In DFS preorder every node but its region's first was
		 * reached from an earlier neighbour, so one id is one
		 * connected region, not several that only share an id. */
		int joined = n == 0 || k != prev || c->node_order != TWZ_ORDER_DFS;
		prev = k;
		uint32_t cell = twz_le32(node_cell + 4 * (size_t)n);
		for (unsigned m = 0; m < c->connectivity; m++) {
			uint32_t v = neighbour(c, cell_node, cell, m);
			if (v == TWZ_NODE_NONE)
				continue;
			if (twz_le32(comp + 4 * (size_t)v) != k)
				return TWZ_E_DAMAGED;
			joined |= v < n;
		}
		if (!joined)
			return TWZ_E_DAMAGED;
	}
	if (c->node_count && prev + 1 != c->component_count)
		return TWZ_E_DAMAGED;
	return TWZ_OK;
}

static twz_status check_rows(const struct twz_container *c,
			     const uint8_t *cell_node, const uint8_t *node_cell,
			     const uint8_t *offsets, const uint8_t *runs,
			     uint64_t run_count)
{
	if (twz_le32(offsets) != 0 ||
	    twz_le32(offsets + 4 * (size_t)c->node_count) != run_count)
		return TWZ_E_DAMAGED;
	for (uint32_t s = 0; s < c->node_count; s++) {
		uint32_t lo = twz_le32(offsets + 4 * (size_t)s);
		uint32_t hi = twz_le32(offsets + 4 * ((size_t)s + 1));
		uint32_t cell = twz_le32(node_cell + 4 * (size_t)s);
		if (hi <= lo || hi > run_count)
			return TWZ_E_DAMAGED;
		for (uint32_t r = lo; r < hi; r++) {
			uint32_t run = twz_le32(runs + 4 * (size_t)r);
			uint32_t start = run >> TWZ_RUN_SYMBOL_BITS;
			uint32_t sym = run & TWZ_RUN_SYMBOL_MASK;
			if (r == lo ? start != 0
				    : start <= (twz_le32(runs + 4 * (size_t)(r - 1)) >>
						TWZ_RUN_SYMBOL_BITS))
				return TWZ_E_DAMAGED;
			if (start >= c->node_count)
				return TWZ_E_DAMAGED;
			/* "No move" only where there is none: a region of one
			 * node; elsewhere it would call a goal unreachable. */
			if (sym == TWZ_SYMBOL_NONE) {
				if (has_move(c, cell_node, cell))
					return TWZ_E_DAMAGED;
				continue;
			}
			/* Direction symbols are checked where they are
			 * decoded: their move depends on the target. */
			if ((c->required_features & TWZ_FEATURE_DIRECTION_SYMBOLS) &&
			    (sym == TWZ_SYMBOL_TOWARD || sym == TWZ_SYMBOL_NEAREST))
				continue;
			if (sym >= c->connectivity ||
			    neighbour(c, cell_node, cell, sym) == TWZ_NODE_NONE)
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}

/* ---- bucketed rows (1.1) --------------------------------------------- */

static twz_status check_regions(const struct twz_container *c,
				const uint8_t *regions)
{
	if (twz_le32(regions) != 0 ||
	    twz_le32(regions + 4 * (size_t)c->component_count) != c->node_count)
		return TWZ_E_DAMAGED;
	for (uint32_t k = 0; k < c->component_count; k++)
		if (twz_le32(regions + 4 * (size_t)k) >=
		    twz_le32(regions + 4 * ((size_t)k + 1)))
			return TWZ_E_DAMAGED;
	return TWZ_OK;
}

/* Records: the inverse of CELL_NODE; and no legal move leaves a region. */
static twz_status check_records(const struct twz_container *c,
				const uint8_t *cell_node, const uint8_t *rec,
				const uint8_t *regions)
{
	uint64_t cells = (uint64_t)c->width * c->height;
	uint64_t seen = 0;

	for (uint64_t i = 0; i < cells; i++) {
		uint32_t n = twz_cell_node_at(cell_node, twz_narrow(c), i);
		if (n == TWZ_NODE_NONE)
			continue;
		if (n >= c->node_count)
			return TWZ_E_DAMAGED;
		const uint8_t *r = rec + (size_t)n * TWZ_RECORD_SIZE;
		if (twz_le16(r + TWZ_R_X) != i % c->width ||
		    twz_le16(r + TWZ_R_Y) != i / c->width)
			return TWZ_E_DAMAGED;
		seen++;
	}
	if (seen != c->node_count)
		return TWZ_E_DAMAGED;
	for (uint32_t k = 0; k < c->component_count; k++) {
		uint32_t lo = twz_le32(regions + 4 * (size_t)k);
		uint32_t hi = twz_le32(regions + 4 * ((size_t)k + 1));
		for (uint32_t n = lo; n < hi; n++) {
			const uint8_t *r = rec + (size_t)n * TWZ_RECORD_SIZE;
			uint32_t cell = twz_le16(r + TWZ_R_Y) * c->width +
					twz_le16(r + TWZ_R_X);
			/* DFS preorder: as in check_components. */
			int joined = n == lo || c->node_order != TWZ_ORDER_DFS;
			for (unsigned m = 0; m < c->connectivity; m++) {
				uint32_t v = neighbour(c, cell_node, cell, m);
				if (v == TWZ_NODE_NONE)
					continue;
				if (v < lo || v >= hi)
					return TWZ_E_DAMAGED;
				joined |= v < n;
			}
			if (!joined)
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}

static twz_status check_bucketed_rows(const struct twz_container *c,
				      const uint8_t *cell_node,
				      const uint8_t *rec, const uint8_t *regions,
				      const uint8_t *rows, uint64_t total)
{
	int direction = (c->required_features & TWZ_FEATURE_DIRECTION_SYMBOLS) != 0;
	uint32_t k = 0;

	if (total > TWZ_ROW_OFFSET_MASK)
		return TWZ_E_LIMIT;
	for (uint32_t n = 0; n < c->node_count; n++) {
		const uint8_t *r = rec + (size_t)n * TWZ_RECORD_SIZE;
		uint32_t word = twz_le32(r + TWZ_R_ROW);
		uint64_t begin = word & TWZ_ROW_OFFSET_MASK;
		uint64_t end = n + 1 < c->node_count
			? twz_le32(r + TWZ_RECORD_SIZE + TWZ_R_ROW) & TWZ_ROW_OFFSET_MASK
			: total;
		unsigned shift = word >> TWZ_ROW_OFFSET_BITS;
		while (n >= twz_le32(regions + 4 * ((size_t)k + 1)))
			k++;
		uint32_t len = twz_le32(regions + 4 * ((size_t)k + 1)) -
			       twz_le32(regions + 4 * (size_t)k);

		if ((n == 0 && begin != 0) || end < begin || end > total ||
		    shift > TWZ_MAX_BUCKET_SHIFT)
			return TWZ_E_DAMAGED;
		uint32_t buckets = ((len - 1) >> shift) + 1;
		if (end - begin <= (uint64_t)buckets + 1)
			return TWZ_E_DAMAGED;
		uint64_t runs = end - begin - buckets - 1;
		/* Runs start at distinct targets of the region. */
		if (runs > TWZ_MAX_ROW_RUNS || runs > len)
			return TWZ_E_DAMAGED;
		const uint8_t *index = rows + 2 * begin;
		const uint8_t *run = index + 2 * ((size_t)buckets + 1);
		uint32_t prev = 0;
		for (uint32_t b = 0; b <= buckets; b++) {
			uint32_t j = twz_le16(index + 2 * (size_t)b);
			if (j >= runs || j < prev || (b == 0 && j != 0) ||
			    (b == buckets && j != runs - 1))
				return TWZ_E_DAMAGED;
			prev = j;
		}
		uint32_t cell = twz_le16(r + TWZ_R_Y) * c->width + twz_le16(r + TWZ_R_X);
		for (uint64_t j = 0; j < runs; j++) {
			unsigned sym = twz_le16(run + 2 * j) & TWZ_RUN_SYMBOL_MASK;
			/* As in check_rows: "no move" only without a move. */
			if (sym == TWZ_SYMBOL_NONE) {
				if (has_move(c, cell_node, cell))
					return TWZ_E_DAMAGED;
				continue;
			}
			if (direction && (sym == TWZ_SYMBOL_TOWARD ||
					  sym == TWZ_SYMBOL_NEAREST))
				continue;
			if (sym >= c->connectivity ||
			    neighbour(c, cell_node, cell, sym) == TWZ_NODE_NONE)
				return TWZ_E_DAMAGED;
		}
	}
	return TWZ_OK;
}

static twz_status validate_bucketed(const struct twz_container *c,
				    const struct twz_content *v)
{
	static const uint32_t required[] = {
		TWZ_SECTION_CELL_NODE, TWZ_SECTION_NODE_RECORDS,
		TWZ_SECTION_REGIONS, TWZ_SECTION_ROWS
	};
	for (unsigned i = 0; i < sizeof required / sizeof *required; i++) {
		uint32_t k = required[i];
		if (!v->data[k])
			return TWZ_E_DAMAGED;
		if (k != TWZ_SECTION_ROWS && v->size[k] != twz_expected_raw_size(c, k))
			return TWZ_E_DAMAGED;
	}
	uint64_t row_bytes = v->size[TWZ_SECTION_ROWS];
	if (row_bytes % 2 || row_bytes / 2 > UINT32_MAX)
		return TWZ_E_DAMAGED;
	if (c->node_count == 0)
		return c->component_count == 0 ? TWZ_OK : TWZ_E_DAMAGED;
	twz_status st = check_regions(c, v->data[TWZ_SECTION_REGIONS]);
	if (st == TWZ_OK)
		st = check_records(c, v->data[TWZ_SECTION_CELL_NODE],
				   v->data[TWZ_SECTION_NODE_RECORDS],
				   v->data[TWZ_SECTION_REGIONS]);
	if (st == TWZ_OK)
		st = check_bucketed_rows(c, v->data[TWZ_SECTION_CELL_NODE],
					 v->data[TWZ_SECTION_NODE_RECORDS],
					 v->data[TWZ_SECTION_REGIONS],
					 v->data[TWZ_SECTION_ROWS], row_bytes / 2);
	return st;
}

twz_status twz_validate_content(const struct twz_container *c,
				const struct twz_content *v)
{
	/* Bucketed rows are a CPD layout: the runtime would look for their
	 * sections in a TRANSIT file, which has none. */
	if (c->method == TWZ_METHOD_TRANSIT)
		return c->required_features & TWZ_FEATURE_BUCKETED_ROWS
			       ? TWZ_E_DAMAGED : twz_validate_transit(c, v);
	if (c->required_features & TWZ_FEATURE_BUCKETED_ROWS)
		return validate_bucketed(c, v);

	/* Every kind of 1.0 is required; all sizes but RUNS follow from the
	 * header. */
	for (uint32_t k = 1; k <= TWZ_SECTION_RUNS; k++) {
		if (!v->data[k])
			return TWZ_E_DAMAGED;
		if (k != TWZ_SECTION_RUNS &&
		    v->size[k] != twz_expected_raw_size(c, k))
			return TWZ_E_DAMAGED;
	}
	uint64_t run_bytes = v->size[TWZ_SECTION_RUNS];
	if (run_bytes % 4 || run_bytes / 4 > TWZ_MAX_RUNS)
		return TWZ_E_DAMAGED;

	twz_status st = check_node_map(c, v->data[TWZ_SECTION_CELL_NODE],
				       v->data[TWZ_SECTION_NODE_CELL]);
	if (st != TWZ_OK)
		return st;
	st = check_components(c, v->data[TWZ_SECTION_CELL_NODE],
			      v->data[TWZ_SECTION_NODE_CELL],
			      v->data[TWZ_SECTION_NODE_COMPONENT]);
	if (st != TWZ_OK)
		return st;
	return check_rows(c, v->data[TWZ_SECTION_CELL_NODE],
			  v->data[TWZ_SECTION_NODE_CELL],
			  v->data[TWZ_SECTION_ROW_OFFSETS],
			  v->data[TWZ_SECTION_RUNS], run_bytes / 4);
}
