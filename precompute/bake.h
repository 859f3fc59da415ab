/*
 * bake.h - the bake pipeline for grid levels. The front every method
 * shares (options, threads, limits, memory estimates, the worker pool;
 * bake.c), and the CPD method: graph -> per-source first-move searches
 * -> run-length rows (method_cpd.c). transit.h has the TRANSIT method.
 * The result does not depend on the number of threads.
 */
#ifndef BAKE_H
#define BAKE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <pthread.h>

#include "graph.h"
#include "level_map.h"
#include "twz_error.h"

/* Row layouts the bake can write. */
enum twz_row_layout {
	TWZ_LAYOUT_PLAIN = 1,     /* format 1.0: moves only, binary search */
	TWZ_LAYOUT_BUCKETED = 2,  /* format 1.1: direction symbols, bucketed
				     rows, bounded lookups */
	TWZ_LAYOUT_NARROW = 3,    /* format 1.2: 1.1 with u16 CELL_NODE when
				     the level has fewer than 0xFFFF nodes
				     (the default) */
	TWZ_LAYOUT_INLINE = 4,    /* format 1.4: 1.2 with each row's
				     uniform buckets in its node record */
};

/* The method a bake runs, chosen once from the options. */
enum twz_bake_method_id {
	TWZ_BAKE_CPD = 0,        /* first-move rows for every pair */
	TWZ_BAKE_TRANSIT = 1,    /* local rows, distances through transit
				    nodes (transit.h) */
	TWZ_BAKE_JUNCTIONS = 2,  /* CPD over the junction graph (junctions.h) */
};

/* TRANSIT's far layout: how a node's distances to transit nodes are
 * stored (FORMAT.md 5b and 5j). */
enum twz_transit_far {
	TWZ_TRANSIT_LISTS = 0,       /* 1.1: to its block's whole list */
	TWZ_TRANSIT_ACCESS = 1,      /* 1.4: to its access nodes, packed
					into 4 bytes where they fit */
	TWZ_TRANSIT_SMALLER = 2,     /* the access nodes where they take less
					memory once open, else the lists */
	TWZ_TRANSIT_ACCESS_WIDE = 3, /* access nodes in 8-byte entries */
};

/* Build options of the TRANSIT method; 0 picks the default. */
struct twz_transit_options {
	unsigned grid;           /* blocks across the longer side of the box */
	unsigned inner;          /* inner box radius, blocks (>= 1) */
	unsigned outer;          /* outer square radius, blocks (>= 2 inner) */
};

/* Whether a bake goes through a temporary file (the spool). */
enum twz_spool_use {
	TWZ_SPOOL_AUTO = 0,      /* when the bake in memory would exceed
				    max_memory */
	TWZ_SPOOL_ALWAYS = 1,    /* always: the same bytes, less memory */
};

struct twz_bake_options {
	unsigned method;         /* TWZ_BAKE_* */
	unsigned connectivity;   /* 8 or 4 */
	unsigned threads;        /* 0: one per core */
	unsigned codec;          /* TWZ_CODEC_* of the written sections */
	int level;               /* zstd level */
	int progress;            /* print a progress line on stderr */
	unsigned layout;         /* TWZ_LAYOUT_*; 0 the method's own
				    (twz_bake_layout) */
	unsigned max_scan;       /* bucketed rows: most runs starting inside
				    one bucket (searched by bisection) */
	uint32_t max_nodes;      /* refuse more walkable cells; 0: refuse
				    what the memory estimate says will not fit */
	uint64_t max_memory;     /* bytes the estimate may reach; 0: what the
				    machine has available */
	unsigned spool;          /* TWZ_SPOOL_* */
	const char *name;        /* level name for progress and messages */
	int record_build;        /* write a BUILD_INFO section: the tool's
				    version and these options (twigz build
				    does; twz_build_info_text) */
	uint32_t agent_sizes;    /* --agent-sizes as bits (bit k: size k),
				    recorded in BUILD_INFO; 0 or size 1
				    alone: a plain bake */
	unsigned apsp;           /* CPD: TWZ_APSP_* (apsp_dense.h) that finds
				    the first moves; 0 one search per source */
	unsigned junction_search; /* TWZ_BAKE_JUNCTIONS: 0 picks; or
				    TWZ_JUNCTIONS_SEARCH_* (junctions.h):
				    how the searches run (same bytes) */
	uint64_t chunk;          /* store the row and distance sections as
				    zstd chunks of about this many bytes
				    (format 1.4, --chunk); 0 one frame */
	int forecast;            /* say on stderr how long the searches
				    will take, before they start (twigz
				    build without --quiet; bake_forecast.h) */
	double max_seconds;      /* refuse a bake forecast to take longer
				    (--max-seconds); 0: no cap */
	unsigned transit_far;    /* TWZ_TRANSIT_*: TRANSIT's far layout */
	struct twz_transit_options transit;
	unsigned shard, shards;  /* shard I of N (shard.h); 0 the whole bake */
	const char *coords;      /* a graph level's coordinates (.co file) */
	const char *links;       /* a graph level's off-mesh links (--links,
				    level_graph.h), or NULL */
	const char *costs_file;  /* --costs FILE: areas' costs (level_costs.h),
				    or NULL */
	/* Areas, once the level is read (bake_level.c), CPD grids: each
	 * cell's cost multiplier in thousandths (NULL: a move costs its
	 * length), and the areas the file holds (NULL: none, as in an
	 * agent-size layer's bake, whose file's areas are the handle's). */
	const uint32_t *cell_milli;
	const struct twz_level_costs *costs;
};

