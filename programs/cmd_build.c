/*
 * cmd_build.c - `twigz build LEVEL.map -o OUT.twz [options]`: reads a
 * level, bakes it with CPD (all-pairs first moves) or TRANSIT (transit
 * nodes and local rows), writes the database and prints a summary.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent_sizes.h"
#include "apsp_dense.h"
#include "bake.h"
#include "build_mpi.h"
#include "cli_common.h"
#include "level_map.h"
#include "shard.h"
#include "transit.h"
#include "twz_format.h"

/* What the command line asks for. */
struct build_args {
	const char *level;
	const char *out;
	struct twz_bake_options opt;
	struct twz_transit_options topt;
	int quiet;
	int transit;               /* --method transit */
	int transit_opts;          /* some --transit-* option was given */
	struct twz_agent_request agents; /* --agent-sizes; count 0 without */
	unsigned shard, shards;    /* --shard I/N; 0 without */
	int mpi;                   /* --mpi: one shard a rank of an MPI job */
};

static const char *const formats[] = { "1.0", "1.1", "1.2", NULL };
static const unsigned format_layout[] = {
	TWZ_LAYOUT_PLAIN, TWZ_LAYOUT_BUCKETED, TWZ_LAYOUT_NARROW
};
static const char *const codecs[] = { "zstd", "raw", NULL };
/* In TWZ_APSP_* order. */
static const char *const apsp_solvers[] = { "dijkstra", "floyd", "squaring", NULL };
static const unsigned codec_id[] = { TWZ_CODEC_ZSTD, TWZ_CODEC_RAW };

/* The --transit-* options; 0 when a is none of them. */
static int transit_option(struct twz_cli_args *ar, const char *a,
			  struct twz_transit_options *topt)
{
	if (!strcmp(a, "--transit-grid"))
		topt->grid = (unsigned)twz_cli_number(ar, a, 1, TWZ_MAX_SIDE,
			"a number of blocks from 1 to 16384");
	else if (!strcmp(a, "--transit-inner"))
		topt->inner = (unsigned)twz_cli_number(ar, a, 1, 64,
			"a radius in blocks from 1 to 64");
	else if (!strcmp(a, "--transit-outer"))
		topt->outer = (unsigned)twz_cli_number(ar, a, 2, 128,
			"a radius in blocks from 2 to 128");
	else
		return 0;
	return 1;
}

/* --method: its own messages, for a missing and for an unknown method. */
static void method_option(struct twz_cli_args *ar, const char *a,
			  struct build_args *b)
{
	const char *val = twz_cli_value(ar, a, "cpd or transit");

	if (!val)
		return;
	if (strcmp(val, "cpd") != 0 && strcmp(val, "transit") != 0)
		ar->status = twz_cli_usage("unknown --method '%s' (this version builds: cpd, transit)",
					   val);
	b->transit = !strcmp(val, "transit");
}

/* --agent-sizes 1,2,3: the sizes, ascending. */
static void agent_sizes_option(struct twz_cli_args *ar, const char *a,
			       struct build_args *b)
{
	struct twz_error err = { { 0 }, 0 };
	const char *val = twz_cli_value(ar, a, "a list of agent sizes such as 1,2,3");

	if (val && twz_agent_sizes_parse(val, &b->agents, &err) != 0)
		ar->status = twz_cli_usage("%s", err.msg);
}

/* --shard I/N. */
static void shard_option(struct twz_cli_args *ar, const char *a,
			 struct build_args *b)
{
	const char *val = twz_cli_value(ar, a, "I/N, shard I of N");

	if (!val)
		return;
	if (twz_shard_parse(val, &b->shard, &b->shards) != 0)
		twz_cli_bad_value(ar, a, "I/N, shard I of N (1 <= I <= N <= 65536)",
				  val);
	else if (b->shard > b->shards)
		ar->status = twz_cli_usage("--shard %s: shard I of N needs I from 1 to N",
					   val);
}

