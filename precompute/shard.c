/*
 * shard.c - shards of a bake (shard.h): a shard's partial file, written
 * from the method's results of its share, and the merge of every
 * shard's partial file into the database, for every method of
 * bake_method.h and with agent sizes. The merge bakes nothing again but
 * what every shard prepared (the graph, TRANSIT's selection): it lays
 * each stream's pieces end to end and hands them to the method, then
 * writes as the bake on one machine does.
 */
#include "shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_sizes.h"
#include "spool.h"
#include "twigz.h"
#include "twz_format.h"
#include "twz_section_load.h"
#include "twz_validate.h"
#include "twz_writer.h"

/* A whole decimal number of [s, e) without a leading zero, at most max:
 * 0, or -1. */
static int shard_number(const char *s, const char *e, unsigned long max,
			unsigned long *out)
{
	unsigned long v = 0;

	if (s == e || (*s == '0' && e - s > 1))
		return -1;
	for (; s < e; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > max)
			return -1;
	}
	*out = v;
	return 0;
}

int twz_shard_parse(const char *s, unsigned *index, unsigned *count)
{
	const char *slash = strchr(s, '/');
	unsigned long i, n;

	if (!slash || shard_number(s, slash, TWZ_SHARD_MAX, &i) != 0 ||
	    shard_number(slash + 1, slash + 1 + strlen(slash + 1), TWZ_SHARD_MAX,
			 &n) != 0 || i < 1 || n < 1)
		return -1;
	*index = (unsigned)i;
	*count = (unsigned)n;
	return 0;
}

int twz_shard_is_partial(const uint8_t *buf, size_t len)
{
	return len >= TWZ_MAGIC_SIZE &&
	       !memcmp(buf, TWZ_PARTIAL_MAGIC, TWZ_MAGIC_SIZE);
}

/* The part kind of stream s of layer l: its items, then its bytes. */
static uint32_t stream_kind(unsigned l, unsigned s)
{
	return TWZ_PART_STREAM + 2 * (TWZ_MAX_STREAMS * l + s);
}

/* ---- writing ---------------------------------------------------------- */

static void *dup_bytes(const void *p, size_t n)
{
	void *b = malloc(n ? n : 1);

	if (b && n)
		memcpy(b, p, n);
	return b;
}

/* PART_INFO of shard opt->shard of opt->shards (malloc'd). */
static uint8_t *info_of(const struct twz_bake_options *opt)
{
	uint8_t *info = calloc(1, TWZ_PI_SIZE);

	if (!info)
		return NULL;
	twz_put32(info + TWZ_PI_VERSION, TWZ_PI_VERSION_NOW);
	twz_put32(info + TWZ_PI_INDEX, opt->shard);
	twz_put32(info + TWZ_PI_COUNT, opt->shards);
	info[TWZ_PI_METHOD] = (uint8_t)opt->method;
	info[TWZ_PI_LAYOUT] = (uint8_t)opt->layout;
	info[TWZ_PI_CONNECTIVITY] = (uint8_t)opt->connectivity;
	info[TWZ_PI_CODEC] = (uint8_t)opt->codec;
	info[TWZ_PI_LEVEL] = (uint8_t)(int8_t)opt->level;
	info[TWZ_PI_FAR] = (uint8_t)opt->transit_far;
	twz_put32(info + TWZ_PI_MAX_SCAN, opt->max_scan);
	twz_put32(info + TWZ_PI_AGENT_SIZES, opt->agent_sizes);
	twz_put32(info + TWZ_PI_CHUNK, (uint32_t)opt->chunk);
	twz_put32(info + TWZ_PI_TGRID, opt->transit.grid);
	twz_put32(info + TWZ_PI_TINNER, opt->transit.inner);
	twz_put32(info + TWZ_PI_TOUTER, opt->transit.outer);
	return info;
}

