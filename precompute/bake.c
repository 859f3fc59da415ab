/*
 * bake.c - the front every method shares: options, thread count, the
 * limits and memory estimates checked before a bake, and the worker pool
 * that runs a stage on every thread with results placed by index, so the
 * output does not depend on the thread count.
 */
#include "bake.h"

#include <math.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>
#define ZSTD_STATIC_LINKING_ONLY  /* ZSTD_estimateCCtxSize */
#include <zstd.h>

#include "rows.h"
#include "spool.h"
#include "twz_writer.h"

void twz_bake_options_default(struct twz_bake_options *opt)
{
	memset(opt, 0, sizeof *opt);
	opt->connectivity = 8;
	opt->threads = 0;
	opt->codec = TWZ_CODEC_ZSTD;
	opt->level = 19;
	opt->layout = 0;
	opt->max_scan = 64;
	opt->name = "level";
}

double twz_now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- the worker pool ------------------------------------------------ */

struct pool_run {
	const struct twz_pool *p;
	uint32_t chunks;
	atomic_uint next;
	atomic_uint done;
	atomic_int failed;
	double started;
};

static void print_progress(struct pool_run *r)
{
	const struct twz_pool *p = r->p;
	uint32_t n = p->items;
	unsigned done = atomic_load(&r->done);
	double el = twz_now_seconds() - r->started;
	double left = done ? el * (double)(n - done) / done : 0;

	if (p->what) {
		fprintf(stderr, "\r%s: %s %5.1f%% (%u/%u), %.0fs left   ", p->opt->name,
			p->what, 100.0 * done / (n ? n : 1), done, n, left);
		return;
	}
	double pairs = (double)done * n;
	double rate = el > 0 ? pairs / el : 0;
	fprintf(stderr, "\r%s: %5.1f%% (%u/%u sources), %.1fM pairs/s, %.0fs left   ",
		p->opt->name, 100.0 * done / (n ? n : 1), done, n, rate / 1e6, left);
}

struct pool_arg {
	struct pool_run *r;
	int reporter;       /* prints the progress line */
};

static void *pool_worker(void *varg)
{
	const struct pool_arg *arg = varg;
	struct pool_run *r = arg->r;
	const struct twz_pool *p = r->p;
	int reporter = arg->reporter && p->opt->progress;
	void *wk = calloc(1, p->worker_size ? p->worker_size : 1);
	double last = 0;

	if (!wk || (p->init && p->init(p->ctx, wk) != 0)) {
		free(wk);
		atomic_store(&r->failed, 1);
		return NULL;
	}
	for (;;) {
		uint32_t c = atomic_fetch_add(&r->next, 1);
		if (c >= r->chunks || atomic_load(&r->failed))
			break;
		uint32_t lo = c * p->chunk;
		uint32_t hi = p->items - lo > p->chunk ? lo + p->chunk : p->items;
		if (p->run(p->ctx, wk, lo, hi) != 0) {
			atomic_store(&r->failed, 1);
			break;
		}
		/* What the chunk touched of the spool goes back to it. */
		twz_spool_trim(p->spool);
		atomic_fetch_add(&r->done, hi - lo);
		if (reporter) {
			double t = twz_now_seconds();
			if (t - last > 0.25) {
				last = t;
				print_progress(r);
			}
		}
	}
	if (p->fini)
		p->fini(wk);
	free(wk);
	return NULL;
}

int twz_pool_run(const struct twz_pool *p, unsigned threads)
{
	struct pool_run r = { .p = p };
	pthread_t *tids;
	unsigned started = 0;

	r.chunks = (p->items + p->chunk - 1) / p->chunk;
	atomic_init(&r.next, 0);
	atomic_init(&r.done, 0);
	atomic_init(&r.failed, 0);
	r.started = twz_now_seconds();
	if (threads > r.chunks)
		threads = r.chunks ? r.chunks : 1;
	tids = calloc(threads, sizeof *tids);
	if (!tids)
		return -1;
	/* The calling thread works too and reports progress. If a thread
	 * cannot start, the others take its share. */
	struct pool_arg helper = { &r, 0 }, self = { &r, 1 };
	for (unsigned i = 1; i < threads; i++) {
		if (pthread_create(&tids[started], NULL, pool_worker, &helper) != 0)
			break;
		started++;
	}
	pool_worker(&self);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	/* Erase the progress line: the summary (or the next stage's line)
	 * takes its place. Progress is shown only on a terminal. */
	if (p->opt->progress && p->items)
		fputs("\r\033[K", stderr);
	return atomic_load(&r.failed) ? -1 : 0;
}

