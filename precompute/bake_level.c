/*
 * bake_level.c - the bake's front door (bake_level.h): the level read by
 * its kind, the options refused or accepted once, then one method on one
 * road, and the summary of what it made.
 */
#include "bake_level.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_sizes.h"
#include "apsp_dense.h"
#include "bake_graph.h"
#include "bake_navmesh.h"
#include "junctions.h"
#include "level_graph.h"
#include "level_map.h"
#include "level_navmesh.h"
#include "shard.h"
#include "spool.h"
#include "transit.h"
#include "twz_format.h"

/* Whether path ends in ext (a dot and lower-case letters), any case. */
static int has_extension(const char *path, const char *ext)
{
	size_t n = strlen(path), e = strlen(ext);

	if (n <= e)
		return 0;
	for (size_t i = 0; i < e; i++)
		if (tolower((unsigned char)path[n - e + i]) != ext[i])
			return 0;
	return 1;
}

unsigned twz_level_kind_of(const char *path)
{
	if (has_extension(path, ".gr"))
		return TWZ_LEVEL_GRAPH;
	if (has_extension(path, ".obj"))
		return TWZ_LEVEL_NAVMESH;
	return TWZ_LEVEL_GRID;
}

/* Agent sizes asked beyond the plain file (size 1 alone is the plain
 * file, byte for byte). */
static int several_sizes(const struct twz_bake_options *opt)
{
	return (opt->agent_sizes & ~(uint32_t)2) != 0;
}

const char *twz_bake_refusal(const struct twz_bake_options *opt,
			     unsigned kind)
{
	int transit = opt->method == TWZ_BAKE_TRANSIT;
	int junctions = opt->method == TWZ_BAKE_JUNCTIONS;
	int sharded = opt->shards != 0;
	const struct twz_transit_options *t = &opt->transit;

	if ((t->grid || t->inner || t->outer) && !transit)
		return "--transit-* options need --method transit";
	if (sharded && several_sizes(opt))
		return "--shard and --mpi bake one agent size: not with --agent-sizes";
	if (opt->chunk && opt->codec != TWZ_CODEC_ZSTD)
		return "--chunk stores zstd chunks: not with --codec raw";
	if (opt->apsp != TWZ_APSP_DIJKSTRA && transit)
		return "--apsp is for --method cpd";
	if (kind != TWZ_LEVEL_GRID &&
	    (transit || sharded || opt->agent_sizes || junctions))
		return "a graph (.gr) or navmesh (.obj) level bakes with --method cpd, "
		       "without --shard, --mpi, --agent-sizes or --junctions";
	if (kind != TWZ_LEVEL_GRID &&
	    (opt->connectivity != 8 ||
	     (opt->layout && opt->layout != TWZ_LAYOUT_NARROW)))
		return "--connectivity and --format are a grid's: a graph's or "
		       "navmesh's arcs are its links";
	if (opt->coords && kind != TWZ_LEVEL_GRAPH)
		return "--coords goes with a graph level (.gr)";
	if (junctions) {
		if (several_sizes(opt))
			return "--junctions bakes one agent size: not with --agent-sizes";
		if (sharded)
			return "--junctions bakes on one machine: not with --shard or --mpi";
		if (opt->layout)
			return "--junctions writes format 1.4: not with --format";
		if (opt->apsp != TWZ_APSP_DIJKSTRA)
			return "--junctions searches the junction graph: --apsp dijkstra only";
	}
	if (transit && opt->layout == TWZ_LAYOUT_PLAIN)
		return "--method transit writes format 1.1, not --format 1.0";
	if (transit && t->inner && t->outer && t->outer < 2 * t->inner)
		return "--transit-outer must be at least twice --transit-inner";
	return NULL;
}

/* ---- the summary ----------------------------------------------------- */

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void say(struct twz_bake_report *rep, const char *fmt, ...)
{
	va_list ap;

	if (!rep)
		return;
	va_start(ap, fmt);
	twz_text_vput(&rep->text, fmt, ap);
	va_end(ap);
}

static void name_it(struct twz_bake_report *rep, const char *what)
{
	if (rep)
		snprintf(rep->what, sizeof rep->what, "%s", what);
}

/* ---- each method on its road ----------------------------------------- */

