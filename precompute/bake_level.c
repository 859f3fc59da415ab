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
#include "bake_method.h"
#include "file_read.h"
#include "apsp_dense.h"
#include "bake_graph.h"
#include "bake_navmesh.h"
#include "junctions.h"
#include "level_costs.h"
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
	if (opt->chunk && opt->codec != TWZ_CODEC_ZSTD)
		return "--chunk stores zstd chunks: not with --codec raw";
	if (opt->apsp != TWZ_APSP_DIJKSTRA && transit)
		return "--apsp is for --method cpd";
	/* Its rows come a box at a time, all in memory, and the forecast
	 * samples searches a source, not its work. */
	if (opt->apsp == TWZ_APSP_LINES &&
	    (sharded || opt->max_memory || opt->max_seconds > 0 ||
	     kind != TWZ_LEVEL_GRID))
		return "--apsp lines bakes a grid level in memory: not with --shard, "
		       "--mpi, --memory-limit, --max-seconds, a graph or a navmesh";
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
	/* A grid's rows hold moves to adjacent cells and a navmesh's
	 * corridors cross shared edges: neither can name a link yet
	 * (FORMAT.md 5l). */
	if (opt->links && kind != TWZ_LEVEL_GRAPH)
		return "--links goes with a graph level (.gr)";
	/* A TRANSIT table, a junction link and a dense solver's matrix hold
	 * move counts; the spool and shards do not carry the areas'
	 * sections yet. */
	if (opt->costs_file && (transit || junctions || sharded ||
				opt->apsp != TWZ_APSP_DIJKSTRA || opt->max_memory ||
				kind == TWZ_LEVEL_GRAPH))
		return "--costs bakes a grid or a navmesh with --method cpd in memory: "
		       "not with --method transit, --junctions, --apsp, --memory-limit, "
		       "--shard, --mpi or a graph (.gr)";
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

static void report_start(struct twz_bake_report *rep)
{
	memset(rep, 0, sizeof *rep);
	rep->text = (struct twz_text){ rep->summary, sizeof rep->summary, 0, 0 };
}

static void name_it(struct twz_bake_report *rep, const char *what)
{
	if (rep)
		snprintf(rep->what, sizeof rep->what, "%s", what);
}

/* ---- each method on its road ----------------------------------------- */

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

/* Whether a bake of ly's layers through m goes through the spool:
 * asked, or the estimate of every layer in memory together exceeds
 * --memory-limit. */
static int spool_wanted(const struct twz_bake_method *m,
			const struct twz_layers *ly,
			const struct twz_bake_options *opt)
{
	uint64_t need = 0;

	if (opt->spool == TWZ_SPOOL_ALWAYS)
		return 1;
	if (!opt->max_memory || opt->max_nodes)
		return 0;
	for (unsigned l = 0; l < ly->count; l++) {
		const struct twz_grid *g = &ly->grid[l];
		uint64_t cells = (uint64_t)g->width * g->height, nodes = 0;
		for (uint64_t c = 0; c < cells; c++)
			nodes += g->walkable[c] != 0;
		need += m->estimate(g, nodes, opt, 0);
	}
	return need > opt->max_memory;
}

/* The summary of a layered file: a line for each layer. */
static void say_layers(struct twz_bake_report *rep, const struct twz_layers *ly)
{
	const struct twz_agent_result *res = &ly->res;

	say(rep, "%u agent size%s in %u layer%s", ly->req.count,
	    ly->req.count == 1 ? "" : "s", res->layer_count,
	    res->layer_count == 1 ? "" : "s");
	for (unsigned l = 0; l < res->layer_count; l++) {
		const struct twz_agent_layer *li = &res->layer[l];
		uint64_t runs;
		double seconds;
		char sizes[32];
		ly->m->counts(ly->db[l], &runs, &seconds);
		if (li->first_size == li->last_size)
			snprintf(sizes, sizeof sizes, "size %u", li->first_size);
		else
			snprintf(sizes, sizeof sizes, "sizes %u-%u", li->first_size,
				 li->last_size);
		say(rep, "\n  %-12s %u nodes, %u region%s, %" PRIu64 " runs, %.2fs",
		    sizes, li->node_count, li->component_count,
		    li->component_count == 1 ? "" : "s", runs, seconds);
	}
}

/*
 * A grid level baked by its method: every layer (one, without agent
 * sizes) prepared and baked, through the spool when the bake wants it
 * (near names a file beside which it lies), then laid into one file at
 * sink, or, for a shard (opt->shards), the shard's results of every
 * layer into its partial file, which carries level, the level file's
 * bytes. 0, or -1 with err set.
 */
static int bake_layers(const struct twz_grid *g, const uint8_t *level,
		       size_t level_len, const struct twz_bake_options *opt,
		       const char *near, const struct twz_sink *sink,
		       struct twz_bake_report *rep, struct twz_error *err)
{
	const struct twz_bake_method *m = twz_bake_method_of(opt);
	unsigned index = opt->shards ? opt->shard : 1;
	unsigned count = opt->shards ? opt->shards : 1;
	struct twz_spool spool = { .fd = -1 };
	struct twz_spool *sp = NULL;
	struct twz_layers ly;
	int rc = -1;

