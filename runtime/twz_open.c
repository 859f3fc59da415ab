/*
 * twz_open.c - map, validate and inflate a .twz file, then pick the back
 * end of the file's method (twz_backend.h) and let it derive what its
 * queries read. Everything a query will rely on is checked here, once.
 */
#include "twz_backend.h"
#include "twz_chunks.h"
#include "twz_platform.h"
#include "twz_layers.h"
#include "twz_validate_layers.h"
#include "twz_graph_format.h"
#include "twz_navmesh_format.h"
#include "twz_cpd_inline.h"
#include "twz_costs_format.h"

#include "twz_section_load.h"

#include <stdlib.h>

/* Decode one section into db->content: its claim held to the limit of
 * its kind before a byte is allocated for it (FORMAT.md, section 10a),
 * then its bytes in place, or inflated into a buffer the database owns,
 * by the loader format/ shares with the merge of partial files.
 * pr: the TRANSIT parameters, once decoded. */
static twz_status twz__load_section(twz_db *db, const struct twz_section_ref *s,
			     const struct twz_tparams *pr, unsigned flags)
{
	const uint8_t *raw;
	twz_status st = twz_section_claim(&db->c, pr, s);

	if (st != TWZ_OK)
		return st;
	if (twz__chunks_lazy(db, s))
		return twz__chunks_defer(db, s);
	if (s->flags & TWZ_SF_CHUNKED) {
		void *buf = malloc(s->raw_size ? (size_t)s->raw_size : 1);
		if (!buf)
			return TWZ_E_NOMEM;
		db->inflated[s->kind] = buf;
		st = twz__chunks_inflate(db->file + s->offset, s, buf, flags);
		if (st != TWZ_OK)
			return st;
		raw = buf;
		if (!(flags & TWZ_OPEN_SKIP_CHECKSUMS) &&
		    twz_checksum(raw, (size_t)s->raw_size) != s->raw_checksum)
			return TWZ_E_CHECKSUM;
	} else {
		st = twz_section_decode(db->file, s, flags, &raw,
					&db->inflated[s->kind]);
		if (st != TWZ_OK)
			return st;
	}
	db->content.data[s->kind] = raw;
	db->content.size[s->kind] = s->raw_size;
	db->memory_size += s->raw_size;
	return TWZ_OK;
}

/* A TRANSIT file's parameters, decoded and checked first: the sizes of
 * its other TRANSIT sections follow from them. */
static twz_status load_transit_params(twz_db *db, unsigned flags,
				      struct twz_tparams *pr)
{
	for (uint32_t i = 0; i < db->c.section_count; i++) {
		const struct twz_section_ref *s = &db->c.sections[i];
		if (s->kind != TWZ_SECTION_TRANSIT_PARAMS)
			continue;
		twz_status st = twz__load_section(db, s, NULL, flags);
		if (st != TWZ_OK)
			return st;
		return twz_transit_params_read(
			&db->c, db->content.data[TWZ_SECTION_TRANSIT_PARAMS], pr);
	}
	return TWZ_E_DAMAGED;  /* check T1 */
}

/* Whether this version decodes section kind of db's container, once the
 * TRANSIT parameters (read first) are in: the kinds of the file's own
 * layout (twz_section_read). */
static int decoded_kind(const twz_db *db, uint32_t kind)
{
	return kind != TWZ_SECTION_TRANSIT_PARAMS && twz_section_read(&db->c, kind);
}

/* Every section of db's container that this version reads: the TRANSIT
 * parameters first, since the sizes of the other TRANSIT sections follow
 * from them; then every claim, before any section is inflated, so one
 * false claim costs nothing; then the sections. Used for the file and
 * for each agent-size layer. */
