/*
 * graph_query.c - twigz build, query and verify on graph levels: bake a
 * .gr file (with its .co), answer queries by the file's own vertex ids
 * (one S T pair or a DIMACS .p2p list, as text or one JSON object a
 * line), and check a database against a plain Dijkstra over the arcs it
 * stores; with --closed FILE, around the vertices it shuts.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake_graph.h"
#include "cli_common.h"
#include "closed_cells.h"
#include "first_moves.h"
#include "graph.h"
#include "graph_cli.h"
#include "level_graph.h"
#include "query_session.h"
#include "twz_format.h"

unsigned twz_cli_db_kind(const char *path)
{
	uint8_t h[TWZ_HEADER_SIZE];
	FILE *f = path ? fopen(path, "rb") : NULL;
	size_t got;

	if (!f)
		return TWZ_KIND_GRID;
	got = fread(h, 1, sizeof h, f);
	fclose(f);
	if (got < sizeof h || memcmp(h, TWZ_MAGIC, TWZ_MAGIC_SIZE))
		return TWZ_KIND_GRID;
	return h[TWZ_H_LEVEL_KIND];
}

const char *twz_cli_db_word(int argc, char **argv,
			    const char *const *takes_value)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int skip = 0;
		if (a[0] == '-' && a[1]) {
			for (const char *const *t = takes_value; *t; t++)
				skip |= !strcmp(a, *t);
			i += skip;
			continue;
		}
		return a;
	}
	return NULL;
}

/* ---- query ------------------------------------------------------------------ */

/* The weight of the way a path's step a -> b takes under f: the arc, or
 * the link twz_step_link names (heads, w and links hold the most arcs
 * or link arcs a node has). 0 when there is none. */
static uint64_t step_weight(const twz_db *db, const twz_filter *f, twz_node a,
			    twz_node b, size_t cap, twz_node *heads, uint64_t *w,
			    uint32_t *links)
{
	uint32_t link;
	size_t count;

	if (twz_step_link(db, f, a, b, &link) != TWZ_OK)
		return 0;
	if (link == TWZ_NO_LINK) {
		if (twz_node_arcs(db, a, heads, w, cap, &count) == TWZ_OK)
			for (size_t k = 0; k < count; k++)
				if (heads[k] == b)
					return w[k];
		return 0;
	}
	if (twz_node_links(db, a, heads, w, links, cap, &count) == TWZ_OK)
		for (size_t k = 0; k < count; k++)
			if (links[k] == link)
				return w[k];
	return 0;
}

/* The exact cost of a path under f: its steps' weights. */
static uint64_t path_weight(const twz_db *db, const twz_filter *f,
			    const twz_node *p, size_t len, size_t cap,
			    twz_node *heads, uint64_t *w, uint32_t *links)
{
	uint64_t sum = 0;

	for (size_t i = 1; i < len; i++)
		sum += step_weight(db, f, p[i - 1], p[i], cap, heads, w, links);
	return sum;
}

/* One answer: the path as nodes in buf (len of them), its cost; around
 * the places the filter shuts when there is one (sc then set). */
static twz_status answer(const twz_db *db, twz_scratch *sc,
			 const twz_filter *f, uint32_t sid, uint32_t tid,
			 twz_node *buf, size_t cap, size_t *len, uint64_t *cost,
			 size_t arcs_cap, twz_node *heads, uint64_t *w,
			 uint32_t *links)
{
	twz_node s = twz_node_of_id(db, sid), t = twz_node_of_id(db, tid);
	twz_status st;

	*len = 0;
	*cost = 0;
	if (sc) {
		st = twz_find_path(db, sc, f, s, t, 0, buf, cap, len, NULL);
		if (st == TWZ_OK)
			*cost = path_weight(db, f, buf, *len, arcs_cap, heads, w,
					    links);
	} else {
		st = twz_path(db, s, t, buf, cap, len);
		if (st == TWZ_OK)
			st = twz_cost_u64(db, s, t, cost);
	}
	if (st != TWZ_OK)
		*len = 0;
	return st;
}

