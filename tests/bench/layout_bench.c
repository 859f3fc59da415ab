/*
 * layout_bench.c - first moves and path steps of several databases of one
 * level side by side, with SRC's lookup (offsets and a binary search over
 * u32 runs, programs/bench_ref.c) over each database's rows: built with
 * `--format 1.0`, that is SRC's own layout (DFS order, moves only), so
 * the reference is SRC's lookup on SRC's rows. Timed as the best of many
 * short batches, the files alternated batch by batch, so that on a
 * shared machine a preempted batch drops out instead of moving the
 * figures; each batch runs once untimed first, so that a lookup is timed
 * on its own file's data and not on the previous batch's misses. "per
 * step" walks with twz_next, "path step" is twz_path's time per node it
 * returns. Not a test: its figures depend on the machine.
 *
 *   layout_bench [--rounds N] DB.twz...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_ref.h"
#include "twigz.h"

#define PAIRS 20000   /* random pairs a first-move batch */
#define WALKS 300     /* random pairs walked to the end a step batch */
#define MAX_DB 8

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint32_t below(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

struct timed {
	const char *path;
	twz_db *db;
	struct twz_ref ref;
	int has_ref;
	double next_ns, step_ns, ref_next_ns, ref_step_ns, path_ns;
};

#define PATH_CAP (1u << 20)
static twz_node path_buf[PATH_CAP];

static volatile uint64_t sink;

/* One batch of each kind for database d (ref: by SRC's lookup). */
static void batch(struct timed *d, int ref, const uint32_t *s,
		  const uint32_t *t)
{
	uint64_t sum = 0, steps = 0;

	/* Warm: the batch before ran another file, whose data evicted
	 * this one's from the caches of a shared machine. Each lookup is
	 * then timed on data of its own, as a game's queries are. */
	for (size_t j = 0; j < PAIRS; j++)
		sum += ref ? twz_ref_next(&d->ref, s[j], t[j])
			   : twz_next(d->db, s[j], t[j]);
	double a = now();
	for (size_t j = 0; j < PAIRS; j++)
		sum += ref ? twz_ref_next(&d->ref, s[j], t[j])
			   : twz_next(d->db, s[j], t[j]);
	double first = (now() - a) / PAIRS * 1e9;
	a = now();
	for (size_t j = 0; j < WALKS; j++)
		for (twz_node at = s[j]; at != t[j] && at != TWZ_NONE; steps++)
			at = ref ? twz_ref_next(&d->ref, at, t[j])
				 : twz_next(d->db, at, t[j]);
	double step = steps ? (now() - a) / steps * 1e9 : 0;
	/* Whole paths through the library's walk, per node it returns. */
	if (!ref) {
		size_t nodes = 0, len;
		a = now();
		for (size_t j = 0; j < WALKS; j++)
			if (twz_path(d->db, s[j], t[j], path_buf, PATH_CAP,
				     &len) == TWZ_OK)
				nodes += len - 1;
		double per = nodes ? (now() - a) / nodes * 1e9 : 0;
		if (per < d->path_ns)
			d->path_ns = per;
	}
	sink += sum;
	double *fn = ref ? &d->ref_next_ns : &d->next_ns;
	double *sn = ref ? &d->ref_step_ns : &d->step_ns;
	if (first < *fn)
		*fn = first;
	if (step < *sn)
		*sn = step;
}

int main(int argc, char **argv)
{
	struct timed d[MAX_DB];
	unsigned count = 0, rounds = 60;
	uint32_t nodes = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			rounds = (unsigned)strtoul(argv[++i], NULL, 10);
			continue;
		}
		if (count == MAX_DB) {
			fprintf(stderr, "layout_bench: at most %d databases\n", MAX_DB);
			return 2;
		}
		struct timed *x = &d[count];
		memset(x, 0, sizeof *x);
		x->path = argv[i];
		twz_status st = twz_open(x->path, 0, &x->db);
		if (st != TWZ_OK) {
			fprintf(stderr, "layout_bench: %s: %s\n", x->path, twz_strerror(st));
			return 3;
		}
		twz_info in;
		twz_get_info(x->db, &in);
		if (count && in.node_count != nodes) {
			fprintf(stderr, "layout_bench: %s: another level\n", x->path);
			return 3;
		}
		nodes = in.node_count;
		x->has_ref = twz_ref_init(&x->ref, x->db) == 0;
		x->next_ns = x->step_ns = x->ref_next_ns = x->ref_step_ns =
			x->path_ns = 1e300;
		count++;
	}
	if (!count || nodes < 2) {
		fprintf(stderr, "usage: layout_bench [--rounds N] DB.twz...\n");
		return 2;
	}
	/* Pairs of one region: both ends of a query a game asks. */
	uint32_t *s = malloc(PAIRS * sizeof *s), *t = malloc(PAIRS * sizeof *t);
	if (!s || !t)
		return 5;
	for (size_t j = 0; j < PAIRS; j++)
		do {
			s[j] = below(nodes);
			t[j] = below(nodes);
		} while (s[j] == t[j] || twz_next(d[0].db, s[j], t[j]) == TWZ_NONE);
	for (unsigned r = 0; r < rounds; r++)
		for (unsigned i = 0; i < count; i++) {
			batch(&d[i], 0, s, t);
			if (d[i].has_ref)
				batch(&d[i], 1, s, t);
		}
	printf("%-40s %10s %10s %10s %14s %14s %12s\n", "database",
	       "first move", "per step", "path step", "SRC lookup fm",
	       "SRC lookup st", "in memory");
	for (unsigned i = 0; i < count; i++) {
		twz_info in;
		twz_get_info(d[i].db, &in);
		printf("%-40s %7.1f ns %7.1f ns %7.1f ns ", d[i].path, d[i].next_ns,
		       d[i].step_ns, d[i].path_ns);
		if (d[i].has_ref)
			printf("%11.1f ns %11.1f ns", d[i].ref_next_ns, d[i].ref_step_ns);
		else
			printf("%14s %14s", "-", "-");
		printf(" %12llu\n", (unsigned long long)in.memory_size);
	}
	printf("(best of %u batches of %d random pairs and %d walks, the files "
	       "alternated)\n", rounds, PAIRS, WALKS);
	for (unsigned i = 0; i < count; i++) {
		if (d[i].has_ref)
			twz_ref_free(&d[i].ref);
		twz_close(d[i].db);
	}
	free(s);
	free(t);
	return 0;
}