static twz_status twz__load_sections(twz_db *db, unsigned flags)
{
	struct twz_tparams params, *pr = NULL;
	twz_status st;

	if (db->c.method == TWZ_METHOD_TRANSIT) {
		st = load_transit_params(db, flags, &params);
		if (st != TWZ_OK)
			return st;
		pr = &params;
	}
	for (uint32_t i = 0; i < db->c.section_count; i++) {
		const struct twz_section_ref *s = &db->c.sections[i];
		if (decoded_kind(db, s->kind) &&
		    (st = twz_section_claim(&db->c, pr, s)) != TWZ_OK)
			return st;
	}
	for (uint32_t i = 0; i < db->c.section_count; i++) {
		const struct twz_section_ref *s = &db->c.sections[i];
		if (!decoded_kind(db, s->kind))
			continue;
		st = twz__load_section(db, s, pr, flags);
		if (st != TWZ_OK)
			return st;
	}
	return TWZ_OK;
}

static twz_status twz__db_finish(twz_db *db);
static void twz__db_free(twz_db *db);

/* After db itself is open: read AGENT_SIZES, when the file has it, and
 * open every further layer as a database of its own over the same bytes
 * (format section 5c). */
static twz_status open_layers(twz_db *db, unsigned flags)
{
	const struct twz_section_ref *as = NULL;
	twz_status st;

	for (uint32_t i = 0; i < db->c.section_count; i++)
		if (db->c.sections[i].kind == TWZ_SECTION_AGENT_SIZES)
			as = &db->c.sections[i];
	if (!as)
		return TWZ_OK;
	/* Agent sizes are a grid's: no graph level has them (G2). */
	if (db->c.level_kind != TWZ_LEVEL_GRID)
		return TWZ_E_DAMAGED;
	if (!db->content.data[TWZ_SECTION_AGENT_SIZES]) {
		st = twz__load_section(db, as, NULL, flags);
		if (st != TWZ_OK)
			return st;
	}
	st = twz__layers_read(db);
	for (unsigned l = 1; st == TWZ_OK && l < twz__layers_count(db); l++) {
		twz_db *v = calloc(1, sizeof *v);
		if (!v)
			return TWZ_E_NOMEM;
		v->file = db->file;
		v->file_len = db->file_len;
		twz__layers_container(db, l, &v->c);
		twz__layers_set(db, l, v);
		st = twz__load_sections(v, flags);
		if (st == TWZ_OK)
			st = twz__db_finish(v);
	}
	return st;
}

static twz_status load(twz_db *db, unsigned flags)
{
	twz_status st = twz_parse_container(db->file, db->file_len, &db->c);
	if (st != TWZ_OK)
		return st;
	st = twz__load_sections(db, flags);
	if (st != TWZ_OK)
		return st;
	st = twz__db_finish(db);
	if (st != TWZ_OK)
		return st;
	st = open_layers(db, flags);
	for (unsigned l = 0; st == TWZ_OK && l < twz__layers_count(db); l++)
		st = twz__areas_open(twz__layers_view(db, l));
	return st;
}

