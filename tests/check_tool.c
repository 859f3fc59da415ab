/*
 * check_tool.c - the `twigz` command as a pipeline runs it (the built
 * tool's path is in $TWZ_TOOL): build, query --json, verify, info --json,
 * and every failure: the exit status, one line on stderr naming the file,
 * and no output or temporary file left behind.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "cmd_bench.h"
#include "level_map.h"
#include "level_scen.h"
#include "test_support.h"
#include "twigz.h"
#include "twz_validate.h"
#include "twz_writer.h"

/* The command's documented exit statuses. */
enum {
	EXIT_OK = 0,
	EXIT_VERIFY = 1,
	EXIT_USAGE = 2,
	EXIT_INPUT = 3,
	EXIT_IO = 4,
};

/* ---- a scratch directory ------------------------------------------------ */

/* base is made once per test case by the runner and removed after it, so
 * even a test that fails leaves nothing behind; each test gets its own
 * root inside it, and in root, work, where the tool writes. */
static char base[4096];
static char root[4200];
static char work[4300];

static void base_setup(void)
{
	if (!twz_test_make_dir(base, sizeof base, "twz-tool-")) {
		fprintf(stderr, "mkdtemp %s: %s\n", base, strerror(errno));
		base[0] = 0;
	}
}

static void base_teardown(void)
{
	if (base[0])
		twz_test_remove_tree(base);
}

static void scratch_setup(void)
{
	ck_assert_msg(base[0], "no temporary directory");
	snprintf(root, sizeof root, "%s/XXXXXX", base);
	ck_assert_msg(mkdtemp(root) != NULL, "mkdtemp: %s", strerror(errno));
	snprintf(work, sizeof work, "%s/work", root);
	ck_assert_int_eq(mkdir(work, 0755), 0);
}

static void scratch_teardown(void)
{
	twz_test_remove_tree(root);
}

/* Paths into rotating buffers: a few may be held at once. */
static const char *in_work(const char *name)
{
	static char path[8][8400];
	static unsigned which;

	which = (which + 1) % 8;
	snprintf(path[which], sizeof path[which], "%s/%s", work, name);
	return path[which];
}

/* The names in a directory, sorted, joined by spaces ("" when empty). */
static char *listing(const char *dir)
{
	char *names[256];
	size_t n = 0, total = 1;
	DIR *d = opendir(dir);
	struct dirent *e;

	ck_assert_msg(d != NULL, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d)) && n < 256) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		names[n] = strdup(e->d_name);
		ck_assert_ptr_nonnull(names[n]);
		total += strlen(names[n]) + 1;
		n++;
	}
	closedir(d);
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char *t = names[j];
			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	char *out = calloc(1, total);
	ck_assert_ptr_nonnull(out);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(out, " ");
		strcat(out, names[i]);
		free(names[i]);
	}
	return out;
}

static void assert_listing(const char *dir, const char *want)
{
	char *got = listing(dir);
	ck_assert_msg(strcmp(got, want) == 0, "%s holds '%s', expected '%s'", dir, got,
		      want);
	free(got);
}

/* ---- running the tool --------------------------------------------------- */

/* Runs the tool to its end; a crash fails the test. */
static void run_tool(const char *const args[], struct twz_test_run *r)
{
	twz_test_run_tool(args, NULL, 0, r);
	ck_assert_msg(r->signal == 0, "twigz %s died of signal %d; stderr: %s",
		      args[0], r->signal, r->err);
}

#define TOOL(r, ...)                                                 \
	do {                                                         \
		const char *const args_[] = { __VA_ARGS__, NULL };   \
		run_tool(args_, (r));                                \
	} while (0)

static void assert_status(const struct twz_test_run *r, int want)
{
	ck_assert_msg(r->status == want, "exit status %d, expected %d; stderr: %s",
		      r->status, want, r->err);
}

/* stderr is exactly one line that says each of the given things. */
static void assert_one_error_line(const struct twz_test_run *r, const char *a, const char *b)
{
	ck_assert_msg(r->err_len > 0 && r->err[r->err_len - 1] == '\n' &&
			      memchr(r->err, '\n', r->err_len) == r->err + r->err_len - 1,
		      "stderr is not one line: '%s'", r->err);
	ck_assert_msg(strstr(r->err, a), "stderr '%s' should name '%s'", r->err, a);
	if (b)
		ck_assert_msg(strstr(r->err, b), "stderr '%s' should say '%s'", r->err, b);
}

static void build(const char *level, const char *out, const char *codec,
		  const char *threads)
{
	struct twz_test_run r;

	TOOL(&r, "build", level, "-o", out, "--codec", codec, "--threads", threads,
	     "--quiet");
	assert_status(&r, EXIT_OK);
	ck_assert_uint_eq(r.out_len, 0);
	ck_assert_msg(r.err_len == 0, "--quiet build wrote '%s'", r.err);
	twz_test_run_free(&r);
}

/* ---- the JSON line of a query ------------------------------------------- */

struct parsed {
	uint32_t sx, sy, gx, gy;
	int reachable;
	double cost;
	size_t n;
	uint32_t xy[512][2];
};

static int lit(const char **p, const char *s)
{
	size_t n = strlen(s);
	if (strncmp(*p, s, n))
		return -1;
	*p += n;
	return 0;
}

