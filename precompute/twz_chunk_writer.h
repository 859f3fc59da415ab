/*
 * twz_chunk_writer.h - stores a section as independently compressed
 * chunks behind a chunk directory (format 1.4, TWZ_SF_CHUNKED), so that
 * a reader can inflate a part of it on first use (twigz build --chunk).
 */
#ifndef TWZ_CHUNK_WRITER_H
#define TWZ_CHUNK_WRITER_H

#include "twz_writer.h"

/* Whether section i of sections[count] is stored chunked for chunks of
 * about target raw bytes (0: no chunking): the row and distance sections
 * of every method and layout (CPD ROWS, RUNS and INLINE_ROWS, a graph's
 * and a junction graph's runs, TRANSIT runs, distance tables, access
 * entries and access table; an agent-size layer's too) larger than one
 * chunk. */
int twz_chunk_wanted(const struct twz_out_section *sections, unsigned count,
		     unsigned i, uint64_t target);

/* Chunk section i: cut where a row starts (rows never straddle a chunk,
 * so a reader finds a whole row in one chunk) once a chunk holds at
 * least target raw bytes, compress each chunk as one zstd frame at
 * level and lay out the directory and frames into a malloc'd *out of
 * *out_size bytes. The bytes depend on the input and target only. */
int twz_chunk_store(const struct twz_out_section *sections, unsigned count,
		    unsigned i, uint64_t target, int level, void **out,
		    size_t *out_size, struct twz_error *err);

#endif
