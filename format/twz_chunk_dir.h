/*
 * twz_chunk_dir.h - the chunk directory that leads the stored bytes of a
 * chunked section (format 1.4, TWZ_SF_CHUNKED; layout in twz_format.h and
 * FORMAT.md section 5h). Pure: bytes in, status out. The runtime reads
 * it at open, the writer's tests check what the writer made with it.
 */
#ifndef TWZ_CHUNK_DIR_H
#define TWZ_CHUNK_DIR_H

#include "twz_validate.h"

struct twz_chunk_dir {
	const uint8_t *entries;   /* count entries, TWZ_CHUNK_ENTRY_SIZE each */
	const uint8_t *frames;    /* chunk 0's frame; the others follow */
	uint32_t count;
	uint32_t max_raw;         /* the largest chunk's raw size */
};

/* Check the directory at the start of a chunked section's stored bytes
 * (size of them) against the section's raw size: count and reserved
 * field, every chunk's raw size (1 ..= TWZ_CHUNK_MAX_RAW, the largest
 * equal to max_raw), raw sizes adding up to raw_size and frames filling
 * the stored bytes exactly. O(count); the frames are not read. */
twz_status twz_chunk_dir_read(const uint8_t *stored, uint64_t size,
			      uint64_t raw_size, struct twz_chunk_dir *d);

static inline uint32_t twz_chunk_raw_size(const struct twz_chunk_dir *d,
					  uint32_t i)
{
	return twz_le32(d->entries + (size_t)i * TWZ_CHUNK_ENTRY_SIZE +
			TWZ_CE_RAW_SIZE);
}

static inline uint32_t twz_chunk_stored_size(const struct twz_chunk_dir *d,
					     uint32_t i)
{
	return twz_le32(d->entries + (size_t)i * TWZ_CHUNK_ENTRY_SIZE +
			TWZ_CE_STORED_SIZE);
}

static inline uint64_t twz_chunk_checksum(const struct twz_chunk_dir *d,
					  uint32_t i)
{
	return twz_le64(d->entries + (size_t)i * TWZ_CHUNK_ENTRY_SIZE +
			TWZ_CE_CHECKSUM);
}

#endif
