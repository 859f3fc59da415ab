/*
 * twz_chunk_writer.c - chunked sections (format 1.4, FORMAT.md section
 * 5h): where a section may be cut, and the directory and frames.
 */
#include "twz_chunk_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "spool.h"
#include "twz_graph_format.h"

/* The section of kind k among sections[count], or NULL. */
static const struct twz_out_section *find(const struct twz_out_section *sec,
					  unsigned count, uint32_t kind)
{
	for (unsigned i = 0; i < count; i++)
		if (sec[i].kind == kind)
			return &sec[i];
	return NULL;
}

/*
 * Where rows start in each chunked kind: a table of row offsets (kind
 * table, an entry every stride bytes, in units of unit bytes; mask_row
 * keeps the offset bits of a node record's row word), or, without a
 * table, every unit bytes (distances: entries of 2 or 4 bytes, and the
 * bit-packed ACCESS_TABLE's straddle chunks, which a reader takes from
 * both). unit 0: as many bytes a run as RUN_ARC holds (1, 2 or 4).
 */
static const struct cut_rule {
	uint32_t kind;
	uint32_t table;
	uint8_t stride;
	uint8_t mask_row;
	uint8_t unit;
} cut_rules[] = {
	{ TWZ_SECTION_RUNS, TWZ_SECTION_ROW_OFFSETS, 4, 0, 4 },
	{ TWZ_SECTION_ROWS, TWZ_SECTION_NODE_RECORDS, TWZ_RECORD_SIZE, 1, 2 },
	{ TWZ_SECTION_TRANSIT_NODE_DIST, 0, 0, 0, 8 },
	{ TWZ_SECTION_TRANSIT_TABLE, 0, 0, 0, 8 },
	{ TWZ_SECTION_TRANSIT_RUNS, TWZ_SECTION_TRANSIT_ROW_OFFSETS, 4, 0, 4 },
	{ TWZ_SECTION_GRAPH_RUN_START, TWZ_SECTION_GRAPH_ROW_OFFSETS, 4, 0, 4 },
	{ TWZ_SECTION_GRAPH_RUN_ARC, TWZ_SECTION_GRAPH_ROW_OFFSETS, 4, 0, 0 },
	{ TWZ_SECTION_JUNCTION_RUNS, TWZ_SECTION_JUNCTION_ROW_OFFSETS, 4, 0, 4 },
	{ TWZ_SECTION_LINK_RUNS, TWZ_SECTION_LINK_ROW_OFFSETS, 4, 0, TWZ_JR_SIZE },
	{ TWZ_SECTION_INLINE_ROWS, TWZ_SECTION_INLINE_RECORDS_WIDE,
	  TWZ_INLINE_WIDE_RECORD_SIZE, 1, 2 },
	/* Each node's access list whole in one chunk. */
	{ TWZ_SECTION_ACCESS, TWZ_SECTION_ACCESS_FIRST, 4, 0, TWZ_AE_SIZE },
	{ TWZ_SECTION_ACCESS_TABLE, 0, 0, 0, 8 },
	{ TWZ_SECTION_ACCESS_PACKED, TWZ_SECTION_ACCESS_FIRST, 4, 0, 4 },
};

/* The rule of a section's kind (an agent-size layer's kinds as layer
 * 0's), or NULL when it is not chunked. */
static const struct cut_rule *rule_of(uint32_t kind)
{
	for (size_t i = 0; i < sizeof cut_rules / sizeof cut_rules[0]; i++)
		if (cut_rules[i].kind == kind % TWZ_SECTION_KIND_LIMIT)
			return &cut_rules[i];
	return NULL;
}

int twz_chunk_wanted(const struct twz_out_section *sections, unsigned count,
		     unsigned i, uint64_t target)
{
	(void)count;
	return target && sections[i].raw_size > target &&
	       rule_of(sections[i].kind) != NULL;
}

/* Where rows start in section s, as a function from a row number to a
 * byte offset (cut_rules). */
struct cuts {
	const uint8_t *table;     /* NULL: every `unit` bytes */
	size_t stride;            /* bytes a table entry */
	unsigned mask_row;        /* node records: keep the row offset bits */
	uint64_t rows;            /* table entries */
	uint64_t unit;            /* bytes an offset counts */
	uint64_t next;            /* the next entry to look at */
};

static int cuts_init(struct cuts *c, const struct twz_out_section *sec,
		     unsigned count, const struct twz_out_section *s)
{
	const struct cut_rule *r = rule_of(s->kind);
	/* The table and the row data of a layer have its kinds. */
	uint32_t layer = s->kind - s->kind % TWZ_SECTION_KIND_LIMIT;
	const struct twz_out_section *t;

	memset(c, 0, sizeof *c);
	c->stride = r->stride;
	c->mask_row = r->mask_row;
	c->unit = r->unit;
	if (!r->table)
		return 0;
	t = find(sec, count, layer + r->table);
	if (!t)
		return -1;
	if (!c->unit) {
		const struct twz_out_section *starts =
			find(sec, count, layer + TWZ_SECTION_GRAPH_RUN_START);
		if (!starts || !starts->raw_size)
			return -1;
		c->unit = s->raw_size * 4 / starts->raw_size;
	}
	c->table = t->raw;
	c->rows = t->raw_size / c->stride;
	return 0;
}

