/*
 * bake_forecast.c - a bake's time, forecast from a sample of its own
 * searches; see bake_forecast.h.
 */
#include "bake_forecast.h"

#include <stdio.h>
#include <stdlib.h>

/* Searches timed: one in SAMPLE_SHARE of the bake's, at least
 * SAMPLE_SEARCHES, and no more than SAMPLE_SECONDS take. A sample of
 * some length sees the machine as the bake will (other processes' share
 * of its cores too), not only one quick burst. */
#define SAMPLE_SEARCHES 16u
#define SAMPLE_SHARE 32u
#define SAMPLE_SECONDS 0.2

/* seconds as people read a duration. */
static void duration(double seconds, char *buf, size_t cap)
{
	if (seconds < 100)
		snprintf(buf, cap, "%.1f s", seconds);
	else if (seconds < 6000)
		snprintf(buf, cap, "%.0f min", seconds / 60);
	else
		snprintf(buf, cap, "%.1f h", seconds / 3600);
}

/* Pairs a second on the bake's threads, from searches that settled
 * `settled` pairs in `spent` seconds on one. */
static double rate_of(double settled, double spent, unsigned threads)
{
	/* A sample too fast for the clock counts as a microsecond. */
	if (spent < 1e-6)
		spent = 1e-6;
	return settled / spent * threads;
}

int twz_bake_forecast(const struct twz_pool *pool, twz_sample_fn sample,
		      double pairs, double done, struct twz_forecast *fc,
		      struct twz_error *err)
{
	const struct twz_bake_options *opt = pool->opt;
	struct twz_forecast f = { .pairs = pairs, .threads = twz_bake_threads(opt) };
	void *worker = NULL;
	double settled = 0, spent = 0;

	if (fc)
		*fc = f;
	if (!pool->items || (!opt->forecast && !opt->max_seconds))
		return 0;
	worker = calloc(1, pool->worker_size ? pool->worker_size : 1);
	if (!worker || (pool->init && pool->init(pool->ctx, worker) != 0)) {
		free(worker);
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		return -1;
	}
	/* Items spread evenly over the bake's, from the first: on a level
	 * of many regions, sources in each in proportion to its nodes. */
	uint32_t n = pool->items / SAMPLE_SHARE;
	if (n < SAMPLE_SEARCHES)
		n = pool->items < SAMPLE_SEARCHES ? pool->items : SAMPLE_SEARCHES;
	double started = twz_now_seconds();
	for (uint32_t k = 0; k < n && spent < SAMPLE_SECONDS; k++) {
		uint32_t item = (uint32_t)((uint64_t)k * pool->items / n);
		int64_t got = sample(pool->ctx, worker, item);
		spent = twz_now_seconds() - started;
		if (got < 0) {
			if (pool->fini)
				pool->fini(worker);
			free(worker);
			twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
			return -1;
		}
		settled += (double)got;
		f.sampled++;
	}
	if (pool->fini)
		pool->fini(worker);
	free(worker);
	f.rate = rate_of(settled, spent, f.threads);
	f.seconds = done + pairs / f.rate;
	if (fc)
		*fc = f;

	char when[32];
	duration(f.seconds, when, sizeof when);
	if (opt->max_seconds && f.seconds > opt->max_seconds) {
		twz_error_set(err, "%s: the bake would take about %s (%.4g node pairs "
			      "at %.3gM pairs/s on %u thread%s), more than --max-seconds %g",
			      opt->name, when, pairs, f.rate / 1e6, f.threads,
			      f.threads == 1 ? "" : "s", opt->max_seconds);
		return -1;
	}
	if (opt->forecast)
		fprintf(stderr, "twigz: %s: %.4g node pairs at %.3gM pairs/s on %u "
			"thread%s (%u searches timed): about %s\n", opt->name, pairs,
			f.rate / 1e6, f.threads, f.threads == 1 ? "" : "s", f.sampled,
			when);
	return 0;
}
