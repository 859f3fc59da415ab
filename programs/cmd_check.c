/*
 * cmd_check.c - `twigz check LEVEL DB [build options]`: whether DB is
 * stale for LEVEL, without baking. DB is up to date when it was baked
 * from LEVEL as it is now (the level hash of the header: line ends do
 * not count) with the options given, build's defaults for those not
 * given: every word of `twigz build` is read (build_args.c); those that
 * do not change the bytes (--threads, --max-nodes, --max-seconds,
 * --memory-limit, --apsp, --shard, --mpi) are not compared. LEVEL may be a grid, a graph
 * or a navmesh. Exit status 0 up to date, 1 stale (one line says why), 2
 * an error (a usage error, or a file that cannot be read or is damaged).
 *
 * The options are compared with what the header records (method,
 * connectivity, codec and level, format version, TRANSIT's block grid)
 * and, when the file has one, with its BUILD_INFO section (every option
 * that decides the bytes). The tool version that baked DB is not
 * compared: `twigz info` shows it.
 */
#include <stdio.h>
#include <string.h>

#include "agent_sizes.h"
#include "bake.h"
#include "bake_level.h"
#include "build_args.h"
#include "cli_common.h"
#include "level_graph.h"
#include "level_map.h"
#include "level_navmesh.h"
#include "transit.h"
#include "twz_build_info.h"
#include "twz_format.h"
#include "twz_inspect.h"

enum {
	CHECK_FRESH = 0,
	CHECK_STALE = 1,
	CHECK_ERROR = 2,
};

static const char *const format_names[] = {
	[TWZ_LAYOUT_PLAIN] = "1.0", [TWZ_LAYOUT_BUCKETED] = "1.1",
	[TWZ_LAYOUT_NARROW] = "1.2", [TWZ_LAYOUT_INLINE] = "1.4",
};

/* Whether the header's format version cannot be what opt asks for. A
 * 1.2 bake writes 1.1 when its level has 65,535 nodes or more, or when
 * rows outgrow the bucketed layout; TRANSIT writes 1.1 (block lists) or
 * 1.4 (access nodes) and junction graphs 1.4. */
static int format_differs(const struct twz_container *fc,
			  const struct twz_bake_options *opt)
{
	int bucketed = (fc->required_features & TWZ_FEATURE_BUCKETED_ROWS) != 0;
	int junctions = (fc->required_features & TWZ_FEATURE_JUNCTIONS) != 0;

	if (opt->method == TWZ_BAKE_JUNCTIONS || junctions)
		return !(opt->method == TWZ_BAKE_JUNCTIONS && junctions &&
			 fc->minor == 4);
	if (opt->method == TWZ_BAKE_TRANSIT)
		return (opt->layout == TWZ_LAYOUT_BUCKETED && fc->minor != 1) ||
		       (opt->layout == TWZ_LAYOUT_INLINE && fc->minor != 4 &&
			opt->transit_far != TWZ_TRANSIT_SMALLER);
	switch (twz_bake_layout(opt)) {
	case TWZ_LAYOUT_PLAIN:
		return fc->minor != 0;
	case TWZ_LAYOUT_BUCKETED:
		return fc->minor != 1;
	case TWZ_LAYOUT_INLINE:
		/* Rows that outgrow the inline layout keep 1.2's (or 1.1's). */
		if (fc->required_features & TWZ_FEATURE_CPD_INLINE)
			return fc->minor != 4;
		return fc->minor == 0 || fc->minor > 2;
	default:
		return fc->minor == 0 || fc->minor > 2 ||
		       (fc->minor == 1 && bucketed && fc->node_count < TWZ_NARROW_NONE);
	}
}

/* The first key=value of want that have differs in (tool aside), and
 * the first key of have that want lacks: a one-line reason in why. */
static int build_info_differs(const uint8_t *have, size_t have_size,
			      const char *want, size_t want_size, char *why,
			      size_t cap)
{
	struct twz_build_entry w, h;
	size_t pos = 0;

	while (twz_build_info_next((const uint8_t *)want, want_size, &pos, &w)) {
		char key[TWZ_BUILD_INFO_KEY_MAX + 1];
		if (w.key_len == 4 && !memcmp(w.key, "tool", 4))
			continue;
		snprintf(key, sizeof key, "%.*s", (int)w.key_len, w.key);
		if (!twz_build_info_find(have, have_size, key, &h)) {
			snprintf(why, cap, "baked with other options (no %s, asked %.*s)",
				 key, (int)w.value_len, w.value);
			return 1;
		}
		if (h.value_len != w.value_len || memcmp(h.value, w.value, w.value_len)) {
			snprintf(why, cap, "baked with other options (%s %.*s, asked %.*s)",
				 key, (int)(h.value_len > 64 ? 64 : h.value_len), h.value,
				 (int)w.value_len, w.value);
			return 1;
		}
	}
	pos = 0;
	while (twz_build_info_next(have, have_size, &pos, &h)) {
		char key[TWZ_BUILD_INFO_KEY_MAX + 1];
		snprintf(key, sizeof key, "%.*s", (int)h.key_len, h.key);
		if (strcmp(key, "tool") &&
		    !twz_build_info_find((const uint8_t *)want, want_size, key, &w)) {
			snprintf(why, cap, "baked with other options (%s %.*s, not asked)",
				 key, (int)(h.value_len > 64 ? 64 : h.value_len), h.value);
			return 1;
		}
	}
	return 0;
}