static int uint_field(const char **p, uint32_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (*s < '0' || *s > '9' || (s[0] == '0' && s[1] >= '0' && s[1] <= '9'))
		return -1;
	while (*s >= '0' && *s <= '9' && x <= UINT32_MAX)
		x = x * 10 + (uint64_t)(*s++ - '0');
	if (x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	*p = s;
	return 0;
}

/* A JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int number_field(const char **p, double *v)
{
	const char *s = *p, *start = *p;

	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return -1;
	if (*s == '.') {
		s++;
		if (*s < '0' || *s > '9')
			return -1;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return -1;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	*v = strtod(start, NULL);
	*p = s;
	return 0;
}

/* Parses exactly one line of the documented form; returns the position
 * after its '\n', or NULL (with why) when it departs from the form. */
static const char *parse_line(const char *p, struct parsed *q, const char **why)
{
	*why = "start";
	if (lit(&p, "{\"start\":[") || uint_field(&p, &q->sx) || lit(&p, ",") ||
	    uint_field(&p, &q->sy))
		return NULL;
	*why = "goal";
	if (lit(&p, "],\"goal\":[") || uint_field(&p, &q->gx) || lit(&p, ",") ||
	    uint_field(&p, &q->gy) || lit(&p, "],\"cost\":"))
		return NULL;
	q->n = 0;
	*why = "cost";
	if (!lit(&p, "null")) {
		q->reachable = 0;
		*why = "unreachable path";
		if (lit(&p, ",\"path\":[],\"status\":\"unreachable\"}\n"))
			return NULL;
		return p;
	}
	q->reachable = 1;
	if (number_field(&p, &q->cost))
		return NULL;
	*why = "path";
	if (lit(&p, ",\"path\":["))
		return NULL;
	for (;;) {
		if (q->n == 512 || lit(&p, "[") || uint_field(&p, &q->xy[q->n][0]) ||
		    lit(&p, ",") || uint_field(&p, &q->xy[q->n][1]) || lit(&p, "]"))
			return NULL;
		q->n++;
		if (!lit(&p, "]"))
			break;
		if (lit(&p, ","))
			return NULL;
	}
	*why = "end";
	if (lit(&p, "}\n"))
		return NULL;
	return p;
}

/* The line answers (sx,sy)->(gx,gy) optimally on g: the path starts and
 * ends right, every step is one legal move, the cost is the walked cost
 * and the Dijkstra optimum. */
static void check_answer(const struct parsed *q, const struct twz_grid *g,
			 uint32_t sx, uint32_t sy, uint32_t gx, uint32_t gy)
{
	size_t cells = (size_t)g->width * g->height;
	struct twz_cost *dist = malloc(cells * sizeof *dist);

	ck_assert_ptr_nonnull(dist);
	expect(q->sx == sx && q->sy == sy && q->gx == gx && q->gy == gy,
	       "line for (%u,%u)->(%u,%u) answers (%u,%u)->(%u,%u)", sx, sy, gx, gy,
	       q->sx, q->sy, q->gx, q->gy);
	twz_test_dijkstra(g, 8, sx, sy, dist);
	struct twz_cost best = dist[(size_t)gy * g->width + gx];
	free(dist);
	if (best.straight == UINT32_MAX) {
		expect(!q->reachable, "(%u,%u)->(%u,%u) is unreachable", sx, sy, gx, gy);
		return;
	}
	expect(q->reachable, "(%u,%u)->(%u,%u) said unreachable", sx, sy, gx, gy);
	expect(q->n == (size_t)best.straight + best.diagonal + 1,
	       "(%u,%u)->(%u,%u): %zu path cells", sx, sy, gx, gy, q->n);
	expect(q->xy[0][0] == sx && q->xy[0][1] == sy && q->xy[q->n - 1][0] == gx &&
	       q->xy[q->n - 1][1] == gy, "(%u,%u)->(%u,%u): path ends", sx, sy, gx, gy);
	double walked = 0;
	for (size_t k = 1; k < q->n; k++) {
		int legal = 0;
		for (unsigned m = 0; m < 8; m++)
			if ((int64_t)q->xy[k - 1][0] + twz_test_move_dx(m) == q->xy[k][0] &&
			    (int64_t)q->xy[k - 1][1] + twz_test_move_dy(m) == q->xy[k][1] &&
			    twz_test_move_legal(g, 8, q->xy[k - 1][0], q->xy[k - 1][1], m)) {
				legal = 1;
				walked += m >= 4 ? sqrt(2.0) : 1.0;
			}
		expect(legal, "(%u,%u)->(%u,%u): step %zu is not a legal move", sx, sy,
		       gx, gy, k);
	}
	double optimum = best.straight + best.diagonal * sqrt(2.0);
	expect(fabs(q->cost - walked) < 1e-6 && fabs(q->cost - optimum) < 1e-6,
	       "(%u,%u)->(%u,%u): cost %.10g, walked %.10g, optimum %.10g", sx, sy,
	       gx, gy, q->cost, walked, optimum);
}

static void load_rooms(struct twz_grid *g)
{
	struct twz_error err = { { 0 }, 0 };
	ck_assert_msg(twz_grid_load(twz_test_level_file("rooms.map"), g, &err) == 0, "%s",
		      err.msg);
}

/* ---- Build -------------------------------------------------------------- */

START_TEST(test_tool_build_writes_only_its_output)
{
	struct twz_test_run r;
	twz_db *db;
	twz_info in;
	size_t map_len;

	umask(022);
	TOOL(&r, "build", twz_test_level_file("rooms.map"), "-o", in_work("rooms.twz"),
	     "--threads", "1");
	assert_status(&r, EXIT_OK);
	ck_assert_uint_eq(r.out_len, 0);
	/* Not quiet: one summary line on stderr. */
	ck_assert_msg(strstr(r.err, "rooms.map") != NULL, "%s", r.err);
	twz_test_run_free(&r);
	assert_listing(work, "rooms.twz");

	uint8_t *map = twz_test_read_file(twz_test_level_file("rooms.map"), &map_len);
	ck_assert_int_eq(twz_open(in_work("rooms.twz"), 0, &db), TWZ_OK);
	ck_assert_int_eq(twz_get_info(db, &in), TWZ_OK);
	ck_assert_uint_eq(in.width, 20);
	ck_assert_uint_eq(in.height, 10);
	ck_assert_uint_eq(in.node_count, 135);
	ck_assert_uint_eq(in.component_count, 3);
	ck_assert_uint_eq(in.connectivity, 8);
	ck_assert_uint_eq(in.build_codec, 1);
	ck_assert_uint_eq(in.level_hash, XXH3_64bits(map, map_len));
	twz_close(db);
	free(map);

	/* The database is an ordinary file, readable like its level. */
	struct stat st;
	ck_assert_int_eq(stat(in_work("rooms.twz"), &st), 0);
	ck_assert_uint_eq(st.st_mode & 0444, 0444);
}
END_TEST

START_TEST(test_tool_build_threads_identical)
{
	static const char *const codec[] = { "zstd", "raw" };
	struct twz_grid g;

	char levels[2][8400];

	twz_test_generate(&g, TWZ_TEST_CAVES, 48, 32, 11);
	twz_test_write_map(in_work("caves.map"), &g);
	twz_grid_free(&g);
	snprintf(levels[0], sizeof levels[0], "%s", twz_test_level_file("rooms.map"));
	snprintf(levels[1], sizeof levels[1], "%s", in_work("caves.map"));
	for (int l = 0; l < 2; l++) {
		for (int c = 0; c < 2; c++) {
			size_t a_len, b_len;
			build(levels[l], in_work("t1.twz"), codec[c], "1");
			build(levels[l], in_work("t2.twz"), codec[c], "2");
			uint8_t *a = twz_test_read_file(in_work("t1.twz"), &a_len);
			uint8_t *b = twz_test_read_file(in_work("t2.twz"), &b_len);
			ck_assert_msg(a_len == b_len && memcmp(a, b, a_len) == 0,
				      "%s, %s: --threads 1 and 2 differ", levels[l], codec[c]);
			/* And again: a bake is deterministic. */
			build(levels[l], in_work("t2.twz"), codec[c], "2");
			free(b);
			b = twz_test_read_file(in_work("t2.twz"), &b_len);
			ck_assert(a_len == b_len && memcmp(a, b, a_len) == 0);
			free(a);
			free(b);
		}
	}
	assert_listing(work, "caves.map t1.twz t2.twz");
}
END_TEST

/* A failed bake leaves an earlier good output as it was. */
START_TEST(test_tool_build_failure_keeps_old_output)
{
	struct twz_test_run r;
	size_t a_len, b_len;

	build(twz_test_level_file("rooms.map"), in_work("rooms.twz"), "zstd", "1");
	uint8_t *a = twz_test_read_file(in_work("rooms.twz"), &a_len);
	TOOL(&r, "build", twz_test_level_file("bad_row.map"), "-o", in_work("rooms.twz"));
	assert_status(&r, EXIT_INPUT);
	twz_test_run_free(&r);
	uint8_t *b = twz_test_read_file(in_work("rooms.twz"), &b_len);
	ck_assert(a_len == b_len && memcmp(a, b, a_len) == 0);
	assert_listing(work, "rooms.twz");
	free(a);
	free(b);
}
END_TEST

/* Killed in the middle of a bake: no output, or a complete one, never a
 * partial file under the output's name. */
START_TEST(test_tool_build_killed_leaves_no_partial_output)
{
	struct twz_grid g;
	const char *const args[] = { "build", in_work("big.map"), "-o",
				     in_work("big.twz"), "--threads", "1", "--quiet",
				     NULL };
	struct timespec pause = { 0, 60 * 1000 * 1000 };
	int ws;

	twz_test_generate(&g, TWZ_TEST_OPEN_HOLLOW, 64, 64, 2);
	twz_test_write_map(in_work("big.map"), &g);
	twz_grid_free(&g);
	pid_t pid = twz_test_spawn_tool(args);
	nanosleep(&pause, NULL);
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
	struct stat st;
	if (stat(in_work("big.twz"), &st) == 0) {
		/* It finished first: then the file is whole. */
		twz_db *db;
		ck_assert_int_eq(twz_open(in_work("big.twz"), 0, &db), TWZ_OK);
		twz_close(db);
	} else {
		ck_assert_int_eq(errno, ENOENT);
	}
}
END_TEST

/* A level, the output and the scratch directory after a signal: no
 * temporary file, and no output or a complete one. */
static void assert_signal_left_no_tmp(const char *out)
{
	struct stat st;

	if (stat(out, &st) == 0) {
		/* It was renamed first: then the file is whole. */
		twz_db *db;
		ck_assert_int_eq(twz_open(out, 0, &db), TWZ_OK);
		twz_close(db);
	} else {
		ck_assert_int_eq(errno, ENOENT);
	}
	char *names = listing(work);
	ck_assert_msg(!strstr(names, ".tmp."), "a temporary file is left: %s", names);
	free(names);
}

/* SIGTERM and SIGINT at several points of a bake, the last ones late
 * enough to fall in or after the write: never a temporary file left. */
START_TEST(test_tool_build_signal_leaves_no_tmp)
{
	static const long delays_ms[] = { 20, 150, 400, 700, 900 };
	struct twz_grid g;
	char level[8400], out[8400];

	/* Own copies: in_work's buffers rotate. */
	snprintf(level, sizeof level, "%s", in_work("big.map"));
	snprintf(out, sizeof out, "%s", in_work("big.twz"));
	const char *const args[] = { "build", level, "-o", out, "--threads", "1",
				     "--quiet", NULL };
	twz_test_generate(&g, TWZ_TEST_OPEN_HOLLOW, 64, 64, 2);
	twz_test_write_map(level, &g);
	twz_grid_free(&g);
	for (size_t i = 0; i < sizeof delays_ms / sizeof delays_ms[0]; i++) {
		struct timespec pause = { 0, delays_ms[i] * 1000 * 1000 };
		int ws;

		unlink(out);
		pid_t pid = twz_test_spawn_tool(args);
		nanosleep(&pause, NULL);
		kill(pid, i & 1 ? SIGINT : SIGTERM);
		ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
		ck_assert_msg(WIFEXITED(ws) ? WEXITSTATUS(ws) == 0 : WIFSIGNALED(ws),
			      "the tool ended with status %d", ws);
		assert_signal_left_no_tmp(out);
	}
}
END_TEST

/* The write window itself, hit every time: a thread of the writing
 * process waits for the temporary file to appear, then signals its own
 * process. The process ends by that signal, and leaves no file. */
struct tmp_watch {
	int sig;
};

static void *watch_for_tmp(void *arg)
{
	const struct tmp_watch *w = arg;

	for (;;) {
		char *names = listing(work);
		int seen = strstr(names, ".tmp.") != NULL;
		free(names);
		if (seen)
			break;
		sched_yield();
	}
	kill(getpid(), w->sig);
	return NULL;
}

START_TEST(test_tool_write_signal_removes_tmp)
{
	static const int sigs[] = { SIGTERM, SIGINT };
	struct tmp_watch w = { sigs[_i] };
	size_t len = (size_t)64 << 20;
	int ws;

	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* As in the tool: the runner's own handlers are not ours. */
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		uint8_t *buf = calloc(1, len);
		struct twz_error err = { { 0 }, 0 };
		pthread_t t;
		if (!buf || pthread_create(&t, NULL, watch_for_tmp, &w) != 0)
			_exit(3);
		/* Many writes, so the signal lands inside the window. */
		for (int k = 0; k < 64; k++)
			twz_write_atomic(in_work("window.twz"), buf, len, &err);
		_exit(2);
	}
	ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
	ck_assert_msg(WIFSIGNALED(ws) && WTERMSIG(ws) == sigs[_i],
		      "the writer ended with status %d, not by signal %d", ws, sigs[_i]);
	char *names = listing(work);
	ck_assert_msg(!strstr(names, ".tmp."), "a temporary file is left: %s", names);
	free(names);
}
END_TEST

