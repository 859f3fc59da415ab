/*
 * check_concurrency.c - heavy use: one handle queried from many threads
 * at once, several handles of several files open and queried together,
 * handles opened and closed on many threads, and a database replaced on
 * disk while readers of the old file keep answering.
 *
 * Every answer a thread gets is compared with the answer one thread got
 * before the threads started. The suite also runs under ThreadSanitizer
 * (the TSan build of scripts/test.sh), which stops at the first race.
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"
#include "transit.h"
#include "twigz.h"
#include "twz_writer.h"

/* A race report must fail the test, not just print. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "halt_on_error=1:abort_on_error=1";
}

#define THREADS 8
#define PAIRS 600
#define FIELDS 4

/* ---- reference answers ---------------------------------------------- */

struct answer {
	twz_node s, t;
	twz_node next;
	twz_status status;
	size_t len;
	uint32_t straight, diagonal;
	uint64_t path_hash;   /* FNV-1a over the path's nodes */
};

struct level_db {
	uint8_t *file;        /* the baked bytes */
	size_t len;
	uint32_t node_count;
	uint64_t level_hash;
	struct answer pairs[PAIRS];
	twz_node field_target[FIELDS];
	twz_node *field[FIELDS];  /* [node_count] each */
};

/* One question, answered into a: the path, its cost and the first move. */
static void ask(const twz_db *db, twz_node s, twz_node t, twz_node *buf,
		size_t cap, struct answer *a)
{
	memset(a, 0, sizeof *a);
	a->s = s;
	a->t = t;
	a->next = twz_next(db, s, t);
	a->status = twz_path(db, s, t, buf, cap, &a->len);
	if (a->status == TWZ_OK) {
		a->path_hash = twz_test_path_hash(buf, a->len);
		twz_cost_exact(db, s, t, &a->straight, &a->diagonal);
	}
}

static int same_answer(const struct answer *a, const struct answer *b)
{
	return a->s == b->s && a->t == b->t && a->next == b->next &&
	       a->status == b->status && a->len == b->len &&
	       a->straight == b->straight && a->diagonal == b->diagonal &&
	       a->path_hash == b->path_hash;
}

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* A TRANSIT database of g (the CPD one comes from twz_test_bake). */
static uint8_t *bake_transit(const struct twz_grid *g, unsigned codec,
			     size_t *len)
{
	struct twz_bake_options opt;
	struct twz_transit_options topt = { 0, 0, 0 };
	struct twz_transit_db tdb;
	struct twz_error err;
	uint8_t *buf = NULL;

	memset(&err, 0, sizeof err);
	twz_bake_options_default(&opt);
	opt.codec = codec;
	opt.threads = 2;
	ck_assert_msg(twz_bake_transit(g, &opt, &topt, &tdb, &err) == 0, "%s", err.msg);
	ck_assert_msg(twz_transit_encode(&tdb, g, &opt, &buf, len, &err) == 0,
		      "%s", err.msg);
	twz_transit_db_free(&tdb);
	return buf;
}

/* Bake a generated level (CPD, or TRANSIT when transit is set) and record
 * one thread's answers to it. */
static void level_db_bake(struct level_db *L, enum twz_test_level_kind kind,
			  uint32_t w, uint32_t h, uint64_t seed, unsigned codec,
			  int transit)
{
	struct twz_grid g;
	twz_db *db;

	memset(L, 0, sizeof *L);
	twz_test_generate(&g, kind, w, h, seed);
	L->file = transit ? bake_transit(&g, codec, &L->len)
			  : twz_test_bake(&g, 8, codec, 2, &L->len);
	twz_grid_free(&g);
	ck_assert_int_eq(twz_open_memory(L->file, L->len, 0, &db), TWZ_OK);
	twz_info in;
	twz_get_info(db, &in);
	L->node_count = in.node_count;
	L->level_hash = in.level_hash;
	ck_assert_uint_gt(L->node_count, 1);

	size_t cap = (size_t)L->node_count + 1;
	twz_node *buf = malloc(cap * sizeof *buf);
	ck_assert_ptr_nonnull(buf);
	uint64_t r = seed;
	for (unsigned i = 0; i < PAIRS; i++) {
		twz_node s = (twz_node)(splitmix(&r) % L->node_count);
		twz_node t = (twz_node)(splitmix(&r) % L->node_count);
		ask(db, s, t, buf, cap, &L->pairs[i]);
	}
	for (unsigned f = 0; f < FIELDS; f++) {
		L->field_target[f] = (twz_node)(splitmix(&r) % L->node_count);
		L->field[f] = malloc((size_t)L->node_count * sizeof(twz_node));
		ck_assert_ptr_nonnull(L->field[f]);
		ck_assert_int_eq(twz_flow_field(db, L->field_target[f], L->field[f],
						L->node_count), TWZ_OK);
	}
	free(buf);
	twz_close(db);
}