/* A stream's items: lo, hi and each one's size (malloc'd). */
static uint8_t *items_of(const struct twz_stream *s, size_t *size)
{
	size_t n = s->at ? s->hi - s->lo : 0;
	uint8_t *b = malloc(8 + 4 * n);

	*size = 8 + 4 * n;
	if (!b)
		return NULL;
	twz_put32(b, s->lo);
	twz_put32(b + 4, s->hi);
	for (size_t i = 0; i < n; i++)
		twz_put32(b + 8 + 4 * i, s->at[s->lo + i + 1] - s->at[s->lo + i]);
	return b;
}

int twz_shard_write(const struct twz_layers *ly, const uint8_t *level,
		    size_t level_len, const struct twz_bake_options *opt,
		    const struct twz_sink *sink, struct twz_error *err)
{
	const struct twz_grid *g = &ly->grid[0];
	struct twz_out_file *f = calloc(1, sizeof *f);
	int rc;

	if (!f) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		return -1;
	}
	/* A partial file's header says its level; BUILD_INFO is the merged
	 * file's. */
	f->name = opt->name;
	f->h = (struct twz_out_header){
		.level_hash = g->level_hash, .width = g->width, .height = g->height,
		.method = opt->method == TWZ_BAKE_TRANSIT ? TWZ_METHOD_TRANSIT
							  : TWZ_METHOD_CPD,
		.node_order = opt->method == TWZ_BAKE_TRANSIT ? TWZ_ORDER_BLOCKS
							      : TWZ_ORDER_DFS,
		.connectivity = (uint8_t)opt->connectivity,
		.codec = (uint8_t)opt->codec, .level = (int8_t)opt->level,
		.threads = twz_bake_compress_threads(opt),
	};
	twz_out_add_owned(f, TWZ_PART_INFO, info_of(opt), TWZ_PI_SIZE);
	twz_out_add_owned(f, TWZ_PART_LEVEL, dup_bytes(level, level_len), level_len);
	size_t name_len = strlen(opt->name) < TWZ_PART_NAME_MAX ? strlen(opt->name)
								: TWZ_PART_NAME_MAX;
	twz_out_add_owned(f, TWZ_PART_NAME, dup_bytes(opt->name, name_len), name_len);
	for (unsigned l = 0; l < ly->count; l++) {
		struct twz_stream s[TWZ_MAX_STREAMS];
		unsigned k = ly->m->results(ly->db[l], opt->shard, opt->shards, s);
		for (unsigned i = 0; i < k; i++) {
			size_t size = 0;
			/* size is set by items_of, so call it first. */
			uint8_t *items = items_of(&s[i], &size);
			twz_out_add_owned(f, stream_kind(l, i), items, size);
			twz_out_add(f, stream_kind(l, i) + 1, s[i].bytes, s[i].size);
		}
	}
	struct twz_sink part = *sink;
	part.magic = TWZ_PARTIAL_MAGIC;
	rc = twz_out_finish(f, &part, err);
	twz_out_drop(f);
	free(f);
	return rc;
}

/* ---- reading ---------------------------------------------------------- */

/* One partial file, its table checked and its small sections read. */
struct part {
	const char *name;
	const uint8_t *buf;
	struct twz_container c;
	uint8_t info[TWZ_PI_SIZE];
	unsigned index, count;
	uint8_t *level;
	size_t level_len;
};

static void part_free(struct part *p)
{
	free(p->level);
	memset(p, 0, sizeof *p);
}

static const char *status_words(twz_status st)
{
	return st == TWZ_E_CHECKSUM ? "a checksum does not match"
				    : twz_strerror(st);
}

/* The section of kind of p, or NULL. */
static const struct twz_section_ref *section_of(const struct part *p,
						uint32_t kind)
{
	for (uint32_t i = 0; i < p->c.section_count; i++)
		if (p->c.sections[i].kind == kind)
			return &p->c.sections[i];
	return NULL;
}

/* Section kind of p, which must exist and claim a raw size of want (or
 * at most want when !exact): held to what the shard's description
 * allows before memory is taken for it or a byte is inflated. The
 * section, or NULL with err set. */
