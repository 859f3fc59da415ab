/*
 * check_crossings.c - every feature on every road. For every combination
 * of level kind (grid 8- and 4-connected, graph, navmesh), method and
 * layout, codec, agent sizes and chunking, a small level is baked by the
 * tool in memory, through the spool, and in three shards merged; the
 * spooled and merged files must be the in-memory file byte for byte, and
 * every answer of the in-memory file (each agent size's, under a chunk
 * cache too) must be optimal against a plain Dijkstra of this file's own.
 * The tool's bake on one thread must be the same bytes as on two, and
 * `twigz check` with the same words must find the file up to date.
 * A combination the bake refuses must be refused with the one-line
 * message listed here, which the library's list (twz_bake_refusal) and
 * docs/commands.md's build section give too. (2 MPI ranks: scripts/test.sh's
 * mpi step.)
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bake_level.h"
#include "level_graph.h"
#include "level_navmesh.h"
#include "shard.h"
#include "test_support.h"
#include "twz_format.h"
#include "twz_inspect.h"
#include "twz_rng.h"
#include "twz_validate.h"

/* ---- the combinations ---------------------------------------------------- */

enum level_kind { GRID8, GRID4, GRAPH, MESH, KINDS };
static const char *const kind_name[KINDS] = { "grid8", "grid4", "graph", "navmesh" };

struct method {
	const char *name;
	const char *words[5];      /* the tool's words, NULL-terminated */
	unsigned bake;             /* TWZ_BAKE_* */
	unsigned layout;           /* --format, 0 without */
};

static const struct method methods[] = {
	{ "cpd", { NULL }, TWZ_BAKE_CPD, 0 },
	{ "cpd-1.0", { "--format", "1.0", NULL }, TWZ_BAKE_CPD, TWZ_LAYOUT_PLAIN },
	{ "cpd-1.1", { "--format", "1.1", NULL }, TWZ_BAKE_CPD, TWZ_LAYOUT_BUCKETED },
	{ "cpd-1.4", { "--format", "1.4", NULL }, TWZ_BAKE_CPD, TWZ_LAYOUT_INLINE },
	{ "transit", { "--method", "transit", NULL }, TWZ_BAKE_TRANSIT, 0 },
	{ "transit-1.1", { "--method", "transit", "--format", "1.1", NULL },
	  TWZ_BAKE_TRANSIT, TWZ_LAYOUT_BUCKETED },
	{ "transit-1.4", { "--method", "transit", "--format", "1.4", NULL },
	  TWZ_BAKE_TRANSIT, TWZ_LAYOUT_INLINE },
	{ "junctions", { "--junctions", NULL }, TWZ_BAKE_JUNCTIONS, 0 },
};
#define METHODS (sizeof methods / sizeof methods[0])

/* One bake: a kind, a method, and the rest. */
struct recipe {
	enum level_kind kind;
	const struct method *m;
	int raw;                   /* --codec raw */
	int agents;                /* --agent-sizes 1,2,3 */
	int chunk;                 /* --chunk 4K */
	int shards;                /* --shard I/3 (the refusals only) */
};

static int grid(const struct recipe *r)
{
	return r->kind == GRID8 || r->kind == GRID4;
}

/*
 * The refusals, in the order the bake checks them, each with its one
 * line: what the file format rules out, and what this version does not
 * do. docs/commands.md's build section lists the same.
 */
static const char *refusal(const struct recipe *r)
{
	int transit = r->m->bake == TWZ_BAKE_TRANSIT;
	int junctions = r->m->bake == TWZ_BAKE_JUNCTIONS;

	if (r->chunk && r->raw)
		return "--chunk stores zstd chunks: not with --codec raw";
	if (!grid(r) && (transit || r->shards || r->agents || junctions))
		return "a graph (.gr) or navmesh (.obj) level bakes with --method cpd, "
		       "without --shard, --mpi, --agent-sizes or --junctions";
	if (!grid(r) && r->m->layout && r->m->layout != TWZ_LAYOUT_NARROW)
		return "--connectivity and --format are a grid's: a graph's or "
		       "navmesh's arcs are its links";
	if (junctions && r->agents)
		return "--junctions bakes one agent size: not with --agent-sizes";
	if (junctions && r->shards)
		return "--junctions bakes on one machine: not with --shard or --mpi";
	return NULL;
}