static int bake_cpd(const struct twz_grid *g, const struct twz_bake_options *opt,
		    const char *level, const char *out,
		    struct twz_bake_report *rep, struct twz_error *err)
{
	struct twz_spool spool = { .fd = -1 };
	struct twz_spool *sp = NULL;
	struct twz_cpd cpd;
	int rc;

	if (!opt->shards && twz_cpd_spool_wanted(g, opt)) {
		if (twz_spool_open(&spool, out, err) != 0)
			return -1;
		sp = &spool;
	}
	if ((opt->shards ? twz_bake_cpd_shard(g, opt, opt->shard, opt->shards, &cpd, err)
			 : twz_bake_cpd_spooled(g, opt, sp, &cpd, err)) != 0) {
		twz_spool_close(&spool);
		return -1;
	}
	rc = opt->shards ? twz_shard_write(&cpd, g, level, opt, opt->shard, opt->shards,
					   out, err)
			 : twz_cpd_write(&cpd, g, opt, out, err);
	double pairs = (double)cpd.graph.node_count * cpd.graph.node_count;
	if (rc == 0 && opt->shards) {
		uint32_t first, end;
		twz_shard_range(&cpd.graph, opt->shard, opt->shards, &first, &end);
		say(rep, "sources [%u, %u) of %u, %" PRIu64 " runs, searches %.2fs",
		    first, end, cpd.graph.node_count,
		    (uint64_t)cpd.row_offsets[end] - cpd.row_offsets[first], cpd.seconds);
	} else if (rc == 0) {
		say(rep, "%u nodes, %u regions, %" PRIu64 " runs (%.2f bits per pair), "
		    "searches %.2fs (%.1fM pairs/s)", cpd.graph.node_count,
		    cpd.graph.component_count, cpd.run_count,
		    pairs > 0 ? cpd.run_count * 32.0 / pairs : 0.0, cpd.seconds,
		    cpd.seconds > 0 ? pairs / cpd.seconds / 1e6 : 0.0);
		if (sp)
			say(rep, ", %.1fM through a temporary file", spool.peak / 1048576.0);
	}
	if (rep)
		rep->streamed = sp != NULL;
	twz_cpd_free(&cpd);
	twz_spool_close(&spool);
	return rc;
}

static int bake_transit(const struct twz_grid *g,
			const struct twz_bake_options *opt, const char *level,
			const char *out, struct twz_bake_report *rep,
			struct twz_error *err)
{
	const struct twz_transit_options *topt = &opt->transit;
	struct twz_spool spool = { .fd = -1 };
	struct twz_spool *sp = NULL;
	struct twz_transit_db db;
	int rc;

	name_it(rep, " (transit)");
	if (!opt->shards && twz_transit_spool_wanted(g, opt, topt)) {
		if (twz_spool_open(&spool, out, err) != 0)
			return -1;
		sp = &spool;
	}
	if ((opt->shards ? twz_bake_transit_shard(g, opt, topt, opt->shard,
						  opt->shards, &db, err)
			 : twz_bake_transit_spooled(g, opt, topt, sp, &db, err)) != 0) {
		twz_spool_close(&spool);
		return -1;
	}
	rc = opt->shards ? twz_shard_transit_write(&db, g, topt, level, opt, opt->shard,
						   opt->shards, out, err)
			 : twz_transit_write(&db, g, opt, out, err);
	const struct twz_graph *tg = &db.graph;
	if (rc == 0 && opt->shards) {
		struct twz_transit_range r;
		twz_transit_shard_range(&db, opt->shard, opt->shards, &r);
		say(rep, "blocks [%u, %u) of %u, table rows [%u, %u) of %u; "
		    "selection %.2fs, local rows %.2fs, table %.2fs",
		    r.block_lo, r.block_hi, tg->cols * tg->rows, r.table_lo,
		    r.table_hi, db.transit_count, db.select_seconds,
		    db.local_seconds, db.table_seconds);
	} else if (rc == 0) {
		say(rep, "%u nodes, %u regions, %ux%u blocks of %u, %u transit nodes "
		    "(at most %u a block), %" PRIu64 " local runs; selection %.2fs, "
		    "local rows %.2fs, table %.2fs", tg->node_count,
		    tg->component_count, tg->cols, tg->rows, tg->side,
		    db.transit_count, db.max_block_transits, db.run_count,
		    db.select_seconds, db.local_seconds, db.table_seconds);
		if (sp)
			say(rep, "; %.1fM through a temporary file", spool.peak / 1048576.0);
		if (twz_transit_access_fits(&db))
			say(rep, "\ntwigz: access nodes: %.2f a node on average, "
			    "at most %u; %u transit nodes in the table; %.2fs",
			    tg->node_count ? (double)db.access_count / tg->node_count : 0.0,
			    db.max_access, db.access_transits, db.access_seconds);
		else if (db.access_count)
			say(rep, "\ntwigz: access nodes: %.2f a node on average, "
			    "at most %u: no smaller in memory than the block "
			    "lists, written as format 1.1",
			    tg->node_count ? (double)db.access_count / tg->node_count : 0.0,
			    db.max_access);
	}
	if (rep)
		rep->streamed = sp != NULL;
	twz_transit_db_free(&db);
	twz_spool_close(&spool);
	return rc;
}