static void print_answer(const twz_db *db, const twz_filter *f, uint32_t sid,
			 uint32_t tid, const twz_node *buf, size_t len,
			 uint64_t cost, twz_status st, int json)
{
	int64_t id;
	uint32_t link;

	if (json) {
		printf("{\"source\":%u,\"target\":%u,", sid, tid);
		if (st != TWZ_OK) {
			printf("\"cost\":null,\"path\":[],\"status\":\"%s\"}\n",
			       twz_status_word(st));
			return;
		}
		printf("\"cost\":%" PRIu64 ",\"path\":[", cost);
		for (size_t i = 0; i < len; i++) {
			twz_node_id(db, buf[i], &id);
			printf(i ? ",%" PRId64 : "%" PRId64, id);
		}
		/* With off-mesh links: each step's link, or null for an arc. */
		for (size_t i = 0; twz_link_count(db) && i + 1 < len; i++) {
			if (twz_step_link(db, f, buf[i], buf[i + 1], &link) != TWZ_OK)
				link = TWZ_NO_LINK;
			printf(i ? "," : "],\"links\":[");
			if (link == TWZ_NO_LINK)
				printf("null");
			else
				printf("%" PRIu32, link);
		}
		printf("]}\n");
		return;
	}
	if (st != TWZ_OK) {
		printf("%u -> %u: %s\n", sid, tid, st == TWZ_E_UNREACHABLE
		       ? "unreachable" : twz_strerror(st));
		return;
	}
	printf("%u -> %u: cost %" PRIu64 ", %zu arcs:", sid, tid, cost, len - 1);
	for (size_t i = 0; i < len; i++) {
		twz_node_id(db, buf[i], &id);
		if (i && twz_step_link(db, f, buf[i - 1], buf[i], &link) == TWZ_OK &&
		    link != TWZ_NO_LINK)
			printf(" (link %" PRIu32 ")", link);
		printf(" %" PRId64, id);
	}
	printf("\n");
}

/* An id given on the command line: 1..n. */
static int parse_id(const char *s, uint32_t n, uint32_t *id)
{
	long v;

	if (twz_cli_parse_int(s, 1, UINT32_MAX, &v) || (uint64_t)v > n)
		return -1;
	*id = (uint32_t)v;
	return 0;
}

int twz_graph_query_cmd(int argc, char **argv)
{
	struct twz_cli_args ar = TWZ_CLI_ARGS(argc, argv);
	const char *words[3] = { NULL, NULL, NULL };
	const char *p2p = NULL, *closed = NULL, *a;
	int json = 0, rc = 0;

	while ((a = twz_cli_next(&ar))) {
		if (!strcmp(a, "--json"))
			json = 1;
		else if (!strcmp(a, "--p2p"))
			p2p = twz_cli_value(&ar, a, "a DIMACS .p2p file");
		else if (!strcmp(a, "--closed"))
			closed = twz_cli_value(&ar, a, "a file of shut vertex ids");
		else
			twz_cli_operand(&ar, a, words, 3);
	}
	if (ar.status)
		return ar.status;
	if (!words[0])
		return twz_cli_usage("%s", "query needs a database");
	if (!p2p && (!words[1] || !words[2]))
		return twz_cli_usage("%s", "query on a graph needs S T (vertex ids) or --p2p FILE");
	if (p2p && words[1])
		return twz_cli_usage("%s", "query takes either S T or --p2p FILE");

	twz_db *db;
	if ((rc = twz_cli_open_db(words[0], &db)) != 0)
		return rc;
	uint32_t n = twz_node_count(db);
	struct twz_p2p q = { 0 };
	struct twz_error err = { { 0 }, 0 };
	uint32_t one[2];
	twz_world *world = NULL;
	twz_scratch *sc = NULL;
	twz_filter filter;
	memset(&filter, 0, sizeof filter);
	twz_node *buf = malloc(((size_t)n + 1) * sizeof *buf);
	/* A node's arcs, or its link arcs (two a link at most). */
	size_t arcs_cap = (size_t)n + 2 * (size_t)twz_link_count(db) + 1;
	twz_node *heads = malloc(arcs_cap * sizeof *heads);
	uint64_t *w = malloc(arcs_cap * sizeof *w);
	uint32_t *links = malloc(arcs_cap * sizeof *links);
	if (!buf || !heads || !w || !links ||
	    (closed && (twz_world_create(db, &world) != TWZ_OK ||
				twz_scratch_create(db, &sc) != TWZ_OK))) {
		fprintf(stderr, "twigz: %s: out of memory\n", words[0]);
		rc = EXIT_NOMEM;
		goto out;
	}
	if (closed && twz_closed_places_shut(closed, db, world, &err) != 0) {
		rc = twz_cli_error(&err);
		goto out;
	}
	filter.world = world;
	if (p2p) {
		if (twz_p2p_load(p2p, n, &q, &err) != 0) {
			rc = twz_cli_error(&err);
			goto out;
		}
	} else {
		for (int k = 0; k < 2; k++)
			if (parse_id(words[1 + k], n, &one[k])) {
				fprintf(stderr, "twigz: %s: %s '%s' is not a vertex id "
					"from 1 to %u\n", words[0], k ? "target" : "source",
					words[1 + k], n);
				rc = EXIT_INPUT;
				goto out;
			}
		q.pair = one;
		q.count = 1;
	}
	for (uint32_t i = 0; i < q.count; i++) {
		size_t len;
		uint64_t cost;
		uint32_t sid = q.pair[2 * (size_t)i], tid = q.pair[2 * (size_t)i + 1];
		twz_status st = answer(db, sc, &filter, sid, tid, buf, (size_t)n + 1,
				       &len, &cost, arcs_cap, heads, w, links);
		if (!twz_session_answered(st)) {
			fprintf(stderr, "twigz: %s: %s\n", words[0], twz_strerror(st));
			rc = EXIT_INPUT;
			goto out;
		}
		print_answer(db, &filter, sid, tid, buf, len, cost, st, json);
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "twigz: cannot write the output: %s\n", strerror(errno));
		rc = EXIT_IO;
	}
