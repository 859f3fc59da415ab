/*
 * twz_chunk_dir.c - checks of a chunked section's directory (format 1.4,
 * FORMAT.md section 5h), made at open before any chunk is inflated.
 */
#include "twz_chunk_dir.h"

twz_status twz_chunk_dir_read(const uint8_t *stored, uint64_t size,
			      uint64_t raw_size, struct twz_chunk_dir *d)
{
	if (size < TWZ_CHUNK_DIR_HEADER)
		return TWZ_E_DAMAGED;
	uint32_t count = twz_le32(stored + TWZ_CD_COUNT);
	uint32_t max_raw = twz_le32(stored + TWZ_CD_MAX_RAW);

	if (twz_le64(stored + TWZ_CD_RESERVED))
		return TWZ_E_RESERVED;
	if (count == 0 || count > TWZ_CHUNK_MAX_COUNT)
		return TWZ_E_DAMAGED;
	uint64_t dir = TWZ_CHUNK_DIR_HEADER +
		       (uint64_t)count * TWZ_CHUNK_ENTRY_SIZE;
	if (dir > size)
		return TWZ_E_DAMAGED;
	d->entries = stored + TWZ_CHUNK_DIR_HEADER;
	d->frames = stored + dir;
	d->count = count;
	d->max_raw = max_raw;

	/* Sums of u32 over at most 2^24 chunks fit u64 without overflow. */
	uint64_t raw = 0, frames = 0;
	uint32_t largest = 0;
	for (uint32_t i = 0; i < count; i++) {
		uint32_t r = twz_chunk_raw_size(d, i);
		uint32_t s = twz_chunk_stored_size(d, i);
		if (r == 0 || r > TWZ_CHUNK_MAX_RAW || s == 0)
			return TWZ_E_DAMAGED;
		largest = r > largest ? r : largest;
		raw += r;
		frames += s;
	}
	if (largest != max_raw || raw != raw_size || frames != size - dir)
		return TWZ_E_DAMAGED;
	return TWZ_OK;
}