/* ---- Query --------------------------------------------------------------- */

START_TEST(test_tool_query_json_form)
{
	static const uint32_t pairs[][4] = {
		{ 0, 0, 19, 9 }, { 19, 6, 0, 9 }, { 13, 1, 18, 4 }, { 8, 1, 15, 1 },
		{ 0, 0, 4, 7 }, { 4, 7, 5, 8 }, { 13, 8, 15, 8 }, { 4, 7, 4, 7 },
		{ 13, 8, 0, 0 },
	};
	struct twz_grid g;
	struct parsed q;
	const char *why;

	load_rooms(&g);
	build(twz_test_level_file("rooms.map"), in_work("rooms.twz"), "zstd", "1");
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		struct twz_test_run r;
		char c[4][16];
		for (int k = 0; k < 4; k++)
			snprintf(c[k], sizeof c[k], "%u", pairs[i][k]);
		TOOL(&r, "query", in_work("rooms.twz"), c[0], c[1], c[2], c[3], "--json");
		assert_status(&r, EXIT_OK);
		ck_assert_msg(r.err_len == 0, "stderr: %s", r.err);
		const char *end = parse_line(r.out, &q, &why);
		ck_assert_msg(end != NULL, "query %zu: bad %s in '%s'", i, why, r.out);
		ck_assert_msg(*end == 0, "query %zu: more than one line: '%s'", i, r.out);
		check_answer(&q, &g, pairs[i][0], pairs[i][1], pairs[i][2], pairs[i][3]);
		twz_test_run_free(&r);
	}

	/* The exact bytes of the two short forms. */
	struct twz_test_run r;
	TOOL(&r, "query", in_work("rooms.twz"), "0", "0", "4", "7", "--json");
	ck_assert_str_eq(r.out, "{\"start\":[0,0],\"goal\":[4,7],\"cost\":null,"
			 "\"path\":[],\"status\":\"unreachable\"}\n");
	twz_test_run_free(&r);
	TOOL(&r, "query", in_work("rooms.twz"), "--json", "4", "7", "4", "7");
	ck_assert_str_eq(r.out, "{\"start\":[4,7],\"goal\":[4,7],\"cost\":0,\"path\":[[4,7]]}\n");
	twz_test_run_free(&r);
	TOOL(&r, "query", in_work("rooms.twz"), "13", "8", "15", "8", "--json");
	ck_assert_str_eq(r.out,
			 "{\"start\":[13,8],\"goal\":[15,8],\"cost\":2,\"path\":[[13,8],[14,8],[15,8]]}\n");
	twz_test_run_free(&r);
	/* Without --json: one line of text. */
	TOOL(&r, "query", in_work("rooms.twz"), "0", "0", "19", "9");
	assert_status(&r, EXIT_OK);
	ck_assert(r.out_len > 0 && strchr(r.out, '\n') == r.out + r.out_len - 1);
	twz_test_run_free(&r);
	twz_grid_free(&g);
}
END_TEST

