/*
 * cmd_info.c - `twigz info DB [--json]`: what a database holds (format,
 * method, grid, nodes, runs, sizes, level hash, the agent sizes of a
 * file baked with --agent-sizes, the junction graph of one baked with
 * --junctions, and the tool version and options it was baked with when
 * it records them), as text or one JSON object.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "graph_cli.h"
#include "navmesh_cli.h"
#include "twz_build_info.h"
#include "twz_format.h"
#include "twz_inspect.h"

/* A file baked with --agent-sizes: each size's nodes and regions. Files
 * with size 1 alone print as they always have. */
static void print_agents(const twz_db *db, int json)
{
	unsigned sizes[16];
	size_t n = 0;

	twz_agent_sizes(db, sizes, 16, &n);
	if (n > 16 || (n == 1 && sizes[0] == 1))
		return;
	if (json)
		printf(",\"agent_sizes\":[");
	for (size_t i = 0; i < n; i++) {
		const twz_db *v;
		twz_info in;
		twz_view_agent(db, sizes[i], &v);
		twz_get_info(v, &in);
		if (json)
			printf("%s{\"size\":%u,\"nodes\":%u,\"regions\":%u,"
			       "\"memory_bytes\":%" PRIu64 "}", i ? "," : "",
			       sizes[i], in.node_count, in.component_count,
			       in.memory_size);
		else
			printf("%-13s%2u: %u nodes in %u region%s\n",
			       i ? "" : "agent sizes", sizes[i], in.node_count,
			       in.component_count,
			       in.component_count == 1 ? "" : "s");
	}
	if (json)
		printf("]");
}

/* A file baked with --junctions: junctions, links and the cells of their
 * chains, and the runs of each kind of row. */
static void print_junctions(const twz_db *db, const twz_info *in, int json)
{
	const uint8_t *p, *jr, *lr;
	size_t size, jr_size, lr_size;

	twz_inspect_section(db, TWZ_SECTION_JUNCTION_PARAMS, &p, &size);
	if (!p || size != TWZ_JP_SIZE)
		return;
	twz_inspect_section(db, TWZ_SECTION_JUNCTION_RUNS, &jr, &jr_size);
	twz_inspect_section(db, TWZ_SECTION_LINK_RUNS, &lr, &lr_size);
	uint32_t j = twz_le32(p + TWZ_JP_JUNCTIONS), l = twz_le32(p + TWZ_JP_LINKS);
	uint64_t jruns = jr_size / 4, lruns = lr_size / TWZ_JR_SIZE;
	if (json) {
		printf(",\"junctions\":{\"junctions\":%u,\"links\":%u,"
		       "\"chain_cells\":%u,\"junction_runs\":%" PRIu64
		       ",\"link_runs\":%" PRIu64 "}", j, l, in->node_count - j,
		       jruns, lruns);
		return;
	}
	printf("junctions    %u junctions (%.1f%% of the nodes), %u links over "
	       "%u chain cells\n", j,
	       in->node_count ? 100.0 * j / in->node_count : 0.0, l,
	       in->node_count - j);
	printf("             %" PRIu64 " junction runs, %" PRIu64 " link runs\n",
	       jruns, lruns);
}

/* The BUILD_INFO section (validated at open), or size 0 and NULL. */
struct build_info {
	const uint8_t *data;
	size_t size;
};

/* A JSON string of n bytes of valid text (no control characters). */
static void json_string(const char *s, size_t n)
{
	putchar('"');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"' || s[i] == '\\')
			putchar('\\');
		putchar(s[i]);
	}
	putchar('"');
}

/* ,"build":{...} with every recorded key as a string, or null. */
static void print_build_json(const struct build_info *bi)
{
	struct twz_build_entry e;
	size_t pos = 0;
	int first = 1;

	if (!bi->data) {
		fputs(",\"build\":null", stdout);
		return;
	}
	fputs(",\"build\":{", stdout);
	while (twz_build_info_next(bi->data, bi->size, &pos, &e)) {
		if (!first)
			putchar(',');
		first = 0;
		json_string(e.key, e.key_len);
		putchar(':');
		json_string(e.value, e.value_len);
	}
	putchar('}');
}

static void print_build_plain(const struct build_info *bi)
{
	struct twz_build_entry e;
	size_t pos = 0;

	if (!bi->data) {
		printf("built by     (not recorded)\n");
		return;
	}
	if (twz_build_info_find(bi->data, bi->size, "tool", &e))
		printf("built by     %.*s\n", (int)e.value_len, e.value);
	printf("options     ");
	while (twz_build_info_next(bi->data, bi->size, &pos, &e))
		if (!(e.key_len == 4 && !memcmp(e.key, "tool", 4)))
			printf(" %.*s=%.*s", (int)e.key_len, e.key,
			       (int)e.value_len, e.value);
	printf("\n");
}

/* Chunked sections (format 1.4, twigz build --chunk): plain lines, or
 * ,"chunks":[...] in JSON. */