/* Why a bake forced through the spool bakes in memory instead, or NULL
 * when it streams. */
static const char *not_streamed(const struct recipe *r)
{
	if (!grid(r))
		return "graph and navmesh bakes";
	if (r->m->bake == TWZ_BAKE_JUNCTIONS)
		return "junction graphs";
	return NULL;
}

/* ---- files ------------------------------------------------------------- */

static char level_path[KINDS][4200];   /* written once a test */

static void work_setup(void)
{
	memset(level_path, 0, sizeof level_path);
	twz_test_work_setup();
}

/* The grid every grid recipe bakes: rooms with narrow doors, some walls
 * closing off pockets (several regions, chains of two-move cells for the
 * junction graph, cells too tight for the larger agents). */
static void make_grid(struct twz_grid *g)
{
	twz_test_generate(g, TWZ_TEST_ROOMS, 24, 19, 2024);
}

/* A random weighted digraph of 150 nodes in ids 1..150: two weakly
 * connected parts, one-way arcs, parallel arcs, equal weights (ties). */
static char *make_graph_text(void)
{
	size_t cap = 1 << 16, n = 0;
	char *t = malloc(cap);
	uint64_t s = 77;
	struct { unsigned a, b, w; } arc[480];
	unsigned m = 0;

	ck_assert_ptr_nonnull(t);
	for (unsigned i = 0; i < 480; i++) {
		unsigned part = rng_below(&s, 3) == 0;
		unsigned a = 1 + part * 100 + rng_below(&s, part ? 50 : 100);
		unsigned b = 1 + part * 100 + rng_below(&s, part ? 50 : 100);
		if (a == b)
			continue;
		arc[m].a = a;
		arc[m].b = b;
		arc[m].w = 1 + rng_below(&s, 4);
		m++;
	}
	n += (size_t)snprintf(t + n, cap - n, "c crossings\np sp 150 %u\n", m);
	for (unsigned i = 0; i < m; i++)
		n += (size_t)snprintf(t + n, cap - n, "a %u %u %u\n", arc[i].a,
				      arc[i].b, arc[i].w);
	return t;
}

/* The level file of a kind (written once a test). */
static const char *level_file(enum level_kind kind)
{
	char (*path)[4200] = level_path;

	if (path[kind][0])
		return path[kind];
	if (kind == GRAPH || kind == MESH) {
		char *t = kind == GRAPH ? make_graph_text() : twz_test_random_obj(5, 13, 11);
		snprintf(path[kind], sizeof path[kind], "%s",
			 twz_test_in_work(kind == GRAPH ? "level.gr" : "level.obj"));
		twz_test_write_file(path[kind], t, strlen(t));
		free(t);
	} else {
		struct twz_grid g;
		make_grid(&g);
		snprintf(path[kind], sizeof path[kind], "%s", twz_test_in_work("level.map"));
		twz_test_write_map(path[kind], &g);
		twz_grid_free(&g);
	}
	return path[kind];
}

/* ---- the tool and the library ----------------------------------------- */

static void describe(const struct recipe *r, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s %s%s%s%s%s", kind_name[r->kind], r->m->name,
		 r->raw ? " raw" : "", r->agents ? " agents" : "",
		 r->chunk ? " chunk" : "", r->shards ? " shards" : "");
}

/* The tool's words for r (after "build LEVEL -o OUT"): the method's,
 * then an option and its value for each feature r has. */
static unsigned recipe_words(const struct recipe *r, const char **w)
{
	const struct { int on; const char *option, *value; } feature[] = {
		{ r->kind == GRID4, "--connectivity", "4" },
		{ r->raw, "--codec", "raw" },
		{ r->agents, "--agent-sizes", "1,2,3" },
		{ r->chunk, "--chunk", "4K" },
		{ r->shards, "--shard", "2/3" },
		{ 1, "--level", "3" },
	};
	unsigned n = 0;

	for (unsigned i = 0; r->m->words[i]; i++)
		w[n++] = r->m->words[i];
	for (size_t f = 0; f < sizeof feature / sizeof feature[0]; f++)
		if (feature[f].on) {
			w[n++] = feature[f].option;
			w[n++] = feature[f].value;
		}
	return n;
}