static void level_db_make(struct level_db *L, enum twz_test_level_kind kind,
			  uint32_t w, uint32_t h, uint64_t seed, unsigned codec)
{
	level_db_bake(L, kind, w, h, seed, codec, 0);
}

static void level_db_free(struct level_db *L)
{
	for (unsigned f = 0; f < FIELDS; f++)
		free(L->field[f]);
	free(L->file);
}

/* Ask every recorded question of db (from a start that differs per
 * thread) and compare; returns the number of differences. */
static unsigned replay(const twz_db *db, const struct level_db *L,
		       unsigned start, twz_node *buf, twz_node *field)
{
	size_t cap = (size_t)L->node_count + 1;
	unsigned bad = 0;

	for (unsigned k = 0; k < PAIRS; k++) {
		const struct answer *want = &L->pairs[(start + k) % PAIRS];
		struct answer got;
		ask(db, want->s, want->t, buf, cap, &got);
		bad += !same_answer(&got, want);
	}
	for (unsigned f = 0; f < FIELDS; f++) {
		unsigned which = (start + f) % FIELDS;
		if (twz_flow_field(db, L->field_target[which], field,
				   L->node_count) != TWZ_OK ||
		    memcmp(field, L->field[which],
			   (size_t)L->node_count * sizeof *field))
			bad++;
	}
	return bad;
}

/* ---- many threads, one handle --------------------------------------- */

struct shared_job {
	const twz_db *db[4];      /* handle per level */
	const struct level_db *L[4];
	unsigned levels;
	unsigned rounds;
	atomic_uint mismatches;
	atomic_uint ready;        /* a start line, so threads really overlap */
	unsigned threads;
};

struct thread_arg {
	struct shared_job *job;
	unsigned id;
};

static void start_line(struct shared_job *job)
{
	atomic_fetch_add(&job->ready, 1);
	while (atomic_load(&job->ready) < job->threads)
		sched_yield();
}

static void *query_thread(void *varg)
{
	struct thread_arg *arg = varg;
	struct shared_job *job = arg->job;
	uint32_t most = 0;

	for (unsigned l = 0; l < job->levels; l++)
		if (job->L[l]->node_count > most)
			most = job->L[l]->node_count;
	twz_node *buf = malloc(((size_t)most + 1) * sizeof *buf);
	twz_node *field = malloc((size_t)most * sizeof *field);
	if (!buf || !field) {
		atomic_fetch_add(&job->mismatches, 1000000);
		free(buf);
		free(field);
		return NULL;
	}
	start_line(job);
	for (unsigned r = 0; r < job->rounds; r++) {
		/* Threads walk the levels in different orders. */
		unsigned l = (arg->id + r) % job->levels;
		unsigned bad = replay(job->db[l], job->L[l],
				      arg->id * 97 + r * 31, buf, field);
		atomic_fetch_add(&job->mismatches, bad);
	}
	free(field);
	free(buf);
	return NULL;
}