static void print_chunks(const twz_db *db, int json)
{
	const struct twz_container *c = twz_inspect_container(db);
	int first = 1;

	/* Files without chunks print as they did before 1.4. */
	for (uint32_t i = 0; i < c->section_count; i++) {
		struct twz_chunk_summary cs;
		if (twz_inspect_chunks(db, i, &cs) != 0)
			continue;
		if (json && first)
			fputs(",\"chunks\":[", stdout);
		if (json)
			printf("%s{\"kind\":%u,\"count\":%u,\"max_raw\":%u,"
			       "\"raw_bytes\":%" PRIu64 ",\"stored_bytes\":%" PRIu64 "}",
			       first ? "" : ",", (unsigned)c->sections[i].kind,
			       cs.count, cs.max_raw, cs.raw_size, cs.stored_size);
		else
			printf("chunks       section %u: %u chunks of up to %u bytes, %" PRIu64
			       " bytes inflated, %" PRIu64 " stored\n",
			       (unsigned)c->sections[i].kind, cs.count, cs.max_raw,
			       cs.raw_size, cs.stored_size);
		first = 0;
	}
	if (json && !first)
		putchar(']');
}

static void print_json(const twz_db *db, const twz_info *in, double bits,
		       const struct build_info *bi)
{
	printf("{\"format\":\"%u.%u\",\"method\":\"%s\",\"connectivity\":%u,"
	       "\"width\":%u,\"height\":%u,\"nodes\":%u,\"regions\":%u,"
	       "\"runs\":%" PRIu64 ",\"file_bytes\":%" PRIu64
	       ",\"memory_bytes\":%" PRIu64 ",\"bits_per_pair\":%.4f,"
	       "\"codec\":\"%s\",\"level\":%d,\"level_hash\":\"%016" PRIx64 "\"",
	       in->format_major, in->format_minor,
	       in->method == TWZ_METHOD_TRANSIT ? "transit" : "cpd",
	       in->connectivity, in->width,
	       in->height, in->node_count, in->component_count, in->run_count,
	       in->file_size, in->memory_size, bits,
	       in->build_codec ? "zstd" : "raw", in->build_level, in->level_hash);
	if (in->level_kind != TWZ_KIND_GRID)
		twz_graph_info_print(db, 1);
	if (in->level_kind == TWZ_KIND_NAVMESH)
		twz_navmesh_info_print(db, 1);
	print_agents(db, 1);
	print_junctions(db, in, 1);
	print_chunks(db, 1);
	print_build_json(bi);
	printf("}\n");
}

static void print_plain(const twz_db *db, const twz_info *in, double bits,
			const struct build_info *bi)
{
	printf("format       %u.%u\n", in->format_major, in->format_minor);
	printf("method       %s\n", in->method == TWZ_METHOD_TRANSIT
	       ? "transit (transit nodes, distance tables, local rows)"
	       : "cpd (all-pairs first moves, run-length rows)");
	if (in->level_kind != TWZ_KIND_GRID)
		twz_graph_info_print(db, 0);
	if (in->level_kind == TWZ_KIND_NAVMESH)
		twz_navmesh_info_print(db, 0);
	else
		printf("grid         %u x %u, %u-connected\n", in->width,
		       in->height, in->connectivity);
	printf("nodes        %u in %u region%s\n", in->node_count,
	       in->component_count, in->component_count == 1 ? "" : "s");
	printf("runs         %" PRIu64 "\n", in->run_count);
	printf("file         %" PRIu64 " bytes (%s", in->file_size,
	       in->build_codec ? "zstd" : "raw");
	if (in->build_codec)
		printf(" level %d", in->build_level);
	printf(")\n");
	printf("in memory    %" PRIu64 " bytes, %.3f bits per node pair\n",
	       in->memory_size, bits);
	printf("level hash   %016" PRIx64 "\n", in->level_hash);
	print_agents(db, 0);
	print_junctions(db, in, 0);
	print_chunks(db, 0);
	print_build_plain(bi);
}

int twz_cmd_info(int argc, char **argv)
{
	struct twz_cli_args ar = TWZ_CLI_ARGS(argc, argv);
	const char *dbpath = NULL, *a;
	int json = 0;

	while ((a = twz_cli_next(&ar))) {
		if (!strcmp(a, "--json"))
			json = 1;
		else
			twz_cli_operand(&ar, a, &dbpath, 1);
	}
	if (ar.status)
		return ar.status;
	if (!dbpath)
		return twz_cli_usage("%s", "info needs a database");
	twz_db *db;
	int rc = twz_cli_open_db(dbpath, &db);
	if (rc)
		return rc;
	twz_info in;
	twz_get_info(db, &in);
	double pairs = (double)in.node_count * in.node_count;
	double bits = pairs > 0 ? in.memory_size * 8.0 / pairs : 0;
	struct build_info bi;
	twz_inspect_section(db, TWZ_SECTION_BUILD_INFO, &bi.data, &bi.size);
	(json ? print_json : print_plain)(db, &in, bits, &bi);
	twz_close(db);
	return 0;
}