START_TEST(test_tool_query_scen_json_in_order)
{
	struct twz_grid g;
	struct twz_scen sc;
	struct twz_error err = { { 0 }, 0 };
	struct parsed q;
	struct twz_test_run r;
	const char *why;

	load_rooms(&g);
	ck_assert_int_eq(twz_scen_load(twz_test_level_file("rooms.map.scen"), &sc, &err), 0);
	build(twz_test_level_file("rooms.map"), in_work("rooms.twz"), "raw", "2");
	TOOL(&r, "query", in_work("rooms.twz"), "--scen", twz_test_level_file("rooms.map.scen"),
	     "--json");
	assert_status(&r, EXIT_OK);
	const char *p = r.out;
	for (size_t i = 0; i < sc.count; i++) {
		const struct twz_scen_entry *e = &sc.entries[i];
		p = parse_line(p, &q, &why);
		ck_assert_msg(p != NULL, "line %zu: bad %s in '%s'", i + 1, why, r.out);
		check_answer(&q, &g, e->sx, e->sy, e->gx, e->gy);
		ck_assert(twz_scen_cost_matches(e, q.cost));
	}
	ck_assert_msg(*p == 0, "more lines than problems: '%s'", p);
	twz_test_run_free(&r);
	twz_scen_free(&sc);
	twz_grid_free(&g);
}
END_TEST