void twz_bake_options_default(struct twz_bake_options *opt);

/* The row layout opt asks for: 1.2's when it names none. */
static inline unsigned twz_bake_layout(const struct twz_bake_options *opt)
{
	return opt->layout ? opt->layout : TWZ_LAYOUT_NARROW;
}

/* TRANSIT's far layout by the format asked: 1.1 the block lists, 1.4
 * the access nodes, else the smaller of the two. */
static inline unsigned twz_transit_far_of(unsigned layout)
{
	return layout == TWZ_LAYOUT_BUCKETED ? TWZ_TRANSIT_LISTS :
	       layout == TWZ_LAYOUT_INLINE ? TWZ_TRANSIT_ACCESS
					   : TWZ_TRANSIT_SMALLER;
}

/* Threads a bake runs on: opt->threads, or every online core when 0. */
unsigned twz_bake_threads(const struct twz_bake_options *opt);
/* The same, capped to what a writer header holds (twz_out_header.threads):
 * sections compressed at once. */
uint8_t twz_bake_compress_threads(const struct twz_bake_options *opt);

/* Peak bytes a CPD bake is estimated to need: a level of cells cells,
 * nodes of them walkable, on threads threads, with the codec and zstd
 * level given (bake.c says what is counted). */
uint64_t twz_bake_estimate_bytes(uint64_t cells, uint64_t nodes,
				 unsigned threads, unsigned codec, int level);

/* Bytes the process can use now: MemAvailable (else the physical memory),
 * capped by its address-space limit; 0 when unknown. */
uint64_t twz_memory_available(void);

/* Peak bytes a method's bake of g (nodes of its cells walkable) with opt
 * and the method's own options is estimated to need; 0 when it cannot
 * tell (the bake then reports what is wrong). */
typedef uint64_t (*twz_estimate_fn)(const struct twz_grid *g, uint64_t nodes,
				    const struct twz_bake_options *opt,
				    const void *method_opt);

/* The limits every method checks first, before anything is allocated
 * for g: refuse (-1, err set, an input error) a level with more walkable
 * cells than opt->max_nodes, or, when max_nodes is 0, one whose
 * estimated bake needs more than max_memory or the memory available. */
int twz_bake_check(const struct twz_grid *g, const struct twz_bake_options *opt,
		   twz_estimate_fn estimate, const void *method_opt,
		   struct twz_error *err);

/* twz_bake_check with the CPD estimate; twz_bake_cpd calls it first. */
int twz_bake_check_limits(const struct twz_grid *g,
			  const struct twz_bake_options *opt,
			  struct twz_error *err);

/* Wall-clock seconds, for stage timings. */
double twz_now_seconds(void);

/*
 * The worker pool of every stage: items [0, items) cut into chunks of
 * `chunk`, pulled by number by `threads` threads (the caller is one of
 * them). Each thread owns worker_size bytes of state, zeroed, set up by
 * init and released by fini (both may be NULL). run handles items
 * [lo, hi) and must write its results to places fixed by the items, so
 * they do not depend on the threads. Progress goes to stderr when
 * opt->progress: the stage `what` or, when NULL, sources and pairs/s.
 */
struct twz_spool;

struct twz_pool {
	const struct twz_bake_options *opt;
	struct twz_spool *spool;   /* trimmed after each chunk (spool.h) */
	const char *what;
	uint32_t items;
	uint32_t chunk;
	size_t worker_size;
	int (*init)(void *ctx, void *worker);   /* 0, or -1 out of memory */
	void (*fini)(void *worker);
	int (*run)(void *ctx, void *worker, uint32_t lo, uint32_t hi);
	void *ctx;
};

/* 0, or -1 when a thread's state or a chunk failed (out of memory). */
int twz_pool_run(const struct twz_pool *p, unsigned threads);

/*
 * The words a stage makes for each of its units (a chunk of rows, a
 * block) joined in unit order as units are done, on any thread. A unit
 * done before the ones ahead of it waits in its own buffer; as the pool
 * hands units out in order, a few wait at a time. The joined words are
 * a big array (spool.h): in memory, or in the spool.
 */
