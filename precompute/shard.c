/*
 * shard.c - shards of a CPD bake: the range of sources a shard bakes, its
 * partial file (written and read), and the merge of every shard's
 * partial file into the database; see shard.h. TRANSIT shards are read
 * and checked here too; shard_transit.c makes and joins their parts.
 *
 * A CPD row depends on its source alone, and the bake gathers rows in
 * source order, so the rows of shards 1..N one after another are the
 * rows of the whole bake. A partial file carries the level file itself,
 * so the merge rebuilds the same graph and hands the rows to the same
 * writer the bake on one machine uses.
 */
#include "shard.h"
#include "shard_part.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_read.h"
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

/* The first source whose running weight (the sum over the sources
 * before it) reaches target. */
static uint32_t weight_boundary(const struct twz_graph *gr, uint64_t target)
{
	uint64_t before = 0;

	if (target == 0)
		return 0;
	if (!gr->comp_first)  /* no regions to weigh: one a source */
		return target < gr->node_count ? (uint32_t)target : gr->node_count;
	for (uint32_t c = 0; c < gr->component_count; c++) {
		uint64_t lo = gr->comp_first[c];
		uint64_t size = gr->comp_first[c + 1] - lo;
		if (before + size * size >= target)
			return (uint32_t)(lo + (target - before + size - 1) / size);
		before += size * size;
	}
	return gr->node_count;
}

void twz_shard_range(const struct twz_graph *gr, unsigned index,
		     unsigned count, uint32_t *first, uint32_t *end)
{
	uint64_t total = 0;

	if (gr->comp_first)
		for (uint32_t c = 0; c < gr->component_count; c++) {
			uint64_t size = gr->comp_first[c + 1] - gr->comp_first[c];
			total += size * size;
		}
	else
		total = gr->node_count;
	/* floor(k * total / count) without overflow: total < 2^53, and
	 * count and k are at most 2^16. */
	uint64_t q = total / count, r = total % count;
	uint64_t lo_target = q * (index - 1) + r * (index - 1) / count;
	uint64_t hi_target = q * index + r * index / count;

	*first = index <= 1 ? 0 : weight_boundary(gr, lo_target);
	*end = index >= count ? gr->node_count : weight_boundary(gr, hi_target);
	if (*end < *first)
		*end = *first;
}

int twz_shard_is_partial(const uint8_t *buf, size_t len)
{
	return len >= TWZ_MAGIC_SIZE &&
	       !memcmp(buf, TWZ_PARTIAL_MAGIC, TWZ_MAGIC_SIZE);
}

/* ---- writing ---------------------------------------------------------- */

void *twz_part_dup(const void *p, size_t n)
{
	void *b = malloc(n ? n : 1);
	if (b && n)
		memcpy(b, p, n);
	return b;
}

int twz_part_encode(struct twz_out_file *f, const char *name, uint8_t **buf,
		    size_t *len, struct twz_error *err)
{
	f->name = name;
	int rc = twz_out_encode(f, buf, len, err);

	if (rc != 0)
		return rc;
	/* The partial's own magic, under the header checksum. */
	memcpy(*buf + TWZ_H_MAGIC, TWZ_PARTIAL_MAGIC, TWZ_MAGIC_SIZE);
	twz_put64(*buf + TWZ_H_HEADER_CHECKSUM,
		  twz_checksum(*buf, TWZ_H_HEADER_CHECKSUM));
	return 0;
}

uint8_t *twz_part_level(const char *level_path, uint64_t level_hash,
			size_t *len, struct twz_error *err)
{
	uint8_t *level = twz_read_file(level_path, TWZ_MAX_LEVEL_BYTES, len, err);

	if (level && twz_checksum(level, *len) != level_hash) {
		twz_error_set(err, "%s: changed during the bake", level_path);
		free(level);
		return NULL;
	}
	return level;
}