/* ---- results joined in order ----------------------------------------- */

struct twz_gather_unit {
	void *bytes;
	size_t n;
	int done;
};

int twz_gather_init(struct twz_gather *g, uint32_t units,
		    struct twz_spool *spool)
{
	memset(g, 0, sizeof *g);
	g->spool = spool;
	g->units = units;
	g->wait = calloc(units ? units : 1, sizeof *g->wait);
	pthread_mutex_init(&g->lock, NULL);
	if (!g->wait) {
		twz_gather_end(g);
		return -1;
	}
	return 0;
}

/* n bytes after the joined ones; bytes freed. */
static int join(struct twz_gather *g, void *bytes, size_t n)
{
	int rc = 0;

	if (g->len + n > g->cap) {
		uint64_t cap = g->cap ? 2 * g->cap : 1 << 18;
		while (cap < g->len + n)
			cap *= 2;
		void *v = twz_big_grow(g->spool, g->v, g->cap, cap);
		if (v) {
			g->v = v;
			g->cap = cap;
		}
		rc = v ? 0 : -1;
	}
	if (rc == 0 && n) {
		memcpy((uint8_t *)g->v + g->len, bytes, n);
		g->len += n;
	}
	free(bytes);
	return rc;
}

int twz_gather_put(struct twz_gather *g, uint32_t k, void *bytes, size_t n)
{
	int rc = 0;

	pthread_mutex_lock(&g->lock);
	if (k != g->next) {
		g->wait[k] = (struct twz_gather_unit){ bytes, n, 1 };
	} else {
		rc = join(g, bytes, n);
		for (g->next++; g->next < g->units && g->wait[g->next].done; g->next++) {
			struct twz_gather_unit *u = &g->wait[g->next];
			rc |= join(g, u->bytes, u->n);
			u->bytes = NULL;
		}
	}
	pthread_mutex_unlock(&g->lock);
	return rc;
}

int twz_gather_put_runs(struct twz_gather *g, uint32_t k, struct twz_runs *r)
{
	void *v = r->v;
	size_t n = (size_t)r->len * 4;

	*r = (struct twz_runs){ NULL, 0, 0 };
	return twz_gather_put(g, k, v, n);
}

void twz_gather_end(struct twz_gather *g)
{
	if (g->wait)
		for (uint32_t k = 0; k < g->units; k++)
			free(g->wait[k].bytes);
	free(g->wait);
	g->wait = NULL;
	pthread_mutex_destroy(&g->lock);
}

