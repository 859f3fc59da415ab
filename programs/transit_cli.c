/*
 * transit_cli.c - `twigz build --method transit`: its options and the
 * bake, write and summary (twigz_main.c parses the common options).
 */
#include "transit_cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli_common.h"

int twz_transit_parse_option(const char *a, const char *val,
			     struct twz_transit_options *topt, int *used)
{
	long v;

	*used = 0;
	if (!strcmp(a, "--transit-grid")) {
		if (!val || twz_cli_parse_int(val, 1, TWZ_MAX_SIDE, &v))
			return twz_cli_usage("--transit-grid needs a number of blocks from 1 to 16384, not '%s'",
					     val ? val : "");
		topt->grid = (unsigned)v;
	} else if (!strcmp(a, "--transit-inner")) {
		if (!val || twz_cli_parse_int(val, 1, 64, &v))
			return twz_cli_usage("--transit-inner needs a radius in blocks from 1 to 64, not '%s'",
					     val ? val : "");
		topt->inner = (unsigned)v;
	} else if (!strcmp(a, "--transit-outer")) {
		if (!val || twz_cli_parse_int(val, 2, 128, &v))
			return twz_cli_usage("--transit-outer needs a radius in blocks from 2 to 128, not '%s'",
					     val ? val : "");
		topt->outer = (unsigned)v;
	} else {
		return 0;
	}
	*used = 1;
	return 0;
}

int twz_transit_build_cmd(const struct twz_grid *grid,
			  const struct twz_bake_options *opt,
			  const struct twz_transit_options *topt,
			  const char *out, int quiet)
{
	struct twz_error err = { { 0 }, 0 };
	struct twz_transit_db db;

	if (opt->max_nodes) {
		uint64_t nodes = 0;
		for (uint64_t c = 0; c < (uint64_t)grid->width * grid->height; c++)
			nodes += grid->walkable[c] != 0;
		if (nodes > opt->max_nodes) {
			fprintf(stderr, "twigz: %s: %" PRIu64 " walkable cells exceed --max-nodes %u\n",
				opt->name, nodes, opt->max_nodes);
			return EXIT_INPUT;
		}
	}
	if (opt->layout == TWZ_LAYOUT_PLAIN)
		return twz_cli_usage("%s", "--method transit writes format 1.1, not --format 1.0");
	if (topt->inner && topt->outer && topt->outer < 2 * topt->inner)
		return twz_cli_usage("--transit-outer must be at least twice --transit-inner%s", "");
	if (twz_bake_transit(grid, opt, topt, &db, &err) != 0)
		return twz_cli_error(&err);
	int rc = 0;
	if (twz_transit_write(&db, grid, opt, out, &err) != 0) {
		rc = twz_cli_error(&err);
		goto out;
	}
	if (!quiet) {
		const struct twz_transit_graph *tg = &db.graph;
		fprintf(stderr, "twigz: baked %s -> %s (transit): %u nodes, %u regions, "
			"%ux%u blocks of %u, %u transit nodes (at most %u a block), "
			"%" PRIu64 " local runs; selection %.2fs, local rows %.2fs, "
			"table %.2fs\n",
			opt->name, out, tg->node_count, tg->component_count, tg->cols,
			tg->rows, tg->side, db.transit_count, db.max_block_transits,
			db.run_count, db.select_seconds, db.local_seconds,
			db.table_seconds);
	}
out:
	twz_transit_db_free(&db);
	return rc;
}