static const struct twz_section_ref *part_claim(const struct part *p,
						uint32_t kind, uint64_t want,
						int exact, struct twz_error *err)
{
	const struct twz_section_ref *s = section_of(p, kind);

	if (!s) {
		twz_error_set(err, "%s: damaged partial file (section %u missing)",
			      p->name, kind);
		return NULL;
	}
	if (twz_section_fits(s, want, exact) != TWZ_OK) {
		twz_error_set(err, "%s: damaged partial file (section %u claims %llu bytes, %s %llu)",
			      p->name, kind, (unsigned long long)s->raw_size,
			      exact ? "not" : "more than", (unsigned long long)want);
		return NULL;
	}
	return s;
}

/* Section kind of p, whose raw size must be want (or at most want when
 * !exact), read through the section loader into dst (raw_size bytes, or
 * malloc'd when dst is NULL: then *out). 0, or -1 with err set. */
static int part_bytes(const struct part *p, uint32_t kind, uint64_t want,
		      int exact, void *dst, uint8_t **out, struct twz_error *err)
{
	const struct twz_section_ref *s = part_claim(p, kind, want, exact, err);
	const uint8_t *raw = NULL;
	void *owned = NULL;

	if (!s)
		return -1;
	twz_status st = twz_section_decode(p->buf, s, 0, &raw, &owned);
	if (st == TWZ_OK && !dst) {
		dst = malloc(s->raw_size + 1);
		*out = dst;
		if (!dst)
			st = TWZ_E_NOMEM;
	}
	if (st == TWZ_OK && s->raw_size)
		memcpy(dst, raw, (size_t)s->raw_size);
	free(owned);
	if (st == TWZ_E_NOMEM)
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory for section %u",
				   p->name, kind);
	else if (st != TWZ_OK)
		twz_error_set(err, "%s: damaged partial file (section %u: %s)", p->name,
			      kind, st == TWZ_E_CHECKSUM ? "checksum" : "does not inflate");
	return st == TWZ_OK ? 0 : -1;
}

/* The most bytes a level file of the header's grid holds: its rows with
 * CR LF line ends, twice over for blanks, and room for the header lines.
 * A longer one is no honest level. */
static uint64_t level_limit(const struct twz_container *c)
{
	return 2 * ((uint64_t)c->width + 2) * c->height + 65536;
}

/* Check and read one partial file's table and description. 0, or -1
 * with err set. */
static int part_read(const uint8_t *buf, size_t len, const char *name,
		     struct part *p, struct twz_error *err)
{
	uint8_t *info = NULL;