/* query reads the problems alone: a -1, a word or no ninth field at all. */
START_TEST(test_tool_query_scen_needs_no_optimum)
{
	struct twz_test_run r;

	build(twz_test_level_file("rooms.map"), in_work("rooms.twz"), "zstd", "1");
	TOOL(&r, "query", in_work("rooms.twz"), "--scen",
	     twz_test_level_file("rooms_problems_only.scen"));
	assert_status(&r, EXIT_OK);
	ck_assert_msg(strstr(r.out, "(15,5) -> (11,2): cost 9.000000") == r.out,
		      "first answer: '%s'", r.out);
	ck_assert_ptr_nonnull(strstr(r.out, "(4,7) -> (0,0): unreachable\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "(0,0) -> (19,9): cost "));
	ck_assert_uint_eq(r.err_len, 0);
	twz_test_run_free(&r);
}
END_TEST

START_TEST(test_tool_query_bad_places)
{
	static const char *const bad[][4] = {
		{ "5", "0", "0", "0" },     /* start on a wall */
		{ "0", "0", "12", "9" },    /* goal on a wall */
		{ "20", "0", "0", "0" },    /* start off the map */
		{ "0", "0", "0", "10" },    /* goal off the map */
	};
	build(twz_test_level_file("rooms.map"), in_work("rooms.twz"), "zstd", "1");
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct twz_test_run r;
		TOOL(&r, "query", in_work("rooms.twz"), bad[i][0], bad[i][1], bad[i][2],
		     bad[i][3], "--json");
		assert_status(&r, EXIT_INPUT);
		ck_assert_uint_eq(r.out_len, 0);
		assert_one_error_line(&r, "rooms.twz", NULL);
		twz_test_run_free(&r);
	}
}
END_TEST

/* ---- Verify and info ------------------------------------------------------ */

START_TEST(test_tool_verify_counts)
{
	static const char *const good[] = { "rooms.map.scen", "rooms_old.scen",
					     "rooms_v10.scen" };
	struct twz_test_run r;

	build(twz_test_level_file("rooms.map"), in_work("rooms.twz"), "zstd", "2");
	for (size_t i = 0; i < 3; i++) {
		TOOL(&r, "verify", in_work("rooms.twz"), twz_test_level_file(good[i]));
		assert_status(&r, EXIT_OK);
		ck_assert_str_eq(r.out, "14 passed, 0 failed\n");
		twz_test_run_free(&r);
	}
	TOOL(&r, "verify", in_work("rooms.twz"), twz_test_level_file("rooms_wrong.map.scen"));
	assert_status(&r, EXIT_VERIFY);
	ck_assert_str_eq(r.out, "13 passed, 1 failed\n");
	/* The failure is named by file and line. */
	assert_one_error_line(&r, "rooms_wrong.map.scen:4:", NULL);
	twz_test_run_free(&r);

	/* -1, no path: passed when the database finds none, failed when it
	 * finds one. */
	TOOL(&r, "verify", in_work("rooms.twz"), twz_test_level_file("rooms_no_path.scen"));
	assert_status(&r, EXIT_OK);
	ck_assert_str_eq(r.out, "3 passed, 0 failed\n");
	twz_test_run_free(&r);
	TOOL(&r, "verify", in_work("rooms.twz"),
	     twz_test_level_file("rooms_no_path_wrong.scen"));
	assert_status(&r, EXIT_VERIFY);
	ck_assert_str_eq(r.out, "1 passed, 1 failed\n");
	assert_one_error_line(&r, "rooms_no_path_wrong.scen:3:", "found a path");
	twz_test_run_free(&r);

	/* A scenario that does not parse is bad input, not a failed check. */
	TOOL(&r, "verify", in_work("rooms.twz"), twz_test_level_file("bad_fields.scen"));
	assert_status(&r, EXIT_INPUT);
	ck_assert_uint_eq(r.out_len, 0);
	assert_one_error_line(&r, "bad_fields.scen:3:", "too few fields");
	twz_test_run_free(&r);
}
END_TEST

/* The value of "key" in a one-line JSON object, as text. */
static int json_value(const char *json, const char *key, char *out, size_t cap)
{
	char pat[64];
	snprintf(pat, sizeof pat, "\"%s\":", key);
	const char *p = strstr(json, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	size_t n = strcspn(p, ",}");
	if (n >= cap)
		return -1;
	memcpy(out, p, n);
	out[n] = 0;
	return 0;
}

START_TEST(test_tool_info_json)
{
	static const struct {
		const char *key;
		const char *value;
	} want[] = {
		{ "connectivity", "8" }, { "width", "20" }, { "height", "10" },
		{ "nodes", "135" }, { "regions", "3" }, { "codec", "\"raw\"" },
	};
	struct twz_test_run r;
	char v[64], hash[32];
	size_t map_len, db_len;

	build(twz_test_level_file("rooms.map"), in_work("rooms.twz"), "raw", "1");
	TOOL(&r, "info", in_work("rooms.twz"), "--json");
	assert_status(&r, EXIT_OK);
	ck_assert_uint_eq(r.err_len, 0);
	ck_assert_msg(r.out[0] == '{' && r.out_len >= 3 &&
			      strcmp(r.out + r.out_len - 2, "}\n") == 0 &&
			      strchr(r.out, '\n') == r.out + r.out_len - 1,
		      "not one JSON object on one line: '%s'", r.out);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		ck_assert_msg(json_value(r.out, want[i].key, v, sizeof v) == 0,
			      "no \"%s\" in %s", want[i].key, r.out);
		ck_assert_str_eq(v, want[i].value);
	}
	ck_assert_int_eq(json_value(r.out, "format", v, sizeof v), 0);
	ck_assert_msg(strncmp(v, "\"1.", 3) == 0, "format %s", v);
	uint8_t *map = twz_test_read_file(twz_test_level_file("rooms.map"), &map_len);
	uint8_t *db = twz_test_read_file(in_work("rooms.twz"), &db_len);
	snprintf(hash, sizeof hash, "\"%016llx\"",
		 (unsigned long long)XXH3_64bits(map, map_len));
	ck_assert_int_eq(json_value(r.out, "level_hash", v, sizeof v), 0);
	ck_assert_str_eq(v, hash);
	ck_assert_int_eq(json_value(r.out, "file_bytes", v, sizeof v), 0);
	ck_assert_uint_eq(strtoull(v, NULL, 10), db_len);
	twz_test_run_free(&r);
	free(map);
	free(db);

	/* Without --json: text, several lines. */
	TOOL(&r, "info", in_work("rooms.twz"));
	assert_status(&r, EXIT_OK);
	ck_assert(strstr(r.out, "135") != NULL);
	twz_test_run_free(&r);
}
END_TEST

/* ---- Errors -------------------------------------------------------------- */

START_TEST(test_tool_error_missing_level)
{
	struct twz_test_run r;

	TOOL(&r, "build", in_work("no_such.map"), "-o", in_work("out.twz"));
	assert_status(&r, EXIT_IO);
	assert_one_error_line(&r, in_work("no_such.map"), NULL);
	ck_assert_uint_eq(r.out_len, 0);
	twz_test_run_free(&r);
	assert_listing(work, "");
}
END_TEST

START_TEST(test_tool_error_malformed_level)
{
	static const struct {
		const char *file;
		const char *where;
		const char *says;
	} cases[] = {
		{ "bad_row.map", "bad_row.map:7:", "row 2 has 5 cells" },
		{ "bad_cell.map", "bad_cell.map:6:", "unknown cell 'X'" },
		{ "bad_short.map", "bad_short.map:6:", "only 2 of 3 map rows" },
		{ "bad_fields.scen", "bad_fields.scen:1:", "unknown header line" },
	};
	struct twz_test_run r;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		TOOL(&r, "build", twz_test_level_file(cases[i].file), "-o", in_work("out.twz"));
		assert_status(&r, EXIT_INPUT);
		assert_one_error_line(&r, twz_test_level_file(cases[i].where), cases[i].says);
		ck_assert_uint_eq(r.out_len, 0);
		twz_test_run_free(&r);
	}
	/* Empty and binary levels, made here. */
	twz_test_write_file(in_work("empty.map"), "", 0);
	TOOL(&r, "build", in_work("empty.map"), "-o", in_work("out.twz"));
	assert_status(&r, EXIT_INPUT);
	assert_one_error_line(&r, in_work("empty.map"), "empty");
	twz_test_run_free(&r);
	twz_test_write_file(in_work("nul.map"), "type octile\nheight 1\nwidth 1\nmap\n\0\n", 35);
	TOOL(&r, "build", in_work("nul.map"), "-o", in_work("out.twz"));
	assert_status(&r, EXIT_INPUT);
	assert_one_error_line(&r, in_work("nul.map"), "NUL");
	twz_test_run_free(&r);
	assert_listing(work, "empty.map nul.map");
}
END_TEST

/* Every command takes --help or -h, wherever it is among its words, and
 * prints its usage on stdout with status 0. */
START_TEST(test_tool_command_help)
{
	static const char *const cmds[] = { "build", "query", "verify", "info",
					     "bench", "unpack" };

	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		struct twz_test_run r;
		char want[32];

		snprintf(want, sizeof want, "  twigz %s ", cmds[i]);
		TOOL(&r, cmds[i], "--help");
		assert_status(&r, EXIT_OK);
		ck_assert_msg(strncmp(r.out, "usage:\n", 7) == 0 && strstr(r.out, want),
			      "%s --help printed '%s'", cmds[i], r.out);
		ck_assert_uint_eq(r.err_len, 0);
		twz_test_run_free(&r);
		TOOL(&r, cmds[i], "SOMETHING", "-h");
		assert_status(&r, EXIT_OK);
		ck_assert_ptr_nonnull(strstr(r.out, want));
		twz_test_run_free(&r);
	}
}
END_TEST

/* A usage error prints the usage of the command that met it, not every
 * command's; `twigz help COMMAND` prints that command's on stdout, as
 * `twigz COMMAND --help` does, and `twigz help` alone every command's. */