int twz_shard_encode(const struct twz_cpd *cpd, const struct twz_grid *g,
		     const uint8_t *level, size_t level_len,
		     const struct twz_bake_options *opt, unsigned index,
		     unsigned count, uint8_t **buf, size_t *len,
		     struct twz_error *err)
{
	const struct twz_graph *gr = &cpd->graph;
	struct twz_out_file f = { 0 };
	uint32_t first, end;
	const char *name = opt->name ? opt->name : "level";

	twz_shard_range(gr, index, count, &first, &end);
	uint32_t lo = cpd->row_offsets[first], hi = cpd->row_offsets[end];
	uint32_t *lens = malloc(((size_t)(end - first) + 1) * sizeof *lens);
	uint8_t *info = calloc(1, TWZ_PI_SIZE);

	if (lens)
		for (uint32_t s = first; s < end; s++)
			lens[s - first] = cpd->row_offsets[s + 1] - cpd->row_offsets[s];
	if (info) {
		twz_put32(info + TWZ_PI_VERSION, 1);
		twz_put32(info + TWZ_PI_INDEX, index);
		twz_put32(info + TWZ_PI_COUNT, count);
		twz_put32(info + TWZ_PI_FIRST, first);
		twz_put32(info + TWZ_PI_END, end);
		twz_put32(info + TWZ_PI_MAX_SCAN, opt->max_scan);
		info[TWZ_PI_METHOD] = TWZ_METHOD_CPD;
		info[TWZ_PI_LAYOUT] = (uint8_t)cpd->layout;
		info[TWZ_PI_CONNECTIVITY] = (uint8_t)gr->connectivity;
		info[TWZ_PI_CODEC] = (uint8_t)opt->codec;
		info[TWZ_PI_LEVEL] = (uint8_t)(int8_t)opt->level;
		twz_put32(info + TWZ_PI_CHUNK, (uint32_t)opt->chunk);
	}
	twz_bake_header(&f.h, g, gr, opt, TWZ_METHOD_CPD);
	/* BUILD_INFO belongs to the merged file: merge writes it. */
	f.h.build_info[0] = 0;
	twz_out_add_owned(&f, TWZ_PART_INFO, info, TWZ_PI_SIZE);
	twz_out_add_owned(&f, TWZ_PART_LEVEL, twz_part_dup(level, level_len),
			  level_len);
	twz_out_add_owned(&f, TWZ_PART_NAME, twz_part_dup(name, strlen(name)),
			  strlen(name));
	twz_out_add_le32(&f, TWZ_PART_ROW_LENGTHS, lens, lens ? end - first : 0);
	if (!lens)
		f.failed = 1;
	twz_out_add_le32(&f, TWZ_PART_RUNS, cpd->runs + lo, hi - lo);
	int rc = twz_part_encode(&f, name, buf, len, err);
	free(lens);
	return rc;
}

int twz_shard_write(const struct twz_cpd *cpd, const struct twz_grid *g,
		    const char *level_path, const struct twz_bake_options *opt,
		    unsigned index, unsigned count, const char *path,
		    struct twz_error *err)
{
	size_t level_len, len;
	uint8_t *buf;
	uint8_t *level = twz_part_level(level_path, g->level_hash, &level_len, err);

	if (!level)
		return -1;
	int rc = twz_shard_encode(cpd, g, level, level_len, opt, index, count,
				  &buf, &len, err);
	free(level);
	if (rc != 0)
		return rc;
	rc = twz_write_atomic(path, buf, len, err);
	free(buf);
	return rc;
}

/* ---- reading ---------------------------------------------------------- */

#define part twz_part

static void part_free(struct part *p)
{
	for (int i = 0; i < TWZ_PART_KINDS; i++)
		free(p->owned[i]);
	memset(p, 0, sizeof *p);
}

static const char *status_words(twz_status st)
{
	return st == TWZ_E_CHECKSUM ? "a checksum does not match"
				    : twz_strerror(st);
}