	memset(p, 0, sizeof *p);
	p->name = name;
	p->buf = buf;
	if (!twz_shard_is_partial(buf, len)) {
		if (len >= TWZ_MAGIC_SIZE && !memcmp(buf, TWZ_MAGIC, TWZ_MAGIC_SIZE))
			twz_error_set(err, "%s: a whole database, not a shard's partial file",
				      name);
		else
			twz_error_set(err, "%s: not a partial file of twigz build --shard", name);
		return -1;
	}
	twz_status st = twz_parse_container_as(buf, len, TWZ_PARTIAL_MAGIC, &p->c);
	if (st != TWZ_OK) {
		twz_error_set(err, "%s: damaged partial file (%s)", name, status_words(st));
		return -1;
	}
	for (uint32_t i = 0; i < p->c.section_count; i++) {
		uint32_t k = p->c.sections[i].kind;
		if (k < TWZ_PART_INFO || (k > TWZ_PART_NAME && k < TWZ_PART_STREAM) ||
		    k >= TWZ_PART_STREAM + 2 * TWZ_MAX_STREAMS * TWZ_MAX_LAYERS) {
			twz_error_set(err, "%s: section kind %u is not one of a partial file (made by a newer twigz?)",
				      name, k);
			return -1;
		}
	}
	if (part_bytes(p, TWZ_PART_INFO, TWZ_PI_SIZE, 1, NULL, &info, err) != 0)
		return -1;
	memcpy(p->info, info, TWZ_PI_SIZE);
	free(info);
	p->index = twz_le32(p->info + TWZ_PI_INDEX);
	p->count = twz_le32(p->info + TWZ_PI_COUNT);
	if (twz_le32(p->info + TWZ_PI_VERSION) != TWZ_PI_VERSION_NOW ||
	    !twz_all_zero(p->info + 18, 2) ||
	    !twz_all_zero(p->info + TWZ_PI_TOUTER + 4, TWZ_PI_SIZE - TWZ_PI_TOUTER - 4)) {
		twz_error_set(err, "%s: partial file of another version of twigz", name);
		return -1;
	}
	if (p->count < 1 || p->count > TWZ_SHARD_MAX || p->index < 1 ||
	    p->index > p->count || p->info[TWZ_PI_METHOD] > TWZ_BAKE_TRANSIT ||
	    p->info[TWZ_PI_LAYOUT] > TWZ_LAYOUT_INLINE ||
	    p->info[TWZ_PI_CONNECTIVITY] != p->c.connectivity ||
	    p->info[TWZ_PI_CODEC] != p->c.build_codec ||
	    (int8_t)p->info[TWZ_PI_LEVEL] != p->c.build_level ||
	    p->info[TWZ_PI_FAR] > TWZ_TRANSIT_ACCESS_WIDE) {
		twz_error_set(err, "%s: damaged partial file (shard description)", name);
		return -1;
	}
	const struct twz_section_ref *lv = section_of(p, TWZ_PART_LEVEL);
	if (part_bytes(p, TWZ_PART_LEVEL, level_limit(&p->c), 0, NULL, &p->level, err) != 0 ||
	    !section_of(p, TWZ_PART_NAME))
		return -1;
	p->level_len = (size_t)lv->raw_size;
	return 0;
}

static const char *layout_name(unsigned layout)
{
	return layout == TWZ_LAYOUT_PLAIN ? "1.0" :
	       layout == TWZ_LAYOUT_BUCKETED ? "1.1" :
	       layout == TWZ_LAYOUT_INLINE ? "1.4" : "1.2";
}

/* Whether b was baked as a was: 0, or -1 naming the first difference. */
static int same_bake(const struct part *a, const struct part *b,
		     struct twz_error *err)
{
	const uint8_t *x = a->info, *y = b->info;
	char what[96];