static unsigned run_threads(struct shared_job *job, unsigned threads)
{
	pthread_t tid[THREADS];
	struct thread_arg arg[THREADS];

	ck_assert_uint_le(threads, THREADS);
	atomic_init(&job->mismatches, 0);
	atomic_init(&job->ready, 0);
	job->threads = threads;
	for (unsigned i = 0; i < threads; i++) {
		arg[i] = (struct thread_arg){ job, i };
		ck_assert_int_eq(pthread_create(&tid[i], NULL, query_thread, &arg[i]), 0);
	}
	for (unsigned i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	return atomic_load(&job->mismatches);
}

/* THREADS threads ask db (a handle of L) at once and get L's answers;
 * then db is closed and L freed. */
static void threads_share_one_handle(twz_db *db, struct level_db *L)
{
	struct shared_job job = { .db = { db }, .L = { L }, .levels = 1,
				  .rounds = 2 };
	unsigned bad = run_threads(&job, THREADS);
	ck_assert_msg(bad == 0, "%u answers differ from the single-thread ones", bad);
	twz_close(db);
	level_db_free(L);
}

START_TEST(test_concurrency_one_handle_many_threads)
{
	/* _i: 0 an mmap'd zstd file, 1 a raw database in memory. */
	static struct level_db L;
	unsigned codec = _i == 0 ? TWZ_CODEC_ZSTD : TWZ_CODEC_RAW;
	twz_db *db;

	level_db_make(&L, TWZ_TEST_ROOMS, 56, 44, 11 + _i, codec);
	if (_i == 0) {
		char tmpl[4200];
		snprintf(tmpl, sizeof tmpl, "%s/twz_conc_XXXXXX", twz_test_temp_dir());
		int fd = mkstemp(tmpl);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(write(fd, L.file, L.len), (ssize_t)L.len);
		close(fd);
		ck_assert_int_eq(twz_open(tmpl, 0, &db), TWZ_OK);
		unlink(tmpl);  /* the mapping keeps the bytes */
	} else {
		ck_assert_int_eq(twz_open_memory(L.file, L.len, 0, &db), TWZ_OK);
	}
	threads_share_one_handle(db, &L);
}
END_TEST

/* TRANSIT answers far queries from distance tables and local rows, in
 * chunks: the same promise, one handle and many threads. */
START_TEST(test_concurrency_transit_many_threads)
{
	static struct level_db L;
	twz_db *db;

	level_db_bake(&L, TWZ_TEST_ROOMS, 64, 48, 31, TWZ_CODEC_ZSTD, 1);
	ck_assert_int_eq(twz_open_memory(L.file, L.len, 0, &db), TWZ_OK);
	twz_info in;
	twz_get_info(db, &in);
	ck_assert_uint_eq(in.method, TWZ_METHOD_TRANSIT);
	threads_share_one_handle(db, &L);
}
END_TEST

/* ---- several files, several handles each ---------------------------- */

START_TEST(test_concurrency_several_handles_of_several_files)
{
	static struct level_db L[3];
	twz_db *db[3][2];

	level_db_make(&L[0], TWZ_TEST_MAZE, 41, 33, 5, TWZ_CODEC_ZSTD);
	level_db_make(&L[1], TWZ_TEST_CAVES, 64, 48, 6, TWZ_CODEC_RAW);
	level_db_bake(&L[2], TWZ_TEST_POCKETS, 50, 40, 7, TWZ_CODEC_ZSTD, 1);
	for (unsigned l = 0; l < 3; l++)
		for (unsigned k = 0; k < 2; k++)
			ck_assert_int_eq(twz_open_memory(L[l].file, L[l].len, 0,
							 &db[l][k]), TWZ_OK);
	/* Threads split over the two handles of each file. */
	struct shared_job job = { .levels = 3, .rounds = 2 };
	for (unsigned l = 0; l < 3; l++) {
		job.db[l] = db[l][l % 2];
		job.L[l] = &L[l];
	}
	unsigned bad = run_threads(&job, THREADS / 2);
	for (unsigned l = 0; l < 3; l++)
		job.db[l] = db[l][(l + 1) % 2];
	bad += run_threads(&job, THREADS / 2);
	ck_assert_msg(bad == 0, "%u answers differ", bad);
	for (unsigned l = 0; l < 3; l++) {
		twz_close(db[l][0]);
		twz_close(db[l][1]);
		level_db_free(&L[l]);
	}
}
END_TEST

/* ---- open and close on many threads --------------------------------- */

struct churn_job {
	const struct level_db *L;
	atomic_uint failures;
};

static void *churn_thread(void *varg)
{
	struct churn_job *job = varg;
	const struct level_db *L = job->L;
	twz_node *buf = malloc(((size_t)L->node_count + 1) * sizeof *buf);

	if (!buf) {
		atomic_fetch_add(&job->failures, 1);
		return NULL;
	}
	for (unsigned round = 0; round < 8; round++) {
		twz_db *db;
		if (twz_open_memory(L->file, L->len, 0, &db) != TWZ_OK) {
			atomic_fetch_add(&job->failures, 1);
			continue;
		}
		for (unsigned k = round; k < PAIRS; k += 20) {
			struct answer got;
			ask(db, L->pairs[k].s, L->pairs[k].t, buf,
			    (size_t)L->node_count + 1, &got);
			if (!same_answer(&got, &L->pairs[k]))
				atomic_fetch_add(&job->failures, 1);
		}
		twz_close(db);
	}
	free(buf);
	return NULL;
}

START_TEST(test_concurrency_open_close_on_many_threads)
{
	static struct level_db L;
	struct churn_job job;
	pthread_t tid[THREADS];

	level_db_make(&L, TWZ_TEST_OPEN_HOLLOW, 48, 48, 9, TWZ_CODEC_ZSTD);
	job.L = &L;
	atomic_init(&job.failures, 0);
	for (unsigned i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&tid[i], NULL, churn_thread, &job), 0);
	for (unsigned i = 0; i < THREADS; i++)
		pthread_join(tid[i], NULL);
	ck_assert_uint_eq(atomic_load(&job.failures), 0);
	level_db_free(&L);
}
END_TEST