/* 0, or the usage exit status after the message. */
static int parse_args(int argc, char **argv, struct build_args *b)
{
	struct twz_bake_options *opt = &b->opt;
	struct twz_cli_args ar = TWZ_CLI_ARGS(argc, argv);
	const char *a;
	long v;

	memset(b, 0, sizeof *b);
	twz_bake_options_default(opt);
	while ((a = twz_cli_next(&ar))) {
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			b->out = twz_cli_value(&ar, a, "a file name");
		} else if (!strcmp(a, "--method")) {
			method_option(&ar, a, b);
		} else if (transit_option(&ar, a, &b->topt)) {
			b->transit_opts = 1;
		} else if (!strcmp(a, "--threads")) {
			opt->threads = (unsigned)twz_cli_number(&ar, a, 1, 1024,
				"a number from 1 to 1024");
		} else if (!strcmp(a, "--format")) {
			opt->layout = format_layout[twz_cli_choice(&ar, a, formats,
				"1.0, 1.1 or 1.2")];
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
		} else if (!strcmp(a, "--max-nodes")) {
			opt->max_nodes = (uint32_t)twz_cli_number(&ar, a, 1,
				TWZ_MAX_NODES, "a number from 1 to 67108864");
		} else if (!strcmp(a, "--agent-sizes")) {
			agent_sizes_option(&ar, a, b);
		} else if (!strcmp(a, "--mpi")) {
			b->mpi = 1;
		} else if (!strcmp(a, "--shard")) {
			shard_option(&ar, a, b);
		} else if (!strcmp(a, "--apsp")) {
			opt->apsp = (unsigned)twz_cli_choice(&ar, a, apsp_solvers,
				"dijkstra, floyd or squaring");
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			b->quiet = 1;
		} else {
			twz_cli_operand(&ar, a, &b->level, 1);
		}
	}
	if (ar.status)
		return ar.status;
	if (!b->level)
		return twz_cli_usage("%s", "build needs a level file");
	if (!b->out)
		return twz_cli_usage("%s", "build needs -o OUT.twz");
	/* Before the bake, not after it. */
	int rc = twz_cli_check_output("-o", b->out);
	if (rc)
		return rc;
	if (b->transit_opts && !b->transit)
		return twz_cli_usage("%s", "--transit-* options need --method transit");
	if (b->shard && b->transit)
		return twz_cli_usage("%s", "--shard bakes --method cpd only (a TRANSIT bake does not split by source)");
	if (b->mpi && b->transit)
		return twz_cli_usage("%s", "--mpi bakes --method cpd only (a TRANSIT bake does not split by source)");
	/* TRANSIT: --format 1.1 keeps the block lists; else access nodes
	 * (format 1.4) where they are the smaller. */
	b->opt.transit_access = b->opt.layout != TWZ_LAYOUT_BUCKETED ? 2 : 0;
	if ((b->shard || b->mpi) && b->agents.count > 1)
		return twz_cli_usage("%s", "--shard and --mpi bake one agent size: not with --agent-sizes");
	if (b->mpi && b->shard)
		return twz_cli_usage("%s", "--mpi makes each rank a shard: not with --shard");
	if (opt->apsp != TWZ_APSP_DIJKSTRA && b->transit)
		return twz_cli_usage("%s", "--apsp is for --method cpd");
	return 0;
}

static int build_cpd(const struct twz_grid *grid, const struct build_args *b)
{
	struct twz_error err = { { 0 }, 0 };
	struct twz_cpd cpd;
	int rc = 0;

	if ((b->shard ? twz_bake_cpd_shard(grid, &b->opt, b->shard, b->shards,
					   &cpd, &err)
		      : twz_bake_cpd(grid, &b->opt, &cpd, &err)) != 0)
		return twz_cli_error(&err);
	if ((b->shard ? twz_shard_write(&cpd, grid, b->level, &b->opt, b->shard,
					b->shards, b->out, &err)
		      : twz_cpd_write(&cpd, grid, &b->opt, b->out, &err)) != 0) {
		rc = twz_cli_error(&err);
		goto out;
	}
	if (!b->quiet && b->shard) {
		uint32_t first, end;
		twz_shard_range(&cpd.graph, b->shard, b->shards, &first, &end);
		fprintf(stderr, "twigz: baked shard %u of %u of %s -> %s: sources [%u, %u) of %u, "
			"%" PRIu64 " runs, searches %.2fs\n",
			b->shard, b->shards, b->level, b->out, first, end,
			cpd.graph.node_count, (uint64_t)cpd.row_offsets[end] -
			cpd.row_offsets[first], cpd.seconds);
	} else if (!b->quiet) {
		double pairs = (double)cpd.graph.node_count * cpd.graph.node_count;
		fprintf(stderr, "twigz: baked %s -> %s: %u nodes, %u regions, %" PRIu64
			" runs (%.2f bits per pair), searches %.2fs (%.1fM pairs/s)\n",
			b->level, b->out, cpd.graph.node_count,
			cpd.graph.component_count, cpd.run_count,
			pairs > 0 ? cpd.run_count * 32.0 / pairs : 0.0, cpd.seconds,
			cpd.seconds > 0 ? pairs / cpd.seconds / 1e6 : 0.0);
	}
out:
	twz_cpd_free(&cpd);
	return rc;
}