	if (a->c.level_hash != b->c.level_hash) {
		twz_error_set(err, "%s: a shard of another level than %s (level hash %016llx, not %016llx)",
			      b->name, a->name, (unsigned long long)b->c.level_hash,
			      (unsigned long long)a->c.level_hash);
		return -1;
	}
	if (x[TWZ_PI_METHOD] != y[TWZ_PI_METHOD]) {
		twz_error_set(err, "%s: a %s shard, but %s is a %s shard", b->name,
			      y[TWZ_PI_METHOD] == TWZ_BAKE_TRANSIT ? "TRANSIT" : "CPD", a->name,
			      x[TWZ_PI_METHOD] == TWZ_BAKE_TRANSIT ? "TRANSIT" : "CPD");
		return -1;
	}
	if (a->count != b->count) {
		twz_error_set(err, "%s: shard %u of %u, but %s is a shard of %u",
			      b->name, b->index, b->count, a->name, a->count);
		return -1;
	}
	static const struct { unsigned at; const char *what; } words[] = {
		{ TWZ_PI_MAX_SCAN, "max scan" }, { TWZ_PI_AGENT_SIZES, "--agent-sizes bits" },
		{ TWZ_PI_CHUNK, "--chunk" }, { TWZ_PI_TGRID, "--transit-grid" },
		{ TWZ_PI_TINNER, "--transit-inner" }, { TWZ_PI_TOUTER, "--transit-outer" },
	};
	if (x[TWZ_PI_CONNECTIVITY] != y[TWZ_PI_CONNECTIVITY])
		snprintf(what, sizeof what, "--connectivity %u, not %u",
			 y[TWZ_PI_CONNECTIVITY], x[TWZ_PI_CONNECTIVITY]);
	else if (x[TWZ_PI_LAYOUT] != y[TWZ_PI_LAYOUT])
		snprintf(what, sizeof what, "--format %s, not %s",
			 layout_name(y[TWZ_PI_LAYOUT]), layout_name(x[TWZ_PI_LAYOUT]));
	else if (x[TWZ_PI_CODEC] != y[TWZ_PI_CODEC])
		snprintf(what, sizeof what, "--codec %s, not %s",
			 y[TWZ_PI_CODEC] == TWZ_CODEC_RAW ? "raw" : "zstd",
			 x[TWZ_PI_CODEC] == TWZ_CODEC_RAW ? "raw" : "zstd");
	else if (x[TWZ_PI_LEVEL] != y[TWZ_PI_LEVEL])
		snprintf(what, sizeof what, "--level %d, not %d", (int8_t)y[TWZ_PI_LEVEL],
			 (int8_t)x[TWZ_PI_LEVEL]);
	else if (x[TWZ_PI_FAR] != y[TWZ_PI_FAR])
		snprintf(what, sizeof what, "another TRANSIT layout");
	else if (a->level_len != b->level_len ||
		 memcmp(a->level, b->level, a->level_len))
		snprintf(what, sizeof what, "another level file of the same hash");
	else {
		for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
			if (twz_le32(x + words[i].at) != twz_le32(y + words[i].at)) {
				snprintf(what, sizeof what, "%s %u, not %u", words[i].what,
					 twz_le32(y + words[i].at), twz_le32(x + words[i].at));
				goto differ;
			}
		return 0;
	}
differ:
	twz_error_set(err, "%s: baked with other options than %s (%s)", b->name,
		      a->name, what);
	return -1;
}

/* The options a part was baked with. */
static void options_of(const struct part *p, unsigned threads, const char *name,
		       struct twz_bake_options *opt)
{
	const uint8_t *x = p->info;

	twz_bake_options_default(opt);
	opt->method = x[TWZ_PI_METHOD];
	opt->layout = x[TWZ_PI_LAYOUT];
	opt->connectivity = x[TWZ_PI_CONNECTIVITY];
	opt->codec = x[TWZ_PI_CODEC];
	opt->level = (int8_t)x[TWZ_PI_LEVEL];
	opt->transit_far = x[TWZ_PI_FAR];
	opt->max_scan = twz_le32(x + TWZ_PI_MAX_SCAN);
	opt->agent_sizes = twz_le32(x + TWZ_PI_AGENT_SIZES);
	opt->chunk = twz_le32(x + TWZ_PI_CHUNK);
	opt->transit.grid = twz_le32(x + TWZ_PI_TGRID);
	opt->transit.inner = twz_le32(x + TWZ_PI_TINNER);
	opt->transit.outer = twz_le32(x + TWZ_PI_TOUTER);
	opt->threads = threads;
	opt->name = name;
	opt->record_build = 1;   /* the bytes twigz build writes, BUILD_INFO too */
}

/* ---- the merge -------------------------------------------------------- */

/*
 * Stream s of layer l whole, from the parts in their order: each part's
 * items must be the ones the method gives its shard (ranges, and the
 * bytes of a stream of fixed sizes), checked before a byte of the part
 * is inflated; its bytes are inflated into place. 0, or -1 with err set.
 */