START_TEST(test_tool_usage_of_the_command)
{
	struct twz_test_run r;

	TOOL(&r, "check", twz_test_level_file("rooms.map"), in_work("x.twz"),
	     "--bad-option");
	assert_status(&r, EXIT_USAGE);
	ck_assert_msg(strncmp(r.err, "twigz: unknown option '--bad-option'\nusage:\n"
			      "  twigz check ", 52) == 0 &&
		      !strstr(r.err, "twigz build") && !strstr(r.err, "twigz query") &&
		      strstr(r.err, "exit status") && strstr(r.err, "twigz help"),
		      "stderr: '%s'", r.err);
	twz_test_run_free(&r);
	TOOL(&r, "query", in_work("x.twz"), "1", "2", "3");
	assert_status(&r, EXIT_USAGE);
	ck_assert_msg(strstr(r.err, "\nusage:\n  twigz query ") &&
		      !strstr(r.err, "twigz check"), "stderr: '%s'", r.err);
	twz_test_run_free(&r);

	static const char *const cmds[] = { "build", "query", "verify", "info",
					     "check", "bench", "unpack", "merge" };
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		struct twz_test_run h;
		TOOL(&r, "help", cmds[i]);
		assert_status(&r, EXIT_OK);
		ck_assert_uint_eq(r.err_len, 0);
		TOOL(&h, cmds[i], "--help");
		ck_assert_msg(r.out_len == h.out_len && !strcmp(r.out, h.out),
			      "help %s: '%s', not '%s'", cmds[i], r.out, h.out);
		twz_test_run_free(&h);
		twz_test_run_free(&r);
	}
	/* render prints its own, longer help. */
	TOOL(&r, "help", "render");
	assert_status(&r, EXIT_OK);
	ck_assert_ptr_nonnull(strstr(r.out, "usage: twigz render "));
	twz_test_run_free(&r);
	TOOL(&r, "help");
	assert_status(&r, EXIT_OK);
	ck_assert(strstr(r.out, "  twigz build ") && strstr(r.out, "  twigz render "));
	twz_test_run_free(&r);
	TOOL(&r, "help", "frobnicate");
	assert_status(&r, EXIT_USAGE);
	ck_assert_msg(strncmp(r.err, "twigz: help: unknown command 'frobnicate'\n", 42) == 0,
		      "stderr: '%s'", r.err);
	twz_test_run_free(&r);
	assert_listing(work, "");
}
END_TEST

/* -o names a file: a directory or "-" (standard output) is refused in one
 * line before anything is baked, and nothing is written. */
START_TEST(test_tool_output_not_a_file)
{
	static const char *const cmds[] = { "build", "unpack" };
	struct twz_test_run r;

	build(twz_test_level_file("rooms.map"), in_work("rooms.twz"), "raw", "1");
	for (size_t i = 0; i < 2; i++) {
		const char *in = i ? in_work("rooms.twz") : twz_test_level_file("rooms.map");
		const char *const dir_args[] = { cmds[i], in, "-o", ".", NULL };
		const char *const dash_args[] = { cmds[i], in, "-o", "-", NULL };

		twz_test_run_tool(dir_args, work, 0, &r);
		assert_status(&r, EXIT_IO);
		assert_one_error_line(&r, ".: is a directory", NULL);
		twz_test_run_free(&r);
		/* A usage error: its line, then the usage. */
		twz_test_run_tool(dash_args, work, 0, &r);
		assert_status(&r, EXIT_USAGE);
		ck_assert_msg(strncmp(r.err, "twigz: -o -: twigz writes files", 31) == 0 &&
				      strstr(r.err, "\nusage:\n"),
			      "stderr: '%s'", r.err);
		twz_test_run_free(&r);
		assert_listing(work, "rooms.twz");
	}
}
END_TEST

/* verify --json: one object a problem in scenario order, then the
 * summary; the plain output is the one line of counts. */
START_TEST(test_tool_verify_json)
{
	struct twz_scen sc;
	struct twz_error err = { { 0 }, 0 };
	struct twz_test_run r;
	char want[128];

	ck_assert_int_eq(twz_scen_load(twz_test_level_file("rooms.map.scen"), &sc, &err), 0);
	build(twz_test_level_file("rooms.map"), in_work("rooms.twz"), "raw", "1");
	TOOL(&r, "verify", in_work("rooms.twz"), twz_test_level_file("rooms.map.scen"),
	     "--json");
	assert_status(&r, EXIT_OK);
	ck_assert_uint_eq(r.err_len, 0);
	const char *p = r.out;
	for (size_t i = 0; i < sc.count; i++) {
		const struct twz_scen_entry *e = &sc.entries[i];
		const char *nl = strchr(p, '\n');
		ck_assert_msg(nl != NULL, "only %zu lines: '%s'", i, r.out);
		snprintf(want, sizeof want, "{\"line\":%lu,\"start\":[%u,%u],\"goal\":[%u,%u],"
			 "\"expected\":", e->line, e->sx, e->sy, e->gx, e->gy);
		ck_assert_msg(strncmp(p, want, strlen(want)) == 0, "line %zu: '%.*s'",
			      i + 1, (int)(nl - p), p);
		const char *cost = strstr(p, "\"cost\":");
		ck_assert_msg(cost && cost < nl, "line %zu has no cost", i + 1);
		ck_assert(twz_scen_cost_matches(e, strtod(cost + 7, NULL)));
		const char *passed = strstr(p, "\"passed\":true}");
		ck_assert_msg(passed && passed < nl, "line %zu did not pass", i + 1);
		p = nl + 1;
	}
	ck_assert_str_eq(p, "{\"passed\":14,\"failed\":0}\n");
	twz_test_run_free(&r);

	TOOL(&r, "verify", in_work("rooms.twz"),
	     twz_test_level_file("rooms_no_path_wrong.scen"), "--json");
	assert_status(&r, EXIT_VERIFY);
	ck_assert_ptr_nonnull(strstr(r.out, "\"expected\":null,\"cost\":null,\"passed\":true}"));
	ck_assert_ptr_nonnull(strstr(r.out, "\"passed\":false,\"why\":\"found a path"));
	ck_assert_ptr_nonnull(strstr(r.out, "\n{\"passed\":1,\"failed\":1}\n"));
	twz_test_run_free(&r);
	twz_scen_free(&sc);
}
END_TEST

