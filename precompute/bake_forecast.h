/*
 * bake_forecast.h - what a bake says before its long work: the node
 * pairs its searches will settle and the rate a short sample of those
 * very searches ran at here, so a level that would take hours (a hostile
 * chain of 70,000 nodes) is no surprise, and --max-seconds refuses it
 * up front. Every method calls it once its graph is built, on the pool
 * it is about to run.
 */
#ifndef BAKE_FORECAST_H
#define BAKE_FORECAST_H

#include <stdint.h>

#include "bake.h"
#include "twz_error.h"

/* One search of the bake from pool item `item`, on the pool's worker
 * state, its result thrown away: the node pairs it settled, or -1 out of
 * memory. */
typedef int64_t (*twz_sample_fn)(void *ctx, void *worker, uint32_t item);

/* What the forecast found. */
struct twz_forecast {
	double pairs;        /* node pairs the searches settle */
	double rate;         /* pairs a second on the bake's threads */
	double seconds;      /* forecast of the searches, and `done` */
	unsigned threads;
	unsigned sampled;    /* searches timed */
};

/*
 * Times `sample` on a few of pool's items, spread over them (one in 32,
 * at least 16, for at most about a fifth of a second, on this thread,
 * with a worker made by pool's init), and forecasts the searches of
 * `pairs` node pairs
 * on the bake's threads; `done` seconds the bake has already spent are
 * added. Prints the forecast on stderr when pool->opt->forecast; refuses
 * (-1, err set, an input error) a forecast over pool->opt->max_seconds.
 * 0 when the bake may go on (fc, when not NULL, says why). Nothing to
 * search (no items) is no forecast.
 */
int twz_bake_forecast(const struct twz_pool *pool, twz_sample_fn sample,
		      double pairs, double done, struct twz_forecast *fc,
		      struct twz_error *err);

#endif