static int merge_stream(const struct twz_bake_method *m, void *db,
			struct part *const *by_index, unsigned count, unsigned l,
			unsigned s, struct twz_stream *whole, struct twz_error *err)
{
	struct twz_stream want[TWZ_MAX_STREAMS];
	uint32_t kind = stream_kind(l, s);
	uint64_t total = 0, items = 0;
	uint8_t **sizes = calloc(count + 1, sizeof *sizes);
	int rc = -1;

	memset(whole, 0, sizeof *whole);
	if (!sizes)
		goto nomem;
	/* What each part must hold, and the sizes it records. */
	for (unsigned k = 1; k <= count; k++) {
		const struct part *p = by_index[k];
		m->results(db, k, count, want);
		uint32_t lo = want[s].lo, hi = want[s].hi;
		uint64_t n = hi - lo;
		const struct twz_section_ref *is = section_of(p, kind);
		if (!is || is->raw_size < 8) {
			twz_error_set(err, "%s: damaged partial file (section %u missing)",
				      p->name, kind);
			goto out;
		}
		if (part_bytes(p, kind, want[s].at ? 8 + 4 * n : 8, 1, NULL,
			       &sizes[k], err) != 0)
			goto out;
		if (twz_le32(sizes[k]) != lo || twz_le32(sizes[k] + 4) != hi) {
			twz_error_set(err, "%s: holds items [%u, %u) of stream %u, but shard %u of %u holds [%u, %u)",
				      p->name, twz_le32(sizes[k]), twz_le32(sizes[k] + 4), s,
				      k, count, lo, hi);
			goto out;
		}
		whole->unit = want[s].unit;
		uint64_t part_size = want[s].size;
		if (want[s].at) {
			part_size = 0;
			for (uint64_t i = 0; i < n; i++)
				part_size += (uint64_t)twz_le32(sizes[k] + 8 + 4 * i) *
					     want[s].unit;
		}
		/* The sizes are the part's word: its bytes must claim as
		 * much before the whole stream's memory is taken. */
		if (!part_claim(p, kind + 1, part_size, 1, err))
			goto out;
		total += part_size;
		items = hi;
	}
	if (want[s].at) {
		whole->at = malloc((items + 1) * sizeof *whole->at);
		if (!whole->at)
			goto nomem;
		whole->at[0] = 0;
	}
	whole->lo = 0;
	whole->hi = (uint32_t)items;
	whole->size = total;
	whole->bytes = twz_big_alloc(NULL, total ? total : 1);
	if (!whole->bytes)
		goto nomem;
	uint64_t at = 0, item = 0;
	for (unsigned k = 1; k <= count; k++) {
		const struct part *p = by_index[k];
		const struct twz_section_ref *bs = section_of(p, kind + 1);
		uint64_t part_size = 0;
		m->results(db, k, count, want);
		uint64_t n = want[s].hi - want[s].lo;
		for (uint64_t i = 0; want[s].at && i < n; i++, item++) {
			uint64_t len = twz_le32(sizes[k] + 8 + 4 * i);
			part_size += len * want[s].unit;
			if (whole->at[item] + len > UINT32_MAX) {
				twz_error_set(err, "%s: damaged partial file (item sizes)",
					      p->name);
				goto out;
			}
			whole->at[item + 1] = whole->at[item] + (uint32_t)len;
		}
		if (!want[s].at)
			part_size = want[s].size;
		if (!bs || part_bytes(p, kind + 1, part_size, 1,
				      (uint8_t *)whole->bytes + at, NULL, err) != 0)
			goto out_missing;
		at += part_size;
	}
	rc = 0;
	goto out;
out_missing:
	if (!err->msg[0])
		twz_error_set(err, "damaged partial file (section %u missing)", kind + 1);
	goto out;
nomem:
	twz_error_kind_set(err, TWZ_ERR_NOMEM, "out of memory merging the shards");
out:
	if (sizes)
		for (unsigned k = 0; k <= count; k++)
			free(sizes[k]);
	free(sizes);
	if (rc != 0) {
		free(whole->at);
		free(whole->bytes);
		memset(whole, 0, sizeof *whole);
	}
	return rc;
}

/* The merged file before it counts: opened as the runtime opens it, so
 * a part whose results no bake makes (rows of illegal moves, distances
 * no path has) is refused before the output exists. */
