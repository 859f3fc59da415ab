/*
 * cmd_check.c - `twigz check LEVEL DB [build options]`: whether DB is
 * stale for LEVEL, without baking. DB is up to date when it was baked
 * from LEVEL as it is now (the level hash of the header: line ends do
 * not count) with the options given, build's defaults for those not
 * given. Exit status 0 up to date, 1 stale (one line says why), 2 an
 * error (a usage error, or a file that cannot be read or is damaged).
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
#include "cli_common.h"
#include "level_map.h"
#include "transit.h"
#include "twz_build_info.h"
#include "twz_format.h"
#include "twz_inspect.h"

enum {
	CHECK_FRESH = 0,
	CHECK_STALE = 1,
	CHECK_ERROR = 2,
};

struct check_args {
	const char *level;
	const char *db;
	struct twz_bake_options opt;
	struct twz_transit_options topt;
	int transit;             /* --method transit */
	int transit_opts;        /* some --transit-* option was given */
	int quiet;
	struct twz_agent_request agents;  /* --agent-sizes; count 0 without */
};

static const char *const formats[] = { "1.0", "1.1", "1.2", "1.4", NULL };
static const unsigned format_layout[] = {
	TWZ_LAYOUT_PLAIN, TWZ_LAYOUT_BUCKETED, TWZ_LAYOUT_NARROW,
	TWZ_LAYOUT_INLINE
};
static const char *const codecs[] = { "zstd", "raw", NULL };
static const unsigned codec_id[] = { TWZ_CODEC_ZSTD, TWZ_CODEC_RAW };
static const char *const methods[] = { "cpd", "transit", NULL };

/* The words of `twigz build` (its -o names DB); those that do not change
 * the bytes (--threads, --max-nodes) are read and not used. 0, or the
 * usage exit status after the message. */
static int parse_args(int argc, char **argv, struct check_args *c)
{
	struct twz_bake_options *opt = &c->opt;
	struct twz_cli_args ar = TWZ_CLI_ARGS(argc, argv);
	const char *slots[2] = { NULL, NULL }, *a, *out = NULL;
	long v;

	memset(c, 0, sizeof *c);
	twz_bake_options_default(opt);
	while ((a = twz_cli_next(&ar))) {
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			out = twz_cli_value(&ar, a, "a file name");
		} else if (!strcmp(a, "--method")) {
			c->transit = twz_cli_choice(&ar, a, methods,
						    "cpd or transit") == 1;
		} else if (!strcmp(a, "--transit-grid")) {
			c->topt.grid = (unsigned)twz_cli_number(&ar, a, 1, TWZ_MAX_SIDE,
				"a number of blocks from 1 to 16384");
			c->transit_opts = 1;
		} else if (!strcmp(a, "--transit-inner")) {
			c->topt.inner = (unsigned)twz_cli_number(&ar, a, 1, 64,
				"a radius in blocks from 1 to 64");
			c->transit_opts = 1;
		} else if (!strcmp(a, "--transit-outer")) {
			c->topt.outer = (unsigned)twz_cli_number(&ar, a, 2, 128,
				"a radius in blocks from 2 to 128");
			c->transit_opts = 1;
		} else if (!strcmp(a, "--threads")) {
			twz_cli_number(&ar, a, 1, 1024, "a number from 1 to 1024");
		} else if (!strcmp(a, "--max-nodes")) {
			twz_cli_number(&ar, a, 1, TWZ_MAX_NODES,
				       "a number from 1 to 67108864");
		} else if (!strcmp(a, "--format")) {
			opt->layout = format_layout[twz_cli_choice(&ar, a, formats,
				"1.0, 1.1, 1.2 or 1.4")];
		} else if (!strcmp(a, "--codec")) {
			opt->codec = codec_id[twz_cli_choice(&ar, a, codecs,
				"zstd or raw")];
		} else if (!strcmp(a, "--level")) {
			opt->level = (int)twz_cli_number(&ar, a, 1, 22,
				"a zstd level from 1 to 22");
		} else if (!strcmp(a, "--connectivity")) {
			v = twz_cli_number(&ar, a, 4, 8, "8 or 4");
			if (v != 4 && v != 8)
				twz_cli_bad_value(&ar, a, "8 or 4",
						  argv[ar.next - 1]);
			opt->connectivity = (unsigned)v;
		} else if (!strcmp(a, "--agent-sizes")) {
			struct twz_error err = { { 0 }, 0 };
			const char *val = twz_cli_value(&ar, a,
				"a list of agent sizes such as 1,2,3");
			if (val && twz_agent_sizes_parse(val, &c->agents, &err) != 0)
				return twz_cli_usage("%s", err.msg);
			for (unsigned i = 0; i < c->agents.count; i++)
				opt->agent_sizes |= 1u << c->agents.sizes[i];
		} else if (!strcmp(a, "--junctions")) {
			opt->junctions = 1;
		} else if (!strcmp(a, "--chunk")) {
			opt->chunk = twz_cli_bytes(&ar, a, TWZ_CHUNK_MIN_TARGET,
				TWZ_CHUNK_MAX_RAW / 2,
				"a chunk size from 4K to 512M (such as 256K)");
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			c->quiet = 1;
		} else {
			twz_cli_operand(&ar, a, slots, out ? 1 : 2);
		}
	}
	if (ar.status)
		return ar.status;
	c->level = slots[0];
	c->db = out ? out : slots[1];
	if (out && slots[1])
		return twz_cli_usage("%s", "check takes DB or -o DB, not both");
	if (!c->level)
		return twz_cli_usage("%s", "check needs a level file");
	if (!c->db)
		return twz_cli_usage("%s", "check needs a database");
	if (c->transit_opts && !c->transit)
		return twz_cli_usage("%s", "--transit-* options need --method transit");
	if (c->transit && opt->layout == TWZ_LAYOUT_PLAIN)
		return twz_cli_usage("%s", "--method transit writes format 1.1, not --format 1.0");
	return 0;
}