static int bake_junctions(const struct twz_grid *g,
			  const struct twz_bake_options *opt, const char *out,
			  struct twz_bake_report *rep, struct twz_error *err)
{
	struct twz_junction_db db;
	int rc;

	name_it(rep, " (junctions)");
	if (twz_bake_junctions(g, opt, &db, err) != 0)
		return -1;
	rc = twz_junctions_write(&db, g, opt, out, err);
	if (rc == 0)
		say(rep, "%u nodes, %u regions, %u junctions, %u links over %u chain "
		    "cells, %" PRIu64 " runs, %" PRIu64 " link runs, searches %.2fs",
		    db.graph.node_count, db.graph.component_count, db.junction_count,
		    db.link_count, db.graph.node_count - db.junction_count,
		    db.run_count, db.link_run_count, db.seconds);
	twz_junction_db_free(&db);
	return rc;
}

static int bake_agents(const struct twz_grid *g,
		       const struct twz_bake_options *opt, const char *out,
		       struct twz_bake_report *rep, struct twz_error *err)
{
	struct twz_agent_request req;
	struct twz_agent_result res;
	int transit = opt->method == TWZ_BAKE_TRANSIT;

	memset(&req, 0, sizeof req);
	for (unsigned k = 1; k <= TWZ_MAX_AGENT_SIZE; k++)
		if (opt->agent_sizes & (1u << k))
			req.sizes[req.count++] = k;
	req.topt = transit ? &opt->transit : NULL;
	name_it(rep, transit ? " (transit)" : "");
	if (twz_agent_write(g, opt, &req, out, &res, err) != 0)
		return -1;
	say(rep, "%u agent size%s in %u layer%s", req.count,
	    req.count == 1 ? "" : "s", res.layer_count,
	    res.layer_count == 1 ? "" : "s");
	for (unsigned l = 0; l < res.layer_count; l++) {
		const struct twz_agent_layer *ly = &res.layer[l];
		char sizes[32];
		if (ly->first_size == ly->last_size)
			snprintf(sizes, sizeof sizes, "size %u", ly->first_size);
		else
			snprintf(sizes, sizeof sizes, "sizes %u-%u", ly->first_size,
				 ly->last_size);
		say(rep, "\n  %-12s %u nodes, %u region%s, %" PRIu64 " runs, %.2fs",
		    sizes, ly->node_count, ly->component_count,
		    ly->component_count == 1 ? "" : "s", ly->run_count, ly->seconds);
	}
	return 0;
}

static int bake_grid(const char *path, const struct twz_bake_options *opt,
		     const char *out, struct twz_bake_report *rep,
		     struct twz_error *err)
{
	struct twz_grid g;
	int rc;

	if (twz_grid_load(path, &g, err) != 0)
		return -1;
	if (several_sizes(opt))
		rc = bake_agents(&g, opt, out, rep, err);
	else if (opt->method == TWZ_BAKE_JUNCTIONS)
		rc = bake_junctions(&g, opt, out, rep, err);
	else if (opt->method == TWZ_BAKE_TRANSIT)
		rc = bake_transit(&g, opt, path, out, rep, err);
	else
		rc = bake_cpd(&g, opt, path, out, rep, err);
	twz_grid_free(&g);
	return rc;
}