/* A level and a scenario saved with a UTF-8 byte-order mark. */
START_TEST(test_tool_byte_order_mark)
{
	struct twz_test_run r;
	size_t len;
	uint8_t *map = twz_test_read_file(twz_test_level_file("rooms.map"), &len);
	uint8_t *bom = malloc(len + 3);

	ck_assert_ptr_nonnull(bom);
	memcpy(bom, "\xef\xbb\xbf", 3);
	memcpy(bom + 3, map, len);
	twz_test_write_file(in_work("bom.map"), bom, len + 3);
	free(map);
	map = twz_test_read_file(twz_test_level_file("rooms.map.scen"), &len);
	bom = realloc(bom, len + 3);
	ck_assert_ptr_nonnull(bom);
	memcpy(bom + 3, map, len);
	twz_test_write_file(in_work("bom.scen"), bom, len + 3);
	free(map);
	free(bom);

	build(in_work("bom.map"), in_work("bom.twz"), "zstd", "1");
	TOOL(&r, "verify", in_work("bom.twz"), in_work("bom.scen"));
	assert_status(&r, EXIT_OK);
	ck_assert_str_eq(r.out, "14 passed, 0 failed\n");
	twz_test_run_free(&r);
}
END_TEST

/* The bench table keeps its columns aligned whatever the figures: each
 * row's reference and A* cells start where their headings do. */
START_TEST(test_tool_bench_columns_fit_large_figures)
{
	struct twz_bench_result r;
	char *text = NULL;
	size_t len = 0;

	memset(&r, 0, sizeof r);
	r.nodes = 4000000;
	r.regions = 1;
	r.has_ref = 1;
	r.pairs = 1000000000000ull;
	r.next_ns = 123456789.5;
	r.ref_next_ns = 98765432.1;
	r.from_scenario = _i;
	r.paths = 123456789;
	r.steps = 999999999999ull;
	r.step_ns = 7.5;
	r.ref_step_ns = 123456.7;
	r.astar_step_ns = 99999999.9;
	r.path_us = 1234567.25;
	r.ref_path_us = 0.5;
	r.astar_path_us = 987654321.75;
	r.lag_ns = 5;
	r.ref_lag_ns = 12345678.9;
	r.astar_lag_us = 3;
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	twz_bench_print(f, "big.twz", &r, 0);
	fclose(f);

	/* The fourth line is the heading. */
	const char *line = text;
	for (int k = 0; k < 3; k++)
		line = strchr(line, '\n') + 1;
	const char *ref = strstr(line, "binary search"), *astar = strstr(line, "A*");
	ck_assert_ptr_nonnull(ref);
	ck_assert_ptr_nonnull(astar);
	size_t ref_at = (size_t)(ref - line), astar_at = (size_t)(astar - line);
	for (int row = 0; row < 4; row++) {
		line = strchr(line, '\n') + 1;
		const char *nl = strchr(line, '\n');
		ck_assert_msg(nl && (size_t)(nl - line) > astar_at, "short row: %s", text);
		ck_assert_msg(line[ref_at - 1] == ' ' && line[ref_at] != ' ',
			      "reference column moved in:\n%s", text);
		if (row > 0)
			ck_assert_msg(line[astar_at - 1] == ' ' && line[astar_at] != ' ',
				      "A* column moved in:\n%s", text);
		ck_assert_msg(nl[-1] != ' ', "blanks at the end of a row:\n%s", text);
	}
	free(text);
}
END_TEST

START_TEST(test_tool_error_usage)
{
	static const char *const bad[][8] = {
		{ "build", "LEVEL", "-o", "OUT", "--frobnicate", NULL },
		{ "build", "LEVEL", "-o", "OUT", "--threads", "0", NULL },
		{ "build", "LEVEL", "-o", "OUT", "--threads", "two", NULL },
		{ "build", "LEVEL", "-o", "OUT", "--codec", "lzma", NULL },
		{ "build", "LEVEL", "-o", "OUT", "--format", "1.3", NULL },
		{ "build", "LEVEL", "-o", "OUT", "--format", "1", NULL },
		{ "build", "LEVEL", "-o", "OUT", "--format", NULL },
		{ "build", "LEVEL", "-o", NULL },
		{ "build", "LEVEL", NULL },
		{ "build", "-o", "OUT", NULL },
		{ "query", "DB", "1", "2", "3", NULL },
		{ "query", "DB", "1", "2", "3", "x", NULL },
		{ "query", "DB", "1", "2", "3", "4", "--fast", NULL },
		{ "verify", "DB", NULL },
		{ "info", "DB", "--yaml", NULL },
		{ "frobnicate", NULL },
	};
	const char *args[9];

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct twz_test_run r;
		size_t n = 0;
		for (; bad[i][n]; n++) {
			const char *a = bad[i][n];
			args[n] = !strcmp(a, "LEVEL") ? twz_test_level_file("rooms.map") :
				  !strcmp(a, "OUT") || !strcmp(a, "DB") ? in_work("out.twz") : a;
		}
		args[n] = NULL;
		run_tool(args, &r);
		ck_assert_msg(r.status == EXIT_USAGE, "case %zu: exit %d; stderr %s", i,
			      r.status, r.err);
		ck_assert_uint_eq(r.out_len, 0);
		ck_assert_msg(strncmp(r.err, "twigz: ", 7) == 0, "case %zu: %s", i, r.err);
		twz_test_run_free(&r);
	}
	struct twz_test_run r;
	const char *none[] = { NULL };
	run_tool(none, &r);
	assert_status(&r, EXIT_USAGE);
	twz_test_run_free(&r);
	assert_listing(work, "");
}
END_TEST

/* --version names the library and the format version this build writes. */
START_TEST(test_tool_version)
{
	char want[64];
	struct twz_test_run r;

	snprintf(want, sizeof want, "twigz %s (format %d.%d;", twz_version(),
		 TWZ_FORMAT_MAJOR, TWZ_FORMAT_MINOR);
	TOOL(&r, "--version");
	assert_status(&r, 0);
	ck_assert_msg(strncmp(r.out, want, strlen(want)) == 0, "'%s' should start '%s'",
		      r.out, want);
	ck_assert_uint_eq(r.err_len, 0);
	/* The build's project version, as the test environment says it. */
	const char *project = getenv("TWZ_PROJECT_VERSION");
	ck_assert_msg(project && *project, "TWZ_PROJECT_VERSION is not set");
	snprintf(want, sizeof want, "twigz %s (", project);
	ck_assert_msg(strncmp(r.out, want, strlen(want)) == 0, "'%s' should start '%s'",
		      r.out, want);
	twz_test_run_free(&r);
}
END_TEST

/* A damaged or foreign database: every command that reads one refuses it
 * with one line naming it. */