static int check_merged(const struct twz_sink *sink, const char *tmp,
			const uint8_t *buf, size_t len, struct twz_error *err)
{
	twz_db *db = NULL;
	twz_status st = tmp ? twz_open(tmp, 0, &db)
			    : twz_open_memory(buf, len, 0, &db);

	twz_close(db);
	if (st == TWZ_OK)
		return 0;
	twz_error_kind_set(err, st == TWZ_E_NOMEM ? TWZ_ERR_NOMEM : TWZ_ERR_INPUT,
			   "%s: the merged database does not validate (%s): a part "
			   "holds results no bake makes", sink->path ? sink->path : "merge",
			   twz_strerror(st));
	return -1;
}

/* Whether every stream section of the parts is one of the method's
 * streams of one of its layers: 0, or -1 naming the part. */
static int parts_hold_only(struct part *const *by_index, unsigned count,
			   unsigned layers, unsigned streams,
			   struct twz_error *err)
{
	for (unsigned k = 1; k <= count; k++) {
		const struct part *p = by_index[k];
		for (uint32_t i = 0; i < p->c.section_count; i++) {
			uint32_t kind = p->c.sections[i].kind;
			if (kind < TWZ_PART_STREAM)
				continue;
			uint32_t unit = (kind - TWZ_PART_STREAM) / 2;
			if (unit / TWZ_MAX_STREAMS < layers &&
			    unit % TWZ_MAX_STREAMS < streams)
				continue;
			twz_error_set(err, "%s: damaged partial file (section %u not of its method)",
				      p->name, kind);
			return -1;
		}
	}
	return 0;
}

/* The part of by_index[1..count] that holds item b of stream s. */
static const struct part *part_holding(const struct twz_bake_method *m,
				       const void *db,
				       struct part *const *by_index,
				       unsigned count, struct twz_blame b)
{
	struct twz_stream want[TWZ_MAX_STREAMS];

	for (unsigned k = 1; k < count; k++) {
		m->results(db, k, count, want);
		if (b.item < want[b.stream].hi)
			return by_index[k];
	}
	return by_index[count];
}

/* The method's verify of the merged results, naming the part (or the
 * two parts) it blames: 0, or -1 with err set. */
static int merged_results_ok(const struct twz_bake_method *m, const void *db,
			     struct part *const *by_index, unsigned count,
			     struct twz_error *err)
{
	struct twz_blame bad[2];
	const char *why = NULL;
	unsigned n = m->verify(db, bad, &why);

	if (n == 0)
		return 0;
	const struct part *p = part_holding(m, db, by_index, count, bad[0]);
	const struct part *q = n > 1 ? part_holding(m, db, by_index, count, bad[1]) : p;
	if (p == q)
		twz_error_set(err, "%s: damaged partial file (%s, item %u of stream %u)",
			      p->name, why, bad[0].item, bad[0].stream);
	else
		twz_error_set(err, "%s and %s: damaged partial files (%s)", p->name,
			      q->name, why);
	return -1;
}

/* Every layer's method prepared again, given the parts' streams,
 * finished, and the file written to out. */
static int merge_layers(struct part *const *by_index, unsigned count,
			const struct twz_grid *g, const struct twz_bake_options *opt,
			const char *out, struct twz_merge_result *res,
			struct twz_error *err)
{
	const struct twz_bake_method *m = twz_bake_method_of(opt);
	struct twz_layers ly;
	int rc = -1;