unsigned twz_bake_threads(const struct twz_bake_options *opt)
{
	if (opt->threads)
		return opt->threads;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

uint8_t twz_bake_compress_threads(const struct twz_bake_options *opt)
{
	unsigned n = twz_bake_threads(opt);
	return (uint8_t)(n > 255 ? 255 : n);
}

/* ---- what the file says about its bake -------------------------------- */

void twz_text_vput(struct twz_text *t, const char *fmt, va_list ap)
{
	int w;

	if (t->full)
		return;
	w = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	if (w < 0 || (size_t)w >= t->cap - t->len)
		t->full = 1;
	else
		t->len += (size_t)w;
}

void twz_text_printf(struct twz_text *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	twz_text_vput(t, fmt, ap);
	va_end(ap);
}

size_t twz_build_info_text(const struct twz_bake_options *opt, uint8_t method,
			   const struct twz_graph *gr, char *buf, size_t cap)
{
	static const char *const formats[] = {
		[TWZ_LAYOUT_PLAIN] = "1.0",
		[TWZ_LAYOUT_BUCKETED] = "1.1",
		[TWZ_LAYOUT_NARROW] = "1.2",
		[TWZ_LAYOUT_INLINE] = "1.4",
	};
	int transit = method == TWZ_METHOD_TRANSIT;
	int junctions = opt->method == TWZ_BAKE_JUNCTIONS;
	unsigned layout = opt->layout <= TWZ_LAYOUT_INLINE && opt->layout
			  ? opt->layout : TWZ_LAYOUT_NARROW;
	struct twz_text t = { buf, cap, 0, cap == 0 };

	/* Keys in ascending order, as the format asks. The format and the
	 * bucket scan decide CPD's rows only; TRANSIT always writes 1.1.
	 * The codec is the header's build_codec alone: twigz unpack
	 * rewrites a file raw and says so there. */
	if (opt->agent_sizes & ~(uint32_t)2) {
		const char *sep = "";
		twz_text_printf(&t, "agent_sizes=");
		for (unsigned k = 1; k < 32; k++)
			if (opt->agent_sizes & (1u << k)) {
				twz_text_printf(&t, "%s%u", sep, k);
				sep = ",";
			}
		twz_text_printf(&t, "\n");
	}
	if (opt->chunk && opt->codec == TWZ_CODEC_ZSTD)
		twz_text_printf(&t, "chunk=%llu\n", (unsigned long long)opt->chunk);
	twz_text_printf(&t, "connectivity=%u\n", opt->connectivity);
	if (!transit && !junctions)
		twz_text_printf(&t, "format=%s\n", formats[layout]);
	if (junctions)
		twz_text_printf(&t, "junctions=1\n");
	twz_text_printf(&t, "level=%d\n", opt->level);
	if (!transit && !junctions && layout != TWZ_LAYOUT_PLAIN)
		twz_text_printf(&t, "max_scan=%u\n", opt->max_scan ? opt->max_scan : 64);
	twz_text_printf(&t, "method=%s\n", transit ? "transit" : "cpd");
	twz_text_printf(&t, "tool=twigz %s\n", twz_version());
	if (transit) {
		twz_text_printf(&t, "transit_inner=%u\n", gr->inner);
		twz_text_printf(&t, "transit_outer=%u\n", gr->outer);
		twz_text_printf(&t, "transit_side=%u\n", gr->side);
	}
	return t.full ? 0 : t.len;
}

size_t twz_build_info_graph_text(const struct twz_bake_options *opt,
				 unsigned level_kind, char *buf, size_t cap)
{
	struct twz_text t = { buf, cap, 0, cap == 0 };

	/* Nothing about the machine, threads or solver (every solver bakes
	 * the same bytes). */
	if (opt->chunk && opt->codec == TWZ_CODEC_ZSTD)
		twz_text_printf(&t, "chunk=%llu\n", (unsigned long long)opt->chunk);
	twz_text_printf(&t, "level=%d\nlevel_kind=%s\nmethod=cpd\ntool=twigz %s\n", opt->level,
	    level_kind == TWZ_LEVEL_NAVMESH ? "navmesh" : "graph", twz_version());
	if (t.full && cap)
		buf[0] = 0;
	return t.full ? 0 : t.len;
}

void twz_bake_header(struct twz_out_header *h, const struct twz_grid *g,
		     const struct twz_graph *gr,
		     const struct twz_bake_options *opt, uint8_t method)
{
	*h = (struct twz_out_header){
		.level_hash = g->level_hash,
		.width = gr->width,
		.height = gr->height,
		.node_count = gr->node_count,
		.component_count = gr->component_count,
		.method = method,
		.connectivity = (uint8_t)gr->connectivity,
		.node_order = (uint8_t)gr->order,
		.codec = (uint8_t)opt->codec,
		.level = (int8_t)opt->level,
		.threads = twz_bake_compress_threads(opt),
		.chunk = opt->chunk,
	};
	if (opt->record_build)
		twz_build_info_text(opt, method, gr, h->build_info,
				    sizeof h->build_info);
}

/* ---- limits: refuse a bake the machine cannot finish ------------------ */

/*
 * Peak bytes of a CPD bake, estimated from the level alone. Everything
 * but the runs is exact up to small constants: the grid, the graph (cell
 * map, node arrays, 8 neighbours a node, the numbering stack), one search
 * workspace a thread (costs, first-move sets, flags, buckets) and the row
 * offsets. The run count is not known before the searches; rows measured
 * on the Moving AI levels hold from 5 to 60 runs on levels of 2,000 to
 * 120,000 nodes, so 32 + sqrt(nodes) / 2 a row is generous, and each run
 * is counted 16 bytes: rows being gathered (with their growth slack),
 * the joined copy, the little-endian copy, the compressed copy and the
 * file image can be alive at once.
 */
uint64_t twz_bake_estimate_bytes(uint64_t cells, uint64_t nodes,
				 unsigned threads, unsigned codec, int level)
{
	double runs = (double)nodes * (32.0 + sqrt((double)nodes) / 2.0);
	double bytes = 5.0 * cells                  /* grid, cell map */
		       + 80.0 * nodes               /* graph and its stack */
		       + 26.0 * nodes * threads     /* search workspaces */
		       + 8.0 * nodes                /* row lengths, offsets */
		       + 16.0 * runs;

	/* Sections compress on up to `threads` threads at once, each with
	 * its own context. */
	if (codec == TWZ_CODEC_ZSTD)
		bytes += (double)ZSTD_estimateCCtxSize(level) * (threads ? threads : 1);
	return bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)bytes;
}

