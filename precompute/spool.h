/*
 * spool.h - where a bake larger than its memory budget keeps its big
 * arrays: an unlinked temporary file next to the output (same file
 * system, not /tmp, which may be memory; gone however the process ends)
 * whose regions are mapped shared. The bake works on them as on memory;
 * the pages it has touched go back to the file whenever it trims, so what
 * stays resident is what it touches between two trims. The writer
 * compresses a section that lies in the spool piece by piece, dropping
 * the pages behind it (twz_writer.c).
 */
#ifndef SPOOL_H
#define SPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "twz_error.h"

struct twz_spool_region;

struct twz_spool {
	int fd;
	uint64_t size;            /* bytes of the file */
	uint64_t peak;            /* its largest size */
	struct twz_spool_region *regions;   /* mapped, newest first */
};

/* 0, or -1 with err set (the output's folder cannot hold a file). */
int twz_spool_open(struct twz_spool *sp, const char *near_path,
		   struct twz_error *err);
/* Unmaps every region and closes the file. */
void twz_spool_close(struct twz_spool *sp);

/* A big array of n bytes, zeroed: in sp when sp is not NULL (mapped from
 * a new region of the file), else calloc'd. NULL when it cannot be made
 * (errno set). */
void *twz_big_alloc(struct twz_spool *sp, size_t n);

/* p (NULL, or a big array of old bytes from the same sp) grown to n
 * bytes, as realloc does; the bytes past old are zero in the spool. */
void *twz_big_grow(struct twz_spool *sp, void *p, size_t old, size_t n);

/* Let p go (NULL: nothing). */
void twz_big_free(struct twz_spool *sp, void *p);

/* Whether p lies in one of sp's regions (sp may be NULL). */
int twz_spool_holds(const struct twz_spool *sp, const void *p);

/* Give the resident pages of [p, p + n) (in sp) back to the file. */
void twz_spool_release(const struct twz_spool *sp, const void *p, size_t n);

/* The same for every region: what the bake touched since the last trim
 * stays in the file only (sp may be NULL). */
void twz_spool_trim(const struct twz_spool *sp);

/* Bytes of the spool kept mapped while a section is compressed from it,
 * beyond the compressor's window. */
#define TWZ_SPOOL_PIECE ((size_t)4 << 20)

/* Peak bytes the writer needs to compress a spooled section of size
 * bytes at level: the compressor's context and window, the pieces. */
uint64_t twz_spool_write_bytes(uint64_t size, int level);

#endif
