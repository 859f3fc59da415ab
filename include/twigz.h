/*
 * twigz.h - the twigz runtime: answers optimal path queries from a baked
 * .twz path database without searching.
 *
 * A database is opened once, is immutable afterwards and may be queried
 * from any number of threads through the same const handle. Queries never
 * allocate, lock or do I/O.
 *
 *     twz_db *db;
 *     if (twz_open("level.twz", 0, &db) != TWZ_OK) ...
 *     twz_node s = twz_node_at(db, 1, 11), t = twz_node_at(db, 40, 30);
 *     twz_node path[1024];
 *     size_t len;
 *     if (twz_path(db, s, t, path, 1024, &len) == TWZ_OK) ...
 *     twz_close(db);
 *
 * This is the only public header of libtwigz.
 */
#ifndef TWIGZ_H
#define TWIGZ_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#  if defined(TWZ_BUILDING_LIBRARY)
#    define TWZ_API __declspec(dllexport)
#  else
#    define TWZ_API
#  endif
#elif defined(__GNUC__)
#  define TWZ_API __attribute__((visibility("default")))
#else
#  define TWZ_API
#endif

/* Library version (not the file format version: see twz_info). */
#define TWZ_VERSION_MAJOR 0
#define TWZ_VERSION_MINOR 1
#define TWZ_VERSION_PATCH 0
#define TWZ_VERSION_NUMBER \
	(TWZ_VERSION_MAJOR * 10000 + TWZ_VERSION_MINOR * 100 + TWZ_VERSION_PATCH)

/* Status codes. The values are part of the ABI and are never renumbered. */
typedef enum twz_status {
	TWZ_OK = 0,
	TWZ_E_ARGUMENT = 1,          /* a NULL pointer or a node out of range */
	TWZ_E_IO = 2,                /* open, stat or mmap failed (see errno) */
	TWZ_E_NOMEM = 3,             /* out of memory while opening */
	TWZ_E_NOT_TWIGZ = 4,         /* no twigz magic: not a .twz file */
	TWZ_E_VERSION = 5,           /* a newer major format version */
	TWZ_E_FEATURE = 6,           /* an unknown required feature bit */
	TWZ_E_DAMAGED = 7,           /* truncated or inconsistent structure */
	TWZ_E_CHECKSUM = 8,          /* a checksum does not match */
	TWZ_E_RESERVED = 9,          /* a reserved field is not zero */
	TWZ_E_UNREACHABLE = 10,      /* no path between the two nodes */
	TWZ_E_BUFFER_TOO_SMALL = 11, /* path truncated: *len has the full size */
	TWZ_E_LIMIT = 12             /* a size beyond the documented limits */
} twz_status;

/* Dense node id of a walkable place; TWZ_NONE means "no node". */
typedef uint32_t twz_node;
#define TWZ_NONE ((twz_node)0xFFFFFFFFu)

/* Opaque, immutable database handle. */
typedef struct twz_db twz_db;

/* Flags for twz_open and twz_open_memory. */
#define TWZ_OPEN_SKIP_CHECKSUMS 0x1u /* trust section contents (still
                                        structurally validated) */

/* Static, never NULL. */
TWZ_API const char *twz_strerror(twz_status status);

/* Library version as "0.2.0", and TWZ_VERSION_NUMBER at build time. */
TWZ_API const char *twz_version(void);
TWZ_API unsigned twz_version_number(void);

/*
 * Open a .twz file: memory-maps it read-only, validates every structure
 * FORMAT.md lists (and the checksums unless TWZ_OPEN_SKIP_CHECKSUMS), and
 * inflates zstd sections. On failure *out is NULL.
 */
TWZ_API twz_status twz_open(const char *path, unsigned flags, twz_db **out);

/*
 * Open a database held in memory. The buffer is not copied: it must stay
 * valid and unchanged until twz_close. [Size: len bytes]
 */
TWZ_API twz_status twz_open_memory(const void *buf, size_t len,
				   unsigned flags, twz_db **out);

/* Release a database; NULL is a no-op. */
TWZ_API void twz_close(twz_db *db);

/* What a database holds. */
typedef struct twz_info {
	unsigned format_major;
	unsigned format_minor;
	unsigned method;          /* 1: CPD (all-pairs first moves) */
	unsigned connectivity;    /* 8 (octile) or 4 */
	uint32_t width;           /* grid size in cells */
	uint32_t height;
	uint32_t node_count;      /* walkable cells */
	uint32_t component_count; /* connected regions */
	uint64_t level_hash;      /* XXH3-64 of the level file it was baked from */
	uint64_t file_size;       /* bytes of the .twz */
	uint64_t memory_size;     /* bytes of data in use after open: sections,
				   * and what open derives from them */
	uint64_t run_count;       /* run-length entries over all rows */
	unsigned build_codec;     /* 0 raw, 1 zstd */
	int build_level;          /* zstd level asked for */
} twz_info;

TWZ_API twz_status twz_get_info(const twz_db *db, twz_info *info);

/* Number of nodes; valid ids are 0 .. count-1. */
TWZ_API uint32_t twz_node_count(const twz_db *db);

/* The node on grid cell (x, y) (x the column, y the row, from 0), or
 * TWZ_NONE when the cell is blocked or off the grid. */
TWZ_API twz_node twz_node_at(const twz_db *db, int64_t x, int64_t y);

/* The cell of a node. TWZ_E_ARGUMENT for an invalid node. */
TWZ_API twz_status twz_node_xy(const twz_db *db, twz_node node,
			       uint32_t *x, uint32_t *y);

/*
 * The next node on an optimal path from s toward t, in O(1).
 * Returns t when s == t, TWZ_NONE when t is unreachable from s or either
 * node is invalid.
 */
TWZ_API twz_node twz_next(const twz_db *db, twz_node s, twz_node t);

/*
 * The whole optimal path from s to t, s and t included, in O(k).
 * Fills at most cap nodes of buf and sets *len to the full node count.
 * TWZ_E_BUFFER_TOO_SMALL when the path did not fit (buf holds its first
 * cap nodes), TWZ_E_UNREACHABLE when there is no path (*len = 0).
 * [Size: buf holds cap nodes]
 */
TWZ_API twz_status twz_path(const twz_db *db, twz_node s, twz_node t,
			    twz_node *buf, size_t cap, size_t *len);

/*
 * The cost of an optimal path, exactly: straight + diagonal * sqrt(2)
 * (diagonal is always 0 on 4-connected levels).
 */
TWZ_API twz_status twz_cost_exact(const twz_db *db, twz_node s, twz_node t,
				  uint32_t *straight, uint32_t *diagonal);

/* The cost as a double: 0 when s == t, INFINITY when unreachable, a
 * negative value (-1) when a node is invalid. */
TWZ_API double twz_cost(const twz_db *db, twz_node s, twz_node t);

/*
 * A flow field toward t: next[n] = twz_next(db, n, t) for every node n
 * (TWZ_NONE for nodes that cannot reach t). [Size: next holds
 * twz_node_count(db) entries]
 */
TWZ_API twz_status twz_flow_field(const twz_db *db, twz_node t,
				  twz_node *next, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* TWIGZ_H */