struct twz_runs;
struct twz_gather_unit;
struct twz_gather {
	pthread_mutex_t lock;
	struct twz_spool *spool;
	uint32_t units;
	uint32_t next;              /* the unit to join next */
	struct twz_gather_unit *wait; /* [units]: units done early */
	void *v;                    /* the bytes joined so far */
	uint64_t len;
	uint64_t cap;
};

/* 0, or -1 out of memory. */
int twz_gather_init(struct twz_gather *g, uint32_t units,
		    struct twz_spool *spool);
/* Unit k's n bytes, a malloc'd buffer (NULL when n is 0) the gather
 * takes: joined now when every unit before it is, else kept until they
 * are. Every unit is put once. 0, or -1 out of memory. */
int twz_gather_put(struct twz_gather *g, uint32_t k, void *bytes, size_t n);
/* The same with a twz_runs' words, which it takes (r is left empty). */
int twz_gather_put_runs(struct twz_gather *g, uint32_t k, struct twz_runs *r);
/* Frees what waits; the joined bytes (v, len) are the caller's. */
void twz_gather_end(struct twz_gather *g);

struct twz_out_header;

/* The header fields every method writes alike: the level's hash and
 * size, gr's counts, connectivity and node order, and opt's codec. */
void twz_bake_header(struct twz_out_header *h, const struct twz_grid *g,
		     const struct twz_graph *gr,
		     const struct twz_bake_options *opt, uint8_t method);

/* Text appended to a buffer of cap bytes: once a piece does not fit,
 * full stays set (and len where the text stopped). */
struct twz_text {
	char *buf;
	size_t cap;
	size_t len;
	int full;
};
void twz_text_vput(struct twz_text *t, const char *fmt, va_list ap);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void twz_text_printf(struct twz_text *t, const char *fmt, ...);

/* The BUILD_INFO text (FORMAT.md section 5d) of a bake of method with
 * opt: the tool's version and every option that decides the file's
 * bytes, keys in ascending order; for TRANSIT, gr's block side and radii
 * (twz_transit_layout sets them without a bake). Nothing about the
 * machine, the time or the thread count. Its length, or 0 when cap is
 * too small. */
size_t twz_build_info_text(const struct twz_bake_options *opt, uint8_t method,
			   const struct twz_graph *gr, char *buf, size_t cap);

/* The same for a graph or navmesh level (TWZ_LEVEL_*): its level kind,
 * not its grid's options. */
size_t twz_build_info_graph_text(const struct twz_bake_options *opt,
				 unsigned level_kind, char *buf, size_t cap);

struct twz_cpd {
	struct twz_graph graph;
	uint32_t *row_offsets;   /* [node_count+1], into runs */
	uint32_t *runs;          /* [run_count]: start << 4 | symbol; a big
				    array of spool (spool.h) */
	uint64_t run_count;
	unsigned layout;         /* TWZ_LAYOUT_* the runs were made for */
	double seconds;          /* wall time of the searches */
	struct twz_spool *spool; /* where the runs and the rows made from
				    them lie: NULL in memory */
};

/* The CPD bake of g in memory, refused first (-1, err set) when its
 * estimate exceeds the limits (twz_bake_check_limits). */
int twz_bake_cpd(const struct twz_grid *g, const struct twz_bake_options *opt,
		 struct twz_cpd *out, struct twz_error *err);

/* Peak bytes of the spooled bake of g (nodes walkable) with opt. */
uint64_t twz_bake_stream_estimate_bytes(const struct twz_grid *g,
					uint64_t nodes,
					const struct twz_bake_options *opt);

void twz_cpd_free(struct twz_cpd *cpd);

/*
 * The sources [*first, *end) of shard index (from 1) of count of a CPD
 * bake over gr. Shards are contiguous in the bake's source order and
 * balanced by work, not by count: a search from a source settles its
 * whole region, so a source weighs its region's size, and shard I ends
 * where the running weight first reaches I/N of the total.
 */
void twz_cpd_shard_range(const struct twz_graph *gr, unsigned index,
			 unsigned count, uint32_t *first, uint32_t *end);

struct twz_out_file;


/* Write the database to path atomically (temporary file, then rename). */
int twz_cpd_write(const struct twz_cpd *cpd, const struct twz_grid *g,
		  const struct twz_bake_options *opt, const char *path,
		  struct twz_error *err);

/* Encode into memory (malloc'd), as twz_cpd_write would write it. */
int twz_cpd_encode(const struct twz_cpd *cpd, const struct twz_grid *g,
		   const struct twz_bake_options *opt, uint8_t **buf,
		   size_t *len, struct twz_error *err);

#endif
