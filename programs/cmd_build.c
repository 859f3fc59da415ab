/*
 * cmd_build.c - `twigz build LEVEL -o OUT.twz [options]`: reads the words
 * (build_args.c), hands the level to the bake's front door
 * (precompute/bake_level.h) or, with --mpi, to the ranks of an MPI job,
 * and prints the summary of what it made.
 */
#include <stdio.h>
#include <unistd.h>

#include "bake_level.h"
#include "build_args.h"
#include "build_mpi.h"
#include "cli_common.h"

int twz_cmd_build(int argc, char **argv)
{
	struct twz_error err = { { 0 }, 0 };
	struct twz_bake_report rep;
	struct twz_build_args b;
	int rc = twz_build_args_read(argc, argv, 1, &b);

	if (rc)
		return rc;
	const char *level = b.operand[0];
	if (!level)
		return twz_cli_usage("%s", "build needs a level file");
	if (!b.out)
		return twz_cli_usage("%s", "build needs -o OUT.twz");
	/* Before the bake, not after it. */
	if ((rc = twz_cli_check_output("-o", b.out)) != 0 ||
	    (rc = twz_build_args_check(&b, level)) != 0)
		return rc;
	b.opt.record_build = 1;     /* twigz info and twigz check read it */
	b.opt.forecast = !b.quiet;  /* how long, before the searches */
	b.opt.name = level;
	b.opt.progress = !b.quiet && isatty(STDERR_FILENO);
	if (b.mpi)
		return twz_build_mpi(level, &b.opt, b.out, b.quiet);
	if (twz_bake_file(level, &b.opt, b.out, &rep, &err) != 0)
		return twz_cli_error(&err);
	if (b.quiet)
		return 0;
	if (b.opt.shards)
		fprintf(stderr, "twigz: baked shard %u of %u of %s -> %s%s: %s\n",
			b.opt.shard, b.opt.shards, level, b.out, rep.what, rep.summary);
	else if (rep.streamed)
		fprintf(stderr, "twigz: baked %s -> %s%s under --memory-limit %.0fM: %s\n",
			level, b.out, rep.what, b.opt.max_memory / 1048576.0,
			rep.summary);
	else
		fprintf(stderr, "twigz: baked %s -> %s%s: %s\n", level, b.out, rep.what,
			rep.summary);
	return 0;
}
