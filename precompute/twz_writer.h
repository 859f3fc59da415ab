/*
 * twz_writer.h - lays out a .twz file (header, section table, 64-byte
 * aligned sections, checksums, zstd) and writes it atomically.
 */
#ifndef TWZ_WRITER_H
#define TWZ_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "twz_error.h"
#include "twz_validate.h"

struct twz_out_section {
	uint32_t kind;
	const void *raw;      /* little-endian bytes */
	size_t raw_size;
};

/* Header fields the writer cannot derive; sections, sizes, offsets and
 * checksums it fills itself. */
struct twz_out_header {
	uint16_t minor;       /* format minor version */
	uint64_t required_features;
	uint64_t level_hash;
	uint32_t width;
	uint32_t height;
	uint32_t node_count;
	uint32_t component_count;
	uint8_t method;
	uint8_t connectivity;
	uint8_t node_order;
	uint8_t codec;        /* for every section */
	int8_t level;         /* zstd level */
	uint8_t threads;      /* sections compressed at once (0: one); the
				 * bytes do not depend on it */
};

/* Encode the whole file into a malloc'd buffer. 0 on success. */
int twz_encode(const struct twz_out_header *h,
	       const struct twz_out_section *sections, unsigned count,
	       uint8_t **buf, size_t *len, struct twz_error *err);

/* Write bytes to path through a temporary file in the same directory,
 * fsync'd and renamed into place; on failure nothing is left behind. */
int twz_write_atomic(const char *path, const uint8_t *buf, size_t len,
		     struct twz_error *err);

#endif