/* A graph or navmesh level: read, baked over its graph, and the figures
 * of its summary from the file written. */
static int bake_graph_level(const char *path, unsigned kind,
			    const struct twz_bake_options *opt, const char *out,
			    struct twz_bake_report *rep, struct twz_error *err)
{
	int navmesh = kind == TWZ_LEVEL_NAVMESH;
	double started = twz_now_seconds();
	struct twz_graph g;
	struct twz_navmesh m;
	twz_db *db;
	twz_info in;
	int rc = -1;

	name_it(rep, navmesh ? " (navmesh)" : " (graph)");
	if (navmesh) {
		if (twz_navmesh_load(path, &m, err) != 0)
			return -1;
		rc = twz_bake_navmesh(&m, opt, out, NULL, NULL, err);
	} else {
		if (twz_graph_load(path, &g, err) != 0)
			return -1;
		if (!opt->coords || twz_coords_load(opt->coords, &g, err) == 0)
			rc = twz_bake_graph(&g, NULL, opt, out, err);
	}
	if (rc == 0 && rep && twz_open(out, 0, &db) == TWZ_OK) {
		double seconds = twz_now_seconds() - started;
		twz_get_info(db, &in);
		if (navmesh)
			say(rep, "%u polygons, %u portals, %u regions, %" PRIu64 " runs, %"
			    PRIu64 " bytes, %.2fs", in.node_count, m.arc_count / 2,
			    in.component_count, in.run_count, in.file_size, seconds);
		else
			say(rep, "%u nodes, %" PRIu64 " arcs, %u regions, %" PRIu64
			    " runs, %" PRIu64 " bytes, %.2fs", in.node_count,
			    in.arc_count, in.component_count, in.run_count,
			    in.file_size, seconds);
		twz_close(db);
	}
	if (navmesh)
		twz_navmesh_free(&m);
	else
		twz_graph_free(&g);
	return rc;
}

int twz_bake_file(const char *path, const struct twz_bake_options *opt,
		  const char *out, struct twz_bake_report *rep,
		  struct twz_error *err)
{
	unsigned kind = twz_level_kind_of(path);
	const char *why = twz_bake_refusal(opt, kind);

	if (rep) {
		memset(rep, 0, sizeof *rep);
		rep->text = (struct twz_text){ rep->summary, sizeof rep->summary, 0, 0 };
	}
	if (why) {
		twz_error_kind_set(err, TWZ_ERR_USAGE, "%s", why);
		return -1;
	}
	if (kind != TWZ_LEVEL_GRID)
		return bake_graph_level(path, kind, opt, out, rep, err);
	return bake_grid(path, opt, out, rep, err);
}

int twz_bake_part(const uint8_t *level, size_t level_len, const char *name,
		  const struct twz_bake_options *opt, uint8_t **part,
		  size_t *part_len, struct twz_error *err)
{
	const char *why = twz_bake_refusal(opt, TWZ_LEVEL_GRID);
	struct twz_grid g;
	int rc = -1;

	if (why) {
		twz_error_kind_set(err, TWZ_ERR_USAGE, "%s", why);
		return -1;
	}
	if (twz_grid_parse(level, level_len, name, &g, err) != 0)
		return -1;
	if (opt->method == TWZ_BAKE_TRANSIT) {
		struct twz_transit_db db;
		if (twz_bake_transit_shard(&g, opt, &opt->transit, opt->shard,
					   opt->shards, &db, err) == 0) {
			rc = twz_shard_transit_encode(&db, &g, &opt->transit, level,
						      level_len, opt, opt->shard,
						      opt->shards, part, part_len, err);
			twz_transit_db_free(&db);
		}
	} else {
		struct twz_cpd cpd;
		if (twz_bake_cpd_shard(&g, opt, opt->shard, opt->shards, &cpd, err) == 0) {
			rc = twz_shard_encode(&cpd, &g, level, level_len, opt, opt->shard,
					      opt->shards, part, part_len, err);
			twz_cpd_free(&cpd);
		}
	}
	twz_grid_free(&g);
	return rc;
}
