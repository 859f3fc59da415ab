/*
 * junctions_bench.c - a junction-graph database (`twigz build
 * --junctions`) against the plain CPD of the same level, in one process:
 * bake time (when it bakes them), file size, memory, nodes and
 * junctions, and the time of twz_next over random pairs and of twz_path
 * over random paths, the same cells asked of both, every path cost
 * checked equal. `ninja -C BUILD bench-junctions` runs it on the
 * project's mazes.
 *
 *     junctions_bench [--pairs N] [--paths N] [--threads N] LEVEL.map
 *     junctions_bench [--pairs N] [--paths N] LEVEL.map PLAIN.twz JUNCTIONS.twz
 *
 * With one level, it bakes both (zstd 19, the given threads); with two
 * files, it reads them and checks they were baked from that level.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake.h"
#include "junctions.h"
#include "level_map.h"
#include "twigz.h"
#include "twz_format.h"
#include "twz_inspect.h"

static volatile uint64_t sink;

struct side {
	const char *name;
	uint8_t *buf;
	size_t len;
	double bake_s;
	twz_db *db;
	twz_node *s, *t;       /* the pairs, as this database numbers them */
	twz_node *ps, *pt;     /* the paths */
};

static double now(void)
{
	return twz_now_seconds();
}

static uint64_t next_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void die(const char *msg, const char *what)
{
	fprintf(stderr, "junctions_bench: %s%s%s\n", what ? what : "",
		what ? ": " : "", msg);
	exit(1);
}

static void bake(struct side *sd, const struct twz_grid *g, unsigned threads,
		 int junctions, const char *level)
{
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	double t0 = now();
	int rc;

	twz_bake_options_default(&opt);
	opt.threads = threads;
	opt.name = level;
	if (junctions) {
		struct twz_junction_db db;
		opt.method = TWZ_BAKE_JUNCTIONS;
		rc = twz_bake_junctions(g, &opt, &db, &err);
		sd->bake_s = now() - t0;
		if (rc == 0)
			rc = twz_junctions_encode(&db, g, &opt, &sd->buf, &sd->len, &err);
		if (rc == 0)
			twz_junction_db_free(&db);
	} else {
		struct twz_cpd cpd;
		rc = twz_bake_cpd(g, &opt, &cpd, &err);
		sd->bake_s = now() - t0;
		if (rc == 0)
			rc = twz_cpd_encode(&cpd, g, &opt, &sd->buf, &sd->len, &err);
		if (rc == 0)
			twz_cpd_free(&cpd);
	}
	if (rc != 0)
		die(err.msg, sd->name);
}

static void load(struct side *sd, const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0)
		die("cannot read", path);
	sd->len = (size_t)n;
	sd->buf = malloc(sd->len ? sd->len : 1);
	if (!sd->buf || fread(sd->buf, 1, sd->len, f) != sd->len)
		die("cannot read", path);
	fclose(f);
	sd->bake_s = -1;
}

/* The best of five runs of twz_next over the pairs, ns a query. */
static double time_next(const struct side *sd, size_t pairs)
{
	double best = 1e30;

	for (int r = 0; r < 5; r++) {
		uint64_t acc = 0;
		double t0 = now();
		for (size_t i = 0; i < pairs; i++)
			acc += twz_next(sd->db, sd->s[i], sd->t[i]);
		double el = now() - t0;
		sink += acc;
		if (el < best)
			best = el;
	}
	return best / pairs * 1e9;
}

/* The best of five runs of twz_path over the paths, us a path. */
static double time_path(const struct side *sd, size_t paths, twz_node *buf,
			size_t cap)
{
	double best = 1e30;

	for (int r = 0; r < 5; r++) {
		uint64_t acc = 0;
		double t0 = now();
		for (size_t i = 0; i < paths; i++) {
			size_t len = 0;
			twz_path(sd->db, sd->ps[i], sd->pt[i], buf, cap, &len);
			acc += len;
		}
		double el = now() - t0;
		sink += acc;
		if (el < best)
			best = el;
	}
	return best / paths * 1e6;
}