START_TEST(test_tool_error_damaged_db)
{
	size_t len;

	build(twz_test_level_file("rooms.map"), in_work("good.twz"), "raw", "1");
	uint8_t *buf = twz_test_read_file(in_work("good.twz"), &len);
	struct twz_container c;
	ck_assert_int_eq(twz_parse_container(buf, len, &c), TWZ_OK);
	/* The middle of the last section (not padding between sections). */
	size_t at = (size_t)(c.sections[c.section_count - 1].offset +
			     c.sections[c.section_count - 1].size / 2);
	buf[at] ^= 0x40;
	twz_test_write_file(in_work("flipped.twz"), buf, len);
	buf[at] ^= 0x40;
	twz_test_write_file(in_work("short.twz"), buf, len - 100);
	buf[TWZ_H_MAJOR] = 9;                         /* a future major */
	twz_test_write_file(in_work("future.twz"), buf, len);
	free(buf);
	const char *level = "type octile\nheight 1\nwidth 1\nmap\n.\n";
	twz_test_write_file(in_work("text.twz"), level, strlen(level));

	static const struct {
		const char *file;
		const char *says;
	} cases[] = {
		{ "flipped.twz", "checksum" },
		{ "short.twz", "damaged" },
		{ "future.twz", "newer" },
		{ "text.twz", "not a twigz" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *db = in_work(cases[i].file);
		const char *const cmds[][6] = {
			{ "query", db, "0", "0", "19", "9" },
			{ "query", db, "--scen", twz_test_level_file("rooms.map.scen"), "--json", NULL },
			{ "verify", db, twz_test_level_file("rooms.map.scen"), NULL },
			{ "info", db, "--json", NULL },
		};
		for (size_t k = 0; k < 4; k++) {
			struct twz_test_run r;
			const char *args[8];
			memcpy(args, cmds[k], sizeof cmds[k]);
			args[6] = NULL;
			run_tool(args, &r);
			ck_assert_msg(r.status == EXIT_INPUT, "%s %s: exit %d", cmds[k][0],
				      cases[i].file, r.status);
			ck_assert_msg(r.out_len == 0, "%s %s printed '%s'", cmds[k][0],
				      cases[i].file, r.out);
			assert_one_error_line(&r, db, cases[i].says);
			twz_test_run_free(&r);
		}
	}
	/* A database that is not there is an I/O error. */
	struct twz_test_run r;
	TOOL(&r, "info", in_work("none.twz"));
	assert_status(&r, EXIT_IO);
	assert_one_error_line(&r, in_work("none.twz"), NULL);
	twz_test_run_free(&r);
}
END_TEST

START_TEST(test_tool_error_unwritable_output)
{
	struct twz_test_run r;
	char sub[8400];

	/* A directory that does not exist. */
	TOOL(&r, "build", twz_test_level_file("rooms.map"), "-o", in_work("nodir/out.twz"), "-q");
	assert_status(&r, EXIT_IO);
	assert_one_error_line(&r, in_work("nodir/out.twz"), NULL);
	twz_test_run_free(&r);
	assert_listing(work, "");

	/* A "directory" that is a file. */
	twz_test_write_file(in_work("file"), "x", 1);
	TOOL(&r, "build", twz_test_level_file("rooms.map"), "-o", in_work("file/out.twz"), "-q");
	assert_status(&r, EXIT_IO);
	assert_one_error_line(&r, in_work("file/out.twz"), NULL);
	twz_test_run_free(&r);
	assert_listing(work, "file");
	unlink(in_work("file"));

	/* The output name is taken by a directory: the temporary file is
	 * written, the rename fails, and the temporary file is removed. */
	snprintf(sub, sizeof sub, "%s", in_work("taken.twz"));
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	TOOL(&r, "build", twz_test_level_file("rooms.map"), "-o", sub, "-q");
	assert_status(&r, EXIT_IO);
	assert_one_error_line(&r, sub, NULL);
	twz_test_run_free(&r);
	assert_listing(work, "taken.twz");
	assert_listing(sub, "");
	rmdir(sub);

	/* A directory without write permission (root may write anyway). */
	snprintf(sub, sizeof sub, "%s", in_work("locked"));
	ck_assert_int_eq(mkdir(sub, 0555), 0);
	if (geteuid() != 0) {
		char out[8500];
		snprintf(out, sizeof out, "%s/out.twz", sub);
		TOOL(&r, "build", twz_test_level_file("rooms.map"), "-o", out);
		assert_status(&r, EXIT_IO);
		assert_one_error_line(&r, out, NULL);
		twz_test_run_free(&r);
		assert_listing(sub, "");
	}
	chmod(sub, 0755);
	rmdir(sub);
	assert_listing(work, "");
}
END_TEST

/* ---- suite --------------------------------------------------------------- */

/* A test case whose tests each run in a scratch directory of their own. */
static TCase *scratch_tcase(const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_add_unchecked_fixture(tc, base_setup, base_teardown);
	tcase_add_checked_fixture(tc, scratch_setup, scratch_teardown);
	return tc;
}

static Suite *twz_tool_suite(void)
{
	Suite *s = suite_create("tool");
	TCase *tc;

	tc = scratch_tcase("Build");
	tcase_add_test(tc, test_tool_build_writes_only_its_output);
	tcase_add_test(tc, test_tool_build_threads_identical);
	tcase_add_test(tc, test_tool_build_failure_keeps_old_output);
	tcase_add_test(tc, test_tool_build_killed_leaves_no_partial_output);
	tcase_add_test(tc, test_tool_build_signal_leaves_no_tmp);
	tcase_add_loop_test(tc, test_tool_write_signal_removes_tmp, 0, 2);
	suite_add_tcase(s, tc);

	tc = scratch_tcase("Query");
	tcase_add_test(tc, test_tool_query_json_form);
	tcase_add_test(tc, test_tool_query_scen_json_in_order);
	tcase_add_test(tc, test_tool_query_bad_places);
	tcase_add_test(tc, test_tool_query_scen_needs_no_optimum);
	suite_add_tcase(s, tc);

	tc = scratch_tcase("VerifyInfo");
	tcase_add_test(tc, test_tool_verify_counts);
	tcase_add_test(tc, test_tool_info_json);
	suite_add_tcase(s, tc);

	tc = scratch_tcase("Errors");
	tcase_add_test(tc, test_tool_error_missing_level);
	tcase_add_test(tc, test_tool_error_malformed_level);
	tcase_add_test(tc, test_tool_error_usage);
	tcase_add_test(tc, test_tool_usage_of_the_command);
	tcase_add_test(tc, test_tool_command_help);
	tcase_add_test(tc, test_tool_output_not_a_file);
	tcase_add_test(tc, test_tool_verify_json);
	tcase_add_test(tc, test_tool_byte_order_mark);
	tcase_add_loop_test(tc, test_tool_bench_columns_fit_large_figures, 0, 2);
	tcase_add_test(tc, test_tool_version);
	tcase_add_test(tc, test_tool_error_damaged_db);
	tcase_add_test(tc, test_tool_error_unwritable_output);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_tool_suite());
}
