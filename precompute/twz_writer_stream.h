/*
 * twz_writer_stream.h - the writer of a bake larger than its memory
 * budget: sections whose bytes wait in a spool (an unlinked temporary
 * file next to the output, gone however the process ends) are
 * compressed from it in bounded pieces straight into the output, which
 * is written in place and renamed, as twz_out_write's is. The bytes are
 * those twz_out_write writes for the same sections.
 */
#ifndef TWZ_WRITER_STREAM_H
#define TWZ_WRITER_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "twz_error.h"
#include "twz_writer.h"

/* A temporary file of the bake: created next to the output (same file
 * system, not /tmp, which may be memory) and unlinked at once. */
struct twz_spool {
	int fd;
	uint64_t size;     /* bytes appended so far */
};

/* 0, or -1 with err set (the output's folder cannot hold a file). */
int twz_spool_open(struct twz_spool *sp, const char *near_path,
		   struct twz_error *err);
void twz_spool_close(struct twz_spool *sp);

/* Write n bytes at offset at (any thread; ranges must not overlap). */
int twz_spool_pwrite(struct twz_spool *sp, uint64_t at, const void *buf,
		     size_t n);
/* Read n bytes at offset at. */
int twz_spool_pread(const struct twz_spool *sp, uint64_t at, void *buf,
		    size_t n);

/* A sequential writer into a spool from offset at, through buf (the
 * caller's, TWZ_SPOOL_OUT_PIECE bytes): puts gather small pieces into
 * one pwrite. 0, or -1 with errno set. */
#define TWZ_SPOOL_OUT_PIECE ((size_t)1 << 20)

struct twz_spool_out {
	struct twz_spool *spool;
	uint64_t at;       /* where buf's first byte goes */
	uint8_t *buf;
	size_t len;        /* bytes waiting in buf */
};

int twz_spool_out_put(struct twz_spool_out *o, const void *p, size_t n);
int twz_spool_out_flush(struct twz_spool_out *o);

/* Bytes of the raw spool kept mapped while a section is compressed from
 * it, beyond the compressor's window. */
#define TWZ_SPOOL_PIECE ((size_t)4 << 20)

/* Peak bytes twz_out_write_spooled needs beyond the sections it holds
 * in memory: the compression context of a section of size bytes at
 * level, the spool's window and pieces. */
uint64_t twz_spool_write_bytes(uint64_t size, int level);

/*
 * Write f to path as twz_out_write would, except that a section i with
 * spool_at[i] != UINT64_MAX takes its f->sec[i].raw_size bytes from sp at
 * that offset (its raw pointer is not read). Sections are compressed one
 * at a time; those in the spool through a window of the spool mapped
 * piece by piece. Frees what f owns.
 */
int twz_out_write_spooled(struct twz_out_file *f, const struct twz_spool *sp,
			  const uint64_t *spool_at, const char *name,
			  const char *path, struct twz_error *err);

#endif
