/*
 * twz_writer.h - lays out a .twz file (header, section table, 64-byte
 * aligned sections, checksums, zstd) and writes it atomically. Every
 * method hands its sections to the same writer (struct twz_out_file).
 */
#ifndef TWZ_WRITER_H
#define TWZ_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "sink.h"
#include "twz_error.h"
#include "twz_validate.h"

struct twz_out_section {
	uint32_t kind;
	const void *raw;      /* little-endian bytes */
	size_t raw_size;
};

/* Room for the BUILD_INFO text a bake records (bake.c writes about
 * 150 bytes; the format allows TWZ_BUILD_INFO_MAX). */
#define TWZ_OUT_BUILD_INFO_CAP 512

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
	uint8_t level_kind;   /* TWZ_LEVEL_*: 0 (grid) writes what 1.3 did */
	uint8_t codec;        /* for every section */
	int8_t level;         /* zstd level */
	uint8_t threads;      /* sections compressed at once (0: one); the
				 * bytes do not depend on it */
	uint64_t chunk;       /* 1.4: store the row and distance sections as
				 * zstd chunks of about this many raw bytes
				 * (twz_chunk_writer.h); 0: one frame each */
	/* BUILD_INFO text (twz_build_info.h), NUL-terminated; "" writes no
	 * such section. twz_encode places it among the sections by kind. */
	char build_info[TWZ_OUT_BUILD_INFO_CAP];
};

/* Encode the whole file into a malloc'd buffer. 0 on success. */
int twz_encode(const struct twz_out_header *h,
	       const struct twz_out_section *sections, unsigned count,
	       uint8_t **buf, size_t *len, struct twz_error *err);

struct twz_spool;

/* A file as a method assembles it: the header and the sections in file
 * order, and the buffers to free once it is written. An add that runs
 * out of memory marks the file; twz_out_finish then reports it. A
 * section's bytes may lie in the spool (spool.h): the writer compresses
 * them from there piece by piece. */
struct twz_out_file {
	struct twz_out_header h;
	struct twz_out_section sec[TWZ_MAX_SECTIONS];
	void *owned[TWZ_MAX_SECTIONS];
	unsigned count;
	int failed;
	const char *name;            /* the level, in messages */
	struct twz_spool *spool;     /* NULL: every section in memory */
};

/* Add a section whose bytes stay the caller's. */
void twz_out_add(struct twz_out_file *f, uint32_t kind, const void *raw,
		 size_t size);
/* Add a malloc'd buffer or a big array of f->spool (NULL: out of
 * memory); the file frees it. */
void twz_out_add_owned(struct twz_out_file *f, uint32_t kind, void *raw,
		       size_t size);
/* Add n u32 as little-endian bytes: the array itself where the machine
 * is little-endian (it must then outlive f), else a copy. */
void twz_out_add_le32(struct twz_out_file *f, uint32_t kind,
		      const uint32_t *v, size_t n);

/* Add n u32 of a malloc'd (or f->spool's) array, made little-endian in
 * place; the file frees it (NULL: out of memory). */
void twz_out_add_le32_owned(struct twz_out_file *f, uint32_t kind,
			    uint32_t *v, size_t n);

/* Free what f owns, without writing it. */
void twz_out_drop(struct twz_out_file *f);


/* The file: every section stored (raw, a zstd frame, or chunks), then
 * the header and the section table, to the sink; frees what f owns. 0,
 * or -1 with err set (nothing left at the sink's path). */
int twz_out_finish(struct twz_out_file *f, const struct twz_sink *sink,
		   struct twz_error *err);

/* The same into a malloc'd buffer, or to path. */
int twz_out_encode(struct twz_out_file *f, uint8_t **buf, size_t *len,
		   struct twz_error *err);
int twz_out_write(struct twz_out_file *f, const char *path,
		  struct twz_error *err);

/* A little-endian copy of n u32 (malloc'd; NULL out of memory). */
uint8_t *twz_le32_copy(const uint32_t *v, size_t n);

#endif