/* The same as the library's options. */
static void recipe_options(const struct recipe *r, struct twz_bake_options *opt)
{
	twz_bake_options_default(opt);
	opt->method = r->m->bake;
	opt->layout = r->m->layout;
	opt->transit_far = twz_transit_far_of(r->m->layout);
	opt->connectivity = r->kind == GRID4 ? 4 : 8;
	opt->codec = r->raw ? TWZ_CODEC_RAW : TWZ_CODEC_ZSTD;
	opt->agent_sizes = r->agents ? 2u | 4u | 8u : 0;
	opt->chunk = r->chunk ? 4096 : 0;
	opt->level = 3;
	opt->threads = 2;
	opt->record_build = 1;
	opt->name = level_file(r->kind);
}

/* `twigz build LEVEL -o out` of r on `threads` threads, or, with out
 * NULL, `twigz check LEVEL db` with the same words: its exit status,
 * stderr's first line in line. */
static int tool_run(const struct recipe *r, const char *out, const char *db,
		    const char *threads, char *line, size_t cap)
{
	const char *args[32] = { "build", level_file(r->kind), "-o", out, "--quiet",
				 "--threads", threads };
	unsigned n = 7;

	if (!out) {
		args[0] = "check";
		args[2] = db;
		args[3] = "--quiet";
		n = 4;
	}
	n += recipe_words(r, args + n);
	args[n] = NULL;
	int status = twz_test_tool_status(args, line, cap);
	line[strcspn(line, "\n")] = 0;
	return status;
}

static int tool_build(const struct recipe *r, const char *out, char *line,
		      size_t cap)
{
	return tool_run(r, out, NULL, "2", line, cap);
}

/* ---- the oracles ------------------------------------------------------- */

/* A graph in CSR with exact u64 weights, by the level's own ids. */
struct csr {
	uint32_t n;
	int64_t id_base;             /* the id of node 0 */
	const uint32_t *first, *head;
	const uint64_t *weight;
};

static void csr_dijkstra(const struct csr *g, uint32_t s, uint64_t *d)
{
	uint8_t *done = calloc(g->n, 1);

	ck_assert_ptr_nonnull(done);
	for (uint32_t v = 0; v < g->n; v++)
		d[v] = UINT64_MAX;
	d[s] = 0;
	for (;;) {
		uint32_t u = UINT32_MAX;
		for (uint32_t v = 0; v < g->n; v++)
			if (!done[v] && d[v] != UINT64_MAX && (u == UINT32_MAX || d[v] < d[u]))
				u = v;
		if (u == UINT32_MAX)
			break;
		done[u] = 1;
		for (uint32_t a = g->first[u]; a < g->first[u + 1]; a++)
			if (d[u] + g->weight[a] < d[g->head[a]])
				d[g->head[a]] = d[u] + g->weight[a];
	}
	free(done);
}

static uint64_t csr_arc(const struct csr *g, uint32_t a, uint32_t b)
{
	uint64_t w = UINT64_MAX;

	for (uint32_t k = g->first[a]; k < g->first[a + 1]; k++)
		if (g->head[k] == b && g->weight[k] < w)
			w = g->weight[k];
	return w;
}

/* The pairs of a graph database from every stride-th source against the
 * graph's Dijkstra. Every first move is optimal when d(s, t) is the
 * weight of the arc to next(s, t) plus d(next, t) for every pair: then
 * the walk along the first moves ends at t, at the cost d(s, t). Whole
 * paths and costs are asked of every seventh pair. */
