/*
 * check_movingai.c - Moving AI benchmark levels baked in-process: every
 * scenario line answered with a legal path of the published optimal
 * length, and one handle queried from several threads at once.
 *
 * The levels are not part of the project. When they are absent the tests
 * say so in a TAP comment and pass, so the suite runs anywhere.
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level_scen.h"
#include "test_support.h"
#include "twigz.h"
#include "twz_format.h"

/* The levels every scenario line of which is checked. */
static const char *const scenario_levels[] = {
	"dao/arena",
	"da2/ht_chantry_n",
	"dao/ost003d",
	"dao/den011d",
};
#define LEVEL_COUNT (int)(sizeof scenario_levels / sizeof scenario_levels[0])

/* A level, its scenarios and its database, baked in memory. */
struct baked {
	char scen_path[4096];
	struct twz_grid g;
	struct twz_scen sc;
	uint8_t *buf;
	size_t len;
	twz_db *db;
};

/* Whether the Moving AI levels are here; prints a TAP note when not. */
static int movingai_present(void)
{
	if (twz_test_movingai_dir())
		return 1;
	printf("# movingai levels not found at %s (set TWZ_MOVINGAI_DIR): "
	       "skipped\n", twz_test_movingai_where());
	fflush(stdout);
	return 0;
}

/* Load, bake (8-connected, default threads) and open one level. */
static void baked_open(struct baked *b, const char *name)
{
	memset(b, 0, sizeof *b);
	ck_assert_int_eq(twz_test_movingai_load(name, &b->g, &b->sc, b->scen_path,
						sizeof b->scen_path), 0);
	ck_assert_msg(b->sc.count > 0, "%s: no scenario lines", b->scen_path);
	b->buf = twz_test_bake(&b->g, 8, TWZ_CODEC_ZSTD, 0, &b->len);
	twz_status st = twz_open_memory(b->buf, b->len, 0, &b->db);
	ck_assert_msg(st == TWZ_OK, "%s: open: %s", name, twz_strerror(st));
}

static void baked_close(struct baked *b)
{
	twz_close(b->db);
	free(b->buf);
	twz_scen_free(&b->sc);
	twz_grid_free(&b->g);
	memset(b, 0, sizeof *b);
}

/* The move between two neighbouring cells, or -1. */
static int move_of(int64_t dx, int64_t dy)
{
	for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++)
		if (twz_test_move_dx(m) == dx && twz_test_move_dy(m) == dy)
			return (int)m;
	return -1;
}

/* One scenario line: a legal path from start to goal whose cost matches
 * the published optimum, and the cost queries agreeing with it. */
static void check_scenario_line(const struct baked *b,
				const struct twz_scen_entry *e, twz_node *path,
				size_t cap)
{
	const char *f = b->scen_path;
	twz_node s = twz_node_at(b->db, e->sx, e->sy);
	twz_node t = twz_node_at(b->db, e->gx, e->gy);
	size_t len = 0;

	expect(e->map_width == b->g.width && e->map_height == b->g.height,
	       "%s:%lu: scenario is for a %ux%u map", f, e->line, e->map_width,
	       e->map_height);
	expect(s != TWZ_NONE && t != TWZ_NONE, "%s:%lu: start or goal has no node",
	       f, e->line);
	twz_status st = twz_path(b->db, s, t, path, cap, &len);
	expect(st == TWZ_OK, "%s:%lu: path: %s", f, e->line, twz_strerror(st));
	expect(len >= 1 && len <= cap && path[0] == s && path[len - 1] == t,
	       "%s:%lu: path of %zu nodes does not run from start to goal",
	       f, e->line, len);

	uint32_t x, y, straight = 0, diagonal = 0;
	expect(twz_node_xy(b->db, path[0], &x, &y) == TWZ_OK &&
	       x == e->sx && y == e->sy, "%s:%lu: first node is (%u,%u)", f,
	       e->line, x, y);
	for (size_t i = 1; i < len; i++) {
		uint32_t nx, ny;
		expect(twz_node_xy(b->db, path[i], &nx, &ny) == TWZ_OK,
		       "%s:%lu: step %zu: bad node %u", f, e->line, i, path[i]);
		int m = move_of((int64_t)nx - x, (int64_t)ny - y);
		expect(m >= 0 && twz_test_move_legal(&b->g, 8, x, y, (unsigned)m),
		       "%s:%lu: step %zu (%u,%u) -> (%u,%u) is not a legal move",
		       f, e->line, i, x, y, nx, ny);
		if (m >= 4)
			diagonal++;
		else
			straight++;
		x = nx;
		y = ny;
	}
	expect(x == e->gx && y == e->gy, "%s:%lu: last node is (%u,%u)", f,
	       e->line, x, y);

	double cost = straight + diagonal * 1.41421356237309504880;
	expect(twz_scen_cost_matches(e, cost),
	       "%s:%lu: (%u,%u) -> (%u,%u) costs %.8f, optimal %.8f", f, e->line,
	       e->sx, e->sy, e->gx, e->gy, cost, e->optimal);

	uint32_t cs = UINT32_MAX, cd = UINT32_MAX;
	expect(twz_cost_exact(b->db, s, t, &cs, &cd) == TWZ_OK &&
	       cs == straight && cd == diagonal,
	       "%s:%lu: cost_exact {%u,%u}, path {%u,%u}", f, e->line, cs, cd,
	       straight, diagonal);
	expect(twz_next(b->db, s, t) == (len > 1 ? path[1] : t),
	       "%s:%lu: next disagrees with the path", f, e->line);
}

/* ---- Scenarios -------------------------------------------------------- */

