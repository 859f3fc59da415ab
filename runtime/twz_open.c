/*
 * twz_open.c - map, validate and inflate a .twz file. Everything a query
 * will rely on is checked here, once.
 */
#include "twz_db.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#define TWZ_STR2(x) #x
#define TWZ_STR(x) TWZ_STR2(x)

const char *twz_version(void)
{
	return TWZ_STR(TWZ_VERSION_MAJOR) "." TWZ_STR(TWZ_VERSION_MINOR) "."
		TWZ_STR(TWZ_VERSION_PATCH);
}

unsigned twz_version_number(void)
{
	return TWZ_VERSION_NUMBER;
}

const char *twz_strerror(twz_status status)
{
	switch (status) {
	case TWZ_OK: return "success";
	case TWZ_E_ARGUMENT: return "invalid argument";
	case TWZ_E_IO: return "I/O error";
	case TWZ_E_NOMEM: return "out of memory";
	case TWZ_E_NOT_TWIGZ: return "not a twigz database";
	case TWZ_E_VERSION: return "database made by a newer, incompatible format version";
	case TWZ_E_FEATURE: return "database needs a feature this library lacks";
	case TWZ_E_DAMAGED: return "database is truncated or damaged";
	case TWZ_E_CHECKSUM: return "database checksum mismatch (damaged)";
	case TWZ_E_RESERVED: return "database has non-zero reserved fields";
	case TWZ_E_UNREACHABLE: return "goal unreachable";
	case TWZ_E_BUFFER_TOO_SMALL: return "buffer too small";
	case TWZ_E_LIMIT: return "database exceeds a size limit";
	}
	return "unknown status";
}

/* Decode one section into v; zstd sections are inflated into a buffer the
 * database owns. */
static twz_status load_section(twz_db *db, const struct twz_section_ref *s,
			       unsigned flags)
{
	const uint8_t *stored = db->file + s->offset;
	const uint8_t *raw = stored;
	uint64_t want = twz_expected_raw_size(&db->c, s->kind);

	if (want && s->raw_size != want)
		return TWZ_E_DAMAGED;
	if (s->kind == TWZ_SECTION_RUNS &&
	    s->raw_size > (uint64_t)TWZ_MAX_RUNS * 4)
		return TWZ_E_LIMIT;
	/* A row has at most node_count runs: a larger claim is refused
	 * before it is allocated. */
	if (s->kind == TWZ_SECTION_RUNS &&
	    s->raw_size / 4 > (uint64_t)db->c.node_count * db->c.node_count)
		return TWZ_E_DAMAGED;
	/* A bucketed row holds at most one index entry and one run a
	 * target of its region, and a sentinel. */
	if (s->kind == TWZ_SECTION_ROWS &&
	    s->raw_size / 2 > (uint64_t)db->c.node_count *
				      (2 * (uint64_t)db->c.node_count + 1))
		return TWZ_E_DAMAGED;
	if (s->raw_size > SIZE_MAX)
		return TWZ_E_LIMIT;

	if (s->codec == TWZ_CODEC_ZSTD) {
		unsigned long long content =
			ZSTD_getFrameContentSize(stored, (size_t)s->size);
		if (content == ZSTD_CONTENTSIZE_ERROR ||
		    content == ZSTD_CONTENTSIZE_UNKNOWN || content != s->raw_size)
			return TWZ_E_DAMAGED;
		if (ZSTD_findFrameCompressedSize(stored, (size_t)s->size) !=
		    s->size)
			return TWZ_E_DAMAGED;
		void *buf = malloc(s->raw_size ? (size_t)s->raw_size : 1);
		if (!buf)
			return TWZ_E_NOMEM;
		db->inflated[s->kind] = buf;
		size_t got = ZSTD_decompress(buf, (size_t)s->raw_size, stored,
					     (size_t)s->size);
		if (ZSTD_isError(got) || got != s->raw_size)
			return TWZ_E_DAMAGED;
		raw = buf;
	}
	if (!(flags & TWZ_OPEN_SKIP_CHECKSUMS) &&
	    twz_checksum(raw, (size_t)s->raw_size) != s->raw_checksum)
		return TWZ_E_CHECKSUM;
	db->content.data[s->kind] = raw;
	db->content.size[s->kind] = s->raw_size;
	db->memory_size += s->raw_size;
	return TWZ_OK;
}