/* ---- a file replaced underneath ------------------------------------- */

struct replace_job {
	const twz_db *old_db;
	const struct level_db *old_level;
	const struct level_db *levels[2];
	const char *path;
	atomic_int stop;
	atomic_uint old_rounds;      /* replays of the old handle */
	atomic_uint old_bad;
	atomic_uint opens;           /* fresh opens of the path */
	atomic_uint open_bad;        /* an open failed or matched no level */
};

/* Keeps asking the handle of the old file while it is replaced. */
static void *old_reader(void *varg)
{
	struct replace_job *job = varg;
	const struct level_db *L = job->old_level;
	twz_node *buf = malloc(((size_t)L->node_count + 1) * sizeof *buf);
	twz_node *field = malloc((size_t)L->node_count * sizeof *field);

	if (!buf || !field) {
		atomic_fetch_add(&job->old_bad, 1);
		goto out;
	}
	for (unsigned r = 0; !atomic_load(&job->stop) || r < 2; r++) {
		atomic_fetch_add(&job->old_bad, replay(job->old_db, L, r * 13, buf, field));
		atomic_fetch_add(&job->old_rounds, 1);
	}
out:
	free(field);
	free(buf);
	return NULL;
}

/* Opens the path again and again: every open must find a whole file, the
 * old or the new, never a partial one. */
static void *fresh_opener(void *varg)
{
	struct replace_job *job = varg;

	while (!atomic_load(&job->stop)) {
		twz_db *db;
		twz_status st = twz_open(job->path, 0, &db);
		atomic_fetch_add(&job->opens, 1);
		if (st != TWZ_OK) {
			atomic_fetch_add(&job->open_bad, 1);
			continue;
		}
		twz_info in;
		twz_get_info(db, &in);
		int known = 0;
		for (unsigned l = 0; l < 2; l++) {
			const struct level_db *L = job->levels[l];
			if (in.level_hash != L->level_hash)
				continue;
			known = 1;
			twz_node buf[4096];
			struct answer got;
			ask(db, L->pairs[0].s, L->pairs[0].t, buf, 4096, &got);
			if (!same_answer(&got, &L->pairs[0]))
				atomic_fetch_add(&job->open_bad, 1);
		}
		if (!known)
			atomic_fetch_add(&job->open_bad, 1);
		twz_close(db);
	}
	return NULL;
}