static void check_graph_db(const twz_db *db, const struct csr *g,
			   unsigned stride, const char *what)
{
	uint64_t *d = malloc((size_t)g->n * g->n * sizeof *d);
	twz_node *path = malloc((g->n + 1) * sizeof *path);
	twz_node *node = malloc(g->n * sizeof *node);
	uint32_t *index = malloc(g->n * sizeof *index);

	ck_assert(d && path && node && index);
	ck_assert_uint_eq(twz_node_count(db), g->n);
	for (uint32_t i = 0; i < g->n; i++) {
		node[i] = twz_node_of_id(db, g->id_base + i);
		expect(node[i] < g->n, "%s: id %u has no node", what, i);
		index[node[i]] = i;
		csr_dijkstra(g, i, d + (size_t)i * g->n);
	}
	for (uint32_t si = 0; si < g->n; si += stride) {
		const uint64_t *ds = d + (size_t)si * g->n;
		for (uint32_t ti = 0; ti < g->n; ti++) {
			twz_node nx = twz_next(db, node[si], node[ti]);
			if (ds[ti] == UINT64_MAX || si == ti) {
				expect(nx == (si == ti ? node[ti] : TWZ_NONE),
				       "%s: %u -> %u: next %u", what, si, ti, nx);
				continue;
			}
			expect(nx < g->n, "%s: %u -> %u: no next", what, si, ti);
			uint32_t ni = index[nx];
			uint64_t w = csr_arc(g, si, ni);
			expect(w != UINT64_MAX && w + d[(size_t)ni * g->n + ti] == ds[ti],
			       "%s: %u -> %u: the first move to %u is not optimal", what,
			       si, ti, ni);
			if ((si + ti) % 7)
				continue;
			size_t len = 0;
			uint64_t cost;
			expect(twz_path(db, node[si], node[ti], path, g->n + 1, &len) == TWZ_OK &&
			       len > 1 && path[1] == nx, "%s: %u -> %u: path", what, si, ti);
			expect(twz_cost_u64(db, node[si], node[ti], &cost) == TWZ_OK &&
			       cost == ds[ti], "%s: %u -> %u: twz_cost_u64", what, si, ti);
		}
	}
	free(d);
	free(path);
	free(node);
	free(index);
}

/* The cells an agent of size k stands on (its k x k square all open). */
static void agent_grid(const struct twz_grid *g, unsigned k, struct twz_grid *out)
{
	*out = *g;
	out->walkable = malloc((size_t)g->width * g->height);
	ck_assert_ptr_nonnull(out->walkable);
	for (uint32_t y = 0; y < g->height; y++)
		for (uint32_t x = 0; x < g->width; x++) {
			int open = x + k <= g->width && y + k <= g->height;
			for (uint32_t dy = 0; open && dy < k; dy++)
				for (uint32_t dx = 0; open && dx < k; dx++)
					open = g->walkable[(size_t)(y + dy) * g->width + x + dx];
			out->walkable[(size_t)y * g->width + x] = (uint8_t)open;
		}
}

/* The pairs of a grid database from every stride-th cell against a
 * plain Dijkstra, as check_graph_db: each first move a legal move whose
 * cost and the rest's make the optimum, exactly; whole paths (every step
 * a legal move, their cost the optimum) and exact costs of every seventh
 * pair. */