	if (!m) {
		twz_error_set(err, "%s: damaged partial file (shard description)",
			      by_index[1]->name);
		return -1;
	}
	if (twz_layers_make(g, opt, m, &ly, err) != 0)
		goto out;
	for (unsigned l = 0; l < ly.count; l++) {
		struct twz_stream whole[TWZ_MAX_STREAMS], want[TWZ_MAX_STREAMS];
		if (twz_layer_prepare(&ly, l, NULL, err) != 0)
			goto out;
		unsigned streams = m->results(ly.db[l], 1, count, want);
		if (l == 0 && parts_hold_only(by_index, count, ly.count, streams, err) != 0)
			goto out;
		memset(whole, 0, sizeof whole);
		int bad = 0;
		for (unsigned s = 0; s < streams && !bad; s++)
			bad = merge_stream(m, ly.db[l], by_index, count, l, s, &whole[s],
					   err);
		if (!bad)
			bad = m->adopt(ly.db[l], &ly.opt[l], whole, err) != 0 ||
			      merged_results_ok(m, ly.db[l], by_index, count, err) != 0 ||
			      m->finish(ly.db[l], &ly.opt[l], err) != 0;
		for (unsigned s = 0; s < streams; s++) {
			free(whole[s].at);
			free(whole[s].bytes);
		}
		if (bad)
			goto out;
	}
	struct twz_sink sink = { .path = out, .check = check_merged };
	if (twz_layers_write(&ly, opt, NULL, &sink, err) != 0)
		goto out;
	double seconds;
	res->node_count = ly.res.layer[0].node_count;
	res->component_count = ly.res.layer[0].component_count;
	m->counts(ly.db[0], &res->run_count, &seconds);
	rc = 0;
out:
	twz_layers_free(&ly);
	return rc;
}

int twz_shard_merge(const uint8_t *const *bufs, const size_t *lens,
		    const char *const *names, unsigned n, unsigned threads,
		    const char *out, struct twz_merge_result *res,
		    struct twz_error *err)
{
	struct twz_merge_result mine;
	struct part *parts = calloc(n ? n : 1, sizeof *parts);
	struct part **by_index = NULL;
	struct twz_grid grid = { 0 };
	char *level_name = NULL;
	int rc = -1;

	if (!res)
		res = &mine;
	memset(res, 0, sizeof *res);
	if (!parts) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", out);
		return -1;
	}
	if (n == 0) {
		twz_error_set(err, "%s: no partial files to merge", out);
		goto done;
	}
	for (unsigned i = 0; i < n; i++)
		if (part_read(bufs[i], lens[i], names[i], &parts[i], err) != 0 ||
		    (i > 0 && same_bake(&parts[0], &parts[i], err) != 0))
			goto done;
	unsigned count = parts[0].count;
	by_index = calloc(count + 1, sizeof *by_index);
	if (!by_index) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", out);
		goto done;
	}
	for (unsigned i = 0; i < n; i++) {
		struct part *p = &parts[i];
		if (by_index[p->index]) {
			twz_error_set(err, "%s: shard %u of %u again (%s is shard %u too)",
				      p->name, p->index, count,
				      by_index[p->index]->name, p->index);
			goto done;
		}
		by_index[p->index] = p;
	}
	for (unsigned k = 1; k <= count; k++)
		if (!by_index[k]) {
			twz_error_set(err, "%s: shard %u of %u is missing (%u of %u shards given)",
				      out, k, count, n, count);
			goto done;
		}

	/* The level and its name, then every layer's results. */
	const struct part *p0 = &parts[0];
	uint8_t *name = NULL;
	if (part_bytes(p0, TWZ_PART_NAME, TWZ_PART_NAME_MAX, 0, NULL, &name, err) != 0)
		goto done;
	level_name = (char *)name;
	level_name[section_of(p0, TWZ_PART_NAME)->raw_size] = 0;
	if (twz_grid_parse(p0->level, p0->level_len, p0->name, &grid, err) != 0)
		goto done;
	if (grid.level_hash != p0->c.level_hash) {
		twz_error_set(err, "%s: damaged partial file (the level does not match its hash)",
			      p0->name);
		goto done;
	}
	struct twz_bake_options opt;
	options_of(p0, threads, level_name, &opt);
	res->count = count;
	rc = merge_layers(by_index, count, &grid, &opt, out, res, err);
done:
	twz_grid_free(&grid);
	free(level_name);
	free(by_index);
	for (unsigned i = 0; i < n; i++)
		part_free(&parts[i]);
	free(parts);
	return rc;
}
