/*
 * cmd_info.c - `twigz info DB [--json]`: what a database holds (format,
 * method, grid, nodes, runs, sizes, level hash, and the agent sizes of
 * a file baked with --agent-sizes), as text or one JSON object.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "twz_format.h"

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

static void print_json(const twz_db *db, const twz_info *in, double bits)
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
	print_agents(db, 1);
	printf("}\n");
}

static void print_plain(const twz_db *db, const twz_info *in, double bits)
{
	printf("format       %u.%u\n", in->format_major, in->format_minor);
	printf("method       %s\n", in->method == TWZ_METHOD_TRANSIT
	       ? "transit (transit nodes, distance tables, local rows)"
	       : "cpd (all-pairs first moves, run-length rows)");
	printf("grid         %u x %u, %u-connected\n", in->width, in->height,
	       in->connectivity);
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
	(json ? print_json : print_plain)(db, &in, bits);
	twz_close(db);
	return 0;
}
