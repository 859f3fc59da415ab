/*
 * build_args.c - the words of `twigz build` (build_args.h).
 */
#include "build_args.h"

#include <string.h>

#include "agent_sizes.h"
#include "apsp_dense.h"
#include "bake_level.h"
#include "cli_common.h"
#include "shard.h"
#include "twz_format.h"

static const char *const formats[] = { "1.0", "1.1", "1.2", "1.4", NULL };
static const unsigned format_layout[] = {
	TWZ_LAYOUT_PLAIN, TWZ_LAYOUT_BUCKETED, TWZ_LAYOUT_NARROW,
	TWZ_LAYOUT_INLINE
};
static const char *const methods[] = { "cpd", "transit", NULL };
static const char *const codecs[] = { "zstd", "raw", NULL };
static const unsigned codec_id[] = { TWZ_CODEC_ZSTD, TWZ_CODEC_RAW };
/* In TWZ_APSP_* order. */
static const char *const apsp_solvers[] = { "dijkstra", "floyd", "squaring", "lines", NULL };

/* --method: its own message for an unknown method. */
static void method_option(struct twz_cli_args *ar, const char *a,
			  struct twz_bake_options *opt)
{
	const char *val = twz_cli_value(ar, a, "cpd or transit");

	if (!val)
		return;
	if (strcmp(val, methods[0]) && strcmp(val, methods[1]))
		ar->status = twz_cli_usage("unknown --method '%s' (this version builds: cpd, transit)",
					   val);
	else if (!strcmp(val, "transit") && opt->method == TWZ_BAKE_JUNCTIONS)
		ar->status = twz_cli_usage("%s", "--junctions bakes --method cpd only (TRANSIT has no junction graph)");
	else if (opt->method != TWZ_BAKE_JUNCTIONS)
		opt->method = strcmp(val, "cpd") ? TWZ_BAKE_TRANSIT : TWZ_BAKE_CPD;
}

/* --agent-sizes 1,2,3: the sizes as bits. */
static void agent_sizes_option(struct twz_cli_args *ar, const char *a,
			       struct twz_bake_options *opt)
{
	struct twz_error err = { { 0 }, 0 };
	struct twz_agent_request req;
	const char *val = twz_cli_value(ar, a, "a list of agent sizes such as 1,2,3");

	if (!val)
		return;
	if (twz_agent_sizes_parse(val, &req, &err) != 0) {
		ar->status = twz_cli_usage("%s", err.msg);
		return;
	}
	opt->agent_sizes = 0;
	for (unsigned i = 0; i < req.count; i++)
		opt->agent_sizes |= 1u << req.sizes[i];
}

/* --shard I/N. */
static void shard_option(struct twz_cli_args *ar, const char *a,
			 struct twz_bake_options *opt)
{
	const char *val = twz_cli_value(ar, a, "I/N, shard I of N");

	if (!val)
		return;
	if (twz_shard_parse(val, &opt->shard, &opt->shards) != 0)
		twz_cli_bad_value(ar, a, "I/N, shard I of N (1 <= I <= N <= 65536)",
				  val);
	else if (opt->shard > opt->shards)
		ar->status = twz_cli_usage("--shard %s: shard I of N needs I from 1 to N",
					   val);
}

/* --connectivity 8|4. */
static void connectivity_option(struct twz_cli_args *ar, const char *a,
				struct twz_bake_options *opt)
{
	long v = twz_cli_number(ar, a, 4, 8, "8 or 4");

	if (v != 4 && v != 8)
		twz_cli_bad_value(ar, a, "8 or 4", ar->argv[ar->next - 1]);
	opt->connectivity = (unsigned)v;
}

/* An option of the bake's own (all but -o, --mpi and --quiet): 0 when a
 * is none. */
