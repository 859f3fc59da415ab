/*
 * twz_chunk_writer.c - chunked sections (format 1.4, FORMAT.md section
 * 5h): where a section may be cut, and the directory and frames.
 */
#include "twz_chunk_writer.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* The section of kind k among sections[count], or NULL. */
static const struct twz_out_section *find(const struct twz_out_section *sec,
					  unsigned count, uint32_t kind)
{
	for (unsigned i = 0; i < count; i++)
		if (sec[i].kind == kind)
			return &sec[i];
	return NULL;
}

int twz_chunk_wanted(const struct twz_out_section *sections, unsigned count,
		     unsigned i, uint64_t target)
{
	(void)count;
	if (!target || sections[i].raw_size <= target)
		return 0;
	switch (sections[i].kind) {
	case TWZ_SECTION_RUNS:
	case TWZ_SECTION_ROWS:
	case TWZ_SECTION_TRANSIT_NODE_DIST:
	case TWZ_SECTION_TRANSIT_TABLE:
	case TWZ_SECTION_TRANSIT_RUNS:
	case TWZ_SECTION_ACCESS:
	case TWZ_SECTION_ACCESS_PACKED:
	case TWZ_SECTION_ACCESS_TABLE:
		return 1;
	}
	return 0;
}

/*
 * Where rows start in section s, as a function from a row number to a
 * byte offset: NODE_RECORDS' row words for ROWS (u16 units), the row
 * offsets for RUNS and TRANSIT_RUNS (u32 units), ACCESS_FIRST for ACCESS
 * and ACCESS_PACKED (entries of 8 or 4 bytes). Distance tables are cut at any multiple of 8 bytes (entries
 * are 2 or 4 bytes; the bit-packed ACCESS_TABLE's straddle chunks, and a
 * reader takes them from both).
 */
struct cuts {
	const uint8_t *table;     /* NULL: every `unit` bytes */
	size_t stride;            /* bytes a table entry */
	unsigned mask_row;        /* NODE_RECORDS: keep the row offset bits */
	uint64_t rows;            /* table entries */
	uint64_t unit;            /* bytes an offset counts */
	uint64_t next;            /* the next entry to look at */
};

static int cuts_init(struct cuts *c, const struct twz_out_section *sec,
		     unsigned count, const struct twz_out_section *s)
{
	const struct twz_out_section *t = NULL;

	memset(c, 0, sizeof *c);
	switch (s->kind) {
	case TWZ_SECTION_ROWS:
		t = find(sec, count, TWZ_SECTION_NODE_RECORDS);
		c->stride = TWZ_RECORD_SIZE;
		c->mask_row = 1;
		c->unit = 2;
		break;
	case TWZ_SECTION_RUNS:
		t = find(sec, count, TWZ_SECTION_ROW_OFFSETS);
		c->stride = 4;
		c->unit = 4;
		break;
	case TWZ_SECTION_TRANSIT_RUNS:
		t = find(sec, count, TWZ_SECTION_TRANSIT_ROW_OFFSETS);
		c->stride = 4;
		c->unit = 4;
		break;
	case TWZ_SECTION_ACCESS:
		/* Each node's access list whole in one chunk. */
		t = find(sec, count, TWZ_SECTION_ACCESS_FIRST);
		c->stride = 4;
		c->unit = TWZ_AE_SIZE;
		break;
	case TWZ_SECTION_ACCESS_PACKED:
		t = find(sec, count, TWZ_SECTION_ACCESS_FIRST);
		c->stride = 4;
		c->unit = 4;
		break;
	default:
		c->unit = 8;
		return 0;
	}
	if (!t)
		return -1;
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
		    unsigned i, uint64_t target, int level, void **out,
		    size_t *out_size, struct twz_error *err)
{
	const struct twz_out_section *s = &sections[i];
	const uint8_t *raw = s->raw;
	struct cuts cuts;
	uint64_t *ends = NULL;
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;

	if (cuts_init(&cuts, sections, count, s) != 0) {
		twz_error_set(err, "section %u: no row table to chunk it by",
			      (unsigned)s->kind);
		return -1;
	}
	/* Chunk ends: the first row start at least target bytes on. */
	for (uint64_t at = 0; at < s->raw_size;) {
		uint64_t e = cut_from(&cuts, at + target, s->raw_size);
		if (e - at > TWZ_CHUNK_MAX_RAW || n == TWZ_CHUNK_MAX_COUNT) {
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
		at = e;
	}
	size_t dir = TWZ_CHUNK_DIR_HEADER + n * TWZ_CHUNK_ENTRY_SIZE;
	size_t bound = dir;
	uint32_t max_raw = 0;
	for (size_t k = 0; k < n; k++) {
		uint64_t lo = k ? ends[k - 1] : 0;
		bound += ZSTD_compressBound((size_t)(ends[k] - lo));
		if (ends[k] - lo > max_raw)
			max_raw = (uint32_t)(ends[k] - lo);
	}
	buf = calloc(1, bound);
	if (!buf)
		goto nomem;
	twz_put32(buf + TWZ_CD_COUNT, (uint32_t)n);
	twz_put32(buf + TWZ_CD_MAX_RAW, max_raw);
	size_t pos = dir;
	for (size_t k = 0; k < n; k++) {
		uint64_t lo = k ? ends[k - 1] : 0;
		size_t len = (size_t)(ends[k] - lo);
		size_t got = ZSTD_compress(buf + pos, bound - pos, raw + lo, len,
					   level);
		if (ZSTD_isError(got)) {
			twz_error_set(err, "zstd: %s", ZSTD_getErrorName(got));
			goto fail;
		}
		uint8_t *e = buf + TWZ_CHUNK_DIR_HEADER + k * TWZ_CHUNK_ENTRY_SIZE;
		twz_put32(e + TWZ_CE_RAW_SIZE, (uint32_t)len);
		twz_put32(e + TWZ_CE_STORED_SIZE, (uint32_t)got);
		twz_put64(e + TWZ_CE_CHECKSUM, twz_checksum(raw + lo, len));
		pos += got;
	}
	free(ends);
	*out = buf;
	*out_size = pos;
	return 0;
nomem:
	twz_error_kind_set(err, TWZ_ERR_NOMEM,
			   "out of memory chunking a %zu-byte section", s->raw_size);
fail:
	free(ends);
	free(buf);
	return -1;
}