/* A "Name:   N kB" line of /proc/meminfo, in bytes; 0 when absent. */
static uint64_t meminfo_bytes(const char *name)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	uint64_t v = 0;
	size_t len = strlen(name);

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		unsigned long long kb;
		if (!strncmp(line, name, len) && line[len] == ':' &&
		    sscanf(line + len + 1, "%llu", &kb) == 1) {
			v = (uint64_t)kb * 1024;
			break;
		}
	}
	fclose(f);
	return v;
}

uint64_t twz_memory_available(void)
{
	uint64_t avail = meminfo_bytes("MemAvailable");
	struct rlimit rl;

	if (!avail) {
		long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
		if (pages > 0 && size > 0)
			avail = (uint64_t)pages * (uint64_t)size;
	}
	/* A process limit is as hard as the machine's. */
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (!avail || rl.rlim_cur < avail))
		avail = rl.rlim_cur;
	return avail;
}

int twz_bake_check(const struct twz_grid *g, const struct twz_bake_options *opt,
		   twz_estimate_fn estimate, const void *method_opt,
		   struct twz_error *err)
{
	uint64_t cells = (uint64_t)g->width * g->height, nodes = 0;

	for (uint64_t c = 0; c < cells; c++)
		nodes += g->walkable[c] != 0;
	if (opt->max_nodes) {
		if (nodes <= opt->max_nodes)
			return 0;
		twz_error_set(err, "%s: %llu walkable cells exceed --max-nodes %u",
			      opt->name, (unsigned long long)nodes, opt->max_nodes);
		return -1;
	}
	uint64_t need = estimate(g, nodes, opt, method_opt);
	uint64_t have = opt->max_memory ? opt->max_memory : twz_memory_available();
	if (!have || need <= have)
		return 0;
	if (opt->max_memory) {
		twz_error_set(err, "%s: baking %llu nodes needs about %.0f MiB, more than "
			      "--memory-limit %.0fM (--max-nodes N bakes anyway)", opt->name,
			      (unsigned long long)nodes, need / 1048576.0,
			      have / 1048576.0);
		return -1;
	}
	twz_error_set(err, "%s: baking %llu nodes needs about %.1f GiB, more than "
		      "the %.1f GiB available (--max-nodes N bakes anyway)",
		      opt->name, (unsigned long long)nodes, need / 1073741824.0,
		      have / 1073741824.0);
	return -1;
}