out:
	if (p2p)
		twz_p2p_free(&q);
	free(buf);
	free(heads);
	free(w);
	free(links);
	twz_scratch_free(sc);
	twz_world_free(world);
	twz_close(db);
	return rc;
}

/* ---- verify ------------------------------------------------------------------ */

/* The database's own arcs as a graph of its node ids, each node's link
 * arcs after its arcs (so the check's search takes them too). */
static int graph_of_db(const twz_db *db, struct twz_graph *g)
{
	uint32_t n = twz_node_count(db);
	twz_info in;
	size_t count, cap;
	uint32_t *number;

	memset(g, 0, sizeof *g);
	twz_get_info(db, &in);
	/* A link gives at most two link arcs. */
	cap = (size_t)in.arc_count + 2 * (size_t)twz_link_count(db);
	g->node_count = n;
	g->arc_first = malloc(((size_t)n + 1) * sizeof *g->arc_first);
	g->arc_head = malloc((cap + 1) * sizeof *g->arc_head);
	g->arc_cost = malloc((cap + 1) * sizeof *g->arc_cost);
	number = malloc((cap + 1) * sizeof *number);
	int rc = g->arc_first && g->arc_head && g->arc_cost && number ? 0 : -1;
	uint32_t at = 0;
	for (uint32_t v = 0; rc == 0 && v < n; v++) {
		g->arc_first[v] = at;
		rc = twz_node_arcs(db, v, g->arc_head + at, g->arc_cost + at,
				   cap - at, &count) == TWZ_OK ? 0 : -1;
		at += (uint32_t)count;
		if (rc == 0)
			rc = twz_node_links(db, v, g->arc_head + at, g->arc_cost + at,
					    number + at, cap - at, &count) == TWZ_OK
				? 0 : -1;
		at += (uint32_t)count;
	}
	if (rc == 0) {
		g->arc_first[n] = at;
		g->arc_count = at;
	}
	free(number);
	return rc;
}