START_TEST(test_movingai_scenarios_optimal)
{
	const char *name = scenario_levels[_i];
	struct baked b;

	if (!movingai_present())
		return;
	baked_open(&b, name);
	uint32_t n = twz_node_count(b.db);
	twz_node *path = malloc((size_t)n * sizeof *path);
	ck_assert_ptr_nonnull(path);
	for (size_t i = 0; i < b.sc.count; i++)
		check_scenario_line(&b, &b.sc.entries[i], path, n);
	printf("# %s: %zu scenario lines, %u nodes, %zu bytes\n", name,
	       b.sc.count, n, b.len);
	fflush(stdout);
	free(path);
	baked_close(&b);
}
END_TEST

/* ---- Threads ---------------------------------------------------------- */

#define THREADS 4
#define RANDOM_PAIRS 20000
#define ROUNDS 3

/* One query's answers, all of them compared between threads. */
struct answer {
	twz_node next;
	twz_status path_status;
	uint32_t path_len;
	uint64_t path_hash;     /* FNV-1a of the path's node ids */
	uint32_t straight;
	uint32_t diagonal;
};

struct query_set {
	const twz_db *db;
	size_t count;
	const twz_node *s;      /* [count] */
	const twz_node *t;      /* [count] */
};

/* Answer every query of qs into out; path has the node count. */
static void answer_all(const struct query_set *qs, twz_node *path,
		       struct answer *out)
{
	uint32_t n = twz_node_count(qs->db);

	for (size_t i = 0; i < qs->count; i++) {
		struct answer *a = &out[i];
		size_t len = 0;

		memset(a, 0, sizeof *a);
		a->next = twz_next(qs->db, qs->s[i], qs->t[i]);
		a->path_status = twz_path(qs->db, qs->s[i], qs->t[i], path, n, &len);
		a->path_len = (uint32_t)len;
		a->path_hash = twz_test_path_hash(path, len < n ? len : n);
		twz_cost_exact(qs->db, qs->s[i], qs->t[i], &a->straight, &a->diagonal);
	}
}

struct worker {
	pthread_t tid;
	const struct query_set *qs;
	pthread_barrier_t *start;
	struct answer *out;     /* [count], per round overwritten */
	const struct answer *want;
	size_t mismatches;
	int failed;             /* out of memory */
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	twz_node *path = malloc((size_t)twz_node_count(w->qs->db) * sizeof *path);

	pthread_barrier_wait(w->start);
	if (!path) {
		w->failed = 1;
		return NULL;
	}
	for (int r = 0; r < ROUNDS; r++) {
		answer_all(w->qs, path, w->out);
		for (size_t i = 0; i < w->qs->count; i++)
			w->mismatches += memcmp(&w->out[i], &w->want[i],
						sizeof w->out[i]) != 0;
	}
	free(path);
	return NULL;
}

START_TEST(test_movingai_threads_share_handle)
{
	struct baked b;

	if (!movingai_present())
		return;
	baked_open(&b, "dao/arena");
	uint32_t n = twz_node_count(b.db);
	size_t count = b.sc.count + RANDOM_PAIRS;
	twz_node *s = malloc(count * sizeof *s), *t = malloc(count * sizeof *t);
	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(t);

	/* Every scenario line, then random pairs of nodes. */
	for (size_t i = 0; i < b.sc.count; i++) {
		const struct twz_scen_entry *e = &b.sc.entries[i];
		s[i] = twz_node_at(b.db, e->sx, e->sy);
		t[i] = twz_node_at(b.db, e->gx, e->gy);
	}
	uint64_t rng = 0x2545F4914F6CDD1Dull;
	for (size_t i = b.sc.count; i < count; i++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		s[i] = (twz_node)(rng % n);
		t[i] = (twz_node)((rng >> 32) % n);
	}
	struct query_set qs = { b.db, count, s, t };

	/* Single-threaded answers first. */
	struct answer *want = malloc(count * sizeof *want);
	twz_node *path = malloc((size_t)n * sizeof *path);
	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(path);
	answer_all(&qs, path, want);
	size_t reachable = 0;
	for (size_t i = 0; i < count; i++)
		reachable += want[i].path_status == TWZ_OK;
	ck_assert_uint_gt(reachable, count / 2);

	pthread_barrier_t start;
	struct worker w[THREADS];
	ck_assert_int_eq(pthread_barrier_init(&start, NULL, THREADS), 0);
	for (int i = 0; i < THREADS; i++) {
		memset(&w[i], 0, sizeof w[i]);
		w[i].qs = &qs;
		w[i].start = &start;
		w[i].want = want;
		w[i].out = malloc(count * sizeof *w[i].out);
		ck_assert_ptr_nonnull(w[i].out);
		ck_assert_int_eq(pthread_create(&w[i].tid, NULL, worker_main, &w[i]), 0);
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(w[i].tid, NULL);
	pthread_barrier_destroy(&start);
	for (int i = 0; i < THREADS; i++) {
		ck_assert_msg(!w[i].failed, "thread %d: out of memory", i);
		ck_assert_msg(w[i].mismatches == 0,
			      "thread %d: %zu of %zu answers differ from one thread's",
			      i, w[i].mismatches, count * ROUNDS);
		free(w[i].out);
	}
	free(want);
	free(path);
	free(s);
	free(t);
	baked_close(&b);
}
END_TEST

static Suite *twz_movingai_suite(void)
{
	Suite *s = suite_create("movingai");
	TCase *tc;

	tc = tcase_create("Scenarios");
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_movingai_scenarios_optimal, 0, LEVEL_COUNT);
	suite_add_tcase(s, tc);

	tc = tcase_create("Threads");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_movingai_threads_share_handle);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_movingai_suite());
}