static int bake_option(struct twz_cli_args *ar, const char *a,
		       struct twz_bake_options *opt)
{
	if (!strcmp(a, "--method"))
		method_option(ar, a, opt);
	else if (!strcmp(a, "--junctions") && opt->method == TWZ_BAKE_TRANSIT)
		ar->status = twz_cli_usage("%s", "--junctions bakes --method cpd only (TRANSIT has no junction graph)");
	else if (!strcmp(a, "--junctions"))
		opt->method = TWZ_BAKE_JUNCTIONS;
	else if (!strcmp(a, "--transit-grid"))
		opt->transit.grid = (unsigned)twz_cli_number(ar, a, 1, TWZ_MAX_SIDE,
			"a number of blocks from 1 to 16384");
	else if (!strcmp(a, "--transit-inner"))
		opt->transit.inner = (unsigned)twz_cli_number(ar, a, 1, 64,
			"a radius in blocks from 1 to 64");
	else if (!strcmp(a, "--transit-outer"))
		opt->transit.outer = (unsigned)twz_cli_number(ar, a, 2, 128,
			"a radius in blocks from 2 to 128");
	else if (!strcmp(a, "--threads"))
		opt->threads = (unsigned)twz_cli_number(ar, a, 1, 1024,
			"a number from 1 to 1024");
	else if (!strcmp(a, "--format"))
		opt->layout = format_layout[twz_cli_choice(ar, a, formats,
			"1.0, 1.1, 1.2 or 1.4")];
	else if (!strcmp(a, "--codec"))
		opt->codec = codec_id[twz_cli_choice(ar, a, codecs, "zstd or raw")];
	else if (!strcmp(a, "--level"))
		opt->level = (int)twz_cli_number(ar, a, 1, 22,
			"a zstd level from 1 to 22");
	else if (!strcmp(a, "--connectivity"))
		connectivity_option(ar, a, opt);
	else if (!strcmp(a, "--max-nodes"))
		opt->max_nodes = (uint32_t)twz_cli_number(ar, a, 1, TWZ_MAX_NODES,
			"a number from 1 to 67108864");
	else if (!strcmp(a, "--max-seconds"))
		opt->max_seconds = (double)twz_cli_number(ar, a, 1, 1000000000,
			"a number of seconds from 1 to 1000000000");
	else if (!strcmp(a, "--memory-limit"))
		opt->max_memory = twz_cli_bytes(ar, a, (uint64_t)1 << 20, UINT64_MAX,
			"a size such as 512M or 2G (at least 1M)");
	else if (!strcmp(a, "--agent-sizes"))
		agent_sizes_option(ar, a, opt);
	else if (!strcmp(a, "--shard"))
		shard_option(ar, a, opt);
	else if (!strcmp(a, "--apsp"))
		opt->apsp = (unsigned)twz_cli_choice(ar, a, apsp_solvers,
			"dijkstra, floyd, squaring or lines");
	else if (!strcmp(a, "--coords"))
		opt->coords = twz_cli_value(ar, a, "a DIMACS .co file");
	else if (!strcmp(a, "--links"))
		opt->links = twz_cli_value(ar, a,
			"a file of 'FROM TO COST oneway|both' lines");
	else if (!strcmp(a, "--costs"))
		opt->costs_file = twz_cli_value(ar, a, "a file of 'AREA COST' lines");
	else if (!strcmp(a, "--chunk"))
		opt->chunk = twz_cli_bytes(ar, a, TWZ_CHUNK_MIN_TARGET,
			TWZ_CHUNK_MAX_RAW / 2,
			"a chunk size from 4K to 512M (such as 256K)");
	else
		return 0;
	return 1;
}

int twz_build_args_read(int argc, char **argv, unsigned operands,
			struct twz_build_args *b)
{
	struct twz_cli_args ar = TWZ_CLI_ARGS(argc, argv);
	const char *a;

	memset(b, 0, sizeof *b);
	twz_bake_options_default(&b->opt);
	while ((a = twz_cli_next(&ar))) {
		if (!strcmp(a, "-o") || !strcmp(a, "--output"))
			b->out = twz_cli_value(&ar, a, "a file name");
		else if (!strcmp(a, "--mpi"))
			b->mpi = 1;
		else if (!strcmp(a, "--quiet") || !strcmp(a, "-q"))
			b->quiet = 1;
		else if (!bake_option(&ar, a, &b->opt))
			twz_cli_operand(&ar, a, b->operand, (int)operands);
	}
	if (ar.status)
		return ar.status;
	/* TRANSIT: --format 1.1 keeps the block lists, --format 1.4 the
	 * access nodes; else the smaller of the two. */
	b->opt.transit_far = twz_transit_far_of(b->opt.layout);
	b->format_given = b->opt.layout != 0;
	return 0;
}

int twz_build_args_check(const struct twz_build_args *b, const char *path)
{
	struct twz_bake_options opt = b->opt;
	const char *why;

	if (b->mpi && opt.shards)
		return twz_cli_usage("%s", "--mpi makes each rank a shard: not with --shard");
	/* Every rank of an MPI job bakes one shard. */
	if (b->mpi)
		opt.shards = 1;
	why = twz_bake_refusal(&opt, twz_level_kind_of(path));
	return why ? twz_cli_usage("%s", why) : 0;
}