/* The most bytes a level file of a width x height map holds in a
 * partial file: its rows with CR LF line ends, twice over for blanks,
 * and room for the header lines. A longer one is no honest level. */
static uint64_t part_level_limit(const struct twz_container *c)
{
	return 2 * ((uint64_t)c->width + 2) * c->height + 65536;
}

/* The raw size section kind of partial p may claim (FORMAT.md section 11),
 * from its header c and its PART_INFO (read first): *exact when it is
 * the only size the kind may have; TWZ_NO_LIMIT for a kind the method's
 * partial file does not hold. */
static uint64_t part_limit(const struct twz_container *c, const struct part *p,
			   uint32_t kind, int *exact)
{
	uint64_t n = c->node_count, sources = p->end - p->first;
	uint64_t cells = (uint64_t)c->width * c->height;
	uint64_t runs = sources * n < TWZ_MAX_RUNS ? sources * n : TWZ_MAX_RUNS;

	*exact = kind == TWZ_PART_INFO || kind == TWZ_PART_ROW_LENGTHS;
	switch (kind) {
	case TWZ_PART_INFO:
		return TWZ_PI_SIZE;
	case TWZ_PART_LEVEL:
		return part_level_limit(c);
	case TWZ_PART_NAME:
		return TWZ_PART_NAME_MAX;
	case TWZ_PART_ROW_LENGTHS:
		return 4 * sources;
	case TWZ_PART_RUNS:
		/* a row has at most a run a node */
		return 4 * runs;
	}
	if (p->version != 2)
		return TWZ_NO_LIMIT;
	switch (kind) {
	case TWZ_PART_NODE_DIST:
		/* each node's distances to its block's list */
		return 8 * sources * TWZ_TRANSIT_MAX_LIST;
	case TWZ_PART_TABLE:
		/* a table row has fewer entries than nodes */
		return 8 * (uint64_t)(p->table_hi - p->table_lo) * n;
	case TWZ_PART_TRANSITS:
		/* M <= n transit nodes, at most a block a cell, and lists of
		 * at most TWZ_TRANSIT_MAX_LIST in the blocks with nodes */
		return 4 * (3 + n + cells + (cells < n ? cells : n) *
			    (uint64_t)TWZ_TRANSIT_MAX_LIST);
	}
	return TWZ_NO_LIMIT;
}

/* Section s of c (a partial file) held to part_limit: 0, or -1 with
 * err set. */
static int part_claim(const struct twz_section_ref *s,
		      const struct twz_container *c, const struct part *p,
		      struct twz_error *err)
{
	int exact;
	uint64_t limit = part_limit(c, p, s->kind, &exact);

	if (twz_section_fits(s, limit, exact) == TWZ_OK)
		return 0;
	if (limit == TWZ_NO_LIMIT)
		twz_error_set(err, "%s: damaged partial file (section %u not of its method)",
			      p->name, s->kind);
	else
		twz_error_set(err, "%s: damaged partial file (section %u claims %llu bytes, %s %llu)",
			      p->name, s->kind, (unsigned long long)s->raw_size,
			      exact ? "not" : "more than", (unsigned long long)limit);
	return -1;
}

/* Section s of c in buf, decoded into p through the loader of .twz
 * files once its claim is held to part_limit. 0, or -1 with err set. */
static int part_section(const uint8_t *buf, const struct twz_section_ref *s,
			const struct twz_container *c, struct part *p,
			struct twz_error *err)
{
	unsigned k = s->kind - TWZ_PART_INFO;

	if (part_claim(s, c, p, err) != 0)
		return -1;
	twz_status st = twz_section_decode(buf, s, 0, &p->sec[k], &p->owned[k]);
	if (st == TWZ_E_NOMEM) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory for section %u",
				   p->name, s->kind);
		return -1;
	}
	if (st != TWZ_OK) {
		twz_error_set(err, "%s: damaged partial file (section %u: %s)", p->name,
			      s->kind, st == TWZ_E_CHECKSUM ? "checksum" : "does not inflate");
		return -1;
	}
	p->size[k] = s->raw_size;
	return 0;
}

