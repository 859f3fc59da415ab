/*
 * twz_chunks.c - chunked sections (format 1.4, FORMAT.md section 5h):
 * inflated whole at open, or on first use into the bounded cache of
 * twz_open_ex (twz_chunks.h says how readers pin what they read): CPD
 * ROWS and INLINE_ROWS, and TRANSIT's local rows, access entries and
 * access table.
 */
#include "twz_chunks.h"
#include "twz_platform.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* The frame of chunk i is whole, one frame, and decodes to its size. */
static twz_status frame_ok(const uint8_t *frame, uint32_t stored,
			   uint32_t raw)
{
	unsigned long long content = ZSTD_getFrameContentSize(frame, stored);

	if (content == ZSTD_CONTENTSIZE_ERROR ||
	    content == ZSTD_CONTENTSIZE_UNKNOWN || content != raw)
		return TWZ_E_DAMAGED;
	if (ZSTD_findFrameCompressedSize(frame, stored) != stored)
		return TWZ_E_DAMAGED;
	return TWZ_OK;
}

twz_status twz__chunks_inflate(const uint8_t *stored,
			       const struct twz_section_ref *s, uint8_t *buf,
			       unsigned flags)
{
	struct twz_chunk_dir d;
	twz_status st = twz_chunk_dir_read(stored, s->size, s->raw_size, &d);

	if (st != TWZ_OK)
		return st;
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	if (!dctx)
		return TWZ_E_NOMEM;
	const uint8_t *frame = d.frames;
	uint64_t at = 0;
	for (uint32_t i = 0; i < d.count && st == TWZ_OK; i++) {
		uint32_t raw = twz_chunk_raw_size(&d, i);
		uint32_t size = twz_chunk_stored_size(&d, i);
		st = frame_ok(frame, size, raw);
		if (st != TWZ_OK)
			break;
		size_t got = ZSTD_decompressDCtx(dctx, buf + at, raw, frame, size);
		if (ZSTD_isError(got) || got != raw)
			st = TWZ_E_DAMAGED;
		else if (!(flags & TWZ_OPEN_SKIP_CHECKSUMS) &&
			 twz_checksum(buf + at, raw) != twz_chunk_checksum(&d, i))
			st = TWZ_E_CHECKSUM;
		frame += size;
		at += raw;
	}
	ZSTD_freeDCtx(dctx);
	return st;
}

/* What a lazy section of kind k is read in: chunks start on a unit
 * (bytes), and step 2 of the validator is told it is deferred. 0: the
 * kind is inflated at open. */
static unsigned lazy_unit(const struct twz_db *db, uint32_t k, unsigned *defer)
{
	if (db->c.method == TWZ_METHOD_CPD) {
		*defer = TWZ_DEFER_ROWS;
		return k == TWZ_SECTION_ROWS || k == TWZ_SECTION_INLINE_ROWS ? 2 : 0;
	}
	if (db->c.method != TWZ_METHOD_TRANSIT)
		return 0;
	switch (k) {
	case TWZ_SECTION_TRANSIT_RUNS:
		*defer = TWZ_DEFER_TRANSIT_RUNS;
		return 4;
	}
	/* The access layout's big two (1.4); the 1.1 layout's distance
	 * planes are decoded into tables at open. */
	if (!(db->c.required_features & TWZ_FEATURE_TRANSIT_ACCESS))
		return 0;
	switch (k) {
	case TWZ_SECTION_ACCESS:
		*defer = TWZ_DEFER_ACCESS;
		return TWZ_AE_SIZE;
	case TWZ_SECTION_ACCESS_PACKED:
		*defer = TWZ_DEFER_ACCESS_PACKED;
		return 4;
	case TWZ_SECTION_ACCESS_TABLE:
		*defer = TWZ_DEFER_ACCESS_TABLE;
		return 1;
	}
	return 0;
}

int twz__chunks_lazy(const struct twz_db *db, const struct twz_section_ref *s)
{
	unsigned defer;

	/* CPD rows are read through twz__row_view_pinned (1.4's through
	 * twz_cpd_inline.c's pinned reads), TRANSIT's local
	 * rows, access entries and table through twz_transit_lazy.h; other
	 * chunked sections are inflated at open. */
	return db->cache && (s->flags & TWZ_SF_CHUNKED) &&
	       lazy_unit(db, s->kind, &defer) != 0;
}

const struct twz_lazy *twz__chunks_find(const struct twz_db *db,
					uint32_t kind)
{
	const struct twz_chunk_cache *cc = db->cache;

	for (unsigned k = 0; cc && k < cc->lazy_count; k++)
		if (cc->lazy[k].kind == kind)
			return &cc->lazy[k];
	return NULL;
}