	name_it(rep, m->what);
	if (twz_layers_make(g, opt, m, &ly, err) != 0)
		goto out;
	if (near && spool_wanted(m, &ly, opt)) {
		if (twz_spool_open(&spool, near, err) != 0)
			goto out;
		sp = &spool;
	}
	for (unsigned l = 0; l < ly.count; l++)
		if (twz_layer_prepare(&ly, l, sp, err) != 0 ||
		    m->bake(ly.db[l], &ly.opt[l], index, count, err) != 0 ||
		    (!opt->shards && m->finish(ly.db[l], &ly.opt[l], err) != 0))
			goto out;
	if (opt->shards ? twz_shard_write(&ly, level, level_len, opt, sink, err)
			: twz_layers_write(&ly, opt, sp, sink, err))
		goto out;
	if (rep) {
		rep->streamed = sp != NULL;
		rep->agents = ly.res;
		if (ly.layered)
			say_layers(rep, &ly);
		else
			m->summary(ly.db[0], opt->shard, opt->shards, &rep->text);
		if (sp)
			say(rep, "; %.1fM through a temporary file", spool.peak / 1048576.0);
	}
	rc = 0;
out:
	twz_layers_free(&ly);
	twz_spool_close(&spool);
	return rc;
}

int twz_bake_grid_encode(const struct twz_grid *g,
			 const struct twz_bake_options *opt, uint8_t **buf,
			 size_t *len, struct twz_bake_report *rep,
			 struct twz_error *err)
{
	struct twz_sink sink = { .buf = buf, .len = len };

	if (rep)
		report_start(rep);
	return bake_layers(g, NULL, 0, opt, NULL, &sink, rep, err);
}

static int bake_grid(const char *path, const struct twz_bake_options *opt,
		     const char *out, struct twz_bake_report *rep,
		     struct twz_error *err)
{
	struct twz_grid g;
	size_t len;
	uint8_t *bytes = twz_read_file(path, TWZ_MAX_LEVEL_BYTES, &len, err);
	int rc = -1;

	if (!bytes)
		return -1;
	struct twz_cost_table table;
	struct twz_level_costs costs;
	struct twz_bake_options o = *opt;
	uint8_t *letters = NULL;
	memset(&costs, 0, sizeof costs);
	if (opt->costs_file && twz_cost_table_load(opt->costs_file, &table, err) != 0) {
		free(bytes);
		return -1;
	}
	if (twz_grid_parse_letters(bytes, len, path, &g,
				   opt->costs_file ? &letters : NULL, err) == 0) {
		struct twz_sink sink = { .path = out };
		/* Areas (FORMAT.md 5k): the cells' costs for the rows. */
		if (opt->costs_file) {
			rc = twz_grid_costs(&g, letters, &table, opt->costs_file,
					    &costs, err);
			o.cell_milli = costs.place_milli;
			o.costs = &costs;
		}
		if (!opt->costs_file || rc == 0) {
			if (opt->method == TWZ_BAKE_JUNCTIONS)
				rc = bake_junctions(&g, &o, out, rep, err);
			else
				rc = bake_layers(&g, bytes, len, &o, out, &sink, rep, err);
		}
		twz_grid_free(&g);
	}
	free(letters);
	free(bytes);
	twz_level_costs_free(&costs);
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
	struct twz_level_costs costs;
	memset(&costs, 0, sizeof costs);
	if (navmesh) {
		struct twz_cost_table table;
		struct twz_bake_options o = *opt;
		if (opt->costs_file &&
		    twz_cost_table_load(opt->costs_file, &table, err) != 0)
			return -1;
		if (twz_navmesh_load(path, &m, err) != 0)
			return -1;
		/* Areas (FORMAT.md 5k): the faces' costs weigh the arcs. */
		if (!opt->costs_file ||
		    (twz_navmesh_costs(m.poly_count, m.poly_group, m.group_name,
				       m.group_count, &table, opt->costs_file,
				       &costs, err) == 0 &&
		     twz_navmesh_weigh(&m, &costs, path, err) == 0)) {
			o.costs = opt->costs_file ? &costs : NULL;
			rc = twz_bake_navmesh(&m, &o, out, NULL, NULL, err);
		}
	} else {
		if (twz_graph_load(path, &g, err) != 0)
			return -1;
		if ((!opt->coords || twz_coords_load(opt->coords, &g, err) == 0) &&
		    (!opt->links || twz_links_load(opt->links, &g, err) == 0))
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
	twz_level_costs_free(&costs);
	return rc;
}

int twz_bake_file(const char *path, const struct twz_bake_options *opt,
		  const char *out, struct twz_bake_report *rep,
		  struct twz_error *err)
{
	unsigned kind = twz_level_kind_of(path);
	const char *why = twz_bake_refusal(opt, kind);

	if (rep)
		report_start(rep);
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

	if (why) {
		twz_error_kind_set(err, TWZ_ERR_USAGE, "%s", why);
		return -1;
	}
	if (twz_grid_parse(level, level_len, name, &g, err) != 0)
		return -1;
	struct twz_sink sink = { .buf = part, .len = part_len };
	int rc = bake_layers(&g, level, level_len, opt, NULL, &sink, NULL, err);
	twz_grid_free(&g);
	return rc;
}