/* PART_INFO's fields into p, checked against the header c. 0, or -1. */
static int part_info(const struct twz_container *c, struct part *p,
		     struct twz_error *err)
{
	const uint8_t *info = p->sec[0];
	unsigned version = c->method == TWZ_METHOD_TRANSIT ? 2 : 1;
	size_t used = version == 2 ? TWZ_PI_TOUTER + 4 : TWZ_PI_LEVEL + 1;

	if (twz_le32(info + TWZ_PI_VERSION) != version ||
	    !twz_all_zero(info + used, TWZ_PI_CHUNK - used) ||
	    !twz_all_zero(info + TWZ_PI_CHUNK + 4, TWZ_PI_SIZE - TWZ_PI_CHUNK - 4)) {
		twz_error_set(err, "%s: partial file of another version of twigz", p->name);
		return -1;
	}
	p->version = version;
	if (version == 2) {
		p->block_lo = twz_le32(info + TWZ_PI_TBLOCK_LO);
		p->block_hi = twz_le32(info + TWZ_PI_TBLOCK_HI);
		p->table_lo = twz_le32(info + TWZ_PI_TTABLE_LO);
		p->table_hi = twz_le32(info + TWZ_PI_TTABLE_HI);
		p->grid = twz_le32(info + TWZ_PI_TGRID);
		p->inner = twz_le32(info + TWZ_PI_TINNER);
		p->outer = twz_le32(info + TWZ_PI_TOUTER);
	}
	p->index = twz_le32(info + TWZ_PI_INDEX);
	p->count = twz_le32(info + TWZ_PI_COUNT);
	p->first = twz_le32(info + TWZ_PI_FIRST);
	p->end = twz_le32(info + TWZ_PI_END);
	p->max_scan = twz_le32(info + TWZ_PI_MAX_SCAN);
	p->method = info[TWZ_PI_METHOD];
	p->layout = info[TWZ_PI_LAYOUT];
	p->connectivity = info[TWZ_PI_CONNECTIVITY];
	p->codec = info[TWZ_PI_CODEC];
	p->level = (int8_t)info[TWZ_PI_LEVEL];
	p->chunk = twz_le32(info + TWZ_PI_CHUNK);
	/* Blocks and transit table rows are at most a cell and a node
	 * each: the limits of the other sections rest on these. */
	if (p->count < 1 || p->count > TWZ_SHARD_MAX || p->index < 1 ||
	    p->index > p->count || p->first > p->end || p->end > p->node_count ||
	    p->method != c->method || p->layout < TWZ_LAYOUT_PLAIN ||
	    p->layout > TWZ_LAYOUT_INLINE || p->connectivity != c->connectivity ||
	    p->codec != c->build_codec || p->level != c->build_level ||
	    p->block_lo > p->block_hi ||
	    p->block_hi > (uint64_t)c->width * c->height ||
	    p->table_lo > p->table_hi || p->table_hi > c->node_count) {
		twz_error_set(err, "%s: damaged partial file (shard description)", p->name);
		return -1;
	}
	return 0;
}

/* Check and decode one partial file: the container as a database's,
 * PART_INFO, then every other section's claim before any is inflated,
 * then the sections. 0, or -1 with err set. */
static int part_read(const uint8_t *buf, size_t len, const char *name,
		     struct part *p, struct twz_error *err)
{
	struct twz_container c;
	const struct twz_section_ref *info = NULL;