twz_status twz__chunks_defer(struct twz_db *db,
			     const struct twz_section_ref *s)
{
	struct twz_chunk_cache *cc = db->cache;
	struct twz_lazy *L;
	unsigned defer = 0, unit = lazy_unit(db, s->kind, &defer);
	twz_status st;

	if (cc->lazy_count == TWZ_LAZY_MAX)
		return TWZ_E_LIMIT;
	/* One of each kind: its bytes have one place. */
	if (twz__chunks_find(db, s->kind))
		return TWZ_E_DAMAGED;
	L = &cc->lazy[cc->lazy_count];
	memset(L, 0, sizeof *L);
	st = twz_chunk_dir_read(db->file + s->offset, s->size, s->raw_size,
				&L->dir);
	if (st != TWZ_OK)
		return st;
	uint32_t n = L->dir.count;
	L->kind = s->kind;
	L->start = malloc(((size_t)n + 1) * sizeof *L->start);
	L->frame = malloc((size_t)n * sizeof *L->frame);
	L->where = malloc((size_t)n * sizeof *L->where);
	L->checked = calloc(n, 1);
	cc->lazy_count++;       /* freed with the cache from here on */
	if (!L->start || !L->frame || !L->where || !L->checked)
		return TWZ_E_NOMEM;
	uint64_t raw = 0, frame = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = twz_chunk_raw_size(&L->dir, i);
		uint32_t size = twz_chunk_stored_size(&L->dir, i);
		/* Read in units (ROWS u16, runs u32, access entries):
		 * chunks start on one. */
		if (r % unit)
			return TWZ_E_DAMAGED;
		st = frame_ok(L->dir.frames + frame, size, r);
		if (st != TWZ_OK)
			return st;
		L->start[i] = raw;
		L->frame[i] = frame;
		atomic_init(&L->where[i], 0);
		raw += r;
		frame += size;
	}
	L->start[n] = raw;
	db->content.size[s->kind] = s->raw_size;
	db->content.deferred |= defer;
	db->memory_size += (uint64_t)n * (2 * sizeof(uint64_t) +
					  sizeof(atomic_uint) + 1) + 8;
	return TWZ_OK;
}

twz_status twz__chunks_start(struct twz_db *db)
{
	struct twz_chunk_cache *cc = db->cache;
	uint64_t chunks = 0, raw = 0;
	uint32_t largest = 0;

	/* Nothing chunked to read on use: as twz_open. */
	if (!cc->lazy_count) {
		twz__chunks_free(cc);
		db->cache = NULL;
		return TWZ_OK;
	}

	for (unsigned k = 0; k < cc->lazy_count; k++) {
		chunks += cc->lazy[k].dir.count;
		raw += cc->lazy[k].start[cc->lazy[k].dir.count];
		if (cc->lazy[k].dir.max_raw > largest)
			largest = cc->lazy[k].dir.max_raw;
		if (cc->lazy[k].kind == TWZ_SECTION_ROWS ||
		    cc->lazy[k].kind == TWZ_SECTION_INLINE_ROWS)
			db->rows_lazy = &cc->lazy[k];
	}
	/* Slots of the largest chunk, a cache line apart; as many as the
	 * budget holds, one at least, no more than there are chunks. */
	cc->slot_size = ((size_t)largest + 63) & ~(size_t)63;
	uint64_t slots = cc->budget / cc->slot_size;
	if (slots < 1)
		slots = 1;
	/* A budget that holds the sections inflated holds every chunk
	 * (slots are as large as the largest, so a little more). */
	if (slots > chunks || cc->budget >= raw)
		slots = chunks;
	if (slots * cc->slot_size > SIZE_MAX / 2)
		return TWZ_E_LIMIT;
	cc->slots = (uint32_t)slots;
	cc->slot = calloc(slots, sizeof *cc->slot);
	cc->memory = malloc((size_t)(slots * cc->slot_size));
	cc->dctx = ZSTD_createDCtx();
	if (!cc->slot || !cc->memory || !cc->dctx)
		return TWZ_E_NOMEM;
	for (uint32_t i = 0; i < cc->slots; i++) {
		atomic_init(&cc->slot[i].pins, 0);
		atomic_init(&cc->slot[i].used, 0);
		cc->slot[i].bytes = cc->memory + (size_t)i * cc->slot_size;
	}
	db->memory_size += slots * (cc->slot_size + sizeof *cc->slot);
	return TWZ_OK;
}

void twz__chunks_free(struct twz_chunk_cache *cc)
{
	if (!cc)
		return;
	for (unsigned k = 0; k < cc->lazy_count; k++) {
		free(cc->lazy[k].start);
		free(cc->lazy[k].frame);
		free(cc->lazy[k].where);
		free(cc->lazy[k].checked);
	}
	free(cc->slot);
	free(cc->memory);
	ZSTD_freeDCtx(cc->dctx);
	free(cc);
}