static void check_grid_db(const twz_db *db, const struct twz_grid *g,
			  unsigned conn, unsigned stride, const char *what)
{
	size_t cells = (size_t)g->width * g->height;
	struct twz_cost *dist = twz_test_dijkstra_all(g, conn);
	twz_node *path = malloc((cells + 1) * sizeof *path);
	twz_node *node = malloc(cells * sizeof *node);

	ck_assert(path && node);
	for (size_t c = 0; c < cells; c++) {
		node[c] = twz_node_at(db, (int64_t)(c % g->width), (int64_t)(c / g->width));
		expect((node[c] != TWZ_NONE) == (g->walkable[c] != 0), "%s: cell %zu",
		       what, c);
	}
	for (size_t sc = 0; sc < cells; sc += stride) {
		twz_node s = node[sc];
		uint32_t sx = (uint32_t)(sc % g->width), sy = (uint32_t)(sc / g->width);
		if (s == TWZ_NONE)
			continue;
		for (size_t tc = 0; tc < cells; tc++) {
			twz_node t = node[tc];
			if (t == TWZ_NONE)
				continue;
			struct twz_cost want = dist[sc * cells + tc];
			twz_node nx = twz_next(db, s, t);
			if (twz_test_cost_eq(want, twz_test_unreachable) || s == t) {
				expect(nx == (s == t ? t : TWZ_NONE), "%s: %zu -> %zu: next",
				       what, sc, tc);
				continue;
			}
			uint32_t x, y;
			expect(nx != TWZ_NONE && twz_node_xy(db, nx, &x, &y) == TWZ_OK,
			       "%s: %zu -> %zu: no next", what, sc, tc);
			unsigned m = 0;
			while (m < 8 && ((int64_t)sx + twz_test_move_dx(m) != x ||
					 (int64_t)sy + twz_test_move_dy(m) != y))
				m++;
			expect(m < 8 && twz_test_move_legal(g, conn, sx, sy, m),
			       "%s: %zu -> %zu: the first move is no legal move", what, sc, tc);
			struct twz_cost rest = dist[((size_t)y * g->width + (size_t)x) * cells + tc];
			expect(twz_test_cost_eq(twz_test_cost_add_move(rest, m), want),
			       "%s: %zu -> %zu: the first move is not optimal", what, sc, tc);
			if ((sc + tc) % 7)
				continue;
			size_t len = 0;
			uint32_t ps = 0, pd = 0, cs = 0, cd = 0;
			expect(twz_path(db, s, t, path, cells + 1, &len) == TWZ_OK &&
			       path[1] == nx, "%s: %zu -> %zu: path", what, sc, tc);
			size_t bad = twz_test_path_moves(db, g, conn, path, len, &ps, &pd);
			expect(bad == 0 && ps == want.straight && pd == want.diagonal,
			       "%s: %zu -> %zu: the path is not optimal", what, sc, tc);
			expect(twz_cost_exact(db, s, t, &cs, &cd) == TWZ_OK &&
			       cs == want.straight && cd == want.diagonal,
			       "%s: %zu -> %zu: twz_cost_exact", what, sc, tc);
		}
	}
	free(dist);
	free(path);
	free(node);
}

/* The answers of the database file at path, opened whole and (when
 * chunked) under a cache of one chunk at a time: from every source of a
 * zstd file opened whole; from every third of the others, whose raw
 * bytes are the same. */
static void check_answers(const struct recipe *r, const char *path)
{
	char what[128];
	twz_open_options small = { .cache_bytes = 1 };

	describe(r, what, sizeof what);
	for (int budget = 0; budget < 1 + r->chunk; budget++) {
		unsigned stride = r->raw || budget ? 3 : 1;
		twz_db *db = NULL;
		twz_status st = twz_open_ex(path, budget ? &small : NULL, &db);
		ck_assert_msg(st == TWZ_OK, "%s: open: %s", what, twz_strerror(st));
		if (grid(r)) {
			struct twz_grid g;
			make_grid(&g);
			for (unsigned k = 1; k <= (r->agents ? 3u : 1u); k++) {
				const twz_db *v = db;
				struct twz_grid gk;
				if (r->agents)
					ck_assert_int_eq(twz_view_agent(db, k, &v), TWZ_OK);
				agent_grid(&g, k, &gk);
				check_grid_db(v, &gk, r->kind == GRID4 ? 4 : 8, stride, what);
				free(gk.walkable);
			}
			twz_grid_free(&g);
		} else if (r->kind == GRAPH) {
			struct twz_graph dg;
			struct twz_error err;
			size_t len;
			uint8_t *text = twz_test_read_file(level_file(GRAPH), &len);
			ck_assert_int_eq(twz_graph_parse(text, len, "level.gr", &dg, &err), 0);
			struct csr c = { dg.node_count, dg.id_base, dg.arc_first,
					 dg.arc_head, dg.arc_cost };
			check_graph_db(db, &c, stride, what);
			twz_graph_free(&dg);
			free(text);
		} else {
			struct twz_navmesh m;
			struct twz_error err;
			ck_assert_int_eq(twz_navmesh_load(level_file(MESH), &m, &err), 0);
			struct csr c = { m.poly_count, 0, m.arc_first, m.arc_head, m.arc_key };
			check_graph_db(db, &c, stride, what);
			twz_navmesh_free(&m);
		}
		/* Grid rows of 1.1 to 1.4 and TRANSIT's are read on use
		 * under a budget: each chunk inflated as a query needs it
		 * (1.0's runs, graphs' and junction graphs' at open). */
		struct twz_cache_summary cs;
		if (budget && grid(r) && r->m->bake != TWZ_BAKE_JUNCTIONS &&
		    r->m->layout != TWZ_LAYOUT_PLAIN)
			ck_assert_msg(twz_inspect_cache(db, &cs) == 0 && cs.misses > 0,
				      "%s: nothing read on use", what);
		twz_close(db);
	}
}