/* The region directory of twz_db.h, for 1.1 CPD files with more than one
 * region: about eight slices a region (256 at least), at most 2^16. */
static twz_status region_dir_init(twz_db *db)
{
	uint32_t n = db->c.node_count, count = db->c.component_count;
	unsigned shift = 0;

	while (shift < 31 && ((uint64_t)n >> shift) > 8 * (uint64_t)count &&
	       ((uint64_t)n >> shift) > 256)
		shift++;
	while (((uint64_t)n >> shift) >= 65536)
		shift++;
	size_t slices = ((size_t)n >> shift) + 1;
	db->region_dir = malloc(slices * sizeof *db->region_dir);
	if (!db->region_dir)
		return TWZ_E_NOMEM;
	db->region_shift = shift;
	for (size_t i = 0; i < slices; i++) {
		uint64_t first = (uint64_t)i << shift;
		db->region_dir[i] = first < n ? twz_region_of(db->regions, count,
							       (uint32_t)first)
					      : count - 1;
	}
	db->memory_size += slices * sizeof *db->region_dir;
	return TWZ_OK;
}

/* Whether the cell (x, y) holds a node. */
static int walkable(const twz_db *db, int64_t x, int64_t y)
{
	if (x < 0 || y < 0 || x >= db->c.width || y >= db->c.height)
		return 0;
	return twz__cell_node(db, (size_t)y * db->c.width + (size_t)x) != TWZ_NONE;
}

/* The legal moves of every node, for direction symbols: a direction is
 * decoded from coordinates at query time, so its move is checked there,
 * and one byte a node makes that check a single read. */
static twz_status node_moves_init(twz_db *db)
{
	uint32_t n = db->c.node_count;

	db->node_moves = malloc(n ? n : 1);
	if (!db->node_moves)
		return TWZ_E_NOMEM;
	for (uint32_t v = 0; v < n; v++) {
		uint32_t x, y;
		unsigned bits = 0;

		twz_node_xy(db, v, &x, &y);
		for (unsigned m = 0; m < db->c.connectivity; m++) {
			int64_t nx = (int64_t)x + twz_move_dx[m];
			int64_t ny = (int64_t)y + twz_move_dy[m];
			/* No corner cutting: a diagonal needs both cells
			 * beside it. */
			if (walkable(db, nx, ny) &&
			    (!twz_move_is_diagonal(m) ||
			     (walkable(db, nx, y) && walkable(db, x, ny))))
				bits |= 1u << m;
		}
		db->node_moves[v] = (uint8_t)bits;
	}
	db->memory_size += n;
	return TWZ_OK;
}

