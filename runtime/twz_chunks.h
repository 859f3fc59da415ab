/*
 * twz_chunks.h - chunked sections (format 1.4): inflated whole at open,
 * or, under twz_open_ex's cache budget, chunk by chunk on first use into
 * a bounded cache of slots made at open. Readers reach a lazy section's
 * bytes only through twz__chunk_get, which pins the chunk it returns
 * until twz__chunk_unpin: a hit takes no lock (two atomic operations on
 * the slot), a miss takes the cache's lock, evicts an unpinned slot and
 * inflates, checks and publishes the chunk.
 */
#ifndef TWZ_CHUNKS_H
#define TWZ_CHUNKS_H

#include "twz_db.h"
#include "twz_chunk_dir.h"

#include <stdatomic.h>

/* A slot holding one inflated chunk; a cache line of its own, since
 * every thread that reads its chunk pins it. */
struct twz_chunk_slot {
	atomic_uint pins;         /* readers between get and unpin */
	atomic_uchar used;        /* read since the clock hand passed */
	uint32_t section;         /* what it holds, under the lock: */
	uint32_t chunk;           /* chunk + 1 of lazy[section]; 0 free */
	uint8_t *bytes;
	uint8_t pad[40];
};

/* What a reader holds between twz__chunk_get and twz__chunk_unpin. */
struct twz_chunk_pin {
	struct twz_chunk_slot *slot;
};

#define TWZ_CHUNK_BAD UINT32_MAX  /* where[]: failed its checks */

/* One chunked section read on use. */
struct twz_lazy {
	uint32_t kind;
	struct twz_chunk_dir dir;
	uint64_t *start;          /* [count + 1]: raw offset of each chunk */
	uint64_t *frame;          /* [count]: frame offset from dir.frames */
	atomic_uint *where;       /* [count]: 0, slot + 1, or TWZ_CHUNK_BAD */
	uint8_t *checked;         /* [count]: its rows passed, under the lock */
};

#define TWZ_LAZY_MAX 8

struct twz_chunk_cache {
	uint64_t budget;
	unsigned flags;           /* twz_open flags (skip checksums) */
	struct twz_lazy lazy[TWZ_LAZY_MAX];
	unsigned lazy_count;
	struct twz_chunk_slot *slot;
	uint32_t slots;
	size_t slot_size;
	uint8_t *memory;          /* slots * slot_size */
	atomic_flag lock;         /* misses only */
	void *dctx;               /* ZSTD_DCtx, used under the lock */
	uint32_t hand;            /* the clock, under the lock */
	atomic_ullong misses;     /* chunks inflated */
	atomic_ullong failures;   /* chunks that failed their checks */
};

/* Inflate the chunked section s into buf (s->raw_size bytes): each frame
 * checked against its directory entry and, unless flags skip them, its
 * checksum. */
twz_status twz__chunks_inflate(const uint8_t *stored,
			       const struct twz_section_ref *s, uint8_t *buf,
			       unsigned flags);

/* Whether section s of db is to be read on use: chunked, a kind whose
 * reader goes through twz__chunk_get, and db opened with a budget. */
int twz__chunks_lazy(const struct twz_db *db, const struct twz_section_ref *s);

/* The lazy section of kind in db, or NULL (read from memory). */
const struct twz_lazy *twz__chunks_find(const struct twz_db *db,
					uint32_t kind);

/* Register s (lazy) with db's cache: its directory and frames checked
 * without inflating anything. */
twz_status twz__chunks_defer(struct twz_db *db,
			     const struct twz_section_ref *s);

/* After validation: the slots and the decompression context. */
twz_status twz__chunks_start(struct twz_db *db);

void twz__chunks_free(struct twz_chunk_cache *cache);

/* Bytes [off, *end) of lazy section L, off inside it, pinned in *pin;
 * NULL when its chunk is damaged (then nothing is pinned). */
const uint8_t *twz__chunk_get(const struct twz_db *db,
			      const struct twz_lazy *L, uint64_t off,
			      const uint8_t **end, struct twz_chunk_pin *pin);

static inline void twz__chunk_unpin(struct twz_chunk_pin *pin)
{
	if (pin->slot)
		atomic_fetch_sub_explicit(&pin->slot->pins, 1,
					  memory_order_release);
	pin->slot = NULL;
}

/* Bytes [off, off + n) of lazy section L into out, a chunk at a time:
 * never two pins at once, so one slot serves. 0 when a chunk they lie
 * in is damaged. */
int twz__chunk_copy(const struct twz_db *db, const struct twz_lazy *L,
		    uint64_t off, void *out, size_t n);

/* Node n's row (as twz__row_view_in), pinned when ROWS is lazy; 0 when
 * its chunk is damaged. */
static inline int twz__row_view_pinned(const struct twz_db *db, uint32_t n,
				       uint32_t lo, uint32_t len,
				       struct twz_row_view *v,
				       struct twz_chunk_pin *pin)
{
	pin->slot = NULL;
	if (!db->rows_lazy) {
		twz__row_view_in(db, n, lo, len, v);
		return 1;
	}
	uint32_t word = twz_le32(twz__record(db, n) + TWZ_R_ROW);
	const uint8_t *end;
	/* Rows never straddle chunks (checked as each is inflated). */
	const uint8_t *p = twz__chunk_get(db, db->rows_lazy,
					  2 * (uint64_t)(word & TWZ_ROW_OFFSET_MASK),
					  &end, pin);
	if (!p)
		return 0;
	v->lo = lo;
	v->len = len;
	v->shift = word >> TWZ_ROW_OFFSET_BITS;
	v->buckets = ((len - 1) >> v->shift) + 1;
	v->index = p;
	v->runs = p + 2 * ((size_t)v->buckets + 1);
	v->end = end;
	return 1;
}

#endif
