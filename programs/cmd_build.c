/*
 * cmd_build.c - `twigz build LEVEL.map -o OUT.twz [options]`: reads a
 * level, bakes it with CPD (all-pairs first moves) or TRANSIT (transit
 * nodes and local rows), writes the database and prints a summary.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_sizes.h"
#include "apsp_dense.h"
#include "bake.h"
#include "build_mpi.h"
#include "cli_common.h"
#include "level_costs.h"
#include "junctions.h"
#include "graph_cli.h"
#include "navmesh_cli.h"
#include "level_map.h"
#include "level_navmesh.h"
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
	int format_given;          /* --format */
	const char *coords;        /* --coords F.co, for a .gr level */
	const char *links;         /* --links FILE: off-mesh links, .gr */
	const char *costs;         /* --costs FILE: areas' costs */
};

static const char *const formats[] = { "1.0", "1.1", "1.2", "1.4", NULL };
static const unsigned format_layout[] = {
	TWZ_LAYOUT_PLAIN, TWZ_LAYOUT_BUCKETED, TWZ_LAYOUT_NARROW,
	TWZ_LAYOUT_INLINE
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

/* --memory-limit SIZE: bytes, or K, M, G, T (powers of 1024), at least
 * 1M. */
static void memory_limit_option(struct twz_cli_args *ar, const char *a,
				struct twz_bake_options *opt)
{
	static const char what[] = "a size such as 512M or 2G (at least 1M)";
	const char *val = twz_cli_value(ar, a, what);
	unsigned long long v = 0;
	const char *p;

	if (!val)
		return;
	for (p = val; *p >= '0' && *p <= '9'; p++) {
		if (v > (~0ull - 9) / 10) {
			twz_cli_bad_value(ar, a, what, val);
			return;
		}
		v = v * 10 + (unsigned)(*p - '0');
	}
	unsigned shift = 0;
	if (*p) {
		const char *units = "KMGT";
		const char *u = strchr(units, *p >= 'a' ? *p - 32 : *p);
		if (!u) {
			twz_cli_bad_value(ar, a, what, val);
			return;
		}
		shift = 10 * (unsigned)(u - units + 1);
		p++;
		if (!strcmp(p, "iB") || !strcmp(p, "B"))
			p += strlen(p);
	}
	if (p == val || *p || *val < '0' || *val > '9' ||
	    (shift && v > (~0ull >> shift)) || (v << shift) < (1ull << 20)) {
		twz_cli_bad_value(ar, a, what, val);
		return;
	}
	opt->max_memory = v << shift;
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

/* What --junctions does not combine with: 0, or the usage exit status
 * after the message. A junction file is format 1.4 and CPD over the
 * junction graph, searched by Dijkstra from each junction. */
static int junction_conflicts(const struct build_args *b)
{
	if (b->transit)
		return twz_cli_usage("%s", "--junctions bakes --method cpd only (TRANSIT has no junction graph)");
	if (b->agents.count > 1 ||
	    (b->agents.count == 1 && b->agents.sizes[0] != 1))
		return twz_cli_usage("%s", "--junctions bakes one agent size: not with --agent-sizes");
	if (b->shard || b->mpi)
		return twz_cli_usage("%s", "--junctions bakes on one machine: not with --shard or --mpi");
	if (b->format_given)
		return twz_cli_usage("%s", "--junctions writes format 1.4: not with --format");
	if (b->opt.apsp != TWZ_APSP_DIJKSTRA)
		return twz_cli_usage("%s", "--junctions searches the junction graph: --apsp dijkstra only");
	return 0;
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
			b->format_given = 1;
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
		} else if (!strcmp(a, "--max-nodes")) {
			opt->max_nodes = (uint32_t)twz_cli_number(&ar, a, 1,
				TWZ_MAX_NODES, "a number from 1 to 67108864");
		} else if (!strcmp(a, "--max-seconds")) {
			opt->max_seconds = (double)twz_cli_number(&ar, a, 1, 1000000000,
				"a number of seconds from 1 to 1000000000");
		} else if (!strcmp(a, "--memory-limit")) {
			memory_limit_option(&ar, a, opt);
		} else if (!strcmp(a, "--agent-sizes")) {
			agent_sizes_option(&ar, a, b);
		} else if (!strcmp(a, "--mpi")) {
			b->mpi = 1;
		} else if (!strcmp(a, "--shard")) {
			shard_option(&ar, a, b);
		} else if (!strcmp(a, "--apsp")) {
			opt->apsp = (unsigned)twz_cli_choice(&ar, a, apsp_solvers,
				"dijkstra, floyd or squaring");
		} else if (!strcmp(a, "--junctions")) {
			opt->junctions = 1;
		} else if (!strcmp(a, "--coords")) {
			b->coords = twz_cli_value(&ar, a, "a DIMACS .co file");
		} else if (!strcmp(a, "--links")) {
			b->links = twz_cli_value(&ar, a,
				"a file of 'FROM TO COST oneway|both' lines");
		} else if (!strcmp(a, "--costs")) {
			b->costs = twz_cli_value(&ar, a, "a file of 'AREA COST' lines");
		} else if (!strcmp(a, "--chunk")) {
			opt->chunk = twz_cli_bytes(&ar, a, TWZ_CHUNK_MIN_TARGET,
				TWZ_CHUNK_MAX_RAW / 2,
				"a chunk size from 4K to 512M (such as 256K)");
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
	/* TRANSIT: --format 1.1 keeps the block lists; else access nodes
	 * (format 1.4) where they are the smaller. */
	b->opt.transit_access = b->opt.layout != TWZ_LAYOUT_BUCKETED ? 2 : 0;
	if ((b->shard || b->mpi) && b->agents.count > 1)
		return twz_cli_usage("%s", "--shard and --mpi bake one agent size: not with --agent-sizes");
	if (b->mpi && b->shard)
		return twz_cli_usage("%s", "--mpi makes each rank a shard: not with --shard");
	if (opt->chunk && (b->shard || b->mpi || b->agents.count > 1))
		return twz_cli_usage("%s", "--chunk is for a single database: not with --shard, --mpi or --agent-sizes");
	if (opt->chunk && opt->codec != TWZ_CODEC_ZSTD)
		return twz_cli_usage("%s", "--chunk stores zstd chunks: not with --codec raw");
	if (opt->apsp != TWZ_APSP_DIJKSTRA && b->transit)
		return twz_cli_usage("%s", "--apsp is for --method cpd");
	if ((twz_cli_is_graph_level(b->level) || twz_navmesh_is_obj_path(b->level)) &&
	    (b->transit || b->shard || b->mpi || b->agents.count || opt->junctions))
		return twz_cli_usage("%s", "a graph (.gr) or navmesh (.obj) level bakes with "
				     "--method cpd, without --shard, --mpi, --agent-sizes or --junctions");
	if ((twz_cli_is_graph_level(b->level) || twz_navmesh_is_obj_path(b->level)) &&
	    (opt->connectivity != 8 || opt->layout != TWZ_LAYOUT_NARROW))
		return twz_cli_usage("%s", "--connectivity and --format are a grid's: a "
				     "graph's or navmesh's arcs are its links");
	if (b->coords && !twz_cli_is_graph_level(b->level))
		return twz_cli_usage("%s", "--coords goes with a graph level (.gr)");
	/* A grid's rows hold moves to adjacent cells and a navmesh's
	 * corridor portals between adjacent polygons: neither has a symbol
	 * for a link yet (FORMAT.md 5l). */
	if (b->links && !twz_cli_is_graph_level(b->level))
		return twz_cli_usage("%s", "--links goes with a graph level (.gr)");
	/* A TRANSIT table, a junction link and a dense solver's matrix hold
	 * move counts; the spool, shards and MPI ranks do not carry the
	 * areas' sections yet. */
	if (b->costs && (b->transit || opt->junctions || opt->apsp != TWZ_APSP_DIJKSTRA ||
			 b->shard || b->mpi || opt->max_memory ||
			 twz_cli_is_graph_level(b->level)))
		return twz_cli_usage("%s", "--costs bakes a grid or a navmesh with --method cpd "
				     "in memory: not with --method transit, --junctions, "
				     "--apsp, --memory-limit, --shard, --mpi or a graph (.gr)");
	return opt->junctions ? junction_conflicts(b) : 0;
}

static int build_cpd(const struct twz_grid *grid, const struct build_args *b)
{
	struct twz_error err = { { 0 }, 0 };
	struct twz_cpd cpd;
	int rc = 0;

	if (!b->shard && twz_cpd_stream_needed(grid, &b->opt)) {
		struct twz_cpd_stream_result res;
		if (twz_cpd_bake_streamed(grid, &b->opt, b->out, &res, &err) != 0)
			return twz_cli_error(&err);
		if (!b->quiet) {
			double pairs = (double)res.node_count * res.node_count;
			fprintf(stderr, "twigz: baked %s -> %s under --memory-limit %.0fM: "
				"%u nodes, %u regions, %" PRIu64 " runs (%.2f bits per pair), "
				"searches %.2fs, %.1fM through a temporary file\n",
				b->level, b->out, b->opt.max_memory / 1048576.0,
				res.node_count, res.component_count, res.run_count,
				pairs > 0 ? res.run_count * 32.0 / pairs : 0.0, res.seconds,
				res.spool_bytes / 1048576.0);
		}
		return 0;
	}
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

static int build_junctions(const struct twz_grid *grid,
			   const struct build_args *b)
{
	struct twz_error err = { { 0 }, 0 };
	struct twz_junction_db db;
	int rc = 0;

	if (twz_bake_junctions(grid, &b->opt, &db, &err) != 0)
		return twz_cli_error(&err);
	if (twz_junctions_write(&db, grid, &b->opt, b->out, &err) != 0)
		rc = twz_cli_error(&err);
	else if (!b->quiet)
		fprintf(stderr, "twigz: baked %s -> %s (junctions): %u nodes, %u regions, "
			"%u junctions, %u links over %u chain cells, %" PRIu64
			" runs, %" PRIu64 " link runs, searches %.2fs\n",
			b->level, b->out, db.graph.node_count,
			db.graph.component_count, db.junction_count, db.link_count,
			db.graph.node_count - db.junction_count, db.run_count,
			db.link_run_count, db.seconds);
	twz_junction_db_free(&db);
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
	if (!b->shard && twz_transit_stream_needed(grid, opt, topt)) {
		struct twz_transit_stream_result res;
		if (twz_transit_bake_streamed(grid, opt, topt, b->out, &res, &err) != 0)
			return twz_cli_error(&err);
		if (!b->quiet)
			fprintf(stderr, "twigz: baked %s -> %s (transit) under --memory-limit "
				"%.0fM: %u nodes, %u regions, %u transit nodes, %" PRIu64
				" local runs, %s; %.2fs, %.1fM through a temporary file\n",
				opt->name, b->out, opt->max_memory / 1048576.0,
				res.node_count, res.component_count, res.transit_count,
				res.run_count, res.access ? "access nodes" : "block lists",
				res.seconds, res.spool_bytes / 1048576.0);
		return 0;
	}
	if ((b->shard ? twz_bake_transit_shard(grid, opt, topt, b->shard, b->shards,
					       &db, &err)
		      : twz_bake_transit(grid, opt, topt, &db, &err)) != 0)
		return twz_cli_error(&err);
	if ((b->shard ? twz_shard_transit_write(&db, grid, topt, b->level, opt,
						b->shard, b->shards, b->out, &err)
		      : twz_transit_write(&db, grid, opt, b->out, &err)) != 0) {
		rc = twz_cli_error(&err);
		goto out;
	}
	if (!b->quiet && b->shard) {
		struct twz_transit_range r;
		twz_transit_shard_range(&db, b->shard, b->shards, &r);
		fprintf(stderr, "twigz: baked shard %u of %u of %s -> %s (transit): "
			"blocks [%u, %u) of %u, table rows [%u, %u) of %u; "
			"selection %.2fs, local rows %.2fs, table %.2fs\n",
			b->shard, b->shards, b->level, b->out, r.block_lo, r.block_hi,
			db.graph.cols * db.graph.rows, r.table_lo, r.table_hi,
			db.transit_count, db.select_seconds, db.local_seconds,
			db.table_seconds);
	} else if (!b->quiet) {
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
	b.opt.forecast = !b.quiet;  /* how long, before the searches */
	if (twz_navmesh_is_obj_path(b.level)) {
		b.opt.name = b.level;
		b.opt.progress = !b.quiet && isatty(STDERR_FILENO);
		return twz_navmesh_build_cmd(b.level, b.costs, b.out, &b.opt, b.quiet);
	}
	if (twz_cli_is_graph_level(b.level)) {
		b.opt.name = b.level;
		b.opt.progress = !b.quiet && isatty(STDERR_FILENO);
		return twz_graph_build_cmd(b.level, b.coords, b.links, b.out, &b.opt,
					   b.quiet);
	}
	if (b.mpi) {
		b.opt.name = b.level;
		b.opt.progress = !b.quiet && isatty(STDERR_FILENO);
		return twz_build_mpi(b.level, &b.opt, b.transit ? &b.topt : NULL,
				     b.out, b.quiet);
	}
	struct twz_cost_table table;
	struct twz_level_costs costs;
	uint8_t *letters = NULL;
	memset(&costs, 0, sizeof costs);
	if (b.costs && twz_cost_table_load(b.costs, &table, &err) != 0)
		return twz_cli_error(&err);
	if (twz_grid_load_letters(b.level, &grid, b.costs ? &letters : NULL, &err) != 0)
		return twz_cli_error(&err);
	if (b.costs) {
		rc = twz_grid_costs(&grid, letters, &table, b.costs, &costs, &err);
		free(letters);
		if (rc != 0) {
			twz_grid_free(&grid);
			return twz_cli_error(&err);
		}
		b.opt.cell_milli = costs.place_milli;
		b.opt.costs = &costs;
	}
	b.opt.name = b.level;
	b.opt.progress = !b.quiet && isatty(STDERR_FILENO);
	for (unsigned i = 0; i < b.agents.count; i++)
		b.opt.agent_sizes |= 1u << b.agents.sizes[i];
	/* Size 1 alone is the plain file, byte for byte. */
	if (b.agents.count && !(b.agents.count == 1 && b.agents.sizes[0] == 1))
		rc = build_agents(&grid, &b);
	else if (b.opt.junctions)
		rc = build_junctions(&grid, &b);
	else
		rc = b.transit ? build_transit(&grid, &b) : build_cpd(&grid, &b);
	twz_grid_free(&grid);
	twz_level_costs_free(&costs);
	return rc;
}