/* Whether the file at path stores any section in chunks. */
static int has_chunks(const char *path)
{
	struct twz_container c;
	size_t len;
	uint8_t *buf = twz_test_read_file(path, &len);
	int chunked = 0;

	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	for (uint32_t i = 0; i < c.section_count; i++)
		chunked |= (c.sections[i].flags & TWZ_SF_CHUNKED) != 0;
	free(buf);
	return chunked;
}

/* ---- the roads --------------------------------------------------------- */

/* Through the spool: the library's front door with the spool forced. */
static void check_streamed(const struct recipe *r, const char *memory)
{
	struct twz_bake_options opt;
	struct twz_bake_report rep;
	struct twz_error err = { { 0 }, 0 };
	char what[128];
	const char *why = not_streamed(r);

	describe(r, what, sizeof what);
	recipe_options(r, &opt);
	opt.spool = TWZ_SPOOL_ALWAYS;
	ck_assert_msg(twz_bake_file(level_file(r->kind), &opt, twz_test_in_work("spooled.twz"),
				    &rep, &err) == 0, "%s: spooled: %s", what, err.msg);
	ck_assert_msg(rep.streamed == !why, "%s: %s", what,
		      why ? "streamed where it should not" : "did not stream");
	twz_test_expect_same_file(memory, twz_test_in_work("spooled.twz"), what);
}

/* Three shards by the library, merged in another order. */
static void check_sharded(const struct recipe *r, const char *memory)
{
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	struct twz_merge_result res;
	const uint8_t *bufs[3];
	size_t lens[3];
	const char *names[3] = { "part.3", "part.1", "part.2" };
	char what[128];

	describe(r, what, sizeof what);
	recipe_options(r, &opt);
	opt.shards = 3;
	for (unsigned i = 1; i <= 3; i++) {
		char part[16];
		snprintf(part, sizeof part, "part.%u", i);
		opt.shard = i;
		ck_assert_msg(twz_bake_file(level_file(r->kind), &opt, twz_test_in_work(part),
					    NULL, &err) == 0, "%s: shard %u: %s", what, i,
			      err.msg);
	}
	for (unsigned i = 0; i < 3; i++)
		bufs[i] = twz_test_read_file(twz_test_in_work(names[i]), &lens[i]);
	ck_assert_msg(twz_shard_merge(bufs, lens, names, 3, 2, twz_test_in_work("merged.twz"),
				      &res, &err) == 0, "%s: merge: %s", what, err.msg);
	for (unsigned i = 0; i < 3; i++)
		free((void *)bufs[i]);
	twz_test_expect_same_file(memory, twz_test_in_work("merged.twz"), what);
}