static int build_transit(const struct twz_grid *grid,
			 const struct build_args *b)
{
	const struct twz_bake_options *opt = &b->opt;
	const struct twz_transit_options *topt = &b->topt;
	struct twz_error err = { { 0 }, 0 };
	struct twz_transit_db db;
	int rc = 0;

	if (opt->layout == TWZ_LAYOUT_PLAIN)
		return twz_cli_usage("%s", "--method transit writes format 1.1, not --format 1.0");
	if (topt->inner && topt->outer && topt->outer < 2 * topt->inner)
		return twz_cli_usage("--transit-outer must be at least twice --transit-inner%s", "");
	if (twz_bake_transit(grid, opt, topt, &db, &err) != 0)
		return twz_cli_error(&err);
	if (twz_transit_write(&db, grid, opt, b->out, &err) != 0) {
		rc = twz_cli_error(&err);
		goto out;
	}
	if (!b->quiet) {
		const struct twz_graph *tg = &db.graph;
		fprintf(stderr, "twigz: baked %s -> %s (transit): %u nodes, %u regions, "
			"%ux%u blocks of %u, %u transit nodes (at most %u a block), "
			"%" PRIu64 " local runs; selection %.2fs, local rows %.2fs, "
			"table %.2fs\n",
			opt->name, b->out, tg->node_count, tg->component_count,
			tg->cols, tg->rows, tg->side, db.transit_count,
			db.max_block_transits, db.run_count, db.select_seconds,
			db.local_seconds, db.table_seconds);
		if (twz_transit_access_fits(&db))
			fprintf(stderr, "twigz: access nodes: %.2f a node on average, "
				"at most %u; %u transit nodes in the table; %.2fs\n",
				tg->node_count ? (double)db.access_count / tg->node_count : 0.0,
				db.max_access, db.access_transits, db.access_seconds);
		else if (db.access_count)
			fprintf(stderr, "twigz: access nodes: %.2f a node on average, "
				"at most %u: no smaller in memory than the block "
				"lists, written as format 1.1\n",
				tg->node_count ? (double)db.access_count / tg->node_count : 0.0,
				db.max_access);
	}
out:
	twz_transit_db_free(&db);
	return rc;
}

/* --agent-sizes: one layer a distinct set of open cells, in one file. */
static int build_agents(const struct twz_grid *grid, struct build_args *b)
{
	struct twz_error err = { { 0 }, 0 };
	struct twz_agent_result res;

	if (b->transit) {
		if (b->opt.layout == TWZ_LAYOUT_PLAIN)
			return twz_cli_usage("%s", "--method transit writes format 1.1, not --format 1.0");
		if (b->topt.inner && b->topt.outer && b->topt.outer < 2 * b->topt.inner)
			return twz_cli_usage("--transit-outer must be at least twice --transit-inner%s", "");
		b->agents.topt = &b->topt;
	}
	if (twz_agent_write(grid, &b->opt, &b->agents, b->out, &res, &err) != 0)
		return twz_cli_error(&err);
	if (b->quiet)
		return 0;
	fprintf(stderr, "twigz: baked %s -> %s%s: %u agent size%s in %u layer%s\n",
		b->level, b->out, b->transit ? " (transit)" : "", b->agents.count,
		b->agents.count == 1 ? "" : "s", res.layer_count,
		res.layer_count == 1 ? "" : "s");
	for (unsigned l = 0; l < res.layer_count; l++) {
		const struct twz_agent_layer *ly = &res.layer[l];
		char sizes[32];
		if (ly->first_size == ly->last_size)
			snprintf(sizes, sizeof sizes, "size %u", ly->first_size);
		else
			snprintf(sizes, sizeof sizes, "sizes %u-%u", ly->first_size,
				 ly->last_size);
		fprintf(stderr, "  %-12s %u nodes, %u region%s, %" PRIu64 " runs, %.2fs\n",
			sizes, ly->node_count, ly->component_count,
			ly->component_count == 1 ? "" : "s", ly->run_count,
			ly->seconds);
	}
	return 0;
}

int twz_cmd_build(int argc, char **argv)
{
	struct twz_error err = { { 0 }, 0 };
	struct build_args b;
	struct twz_grid grid;
	int rc = parse_args(argc, argv, &b);

	if (rc)
		return rc;
	b.opt.record_build = 1;     /* twigz info and twigz check read it */
	if (b.mpi) {
		b.opt.name = b.level;
		b.opt.progress = !b.quiet && isatty(STDERR_FILENO);
		return twz_build_mpi(b.level, &b.opt, b.out, b.quiet);
	}
	if (twz_grid_load(b.level, &grid, &err) != 0)
		return twz_cli_error(&err);
	b.opt.name = b.level;
	b.opt.progress = !b.quiet && isatty(STDERR_FILENO);
	for (unsigned i = 0; i < b.agents.count; i++)
		b.opt.agent_sizes |= 1u << b.agents.sizes[i];
	/* Size 1 alone is the plain file, byte for byte. */
	if (b.agents.count && !(b.agents.count == 1 && b.agents.sizes[0] == 1))
		rc = build_agents(&grid, &b);
	else
		rc = b.transit ? build_transit(&grid, &b) : build_cpd(&grid, &b);
	twz_grid_free(&grid);
	return rc;
}