static twz_status load(twz_db *db, unsigned flags)
{
	twz_status st = twz_parse_container(db->file, db->file_len, &db->c);
	if (st != TWZ_OK)
		return st;
	for (uint32_t i = 0; i < db->c.section_count; i++) {
		const struct twz_section_ref *s = &db->c.sections[i];
		/* Kinds from a newer minor version are not ours to read. */
		int transit = db->c.method == TWZ_METHOD_TRANSIT &&
			      s->kind >= TWZ_SECTION_TRANSIT_FIRST &&
			      s->kind <= TWZ_SECTION_TRANSIT_MAX;
		if (s->kind == 0 || (s->kind > TWZ_SECTION_KIND_MAX && !transit))
			continue;
		st = load_section(db, s, flags);
		if (st != TWZ_OK)
			return st;
	}
	st = twz_validate_content(&db->c, &db->content);
	if (st != TWZ_OK)
		return st;

	db->cell_node = db->content.data[TWZ_SECTION_CELL_NODE];
	db->narrow = twz_narrow(&db->c);
	db->node_cell = db->content.data[TWZ_SECTION_NODE_CELL];
	db->node_comp = db->content.data[TWZ_SECTION_NODE_COMPONENT];
	db->row_offsets = db->content.data[TWZ_SECTION_ROW_OFFSETS];
	db->runs = db->content.data[TWZ_SECTION_RUNS];
	db->run_count = db->content.size[TWZ_SECTION_RUNS] / 4;
	db->bucketed = (db->c.required_features & TWZ_FEATURE_BUCKETED_ROWS) != 0;
	db->direction = (db->c.required_features & TWZ_FEATURE_DIRECTION_SYMBOLS) != 0;
	db->records = db->content.data[TWZ_SECTION_NODE_RECORDS];
	db->regions = db->content.data[TWZ_SECTION_REGIONS];
	db->rows = db->content.data[TWZ_SECTION_ROWS];
	db->rows_end = db->rows ? db->rows + db->content.size[TWZ_SECTION_ROWS] : NULL;
	if (db->bucketed) {
		/* Each row's last index entry is its last run. */
		uint64_t runs = 0;
		for (uint32_t n = 0; n < db->c.node_count; n++) {
			struct twz_row_view v;
			twz__row_view(db, n, &v);
			runs += twz__row_run_count(&v);
		}
		db->run_count = runs;
	}
	if (db->c.method == TWZ_METHOD_TRANSIT) {
		st = twz_transit_view_init(db);
		if (st != TWZ_OK)
			return st;
		db->run_count = db->transit.run_count;
	}
	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		db->move_offset[m] = twz_move_dx[m] +
				     twz_move_dy[m] * (int32_t)db->c.width;
	if (db->bucketed && db->c.method != TWZ_METHOD_TRANSIT &&
	    db->c.component_count > 1) {
		st = region_dir_init(db);
		if (st != TWZ_OK)
			return st;
	}
	if (db->direction && db->c.method != TWZ_METHOD_TRANSIT)
		return node_moves_init(db);
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

twz_status twz_open(const char *path, unsigned flags, twz_db **out)
{
	struct stat sb;
	void *map;
	int fd;

	if (!out)
		return TWZ_E_ARGUMENT;
	*out = NULL;
	if (!path)
		return TWZ_E_ARGUMENT;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return TWZ_E_IO;
	if (fstat(fd, &sb) != 0) {
		int err = errno;
		close(fd);
		errno = err;
		return TWZ_E_IO;
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
		/* errno says why: a directory or device is not a database. */
		errno = S_ISDIR(sb.st_mode) ? EISDIR : EINVAL;
		return TWZ_E_IO;
	}
	if ((uint64_t)sb.st_size < TWZ_MAGIC_SIZE) {
		close(fd);
		return TWZ_E_NOT_TWIGZ;
	}
	if ((uint64_t)sb.st_size > SIZE_MAX) {
		close(fd);
		return TWZ_E_LIMIT;
	}
	map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);  /* the mapping keeps the file */
	if (map == MAP_FAILED)
		return TWZ_E_IO;

	twz_db *db = calloc(1, sizeof *db);
	if (!db) {
		munmap(map, (size_t)sb.st_size);
		return TWZ_E_NOMEM;
	}
	db->file = map;
	db->file_len = (size_t)sb.st_size;
	db->mapped = 1;
	return open_common(db, flags, out);
}

void twz_close(twz_db *db)
{
	if (!db)
		return;
	for (unsigned k = 0; k < TWZ_SECTION_KIND_LIMIT; k++)
		free(db->inflated[k]);
	free(db->node_moves);
	free(db->region_dir);
	twz_transit_view_free(&db->transit);
	if (db->mapped)
		munmap((void *)db->file, db->file_len);
	free(db);
}

twz_status twz_get_info(const twz_db *db, twz_info *info)
{
	if (!db || !info)
		return TWZ_E_ARGUMENT;
	memset(info, 0, sizeof *info);
	info->format_major = db->c.major;
	info->format_minor = db->c.minor;
	info->method = db->c.method;
	info->connectivity = db->c.connectivity;
	info->width = db->c.width;
	info->height = db->c.height;
	info->node_count = db->c.node_count;
	info->component_count = db->c.component_count;
	info->level_hash = db->c.level_hash;
	info->file_size = db->file_len;
	info->memory_size = db->memory_size;
	info->run_count = db->run_count;
	info->build_codec = db->c.build_codec;
	info->build_level = db->c.build_level;
	return TWZ_OK;
}