/* The first cut at or past `at` (row starts only rise), or the end. */
static uint64_t cut_from(struct cuts *c, uint64_t at, uint64_t end)
{
	if (!c->table) {
		uint64_t v = (at + c->unit - 1) / c->unit * c->unit;
		return v < end ? v : end;
	}
	for (; c->next < c->rows; c->next++) {
		uint32_t w = twz_le32(c->table + c->next * c->stride);
		uint64_t v = (uint64_t)(c->mask_row ? w & TWZ_ROW_OFFSET_MASK : w) *
			     c->unit;
		if (v >= at)
			return v < end ? v : end;
	}
	return end;
}

int twz_chunk_store(const struct twz_out_section *sections, unsigned count,
		    unsigned i, uint64_t target, int level,
		    const struct twz_spool *spool, struct twz_out *o,
		    uint64_t at, uint64_t *stored, struct twz_error *err)
{
	const struct twz_out_section *s = &sections[i];
	const uint8_t *raw = s->raw;
	struct cuts cuts;
	uint64_t *ends = NULL;
	uint8_t *dir = NULL, *frame = NULL;
	size_t n = 0, cap = 0;

	if (cuts_init(&cuts, sections, count, s) != 0) {
		twz_error_set(err, "section %u: no row table to chunk it by",
			      (unsigned)s->kind);
		return -1;
	}
	/* Chunk ends: the first row start at least target bytes on. */
	for (uint64_t pos = 0; pos < s->raw_size;) {
		uint64_t e = cut_from(&cuts, pos + target, s->raw_size);
		if (e - pos > TWZ_CHUNK_MAX_RAW || n == TWZ_CHUNK_MAX_COUNT) {
			twz_error_set(err, "section %u: a chunk would exceed the format's limits",
				      (unsigned)s->kind);
			goto fail;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			uint64_t *grown = realloc(ends, cap * sizeof *ends);
			if (!grown)
				goto nomem;
			ends = grown;
		}
		ends[n++] = e;
		pos = e;
	}
	/* The frames one by one after the directory, which goes in last. */
	size_t dir_size = TWZ_CHUNK_DIR_HEADER + n * TWZ_CHUNK_ENTRY_SIZE;
	uint32_t max_raw = 0;
	size_t bound = 0;
	for (size_t k = 0; k < n; k++) {
		uint64_t lo = k ? ends[k - 1] : 0;
		size_t b = ZSTD_compressBound((size_t)(ends[k] - lo));
		bound = b > bound ? b : bound;
		if (ends[k] - lo > max_raw)
			max_raw = (uint32_t)(ends[k] - lo);
	}
	dir = calloc(1, dir_size);
	frame = malloc(bound ? bound : 1);
	if (!dir || !frame)
		goto nomem;
	twz_put32(dir + TWZ_CD_COUNT, (uint32_t)n);
	twz_put32(dir + TWZ_CD_MAX_RAW, max_raw);
	uint64_t pos = dir_size;
	for (size_t k = 0; k < n; k++) {
		uint64_t lo = k ? ends[k - 1] : 0;
		size_t len = (size_t)(ends[k] - lo);
		size_t got = ZSTD_compress(frame, bound, raw + lo, len, level);
		if (ZSTD_isError(got)) {
			twz_error_set(err, "zstd: %s", ZSTD_getErrorName(got));
			goto fail;
		}
		uint8_t *e = dir + TWZ_CHUNK_DIR_HEADER + k * TWZ_CHUNK_ENTRY_SIZE;
		twz_put32(e + TWZ_CE_RAW_SIZE, (uint32_t)len);
		twz_put32(e + TWZ_CE_STORED_SIZE, (uint32_t)got);
		twz_put64(e + TWZ_CE_CHECKSUM, twz_checksum(raw + lo, len));
		twz_spool_release(spool, raw + lo, len);
		if (twz_out_put(o, at + pos, frame, got) != 0)
			goto io;
		pos += got;
	}
	if (twz_out_put(o, at, dir, dir_size) != 0)
		goto io;
	free(ends);
	free(dir);
	free(frame);
	*stored = pos;
	return 0;
io:
	twz_error_kind_set(err, TWZ_ERR_IO, "cannot write: %s", strerror(errno));
	goto fail;
nomem:
	twz_error_kind_set(err, TWZ_ERR_NOMEM,
			   "out of memory chunking a %zu-byte section", s->raw_size);
fail:
	free(ends);
	free(dir);
	free(frame);
	return -1;
}