/* Why the header's format version cannot be what opt asks for, or NULL
 * (CPD; TRANSIT always writes 1.1). A 1.2 bake writes 1.1 when its level
 * has 65,535 nodes or more, or when rows outgrow the bucketed layout. */
static const char *format_differs(const struct twz_container *fc,
				  const struct twz_bake_options *opt)
{
	int bucketed = (fc->required_features & TWZ_FEATURE_BUCKETED_ROWS) != 0;
	int junctions = (fc->required_features & TWZ_FEATURE_JUNCTIONS) != 0;

	/* A junction graph is 1.4 whatever --format says (it refuses one). */
	if (opt->junctions || junctions)
		return opt->junctions && junctions && fc->minor == 4 ? NULL : "format";
	switch (opt->layout) {
	case TWZ_LAYOUT_PLAIN:
		return fc->minor != 0 ? "format" : NULL;
	case TWZ_LAYOUT_BUCKETED:
		return fc->minor != 1 ? "format" : NULL;
	case TWZ_LAYOUT_INLINE:
		/* Rows that outgrow the inline layout keep 1.2's (or 1.1's). */
		if (fc->required_features & TWZ_FEATURE_CPD_INLINE)
			return fc->minor != 4 ? "format" : NULL;
		return fc->minor == 0 || fc->minor > 2 ? "format" : NULL;
	default:
		if (fc->minor == 0 || fc->minor > 2 ||
		    (fc->minor == 1 && bucketed && fc->node_count < TWZ_NARROW_NONE))
			return "format";
		return NULL;
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

/* CHECK_FRESH, or CHECK_STALE with the reason in why; CHECK_ERROR after
 * a message. */
static int compare(const twz_db *db, const struct twz_grid *g,
		   const struct check_args *c, char *why, size_t cap)
{
	const struct twz_container *fc = twz_inspect_container(db);
	const struct twz_bake_options *opt = &c->opt;
	struct twz_graph layout;
	struct twz_error err = { { 0 }, 0 };
	uint8_t method = c->transit ? TWZ_METHOD_TRANSIT : TWZ_METHOD_CPD;

	if (fc->level_hash != g->level_hash || fc->width != g->width ||
	    fc->height != g->height) {
		snprintf(why, cap, "level changed");
		return CHECK_STALE;
	}
	memset(&layout, 0, sizeof layout);
	if (c->transit && twz_transit_layout(g, &c->topt, &layout, &err) != 0) {
		fprintf(stderr, "twigz: %s: %s\n", c->level, err.msg);
		return CHECK_ERROR;
	}
	if (fc->method != method) {
		snprintf(why, cap, "baked with other options (method %s, asked %s)",
			 fc->method == TWZ_METHOD_TRANSIT ? "transit" : "cpd",
			 c->transit ? "transit" : "cpd");
		return CHECK_STALE;
	}
	if (fc->connectivity != opt->connectivity) {
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
	if (agents_differ(db, opt->agent_sizes, why, cap))
		return CHECK_STALE;
	/* A file with agent sizes is 1.3 whatever its rows' layout, which
	 * BUILD_INFO records. */
	if (opt->agent_sizes & ~(uint32_t)2) {
		if (fc->minor != 3) {
			snprintf(why, cap, "baked with other options (format %u.%u, asked agent sizes)",
				 fc->major, fc->minor);
			return CHECK_STALE;
		}
	} else if (!c->transit && format_differs(fc, opt) &&
		   !(opt->chunk && fc->minor == 4 &&
		     (fc->required_features & TWZ_FEATURE_CHUNKED_SECTIONS))) {
		/* A chunked file is 1.4; BUILD_INFO records its layout. */
		snprintf(why, cap, "baked with other options (format %u.%u, asked %s)",
			 fc->major, fc->minor, opt->junctions ? "1.4 junctions" :
			 formats[opt->layout == TWZ_LAYOUT_PLAIN ? 0 :
				 opt->layout == TWZ_LAYOUT_BUCKETED ? 1 :
				 opt->layout == TWZ_LAYOUT_INLINE ? 3 : 2]);
		return CHECK_STALE;
	}
	if (c->transit) {
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
	size_t have_size;
	char want[TWZ_BUILD_INFO_MAX];
	twz_inspect_section(db, TWZ_SECTION_BUILD_INFO, &have, &have_size);
	if (!have)
		return CHECK_FRESH;     /* baked before files recorded it */
	size_t want_size = twz_build_info_text(opt, method, &layout, want,
					       sizeof want);
	if (build_info_differs(have, have_size, want, want_size, why, cap))
		return CHECK_STALE;
	return CHECK_FRESH;
}

int twz_cmd_check(int argc, char **argv)
{
	struct twz_error err = { { 0 }, 0 };
	struct check_args c;
	struct twz_grid grid;
	twz_db *db;
	char why[256];
	int rc = parse_args(argc, argv, &c);

	if (rc)
		return CHECK_ERROR;
	if (twz_cli_open_db(c.db, &db) != 0)
		return CHECK_ERROR;
	if (twz_grid_load(c.level, &grid, &err) != 0) {
		twz_cli_error(&err);
		twz_close(db);
		return CHECK_ERROR;
	}
	rc = compare(db, &grid, &c, why, sizeof why);
	if (rc == CHECK_FRESH && !c.quiet)
		printf("%s: up to date with %s\n", c.db, c.level);
	else if (rc == CHECK_STALE && !c.quiet)
		printf("%s: stale for %s: %s\n", c.db, c.level, why);
	twz_grid_free(&grid);
	twz_close(db);
	return rc;
}