/* r through every road, or its refusal. */
static void cross(struct recipe r)
{
	char what[128], line[1024], want[1024];
	const char *why = refusal(&r);
	struct twz_bake_options opt;

	describe(&r, what, sizeof what);
	int st = tool_build(&r, twz_test_in_work("memory.twz"), line, sizeof line);
	recipe_options(&r, &opt);
	const char *lib = twz_bake_refusal(&opt, r.kind == GRAPH ? TWZ_LEVEL_GRAPH :
						 r.kind == MESH ? TWZ_LEVEL_NAVMESH
								: TWZ_LEVEL_GRID);
	if (why) {
		snprintf(want, sizeof want, "twigz: %s", why);
		ck_assert_msg(st == 2 && !strcmp(line, want),
			      "%s: status %d, '%s'; want 2, '%s'", what, st, line, want);
		ck_assert_msg(lib && !strcmp(lib, why), "%s: the library says '%s'",
			      what, lib ? lib : "(nothing)");
		return;
	}
	ck_assert_msg(st == 0, "%s: status %d: %s", what, st, line);
	ck_assert_msg(!lib, "%s: the library refuses: %s", what, lib);
	ck_assert_msg(has_chunks(twz_test_in_work("memory.twz")) == r.chunk,
		      "%s: %s", what, r.chunk ? "no chunks" : "chunks");
	/* Deterministic: the same bytes on one thread as on two. */
	st = tool_run(&r, twz_test_in_work("one.twz"), NULL, "1", line, sizeof line);
	ck_assert_msg(st == 0, "%s: --threads 1: status %d: %s", what, st, line);
	twz_test_expect_same_file(twz_test_in_work("memory.twz"),
				  twz_test_in_work("one.twz"), what);
	/* check takes build's words, and finds the file up to date. */
	st = tool_run(&r, NULL, twz_test_in_work("memory.twz"), NULL, line, sizeof line);
	ck_assert_msg(st == 0, "%s: check: status %d: %s", what, st, line);
	check_answers(&r, twz_test_in_work("memory.twz"));
	check_streamed(&r, twz_test_in_work("memory.twz"));
	r.shards = 1;
	why = refusal(&r);
	if (why) {
		st = tool_build(&r, twz_test_in_work("part.twz"), line, sizeof line);
		snprintf(want, sizeof want, "twigz: %s", why);
		ck_assert_msg(st == 2 && !strcmp(line, want),
			      "%s: status %d, '%s'; want 2, '%s'", what, st, line, want);
		return;
	}
	r.shards = 0;
	check_sharded(&r, twz_test_in_work("memory.twz"));
}

/* Test _i: one kind and one method, every codec, agent sizes and chunks. */
START_TEST(test_crossings)
{
	struct recipe r = { (enum level_kind)(_i / METHODS), &methods[_i % METHODS],
			    0, 0, 0, 0 };

	for (r.raw = 0; r.raw < 2; r.raw++)
		for (r.agents = 0; r.agents < 2; r.agents++)
			for (r.chunk = 0; r.chunk < 2; r.chunk++)
				cross(r);
}
END_TEST

/* Every refusal above is in docs/commands.md's build section. */
START_TEST(test_refusals_documented)
{
	size_t len;
	char *readme = (char *)twz_test_read_file(twz_test_source_file("docs/commands.md"), &len);

	for (int kind = 0; kind < KINDS; kind++)
		for (size_t m = 0; m < METHODS; m++)
			for (int bits = 0; bits < 16; bits++) {
				struct recipe r = { (enum level_kind)kind, &methods[m],
						    bits & 1, bits >> 1 & 1, bits >> 2 & 1,
						    bits >> 3 & 1 };
				const char *why = refusal(&r);
				ck_assert_msg(!why || strstr(readme, why),
					      "docs/commands.md does not list '%s'", why);
			}
	free(readme);
}
END_TEST

#define LINES_REFUSED "--apsp lines bakes a grid level in memory: not with " \
	"--shard, --mpi, --memory-limit, --max-seconds, a graph or a navmesh"

/* Every refusal of the bake's options, beyond the recipes above: the
 * tool exits 2 with the message on its first line and writes nothing,
 * and docs/commands.md lists the message. */
