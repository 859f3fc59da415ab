/*
 * twz_transit_lazy.h - how the TRANSIT back end reads its sections that
 * a cache budget leaves in chunks (local rows; access entries and table,
 * 1.4, 8-byte or packed): from memory when resident, else through the chunk cache
 * (twz_chunks.h), a pin held only while a few bytes are read or copied,
 * never two at once, so a cache of one slot serves every query. A
 * damaged chunk makes the read fail, and the query that needed it
 * answers TWZ_NONE or TWZ_E_DAMAGED, never a guess. Private to
 * twz_transit.c and twz_transit_access.c.
 */
#ifndef TWZ_TRANSIT_LAZY_H
#define TWZ_TRANSIT_LAZY_H

#include "twz_chunks.h"

#include <string.h>

/* The run of a row of count runs that covers key: the last whose start
 * is at most key, as twz_region_of finds it. The steps depend on count
 * only, and the compiler makes each a conditional move: every move of a
 * walk looks a row up, and a search that branches on the runs
 * mispredicts about every other step. */
static inline uint32_t twz__row_run(const uint8_t *row, uint32_t count,
				    uint32_t key)
{
	uint32_t k = 0;

	while (count > 1) {
		uint32_t half = count / 2;
		k = twz_le32(row + 4 * (size_t)(k + half)) <= key ? k + half : k;
		count -= half;
	}
	return k;
}

/* The symbol of local row x for target t; TWZ_SYMBOL_NONE when x's
 * chunk is damaged. */
static inline unsigned twz__transit_row_symbol(const twz_db *db, uint32_t x,
					       uint32_t t)
{
	const struct twz_transit_view *tv = &db->transit;
	uint32_t lo = twz_le32(tv->row_offsets + 4 * (size_t)x);
	uint32_t hi = twz_le32(tv->row_offsets + 4 * ((size_t)x + 1));
	uint32_t key = (t << TWZ_RUN_SYMBOL_BITS) | TWZ_RUN_SYMBOL_MASK;

	if (!tv->runs_lazy) {
		const uint8_t *row = tv->runs + 4 * (size_t)lo;
		return twz_le32(row + 4 * (size_t)twz__row_run(row, hi - lo, key)) &
		       TWZ_RUN_SYMBOL_MASK;
	}
	struct twz_chunk_pin pin;
	const uint8_t *end;
	/* A row lies whole in one chunk (checked as it is inflated). */
	const uint8_t *row = twz__chunk_get(db, tv->runs_lazy, 4 * (uint64_t)lo,
					    &end, &pin);
	if (!row)
		return TWZ_SYMBOL_NONE;
	uint32_t k = twz__row_run(row, hi - lo, key);
	unsigned sym = twz_le32(row + 4 * (size_t)k) & TWZ_RUN_SYMBOL_MASK;
	twz__chunk_unpin(&pin);
	return sym;
}

/* Access entries [e, e + count), size bytes each (TWZ_AE_SIZE, or 4
 * packed): in place, or copied into buf (count entries long); NULL when
 * damaged. */
static inline const uint8_t *twz__access_entries(const twz_db *db, uint32_t e,
						 uint32_t count, unsigned size,
						 uint8_t *buf)
{
	const struct twz_transit_view *tv = &db->transit;

	if (!tv->access_lazy)
		return (size == 4 ? tv->access_packed : tv->access_entries) +
		       (size_t)e * size;
	if (!twz__chunk_copy(db, tv->access_lazy, (uint64_t)e * size, buf,
			     (size_t)count * size))
		return NULL;
	return buf;
}

/* w bits of ACCESS_TABLE from bit on (TWZ_ACCESS_BITS); *bad set when
 * their chunk is damaged. The section ends in TWZ_AT_PAD zero bytes, so
 * the 8 bytes read are always in it. */
static inline uint64_t twz__access_table_bits(const twz_db *db, uint64_t bit,
					      unsigned w, int *bad)
{
	const struct twz_transit_view *tv = &db->transit;
	uint8_t b[8];

	if (!tv->table_lazy)
		return TWZ_ACCESS_BITS(tv->access_table, bit, w);
	if (!w)
		return 0;
	if (!twz__chunk_copy(db, tv->table_lazy, bit >> 3, b, sizeof b)) {
		*bad = 1;
		return 0;
	}
	return TWZ_ACCESS_BITS(b, bit & 7, w);
}

#endif /* TWZ_TRANSIT_LAZY_H */