	memset(p, 0, sizeof *p);
	p->name = name;
	if (!twz_shard_is_partial(buf, len)) {
		if (len >= TWZ_MAGIC_SIZE && !memcmp(buf, TWZ_MAGIC, TWZ_MAGIC_SIZE))
			twz_error_set(err, "%s: a whole database, not a shard's partial file",
				      name);
		else
			twz_error_set(err, "%s: not a partial file of twigz build --shard", name);
		return -1;
	}
	twz_status st = twz_parse_container_as(buf, len, TWZ_PARTIAL_MAGIC, &c);
	if (st != TWZ_OK) {
		twz_error_set(err, "%s: damaged partial file (%s)", name,
			      status_words(st));
		return -1;
	}
	if (c.method != TWZ_METHOD_CPD && c.method != TWZ_METHOD_TRANSIT) {
		twz_error_set(err, "%s: damaged partial file (not a CPD or TRANSIT shard)",
			      name);
		return -1;
	}
	p->level_hash = c.level_hash;
	p->node_count = c.node_count;
	for (uint32_t i = 0; i < c.section_count; i++) {
		const struct twz_section_ref *s = &c.sections[i];
		if (s->kind < TWZ_PART_INFO ||
		    s->kind >= TWZ_PART_INFO + TWZ_PART_KINDS) {
			twz_error_set(err, "%s: section kind %u is not one of a partial file (made by a newer twigz?)",
				      name, s->kind);
			return -1;
		}
		if (s->kind == TWZ_PART_INFO)
			info = s;
	}
	if (!info) {
		twz_error_set(err, "%s: damaged partial file (section %u missing)",
			      name, TWZ_PART_INFO);
		return -1;
	}
	if (part_section(buf, info, &c, p, err) != 0 || part_info(&c, p, err) != 0)
		return -1;
	for (uint32_t i = 0; i < c.section_count; i++)
		if (part_claim(&c.sections[i], &c, p, err) != 0)
			return -1;
	for (uint32_t i = 0; i < c.section_count; i++)
		if (c.sections[i].kind != TWZ_PART_INFO &&
		    part_section(buf, &c.sections[i], &c, p, err) != 0)
			return -1;
	unsigned kinds = c.method == TWZ_METHOD_TRANSIT ? TWZ_PART_KINDS
							: TWZ_PART_RUNS - TWZ_PART_INFO + 1;
	for (unsigned k = 0; k < kinds; k++)
		if (!p->sec[k]) {
			twz_error_set(err, "%s: damaged partial file (section %u missing)",
				      name, TWZ_PART_INFO + k);
			return -1;
		}
	if (p->size[4] % 4 || p->size[5] % 8 || p->size[6] % 8 || p->size[7] % 4) {
		twz_error_set(err, "%s: damaged partial file (shard description)", name);
		return -1;
	}
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
	char what[96];

	if (a->level_hash != b->level_hash) {
		twz_error_set(err, "%s: a shard of another level than %s (level hash %016llx, not %016llx)",
			      b->name, a->name, (unsigned long long)b->level_hash,
			      (unsigned long long)a->level_hash);
		return -1;
	}
	if (a->method != b->method) {
		twz_error_set(err, "%s: a %s shard, but %s is a %s shard", b->name,
			      b->method == TWZ_METHOD_TRANSIT ? "TRANSIT" : "CPD", a->name,
			      a->method == TWZ_METHOD_TRANSIT ? "TRANSIT" : "CPD");
		return -1;
	}
	if (a->count != b->count) {
		twz_error_set(err, "%s: shard %u of %u, but %s is a shard of %u",
			      b->name, b->index, b->count, a->name, a->count);
		return -1;
	}
	if (a->connectivity != b->connectivity)
		snprintf(what, sizeof what, "--connectivity %u, not %u",
			 b->connectivity, a->connectivity);
	else if (a->layout != b->layout)
		snprintf(what, sizeof what, "--format %s, not %s",
			 layout_name(b->layout), layout_name(a->layout));
	else if (a->codec != b->codec)
		snprintf(what, sizeof what, "--codec %s, not %s",
			 b->codec == TWZ_CODEC_RAW ? "raw" : "zstd",
			 a->codec == TWZ_CODEC_RAW ? "raw" : "zstd");
	else if (a->level != b->level)
		snprintf(what, sizeof what, "--level %d, not %d", b->level, a->level);
	else if (a->chunk != b->chunk)
		snprintf(what, sizeof what, "--chunk %u, not %u", b->chunk, a->chunk);
	else if (a->max_scan != b->max_scan)
		snprintf(what, sizeof what, "max scan %u, not %u", b->max_scan,
			 a->max_scan);
	else if (a->grid != b->grid)
		snprintf(what, sizeof what, "--transit-grid %u, not %u", b->grid, a->grid);
	else if (a->inner != b->inner)
		snprintf(what, sizeof what, "--transit-inner %u, not %u", b->inner,
			 a->inner);
	else if (a->outer != b->outer)
		snprintf(what, sizeof what, "--transit-outer %u, not %u", b->outer,
			 a->outer);
	else if (a->size[1] != b->size[1] ||
		 memcmp(a->sec[1], b->sec[1], a->size[1]))
		snprintf(what, sizeof what, "another level file of the same hash");
	else
		return 0;
	twz_error_set(err, "%s: baked with other options than %s (%s)", b->name,
		      a->name, what);
	return -1;
}

