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

struct twz_spool;

/* Chunk section i at `at` of o: cut where a row starts (rows never
 * straddle a chunk, so a reader finds a whole row in one chunk) once a
 * chunk holds at least target raw bytes, compress each chunk as one zstd
 * frame at level (a spooled section's pages given back as it goes), and
 * lay out the directory and frames; *stored gets their size. The bytes
 * depend on the input and target only. */
int twz_chunk_store(const struct twz_out_section *sections, unsigned count,
		    unsigned i, uint64_t target, int level,
		    const struct twz_spool *spool, struct twz_out *o,
		    uint64_t at, uint64_t *stored, struct twz_error *err);

#endif