int main(int argc, char **argv)
{
	size_t pairs = 1000000, paths = 1000;
	unsigned threads = 0;
	const char *files[3];
	int nfiles = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--pairs") && i + 1 < argc)
			pairs = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--paths") && i + 1 < argc)
			paths = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
			threads = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (nfiles < 3 && argv[i][0] != '-')
			files[nfiles++] = argv[i];
		else
			nfiles = 9;
	}
	if ((nfiles != 1 && nfiles != 3) || !pairs || !paths) {
		fprintf(stderr, "usage: junctions_bench [--pairs N] [--paths N] [--threads N] LEVEL.map [PLAIN.twz JUNCTIONS.twz]\n");
		return 2;
	}
	struct twz_grid g;
	struct twz_error err = { { 0 }, 0 };
	if (twz_grid_load(files[0], &g, &err) != 0)
		die(err.msg, NULL);

	struct side side[2] = { { .name = "plain CPD" }, { .name = "junctions" } };
	for (int k = 0; k < 2; k++) {
		if (nfiles == 3)
			load(&side[k], files[1 + k]);
		else
			bake(&side[k], &g, threads, k, files[0]);
		twz_status st = twz_open_memory(side[k].buf, side[k].len, 0, &side[k].db);
		if (st != TWZ_OK)
			die(twz_strerror(st), side[k].name);
		twz_info in;
		twz_get_info(side[k].db, &in);
		if (in.width != g.width || in.height != g.height ||
		    in.level_hash != g.level_hash)
			die("not baked from this level", side[k].name);
	}

	/* Random pairs of walkable cells that reach each other. */
	uint32_t *cells = malloc(((size_t)g.width * g.height + 1) * sizeof *cells);
	size_t ncells = 0;
	for (uint32_t y = 0; y < g.height; y++)
		for (uint32_t x = 0; x < g.width; x++)
			if (g.walkable[(size_t)y * g.width + x])
				cells[ncells++] = y * g.width + x;
	if (!ncells)
		die("no walkable cell", files[0]);
	for (int k = 0; k < 2; k++) {
		side[k].s = malloc(pairs * sizeof(twz_node));
		side[k].t = malloc(pairs * sizeof(twz_node));
		side[k].ps = malloc(paths * sizeof(twz_node));
		side[k].pt = malloc(paths * sizeof(twz_node));
		if (!side[k].s || !side[k].t || !side[k].ps || !side[k].pt)
			die("out of memory", NULL);
	}
	uint64_t x = 0x9E3779B97F4A7C15ull;
	for (size_t i = 0; i < pairs + paths;) {
		uint32_t a = cells[next_rand(&x) % ncells], b = cells[next_rand(&x) % ncells];
		twz_node s0 = twz_node_at(side[0].db, a % g.width, a / g.width);
		twz_node t0 = twz_node_at(side[0].db, b % g.width, b / g.width);
		if (twz_next(side[0].db, s0, t0) == TWZ_NONE)
			continue;  /* another region */
		for (int k = 0; k < 2; k++) {
			twz_node s = twz_node_at(side[k].db, a % g.width, a / g.width);
			twz_node t = twz_node_at(side[k].db, b % g.width, b / g.width);
			if (i < pairs) {
				side[k].s[i] = s;
				side[k].t[i] = t;
			} else {
				side[k].ps[i - pairs] = s;
				side[k].pt[i - pairs] = t;
			}
		}
		i++;
	}
	/* Every path the same cost in both. */
	for (size_t i = 0; i < paths; i++) {
		uint32_t s0, d0, s1, d1;
		if (twz_cost_exact(side[0].db, side[0].ps[i], side[0].pt[i], &s0, &d0) != TWZ_OK ||
		    twz_cost_exact(side[1].db, side[1].ps[i], side[1].pt[i], &s1, &d1) != TWZ_OK ||
		    s0 != s1 || d0 != d1)
			die("a path costs differently in the two databases", NULL);
	}
	size_t cap = twz_node_count(side[0].db) + 1;
	twz_node *buf = malloc(cap * sizeof *buf);
	if (!buf)
		die("out of memory", NULL);

	double next_ns[2], path_us[2];
	twz_info in[2];
	for (int k = 0; k < 2; k++) {
		twz_get_info(side[k].db, &in[k]);
		next_ns[k] = time_next(&side[k], pairs);
		path_us[k] = time_path(&side[k], paths, buf, cap);
	}
	const uint8_t *p;
	size_t psize;
	twz_inspect_section(side[1].db, TWZ_SECTION_JUNCTION_PARAMS, &p, &psize);
	if (!p || psize != TWZ_JP_SIZE)
		die("the second database is no junction graph", files[nfiles == 3 ? 2 : 0]);
	uint32_t J = twz_le32(p + TWZ_JP_JUNCTIONS), L = twz_le32(p + TWZ_JP_LINKS);

	printf("level          %s: %u x %u, %u nodes, %u junctions (%.1f%%), %u links\n",
	       files[0], g.width, g.height, in[0].node_count, J,
	       100.0 * J / in[0].node_count, L);
	printf("                 plain CPD     junctions     plain / junctions\n");
	if (nfiles == 1)
		printf("bake           %10.2f s  %10.2f s      %.2fx\n", side[0].bake_s,
		       side[1].bake_s, side[0].bake_s / side[1].bake_s);
	printf("file           %10.1f KB %10.1f KB     %.2fx\n", side[0].len / 1024.0,
	       side[1].len / 1024.0, (double)side[0].len / side[1].len);
	printf("in memory      %10.1f KB %10.1f KB     %.2fx\n",
	       in[0].memory_size / 1024.0, in[1].memory_size / 1024.0,
	       (double)in[0].memory_size / in[1].memory_size);
	printf("runs           %12" PRIu64 "  %12" PRIu64 "   %.2fx\n", in[0].run_count,
	       in[1].run_count, (double)in[0].run_count / in[1].run_count);
	printf("first move     %10.1f ns %10.1f ns     %.2fx   [%zu random pairs]\n",
	       next_ns[0], next_ns[1], next_ns[0] / next_ns[1], pairs);
	printf("whole path     %10.2f us %10.2f us     %.2fx   [%zu random paths, costs equal]\n",
	       path_us[0], path_us[1], path_us[0] / path_us[1], paths);
	for (int k = 0; k < 2; k++) {
		twz_close(side[k].db);
		free(side[k].buf);
		free(side[k].s);
		free(side[k].t);
		free(side[k].ps);
		free(side[k].pt);
	}
	free(buf);
	free(cells);
	twz_grid_free(&g);
	return 0;
}
