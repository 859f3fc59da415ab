/*
 * twz_db.h - the runtime's private view of an open database, and the
 * internal lookups every part of the runtime shares (a cell's node, a
 * node's cell and region, a bucketed row). Pointers address either the
 * read-only mapping (raw sections) or buffers inflated at open (zstd
 * sections); all were validated by format/twz_validate.c. Rows opened
 * under a cache budget are reached through twz_chunks.h instead. Nothing outside
 * runtime/ includes this header: the tool reads databases through
 * twz_inspect.h.
 */
#ifndef TWZ_DB_H
#define TWZ_DB_H

#include "twigz.h"
#include "twz_graph.h"
#include "twz_transit.h"
#include "twz_validate.h"

struct twz_backend;
struct twz_nm;
struct twz_layers;
struct twz_junctions;
struct twz_chunk_cache;
struct twz_lazy;

/* What a first move or a walk of a 1.4 grid database reads of the
 * handle, first in it so that a query touches one of its cache lines:
 * copies of fields below, set by the CPD back end's init. */
struct twz_cpd_hot {
	const uint8_t *records;     /* INLINE_RECORDS_WIDE */
	const uint8_t *cell_node;   /* CELL_NODE, u16 when narrow */
	uint32_t node_count;
	uint32_t width;
	uint32_t height;
	uint32_t component_count;
	uint8_t wide_grid;          /* a grid with wide inline records: the
				     * only layout twz__hot_next reads */
	uint8_t narrow;             /* CELL_NODE holds u16 */
};

struct twz_db {
	struct twz_cpd_hot hot;
	struct twz_container c;
	const struct twz_backend *backend; /* chosen at open (twz_backend.h) */
	const uint8_t *file;        /* the whole file's bytes */
	size_t file_len;
	int mapped;                 /* file is our mmap, unmap at close */
	void *inflated[TWZ_SECTION_KIND_LIMIT];
	struct twz_content content;
	/* Shortcuts into content, used on the query path. */
	const uint8_t *cell_node;   /* u32[width*height], or u16 (narrow) */
	int narrow;                 /* TWZ_FEATURE_NARROW_CELL_NODE */
	const uint8_t *node_cell;   /* u32[node_count] */
	const uint8_t *node_comp;   /* u32[node_count] */
	const uint8_t *row_offsets; /* u32[node_count+1] */
	const uint8_t *runs;        /* u32[run_count] */
	uint64_t run_count;
	/* Format 1.1 (TWZ_FEATURE_BUCKETED_ROWS): */
	int bucketed;
	int direction;              /* TWZ_FEATURE_DIRECTION_SYMBOLS */
	const uint8_t *records;     /* record_size bytes a node */
	size_t record_size;         /* TWZ_RECORD_SIZE, or 1.4's
				     * TWZ_INLINE_RECORD_SIZE */
	int inline_rows;            /* 1.4, TWZ_FEATURE_CPD_INLINE: records
				     * and rows of twz_cpd_inline.h; bucketed
				     * is set too (regions and record cells
				     * are read alike) */
	unsigned inline_buckets;    /* buckets a 1.4 summary holds: 16, or
				     * 32 in wide records */
	const uint8_t *regions;     /* u32[component_count+1] */
	const uint8_t *rows;        /* u16[] */
	const uint8_t *rows_end;    /* one past ROWS: vector reads stop there */
	uint64_t memory_size;       /* section bytes in use */
	/* 1.1 CPD files with several regions: region_dir[n >> region_shift]
	 * is the region of that slice's first node, so a node's region is
	 * found with a read or two instead of a search. */
	uint32_t *region_dir;
	unsigned region_shift;
	struct twz_transit_view transit; /* method TWZ_METHOD_TRANSIT */
	struct twz_junctions *junctions; /* TWZ_FEATURE_JUNCTIONS
					  * (twz_junctions.c) */
	struct twz_graph_view graph;     /* level kinds other than grids */
	struct twz_nm *navmesh;          /* navmesh levels (twz_navmesh.h) */
	int32_t move_offset[TWZ_MOVE_COUNT]; /* cell index delta per move */
	/* Agent sizes (twz_layers.c): the file's layers, on the handle
	 * twz_open made; parent, on a layer's view, is that handle. */
	struct twz_layers *layers;
	const struct twz_db *parent;
	unsigned layer;             /* this view's layer (0: the handle) */
	unsigned agent_size;        /* the size it answers for (0: 1) */
	/* Areas (the file's, when it has them). */
	unsigned area_count;
	char area_name[64][32];     /* NUL-terminated */
	uint32_t area_milli[64];    /* cost multipliers, in thousandths */
	uint64_t *node_areas;       /* [node_count]: the areas under each
				     * node (its square's cells), a bit each,
				     * or NULL */
	uint32_t *node_milli;       /* grids with areas: [node_count], each
				     * node's cost multiplier (thousandths:
				     * its square's dearest cell), or NULL */
	uint32_t milli_lo, milli_hi;  /* the least and most of them */
	uint64_t areas_present;     /* the areas any node is in */
	unsigned cost_units;        /* a grid's cost units a cell (2000 with
				     * areas), 0: 1 */
	/* twz_open_ex with a cache budget (twz_chunks.h): chunked sections
	 * inflated on use; rows_lazy is ROWS then, and rows NULL. */
	struct twz_chunk_cache *cache;
	const struct twz_lazy *rows_lazy;
};