/* The agent sizes as "1,2,3" (bit k: size k; 0 means size 1). */
static void sizes_text(uint32_t mask, char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = 0;
	if (!mask)
		mask = 2;
	for (unsigned k = 1; k < 32 && n < cap; k++)
		if (mask & (1u << k))
			n += (size_t)snprintf(buf + n, cap - n, "%s%u", n ? "," : "", k);
}

/* Whether db answers for other agent sizes than asked (bits as
 * twz_bake_options.agent_sizes), with the reason in why. */
static int agents_differ(const twz_db *db, uint32_t asked, char *why,
			 size_t cap)
{
	unsigned sizes[TWZ_MAX_AGENT_SIZE];
	size_t n = 0;
	uint32_t have = 0;
	char a[64], h[64];

	if (twz_agent_sizes(db, sizes, TWZ_MAX_AGENT_SIZE, &n) != TWZ_OK)
		n = 0;
	for (size_t i = 0; i < n; i++)
		have |= 1u << sizes[i];
	if (!asked)
		asked = 2;
	if (!have)
		have = 2;
	if (have == asked)
		return 0;
	sizes_text(have, h, sizeof h);
	sizes_text(asked, a, sizeof a);
	snprintf(why, cap, "baked with other options (agent sizes %s, asked %s)", h, a);
	return 1;
}

/* A level as check needs it: its hash and size. 0, or -1 with err set. */
struct level_facts {
	unsigned kind;           /* TWZ_LEVEL_* */
	uint64_t hash;
	uint32_t width, height;  /* a grid's; 0 otherwise */
	struct twz_grid grid;    /* a grid, for TRANSIT's block layout */
};

static int level_facts(const char *path, struct level_facts *lf,
		       struct twz_error *err)
{
	memset(lf, 0, sizeof *lf);
	lf->kind = twz_level_kind_of(path);
	if (lf->kind == TWZ_LEVEL_GRAPH) {
		struct twz_graph g;
		if (twz_graph_load(path, &g, err) != 0)
			return -1;
		lf->hash = g.level_hash;
		twz_graph_free(&g);
	} else if (lf->kind == TWZ_LEVEL_NAVMESH) {
		struct twz_navmesh m;
		if (twz_navmesh_load(path, &m, err) != 0)
			return -1;
		lf->hash = m.level_hash;
		twz_navmesh_free(&m);
	} else {
		if (twz_grid_load(path, &lf->grid, err) != 0)
			return -1;
		lf->hash = lf->grid.level_hash;
		lf->width = lf->grid.width;
		lf->height = lf->grid.height;
	}
	return 0;
}

/* CHECK_FRESH, or CHECK_STALE with the reason in why; CHECK_ERROR after
 * a message. */