static twz_status twz__db_finish(twz_db *db)
{
	twz_status st;

	/* Memory for the checks that need it, only while they run. */
	if (twz_needs_scratch(&db->c)) {
		size_t n = db->c.node_count ? db->c.node_count : 1;
		db->content.scratch = malloc(n * sizeof *db->content.scratch);
		if (!db->content.scratch)
			return TWZ_E_NOMEM;
	}
	st = twz_validate_content(&db->c, &db->content);
	free(db->content.scratch);
	db->content.scratch = NULL;
	if (st != TWZ_OK)
		return st;

	db->cell_node = db->content.data[TWZ_SECTION_CELL_NODE];
	db->narrow = twz_narrow(&db->c);
	db->node_cell = db->content.data[TWZ_SECTION_NODE_CELL];
	db->node_comp = db->content.data[TWZ_SECTION_NODE_COMPONENT];
	db->row_offsets = db->content.data[TWZ_SECTION_ROW_OFFSETS];
	db->runs = db->content.data[TWZ_SECTION_RUNS];
	db->run_count = db->content.size[TWZ_SECTION_RUNS] / 4;
	db->inline_rows = (db->c.required_features & TWZ_FEATURE_CPD_INLINE) != 0;
	db->bucketed = db->inline_rows ||
		       (db->c.required_features & TWZ_FEATURE_BUCKETED_ROWS) != 0;
	db->direction = (db->c.required_features & TWZ_FEATURE_DIRECTION_SYMBOLS) != 0;
	int wide = db->content.data[TWZ_SECTION_INLINE_RECORDS_WIDE] != NULL;
	unsigned rec_kind = !db->inline_rows ? TWZ_SECTION_NODE_RECORDS
			    : wide ? TWZ_SECTION_INLINE_RECORDS_WIDE
			    : TWZ_SECTION_INLINE_RECORDS;
	unsigned row_kind = db->inline_rows ? TWZ_SECTION_INLINE_ROWS
					    : TWZ_SECTION_ROWS;
	db->records = db->content.data[rec_kind];
	db->record_size = !db->inline_rows ? TWZ_RECORD_SIZE
			  : wide ? TWZ_INLINE_WIDE_RECORD_SIZE
			  : TWZ_INLINE_RECORD_SIZE;
	db->inline_buckets = wide ? TWZ_INLINE_WIDE_BUCKETS : TWZ_INLINE_BUCKETS;
	db->regions = db->content.data[TWZ_SECTION_REGIONS];
	db->rows = db->content.data[row_kind];
	db->rows_end = db->rows ? db->rows + db->content.size[row_kind] : NULL;
	if (db->cache) {
		st = twz__chunks_start(db);
		if (st != TWZ_OK)
			return st;
	}
	if (db->inline_rows) {
		db->run_count = twz__inline_run_count(db);
	} else if (db->bucketed && db->rows_lazy) {
		/* Rows tile ROWS (checked at open): what their indexes do
		 * not take is runs. */
		uint64_t units = db->content.size[TWZ_SECTION_ROWS] / 2;
		for (uint32_t n = 0; n < db->c.node_count; n++) {
			struct twz_span r;
			uint32_t word = twz_le32(twz__record(db, n) + TWZ_R_ROW);
			twz__span_of(db, n, &r);
			units -= (((r.len - 1) >> (word >> TWZ_ROW_OFFSET_BITS)) + 1) + 1;
		}
		db->run_count = units;
	} else if (db->bucketed) {
		/* Each row's last index entry is its last run. */
		uint64_t runs = 0;
		for (uint32_t n = 0; n < db->c.node_count; n++) {
			struct twz_row_view v;
			twz__row_view(db, n, &v);
			runs += twz__row_run_count(&v);
		}
		db->run_count = runs;
	}
	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		db->move_offset[m] = twz_move_dx[m] +
				     twz_move_dy[m] * (int32_t)db->c.width;
	/* Validation admits these two methods only, junction graphs over
	 * CPD, and graphs' CPD. */
	db->backend = db->c.method == TWZ_METHOD_TRANSIT ? &twz_backend_transit
							: &twz_backend_cpd;
	if (db->c.required_features & TWZ_FEATURE_JUNCTIONS)
		db->backend = &twz_backend_junctions;
	if (twz__is_graph(db))
		db->backend = &twz_backend_graph;
	st = db->backend->init(db);
	return st != TWZ_OK ? st : twz__navmesh_open(db);
}

/* The cache of twz_open_ex's budget; chunked sections register with it
 * as they load, and twz__db_finish drops it when none did. */
static twz_status open_cache(twz_db *db, const twz_open_options *opt)
{
	if (!opt || !opt->cache_bytes)
		return TWZ_OK;
	db->cache = calloc(1, sizeof *db->cache);
	if (!db->cache)
		return TWZ_E_NOMEM;
	db->cache->budget = opt->cache_bytes;
	db->cache->flags = opt->flags;
	atomic_flag_clear(&db->cache->lock);
	return TWZ_OK;
}