START_TEST(test_refusals_every_pair)
{
	static const struct {
		enum level_kind kind;
		const char *words[6];
		const char *says;
	} cases[] = {
		{ GRID8, { "--chunk", "4K", "--codec", "raw" },
		  "--chunk stores zstd chunks: not with --codec raw" },
		{ GRAPH, { "--shard", "1/2" }, "a graph (.gr) or navmesh (.obj) level bakes "
		  "with --method cpd, without --shard, --mpi, --agent-sizes or --junctions" },
		{ MESH, { "--connectivity", "4" }, "--connectivity and --format are a grid's: "
		  "a graph's or navmesh's arcs are its links" },
		{ GRID8, { "--method", "transit", "--junctions" },
		  "--junctions bakes --method cpd only (TRANSIT has no junction graph)" },
		{ GRID8, { "--junctions", "--agent-sizes", "1,2" },
		  "--junctions bakes one agent size: not with --agent-sizes" },
		{ GRID8, { "--junctions", "--shard", "1/2" },
		  "--junctions bakes on one machine: not with --shard or --mpi" },
		{ GRID8, { "--junctions", "--format", "1.4" },
		  "--junctions writes format 1.4: not with --format" },
		{ GRID8, { "--junctions", "--apsp", "floyd" },
		  "--junctions searches the junction graph: --apsp dijkstra only" },
		{ GRID8, { "--method", "transit", "--format", "1.0" },
		  "--method transit writes format 1.1, not --format 1.0" },
		{ GRID8, { "--method", "transit", "--apsp", "floyd" },
		  "--apsp is for --method cpd" },
		{ GRID8, { "--transit-grid", "4" }, "--transit-* options need --method transit" },
		{ GRID8, { "--method", "transit", "--transit-inner", "3", "--transit-outer", "4" },
		  "--transit-outer must be at least twice --transit-inner" },
		{ MESH, { "--coords", "level.co" }, "--coords goes with a graph level (.gr)" },
		{ GRID8, { "--links", "level.links" }, "--links goes with a graph level (.gr)" },
		{ GRID8, { "--costs", "level.costs", "--method", "transit" },
		  "--costs bakes a grid or a navmesh with --method cpd in memory: not with "
		  "--method transit, --junctions, --apsp, --memory-limit, --shard, --mpi "
		  "or a graph (.gr)" },
		{ GRID8, { "--mpi", "--shard", "1/2" },
		  "--mpi makes each rank a shard: not with --shard" },
		{ GRID8, { "--apsp", "lines", "--shard", "1/2" }, LINES_REFUSED },
		{ GRID8, { "--apsp", "lines", "--mpi" }, LINES_REFUSED },
		{ GRID8, { "--apsp", "lines", "--memory-limit", "100M" }, LINES_REFUSED },
		{ GRID8, { "--apsp", "lines", "--max-seconds", "60" }, LINES_REFUSED },
		{ GRAPH, { "--apsp", "lines" }, LINES_REFUSED },
		{ MESH, { "--apsp", "lines" }, LINES_REFUSED },
	};
	size_t len;
	char *readme = (char *)twz_test_read_file(twz_test_source_file("docs/commands.md"), &len);
	const char *out = twz_test_in_work("refused.twz");

	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		const char *args[16] = { "build", level_file(cases[c].kind), "-o", out };
		unsigned n = 4;
		char line[1024], want[1024];
		for (unsigned i = 0; i < 6 && cases[c].words[i]; i++)
			args[n++] = cases[c].words[i];
		args[n] = NULL;
		int st = twz_test_tool_status(args, line, sizeof line);
		line[strcspn(line, "\n")] = 0;
		snprintf(want, sizeof want, "twigz: %s", cases[c].says);
		ck_assert_msg(st == 2 && !strcmp(line, want), "%s %s: status %d, '%s'; want 2, '%s'",
			      kind_name[cases[c].kind], cases[c].words[0], st, line, want);
		ck_assert_msg(access(out, F_OK) != 0, "%s: an output was left", cases[c].says);
		ck_assert_msg(strstr(readme, cases[c].says), "docs/commands.md does not list '%s'",
			      cases[c].says);
	}
	free(readme);
}
END_TEST

static Suite *crossings_suite(void)
{
	Suite *s = suite_create("crossings");

	twz_test_work_prefix("check_crossings.");
	TCase *tc = tcase_create("Crossings");

	tcase_add_checked_fixture(tc, work_setup, twz_test_work_teardown);
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_crossings, 0, (int)(KINDS * METHODS));
	tcase_add_test(tc, test_refusals_documented);
	tcase_add_test(tc, test_refusals_every_pair);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(crossings_suite());
}
