/*
 * twz_db.h - the runtime's private view of an open database. Pointers
 * address either the read-only mapping (raw sections) or buffers inflated
 * at open (zstd sections); all were validated by format/twz_validate.c.
 */
#ifndef TWZ_DB_H
#define TWZ_DB_H

#include "twigz.h"
#include "twz_validate.h"

struct twz_db {
	struct twz_container c;
	const uint8_t *file;        /* the whole file's bytes */
	size_t file_len;
	int mapped;                 /* file is our mmap, unmap at close */
	void *inflated[TWZ_SECTION_KIND_MAX + 1];
	struct twz_content content;
	/* Shortcuts into content, used on the query path. */
	const uint8_t *cell_node;   /* u32[width*height] */
	const uint8_t *node_cell;   /* u32[node_count] */
	const uint8_t *node_comp;   /* u32[node_count] */
	const uint8_t *row_offsets; /* u32[node_count+1] */
	const uint8_t *runs;        /* u32[run_count] */
	uint64_t run_count;
	uint64_t memory_size;       /* section bytes in use */
	int32_t move_offset[TWZ_MOVE_COUNT]; /* cell index delta per move */
};

#endif /* TWZ_DB_H */