static int write_db(const char *path, const struct level_db *L)
{
	struct twz_error err;
	memset(&err, 0, sizeof err);
	int rc = twz_write_atomic(path, L->file, L->len, &err);
	ck_assert_msg(rc == 0, "write: %s", err.msg);
	return rc;
}

START_TEST(test_concurrency_old_file_answers_while_replaced)
{
	static struct level_db L[2];
	struct replace_job job;
	char dir[4096], path[4200];
	pthread_t reader, opener;

	level_db_make(&L[0], TWZ_TEST_ROOMS, 60, 44, 21, TWZ_CODEC_ZSTD);
	level_db_make(&L[1], TWZ_TEST_CAVES, 60, 44, 22, TWZ_CODEC_RAW);
	ck_assert_uint_ne(L[0].level_hash, L[1].level_hash);
	snprintf(dir, sizeof dir, "%s/twz_replace_XXXXXX", twz_test_temp_dir());
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/level.twz", dir);

	write_db(path, &L[0]);
	twz_db *old_db;
	ck_assert_int_eq(twz_open(path, 0, &old_db), TWZ_OK);

	memset(&job, 0, sizeof job);
	job.old_db = old_db;
	job.old_level = &L[0];
	job.levels[0] = &L[0];
	job.levels[1] = &L[1];
	job.path = path;
	atomic_init(&job.stop, 0);
	atomic_init(&job.old_rounds, 0);
	atomic_init(&job.old_bad, 0);
	atomic_init(&job.opens, 0);
	atomic_init(&job.open_bad, 0);
	ck_assert_int_eq(pthread_create(&reader, NULL, old_reader, &job), 0);
	ck_assert_int_eq(pthread_create(&opener, NULL, fresh_opener, &job), 0);

	/* Re-bake in place many times, as a game's editor would. */
	for (unsigned k = 0; k < 12; k++)
		write_db(path, &L[1 - k % 2]);
	/* Let the readers see the last file too. */
	while (atomic_load(&job.opens) < 4 || atomic_load(&job.old_rounds) < 2)
		sched_yield();
	atomic_store(&job.stop, 1);
	pthread_join(reader, NULL);
	pthread_join(opener, NULL);

	ck_assert_msg(atomic_load(&job.old_bad) == 0,
		      "the old handle gave %u wrong answers",
		      atomic_load(&job.old_bad));
	ck_assert_msg(atomic_load(&job.open_bad) == 0,
		      "%u of %u opens during the replacement failed or were wrong",
		      atomic_load(&job.open_bad), atomic_load(&job.opens));

	/* The last write was L[0] (k = 11): a fresh open sees it, the old
	 * handle still answers, and no temporary file is left behind. */
	twz_db *now;
	ck_assert_int_eq(twz_open(path, 0, &now), TWZ_OK);
	twz_info in;
	twz_get_info(now, &in);
	ck_assert_uint_eq(in.level_hash, L[0].level_hash);
	twz_close(now);
	twz_close(old_db);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_msg(rmdir(dir) == 0, "directory not empty after the writes: %s",
		      strerror(errno));
	level_db_free(&L[0]);
	level_db_free(&L[1]);
}
END_TEST

/* ---- suite --------------------------------------------------------------- */

static Suite *twz_concurrency_suite(void)
{
	Suite *s = suite_create("concurrency");
	TCase *tc;

	tc = tcase_create("OneHandle");
	tcase_add_loop_test(tc, test_concurrency_one_handle_many_threads, 0, 2);
	tcase_add_test(tc, test_concurrency_open_close_on_many_threads);
	tcase_add_test(tc, test_concurrency_transit_many_threads);
	suite_add_tcase(s, tc);

	tc = tcase_create("SeveralHandles");
	tcase_add_test(tc, test_concurrency_several_handles_of_several_files);
	suite_add_tcase(s, tc);

	tc = tcase_create("Replace");
	tcase_add_test(tc, test_concurrency_old_file_answers_while_replaced);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return twz_test_run_suite(twz_concurrency_suite());
}