static int cmp_query(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;
	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Why the answer for (s, t) is wrong against dist (from s), or NULL. */
static const char *judge(const twz_db *db, const struct twz_graph *g,
			 twz_node s, twz_node t, const uint64_t *dist,
			 twz_node *buf, size_t cap)
{
	size_t len;
	uint64_t cost, sum = 0;
	twz_status st = twz_path(db, s, t, buf, cap, &len);

	if (dist[t] == UINT64_MAX)
		return st == TWZ_E_UNREACHABLE && twz_next(db, s, t) == TWZ_NONE
			       ? NULL : "found a path where there is none";
	if (st != TWZ_OK)
		return st == TWZ_E_UNREACHABLE ? "unreachable, but a path exists"
					       : twz_strerror(st);
	if (buf[0] != s || buf[len - 1] != t)
		return "path does not join the two vertices";
	for (size_t i = 0; i + 1 < len; i++) {
		uint32_t a = g->arc_first[buf[i]], b = g->arc_first[buf[i] + 1];
		uint64_t w = UINT64_MAX;
		/* The cheapest arc or link arc that way. */
		for (uint32_t k = a; k < b; k++)
			if (g->arc_head[k] == buf[i + 1])
				w = g->arc_cost[k] < w ? g->arc_cost[k] : w;
		if (w == UINT64_MAX)
			return "path takes an arc the graph does not have";
		sum += w;
	}
	if (sum != dist[t])
		return "path is longer than the optimum";
	if (twz_cost_u64(db, s, t, &cost) != TWZ_OK || cost != dist[t])
		return "twz_cost_u64 differs from the optimum";
	if (len > 1 && twz_next(db, s, t) != buf[1])
		return "twz_next differs from the path";
	return NULL;
}

int twz_graph_verify_cmd(int argc, char **argv)
{
	struct twz_cli_args ar = TWZ_CLI_ARGS(argc, argv);
	const char *files[2] = { NULL, NULL };
	const char *a;
	int rc;

	while ((a = twz_cli_next(&ar)))
		twz_cli_operand(&ar, a, files, 2);
	if (ar.status)
		return ar.status;
	if (!files[1])
		return twz_cli_usage("%s", "verify needs DB FILE.p2p");

	twz_db *db;
	if ((rc = twz_cli_open_db(files[0], &db)) != 0)
		return rc;
	uint32_t n = twz_node_count(db);
	struct twz_error err = { { 0 }, 0 };
	struct twz_p2p q;
	struct twz_graph g;
	size_t passed = 0, failed = 0;
	uint64_t *dist = malloc(((size_t)n + 1) * sizeof *dist);
	twz_node *buf = malloc(((size_t)n + 1) * sizeof *buf);

	memset(&g, 0, sizeof g);
	if (twz_p2p_load(files[1], n, &q, &err) != 0) {
		rc = twz_cli_error(&err);
		goto out_db;
	}
	if (!dist || !buf || graph_of_db(db, &g) != 0) {
		fprintf(stderr, "twigz: %s: out of memory\n", files[0]);
		rc = EXIT_NOMEM;
		goto out;
	}
	/* One search a distinct source. */
	uint32_t *order = malloc(((size_t)q.count + 1) * 2 * sizeof *order);
	if (!order) {
		rc = EXIT_NOMEM;
		goto out;
	}
	if (q.count)  /* a file of no query has no pairs to copy */
		memcpy(order, q.pair, (size_t)q.count * 2 * sizeof *order);
	qsort(order, q.count, 2 * sizeof *order, cmp_query);
	twz_node last = TWZ_NONE;
	for (uint32_t i = 0; i < q.count; i++) {
		twz_node s = twz_node_of_id(db, order[2 * (size_t)i]);
		twz_node t = twz_node_of_id(db, order[2 * (size_t)i + 1]);
		if (s != last && twz_search_distances(&g, s, dist) != 0) {
			rc = EXIT_NOMEM;
			free(order);
			goto out;
		}
		last = s;
		const char *why = judge(db, &g, s, t, dist, buf, (size_t)n + 1);
		if (!why) {
			passed++;
			continue;
		}
		if (++failed <= 10)
			fprintf(stderr, "twigz: %s: %u -> %u: %s\n", files[1],
				order[2 * (size_t)i], order[2 * (size_t)i + 1], why);
	}
	free(order);
	printf("%zu passed, %zu failed\n", passed, failed);
	fflush(stdout);
	rc = twz_cli_verify_status(files[1], passed, failed, 0, NULL);
out:
	twz_p2p_free(&q);
out_db:
	twz_graph_free(&g);
	free(dist);
	free(buf);
	twz_close(db);
	return rc;
}

/* ---- info -------------------------------------------------------------------- */

void twz_graph_info_print(const twz_db *db, int json)
{
	twz_info in;
	int64_t x;

	twz_get_info(db, &in);
	int coords = in.node_count && twz_node_coords(db, 0, &x, &x) == TWZ_OK;
	const char *kind = in.level_kind == TWZ_KIND_NAVMESH ? "navmesh" : "graph";
	uint32_t links = twz_link_count(db);
	if (json) {
		printf(",\"level_kind\":\"%s\",\"arc_count\":%" PRIu64
		       ",\"coordinates\":%s", kind, in.arc_count, coords ? "true" : "false");
		if (links)  /* off-mesh links, only where there are some */
			printf(",\"link_count\":%" PRIu32, links);
	} else {
		printf("level kind   %s (%" PRIu64 " arcs%s", kind, in.arc_count,
		       coords ? ", with coordinates" : "");
		if (links)
			printf(", %" PRIu32 " off-mesh link%s", links, links == 1 ? "" : "s");
		printf(")\n");
	}
}