/* Where node n's bucketed row lies (1.1 files), for the query path and
 * for twz_inspect.c. */
struct twz_row_view {
	uint32_t lo;            /* first node of the region */
	uint32_t len;           /* nodes in the region */
	unsigned shift;         /* bucket = 2^shift targets */
	uint32_t buckets;
	const uint8_t *index;   /* u16[buckets + 1] */
	const uint8_t *runs;    /* u16[]: the row's runs */
	const uint8_t *end;     /* one past the ROWS section */
};

/* The node in a cell, or TWZ_NONE. */
static inline uint32_t twz__cell_node(const struct twz_db *db, size_t cell)
{
	return twz_cell_node_at(db->cell_node, db->narrow, cell);
}

/* Node n's record (1.1 files, 8 bytes; 1.4 inline rows, 16): its cell
 * and its row. */
static inline const uint8_t *twz__record(const struct twz_db *db, uint32_t n)
{
	return db->records + (size_t)n * db->record_size;
}

/* Grid position of a valid node. */
static inline void twz__node_xy(const struct twz_db *db, uint32_t n,
				uint32_t *x, uint32_t *y)
{
	if (db->bucketed) {
		*x = twz_le16(twz__record(db, n) + TWZ_R_X);
		*y = twz_le16(twz__record(db, n) + TWZ_R_Y);
	} else {
		uint32_t cell = twz_le32(db->node_cell + 4 * (size_t)n);
		*x = cell % db->c.width;
		*y = cell / db->c.width;
	}
}

static inline uint32_t twz__region(const struct twz_db *db, uint32_t n)
{
	if (db->c.component_count == 1)
		return 0;
	if (!db->region_dir)
		return twz_region_of(db->regions, db->c.component_count, n);
	/* A slice holds at most 2^region_shift nodes, so this stops. */
	uint32_t k = db->region_dir[n >> db->region_shift];
	while (twz_le32(db->regions + 4 * ((size_t)k + 1)) <= n)
		k++;
	return k;
}

/* The nodes [*lo, *lo + *len) of node n's region (1.1 files). */
static inline void twz__region_range(const struct twz_db *db, uint32_t n,
				     uint32_t *lo, uint32_t *len)
{
	uint32_t k = twz__region(db, n);

	*lo = twz_le32(db->regions + 4 * (size_t)k);
	*len = twz_le32(db->regions + 4 * ((size_t)k + 1)) - *lo;
}

/* The region of a query's source, found once per query (a path stays in
 * it): 1.1 files hold regions as node ranges, 1.0 files as ids. */
struct twz_span {
	uint32_t lo;    /* 1.1: first node of the region */
	uint32_t len;   /* 1.1: nodes in it */
	uint32_t id;    /* 1.0: region id */
};

static inline void twz__span_of(const struct twz_db *db, uint32_t s,
				struct twz_span *r)
{
	r->lo = r->len = r->id = 0;
	if (db->bucketed)
		twz__region_range(db, s, &r->lo, &r->len);
	else
		r->id = twz_le32(db->node_comp + 4 * (size_t)s);
}

static inline int twz__in_span(const struct twz_db *db,
			       const struct twz_span *r, uint32_t t)
{
	return db->bucketed ? t - r->lo < r->len
			    : twz_le32(db->node_comp + 4 * (size_t)t) == r->id;
}

/* Node n's row, n in the region [lo, lo + len). */
static inline void twz__row_view_in(const struct twz_db *db, uint32_t n,
				    uint32_t lo, uint32_t len,
				    struct twz_row_view *v)
{
	uint32_t word = twz_le32(twz__record(db, n) + TWZ_R_ROW);

	v->lo = lo;
	v->len = len;
	v->shift = word >> TWZ_ROW_OFFSET_BITS;
	v->buckets = ((len - 1) >> v->shift) + 1;
	v->index = db->rows + 2 * (size_t)(word & TWZ_ROW_OFFSET_MASK);
	v->runs = v->index + 2 * ((size_t)v->buckets + 1);
	v->end = db->rows_end;
}

static inline void twz__row_view(const struct twz_db *db, uint32_t n,
				 struct twz_row_view *v)
{
	uint32_t lo, len;

	twz__region_range(db, n, &lo, &len);
	twz__row_view_in(db, n, lo, len, v);
}

/* Runs in node n's bucketed row (not needed on the query path). */
static inline uint32_t twz__row_run_count(const struct twz_row_view *v)
{
	return (uint32_t)twz_le16(v->index + 2 * (size_t)v->buckets) + 1;
}

/* Areas (twz_areas.c): each view's nodes' areas and costs, after its
 * layers are open; freed at close. */
twz_status twz__areas_open(struct twz_db *db);
void twz__areas_close(struct twz_db *db);

/* Navmesh levels (twz_navmesh_api.c): decode the mesh after the back
 * end's init, free it at close. */
twz_status twz__navmesh_open(struct twz_db *db);
void twz__navmesh_close(struct twz_db *db);

#endif /* TWZ_DB_H */