static twz_status open_common(twz_db *db, unsigned flags, twz_db **out)
{
	twz_status st = load(db, flags);
	if (st != TWZ_OK) {
		twz_close(db);
		return st;
	}
	*out = db;
	return TWZ_OK;
}

twz_status twz_open_memory(const void *buf, size_t len, unsigned flags,
			   twz_db **out)
{
	if (!out)
		return TWZ_E_ARGUMENT;
	*out = NULL;
	if (!buf)
		return TWZ_E_ARGUMENT;
	twz_db *db = calloc(1, sizeof *db);
	if (!db)
		return TWZ_E_NOMEM;
	db->file = buf;
	db->file_len = len;
	return open_common(db, flags, out);
}

/* Options a caller may set; the rest is reserved zero. */
static int options_ok(const twz_open_options *opt)
{
	if (!opt)
		return 1;
	for (size_t i = 0; i < sizeof opt->reserved / sizeof opt->reserved[0]; i++)
		if (opt->reserved[i])
			return 0;
	return 1;
}

twz_status twz_open_memory_ex(const void *buf, size_t len,
			      const twz_open_options *opt, twz_db **out)
{
	if (!out)
		return TWZ_E_ARGUMENT;
	*out = NULL;
	if (!buf || !options_ok(opt))
		return TWZ_E_ARGUMENT;
	twz_db *db = calloc(1, sizeof *db);
	if (!db)
		return TWZ_E_NOMEM;
	db->file = buf;
	db->file_len = len;
	twz_status st = open_cache(db, opt);
	if (st != TWZ_OK) {
		twz_close(db);
		return st;
	}
	return open_common(db, opt ? opt->flags : 0, out);
}

twz_status twz_open_ex(const char *path, const twz_open_options *opt,
		       twz_db **out)
{
	const uint8_t *map;
	size_t len;

	if (!out)
		return TWZ_E_ARGUMENT;
	*out = NULL;
	if (!path || !options_ok(opt))
		return TWZ_E_ARGUMENT;
	twz_status st = twz_map_file(path, TWZ_MAGIC_SIZE, &map, &len);
	if (st != TWZ_OK)
		return st;

	twz_db *db = calloc(1, sizeof *db);
	if (!db) {
		twz_unmap_file(map, len);
		return TWZ_E_NOMEM;
	}
	db->file = map;
	db->file_len = len;
	db->mapped = 1;
	st = open_cache(db, opt);
	if (st != TWZ_OK) {
		twz_close(db);
		return st;
	}
	return open_common(db, opt ? opt->flags : 0, out);
}

twz_status twz_open(const char *path, unsigned flags, twz_db **out)
{
	const uint8_t *map;
	size_t len;

	if (!out)
		return TWZ_E_ARGUMENT;
	*out = NULL;
	if (!path)
		return TWZ_E_ARGUMENT;
	twz_status st = twz_map_file(path, TWZ_MAGIC_SIZE, &map, &len);
	if (st != TWZ_OK)
		return st;

	twz_db *db = calloc(1, sizeof *db);
	if (!db) {
		twz_unmap_file(map, len);
		return TWZ_E_NOMEM;
	}
	db->file = map;
	db->file_len = len;
	db->mapped = 1;
	return open_common(db, flags, out);
}

void twz_close(twz_db *db)
{
	/* A view of an agent size belongs to its file's handle. */
	if (!db || db->parent)
		return;
	twz__db_free(db);
}

static void twz__db_free(twz_db *db)
{
	for (unsigned l = 1; db->layers && l < TWZ_MAX_LAYERS; l++) {
		twz_db *v = twz__layers_view(db, l);
		if (v)
			twz__db_free(v);
	}
	twz__layers_free(db);
	for (unsigned k = 0; k < TWZ_SECTION_KIND_LIMIT; k++)
		free(db->inflated[k]);
	if (db->backend)
		db->backend->fini(db);
	twz__navmesh_close(db);
	twz__areas_close(db);
	twz__chunks_free(db->cache);
	if (db->mapped)
		twz_unmap_file(db->file, db->file_len);
	free(db);
}