static int compare(const twz_db *db, const struct level_facts *lf,
		   const struct twz_build_args *c, char *why, size_t cap)
{
	const struct twz_container *fc = twz_inspect_container(db);
	const struct twz_bake_options *opt = &c->opt;
	struct twz_graph layout;
	struct twz_error err = { { 0 }, 0 };
	int transit = opt->method == TWZ_BAKE_TRANSIT;
	uint8_t method = transit ? TWZ_METHOD_TRANSIT : TWZ_METHOD_CPD;

	if (fc->level_hash != lf->hash || fc->width != lf->width ||
	    fc->height != lf->height || fc->level_kind != lf->kind) {
		snprintf(why, cap, "level changed");
		return CHECK_STALE;
	}
	memset(&layout, 0, sizeof layout);
	if (transit && twz_transit_layout(&lf->grid, &opt->transit, &layout, &err) != 0) {
		fprintf(stderr, "twigz: %s: %s\n", c->operand[0], err.msg);
		return CHECK_ERROR;
	}
	if (fc->method != method) {
		snprintf(why, cap, "baked with other options (method %s, asked %s)",
			 fc->method == TWZ_METHOD_TRANSIT ? "transit" : "cpd",
			 transit ? "transit" : "cpd");
		return CHECK_STALE;
	}
	if (lf->kind == TWZ_LEVEL_GRID && fc->connectivity != opt->connectivity) {
		snprintf(why, cap, "baked with other options (connectivity %u, asked %u)",
			 fc->connectivity, opt->connectivity);
		return CHECK_STALE;
	}
	if (fc->build_codec != opt->codec || fc->build_level != opt->level) {
		snprintf(why, cap, "baked with other options (codec %s level %d, asked %s level %d)",
			 fc->build_codec ? "zstd" : "raw", fc->build_level,
			 opt->codec ? "zstd" : "raw", opt->level);
		return CHECK_STALE;
	}
	if (lf->kind == TWZ_LEVEL_GRID && agents_differ(db, opt->agent_sizes, why, cap))
		return CHECK_STALE;
	/* A file with agent sizes is 1.3 (or 1.4 with a 1.4 layer) whatever
	 * its rows' layout, which BUILD_INFO records; so is a chunked file. */
	if (lf->kind != TWZ_LEVEL_GRID || (opt->agent_sizes & ~(uint32_t)2)) {
		if (fc->minor < (lf->kind != TWZ_LEVEL_GRID ? 4 : 3)) {
			snprintf(why, cap, "baked with other options (format %u.%u)",
				 fc->major, fc->minor);
			return CHECK_STALE;
		}
	} else if (format_differs(fc, opt) &&
		   !(opt->chunk && fc->minor == 4 &&
		     (fc->required_features & TWZ_FEATURE_CHUNKED_SECTIONS))) {
		snprintf(why, cap, "baked with other options (format %u.%u, asked %s)",
			 fc->major, fc->minor,
			 opt->method == TWZ_BAKE_JUNCTIONS ? "1.4 junctions" :
			 format_names[twz_bake_layout(opt)]);
		return CHECK_STALE;
	}
	if (transit) {
		const uint8_t *p;
		size_t size;
		twz_inspect_section(db, TWZ_SECTION_TRANSIT_PARAMS, &p, &size);
		if (p && size >= TWZ_TP_SIZE &&
		    (twz_le32(p + TWZ_TP_SIDE) != layout.side ||
		     twz_le32(p + TWZ_TP_INNER) != layout.inner ||
		     twz_le32(p + TWZ_TP_OUTER) != layout.outer)) {
			snprintf(why, cap, "baked with other options (blocks of %u, radii %u and %u; asked %u, %u and %u)",
				 twz_le32(p + TWZ_TP_SIDE), twz_le32(p + TWZ_TP_INNER),
				 twz_le32(p + TWZ_TP_OUTER), layout.side,
				 layout.inner, layout.outer);
			return CHECK_STALE;
		}
	}

	/* What a bake now would record, against what the file does. */
	const uint8_t *have;
	size_t have_size, want_size;
	char want[TWZ_BUILD_INFO_MAX];
	twz_inspect_section(db, TWZ_SECTION_BUILD_INFO, &have, &have_size);
	if (!have)
		return CHECK_FRESH;     /* baked before files recorded it */
	struct twz_bake_options recorded = *opt;
	if (opt->agent_sizes & ~(uint32_t)2)
		recorded.layout = twz_layer_layout(opt->layout);
	if (lf->kind == TWZ_LEVEL_GRID)
		want_size = twz_build_info_text(&recorded, method, &layout, want, sizeof want);
	else
		want_size = twz_build_info_graph_text(opt, lf->kind, want, sizeof want);
	if (build_info_differs(have, have_size, want, want_size, why, cap))
		return CHECK_STALE;
	return CHECK_FRESH;
}

int twz_cmd_check(int argc, char **argv)
{
	struct twz_error err = { { 0 }, 0 };
	struct twz_build_args c;
	struct level_facts lf;
	twz_db *db;
	char why[256];
	int rc = twz_build_args_read(argc, argv, 2, &c);

	if (rc)
		return CHECK_ERROR;
	const char *level = c.operand[0];
	const char *dbpath = c.out ? c.out : c.operand[1];
	if (c.out && c.operand[1])
		return twz_cli_usage("%s", "check takes DB or -o DB, not both");
	if (!level)
		return twz_cli_usage("%s", "check needs a level file");
	if (!dbpath)
		return twz_cli_usage("%s", "check needs a database");
	if (twz_build_args_check(&c, level) != 0)
		return CHECK_ERROR;
	if (twz_cli_open_db(dbpath, &db) != 0)
		return CHECK_ERROR;
	if (level_facts(level, &lf, &err) != 0) {
		twz_cli_error(&err);
		twz_close(db);
		return CHECK_ERROR;
	}
	rc = compare(db, &lf, &c, why, sizeof why);
	if (rc == CHECK_FRESH && !c.quiet)
		printf("%s: up to date with %s\n", dbpath, level);
	else if (rc == CHECK_STALE && !c.quiet)
		printf("%s: stale for %s: %s\n", dbpath, level, why);
	twz_grid_free(&lf.grid);
	twz_close(db);
	return rc;
}