/* Rows of part p into cpd (row_offsets from p->first, runs at *pos),
 * each checked for what the writer relies on and the merged file's
 * checks ask of its runs. */
static int part_rows(const struct part *p, const struct twz_graph *gr,
		     struct twz_cpd *cpd, uint64_t *pos, struct twz_error *err)
{
	const uint8_t *lens = p->sec[3], *runs = p->sec[4];
	uint64_t have = p->size[4] / 4, at = 0;

	for (uint32_t s = p->first; s < p->end; s++) {
		uint32_t n = twz_le32(lens + 4ull * (s - p->first));
		uint32_t comp = gr->node_comp[s];
		uint32_t region_end = gr->comp_first[comp + 1];
		if (n == 0 || n > have - at) {
			twz_error_set(err, "%s: damaged partial file (row %u's length)",
				      p->name, s);
			return -1;
		}
		for (uint32_t r = 0; r < n; r++) {
			uint32_t run = twz_le32(runs + 4 * (at + r));
			uint32_t start = run >> TWZ_RUN_SYMBOL_BITS;
			uint32_t prev = r ? twz_le32(runs + 4 * (at + r - 1)) >> TWZ_RUN_SYMBOL_BITS : 0;
			if ((r == 0 ? start != 0 : start <= prev || start >= region_end) ||
			    !twz_part_symbol_ok(gr, s, run & TWZ_RUN_SYMBOL_MASK,
						p->layout != TWZ_LAYOUT_PLAIN, 0)) {
				twz_error_set(err, "%s: damaged partial file (row %u's runs)",
					      p->name, s);
				return -1;
			}
			cpd->runs[*pos + r] = run;
		}
		cpd->row_offsets[s + 1] = cpd->row_offsets[s] + n;
		at += n;
		*pos += n;
	}
	if (at != have) {
		twz_error_set(err, "%s: damaged partial file (runs beyond the rows)", p->name);
		return -1;
	}
	return 0;
}

int twz_part_write_db(const uint8_t *file, size_t len, const char *out,
		      struct twz_error *err)
{
	twz_db *db = NULL;
	twz_status st = twz_open_memory(file, len, 0, &db);

	twz_close(db);
	if (st != TWZ_OK) {
		twz_error_kind_set(err, st == TWZ_E_NOMEM ? TWZ_ERR_NOMEM : TWZ_ERR_INPUT,
				   "%s: the merged database does not validate (%s)",
				   out, twz_strerror(st));
		return -1;
	}
	return twz_write_atomic(out, file, len, err);
}