/* ---- on use ------------------------------------------------------------ */

/* The chunk holding raw offset off (inside the section). */
static uint32_t chunk_of(const struct twz_lazy *L, uint64_t off)
{
	uint32_t lo = 0, hi = L->dir.count;   /* start[lo] <= off < start[hi] */

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (L->start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void lock(struct twz_chunk_cache *cc)
{
	while (atomic_flag_test_and_set_explicit(&cc->lock,
						 memory_order_acquire))
		twz_yield();
}

static void unlock(struct twz_chunk_cache *cc)
{
	atomic_flag_clear_explicit(&cc->lock, memory_order_release);
}

/*
 * A slot to fill, under the lock: a free one, else the first unpinned
 * one the clock hand finds not read since its last pass. Its chunk is
 * unpublished before its pins are read: a reader pins, then looks at
 * where[] again, so either it sees the chunk gone and lets go, or this
 * sees its pin and puts the chunk back. -1 when every slot is pinned.
 */
static int take_slot(struct twz_chunk_cache *cc)
{
	for (uint32_t step = 0; step < 2 * cc->slots + 1; step++) {
		uint32_t i = cc->hand;
		struct twz_chunk_slot *sl = &cc->slot[i];

		cc->hand = i + 1 == cc->slots ? 0 : i + 1;
		if (!sl->chunk)
			return (int)i;
		if (atomic_exchange_explicit(&sl->used, 0, memory_order_relaxed))
			continue;
		atomic_uint *where = &cc->lazy[sl->section].where[sl->chunk - 1];
		atomic_store(where, 0);
		if (atomic_load(&sl->pins) == 0) {
			sl->chunk = 0;
			return (int)i;
		}
		atomic_store(where, i + 1);
	}
	return -1;
}

/* The first node whose u32 at table[n] (n up to node_count, rising) is
 * key or more. */
static uint32_t first_at_least(const uint8_t *table, uint32_t count,
			       uint64_t key)
{
	uint32_t a = 0, b = count;

	while (a < b) {
		uint32_t mid = a + (b - a) / 2;
		if (twz_le32(table + 4 * (size_t)mid) < key)
			a = mid + 1;
		else
			b = mid;
	}
	return a;
}

/* A TRANSIT chunk's own checks (twz_validate_transit_lazy.c): the local
 * rows or access lists that start in it, found by bisection of their
 * offsets (checked at open to rise), or the table's padding. Marks it
 * checked. */
static twz_status transit_chunk_check(const struct twz_db *db,
				      const struct twz_lazy *L, uint32_t c,
				      const uint8_t *bytes)
{
	const struct twz_content *v = &db->content;
	uint64_t lo = L->start[c], hi = L->start[c + 1];
	uint32_t n = db->c.node_count;
	twz_status st;

	switch (L->kind) {
	case TWZ_SECTION_TRANSIT_RUNS: {
		const uint8_t *off = v->data[TWZ_SECTION_TRANSIT_ROW_OFFSETS];
		st = twz_validate_transit_runs(&db->c, v, bytes, lo / 4,
					       (hi - lo) / 4,
					       first_at_least(off, n, lo / 4),
					       first_at_least(off, n, hi / 4));
		break;
	}
	case TWZ_SECTION_ACCESS:
	case TWZ_SECTION_ACCESS_PACKED: {
		const uint8_t *first = v->data[TWZ_SECTION_ACCESS_FIRST];
		unsigned es = L->kind == TWZ_SECTION_ACCESS ? TWZ_AE_SIZE : 4;
		/* An empty list has nothing to check wherever it starts. */
		uint32_t a = first_at_least(first, n, lo / es);
		uint32_t b = first_at_least(first, n, hi / es);
		st = twz_validate_access_entries(&db->c, v, bytes, lo / es,
						 (hi - lo) / es, a, b);
		break;
	}
	case TWZ_SECTION_ACCESS_TABLE:
		st = twz_validate_access_table(&db->c, v, bytes, lo, hi - lo);
		break;
	default:
		st = TWZ_E_DAMAGED;
	}
	L->checked[c] = st == TWZ_OK;
	return st;
}

/* Whether chunk c of L, inflated into bytes, holds what the format
 * allows: its checksum, then what its kind's validator asks. The rows
 * are checked the first time only: the same frame of a file that does
 * not change (twz_open's rule) inflates to the same bytes. */
static twz_status chunk_check(const struct twz_db *db,
			      const struct twz_lazy *L, uint32_t c,
			      const uint8_t *bytes)
{
	const struct twz_chunk_cache *cc = db->cache;
	uint64_t lo = L->start[c], hi = L->start[c + 1];

	if (!(cc->flags & TWZ_OPEN_SKIP_CHECKSUMS) &&
	    twz_checksum(bytes, (size_t)(hi - lo)) != twz_chunk_checksum(&L->dir, c))
		return TWZ_E_CHECKSUM;
	if (L->checked[c])
		return TWZ_OK;
	if (L->kind != TWZ_SECTION_ROWS && L->kind != TWZ_SECTION_INLINE_ROWS)
		return transit_chunk_check(db, L, c, bytes);
	/* ROWS, INLINE_ROWS: the rows that start in the chunk, found by
	 * bisection of the records' row offsets, which rise. */
	uint32_t first = 0, last = 0;
	for (int pass = 0; pass < 2; pass++) {
		uint64_t key = (pass ? hi : lo) / 2;
		uint32_t a = 0, b = db->c.node_count;   /* first with row >= key */
		while (a < b) {
			uint32_t mid = a + (b - a) / 2;
			uint32_t w = twz_le32(twz__record(db, mid) + TWZ_R_ROW);
			if ((w & TWZ_ROW_OFFSET_MASK) < key)
				a = mid + 1;
			else
				b = mid;
		}
		if (pass)
			last = a;
		else
			first = a;
	}
	twz_status st = (db->inline_rows ? twz_validate_cpd_inline_rows
					 : twz_validate_cpd_rows)(&db->c, &db->content, bytes,
								  lo / 2, (hi - lo) / 2,
								  first, last);
	L->checked[c] = st == TWZ_OK;
	return st;
}

/* Bring chunk c of L in, under the lock. -1 when every slot is pinned:
 * the caller lets the pinning threads run and tries again. */
static int fill(const struct twz_db *db, const struct twz_lazy *L,
		uint32_t c)
{
	struct twz_chunk_cache *cc = db->cache;
	int rc = 0;

	lock(cc);
	if (atomic_load_explicit(&L->where[c], memory_order_relaxed) == 0) {
		int i = take_slot(cc);
		if (i < 0) {
			rc = -1;
		} else {
			struct twz_chunk_slot *sl = &cc->slot[i];
			uint32_t raw = twz_chunk_raw_size(&L->dir, c);
			size_t got = ZSTD_decompressDCtx(
				cc->dctx, sl->bytes, cc->slot_size,
				L->dir.frames + L->frame[c],
				twz_chunk_stored_size(&L->dir, c));
			atomic_fetch_add_explicit(&cc->misses, 1,
						  memory_order_relaxed);
			if (ZSTD_isError(got) || got != raw ||
			    chunk_check(db, L, c, sl->bytes) != TWZ_OK) {
				/* For good: every later read says damaged. */
				atomic_fetch_add_explicit(&cc->failures, 1,
							  memory_order_relaxed);
				atomic_store(&L->where[c], TWZ_CHUNK_BAD);
			} else {
				sl->section = (uint32_t)(L - cc->lazy);
				sl->chunk = c + 1;
				atomic_store_explicit(&sl->used, 1,
						      memory_order_relaxed);
				atomic_store(&L->where[c], (unsigned)i + 1);
			}
		}
	}
	unlock(cc);
	return rc;
}

const uint8_t *twz__chunk_get(const struct twz_db *db,
			      const struct twz_lazy *L, uint64_t off,
			      const uint8_t **end, struct twz_chunk_pin *pin)
{
	struct twz_chunk_cache *cc = db->cache;
	uint32_t c = chunk_of(L, off);

	for (;;) {
		unsigned w = atomic_load_explicit(&L->where[c],
						  memory_order_acquire);
		if (w == TWZ_CHUNK_BAD)
			return NULL;
		if (!w) {
			if (fill(db, L, c) < 0)
				twz_yield();
			continue;
		}
		struct twz_chunk_slot *sl = &cc->slot[w - 1];
		atomic_fetch_add(&sl->pins, 1);
		if (atomic_load(&L->where[c]) != w) {
			/* Evicted meanwhile. */
			atomic_fetch_sub(&sl->pins, 1);
			continue;
		}
		if (!atomic_load_explicit(&sl->used, memory_order_relaxed))
			atomic_store_explicit(&sl->used, 1, memory_order_relaxed);
		pin->slot = sl;
		*end = sl->bytes + (L->start[c + 1] - L->start[c]);
		return sl->bytes + (off - L->start[c]);
	}
}

int twz__chunk_copy(const struct twz_db *db, const struct twz_lazy *L,
		    uint64_t off, void *out, size_t n)
{
	uint8_t *to = out;

	while (n) {
		struct twz_chunk_pin pin;
		const uint8_t *end;
		const uint8_t *p = twz__chunk_get(db, L, off, &end, &pin);
		if (!p)
			return 0;
		size_t k = (size_t)(end - p) < n ? (size_t)(end - p) : n;
		memcpy(to, p, k);
		twz__chunk_unpin(&pin);
		to += k;
		off += k;
		n -= k;
	}
	return 1;
}