int twz_shard_merge(const uint8_t *const *bufs, const size_t *lens,
		    const char *const *names, unsigned n, unsigned threads,
		    const char *out, struct twz_merge_result *res,
		    struct twz_error *err)
{
	struct part *parts = calloc(n ? n : 1, sizeof *parts);
	struct part **by_index = NULL;
	struct twz_grid grid = { 0 };
	struct twz_cpd cpd = { 0 };
	char *level_name = NULL;
	uint8_t *file = NULL;
	size_t file_len = 0;
	int rc = -1;

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

	/* The level, its graph, and each shard's rows where they belong. */
	const struct part *p0 = &parts[0];
	level_name = malloc(p0->size[2] + 1);
	if (!level_name) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", out);
		goto done;
	}
	memcpy(level_name, p0->sec[2], p0->size[2]);
	level_name[p0->size[2]] = 0;
	if (twz_grid_parse(p0->sec[1], p0->size[1], p0->name, &grid, err) != 0)
		goto done;
	if (grid.level_hash != p0->level_hash) {
		twz_error_set(err, "%s: damaged partial file (the level does not match its hash)",
			      p0->name);
		goto done;
	}
	if (p0->method == TWZ_METHOD_TRANSIT) {
		rc = twz_shard_merge_transit(by_index, count, &grid, level_name,
					     threads, out, res, err);
		goto done;
	}
	struct twz_bake_options opt;
	twz_bake_options_default(&opt);
	opt.connectivity = p0->connectivity;
	opt.layout = p0->layout;
	opt.codec = p0->codec;
	opt.level = p0->level;
	opt.max_scan = p0->max_scan;
	opt.chunk = p0->chunk;
	opt.threads = threads;
	opt.name = level_name;
	opt.record_build = 1;   /* the bytes twigz build writes, BUILD_INFO too */
	if (twz_graph_build(&grid, opt.connectivity, &cpd.graph, err) != 0)
		goto done;
	const struct twz_graph *gr = &cpd.graph;
	if (gr->node_count != p0->node_count) {
		twz_error_set(err, "%s: damaged partial file (node count)", p0->name);
		goto done;
	}
	uint64_t total = 0;
	for (unsigned k = 1; k <= count; k++) {
		const struct part *p = by_index[k];
		uint32_t first, end;
		twz_shard_range(gr, k, count, &first, &end);
		if (p->first != first || p->end != end) {
			twz_error_set(err, "%s: holds sources [%u, %u), but shard %u of %u is [%u, %u)",
				      p->name, p->first, p->end, k, count, first, end);
			goto done;
		}
		total += p->size[4] / 4;
	}
	if (total > TWZ_MAX_RUNS) {
		twz_error_set(err, "%s: %llu runs exceed the format limit", out,
			      (unsigned long long)total);
		goto done;
	}
	cpd.row_offsets = malloc(((size_t)gr->node_count + 1) * sizeof(uint32_t));
	cpd.runs = malloc((total ? total : 1) * sizeof(uint32_t));
	if (!cpd.row_offsets || !cpd.runs) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory for %llu runs",
				   out, (unsigned long long)total);
		goto done;
	}
	cpd.row_offsets[0] = 0;
	uint64_t pos = 0;
	for (unsigned k = 1; k <= count; k++)
		if (part_rows(by_index[k], gr, &cpd, &pos, err) != 0)
			goto done;
	cpd.run_count = total;
	cpd.layout = opt.layout;

	/* The database, checked as the runtime will check it, then written. */
	if (twz_cpd_encode(&cpd, &grid, &opt, &file, &file_len, err) != 0 ||
	    twz_part_write_db(file, file_len, out, err) != 0)
		goto done;
	if (res) {
		res->count = count;
		res->node_count = gr->node_count;
		res->component_count = gr->component_count;
		res->run_count = total;
	}
	rc = 0;
done:
	free(file);
	twz_cpd_free(&cpd);
	twz_grid_free(&grid);
	free(level_name);
	free(by_index);
	for (unsigned i = 0; i < n; i++)
		part_free(&parts[i]);
	free(parts);
	return rc;
}
