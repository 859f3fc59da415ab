/*
 * bake.h - the bake pipeline for grid levels. The front every method
 * shares (options, threads, limits, memory estimates, the worker pool;
 * bake.c), and the CPD method: graph -> per-source first-move searches
 * -> run-length rows (method_cpd.c). transit.h has the TRANSIT method.
 * The result does not depend on the number of threads.
 */
#ifndef BAKE_H
#define BAKE_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "level_map.h"
#include "twz_error.h"

struct twz_bake_options {
	unsigned connectivity;   /* 8 or 4 */
	unsigned threads;        /* 0: one per core */
	unsigned codec;          /* TWZ_CODEC_* of the written sections */
	int level;               /* zstd level */
	int progress;            /* print a progress line on stderr */
	unsigned layout;         /* TWZ_LAYOUT_* */
	unsigned max_scan;       /* bucketed rows: most runs starting inside
				    one bucket (searched by bisection) */
	uint32_t max_nodes;      /* refuse more walkable cells; 0: refuse
				    what the memory estimate says will not fit */
	uint64_t max_memory;     /* bytes the estimate may reach; 0: what the
				    machine has available */
	const char *name;        /* level name for progress and messages */
	int record_build;        /* write a BUILD_INFO section: the tool's
				    version and these options (twigz build
				    does; twz_build_info_text) */
	uint32_t agent_sizes;    /* --agent-sizes as bits (bit k: size k),
				    recorded in BUILD_INFO; 0 or size 1
				    alone: a plain bake */
	unsigned apsp;           /* CPD: TWZ_APSP_* (apsp_dense.h) that finds
				    the first moves; 0 one search per source */
	int junctions;           /* CPD over the junction graph (junctions.h),
				    recorded in BUILD_INFO */
	uint64_t chunk;          /* store the row and distance sections as
				    zstd chunks of about this many bytes
				    (format 1.4, --chunk); 0 one frame */
	int forecast;            /* say on stderr how long the searches
				    will take, before they start (twigz
				    build without --quiet; bake_forecast.h) */
	double max_seconds;      /* refuse a bake forecast to take longer
				    (--max-seconds); 0: no cap */
	int transit_access;      /* TRANSIT: 1 each node's access nodes
				    (format 1.4); 2 those where they take
				    less memory than the block lists, else
				    1.1 (twigz build's default); 0 the
				    block lists of 1.1; 3 access nodes
				    in 8-byte entries, never packed */
	/* Areas (--costs, level_costs.h), CPD grids: each cell's cost
	 * multiplier in thousandths (NULL: a move costs its length), and
	 * the areas the file holds (NULL: none, as in an agent-size
	 * layer's bake, whose file's areas are the handle's). */
	const uint32_t *cell_milli;
	const struct twz_level_costs *costs;
};

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

void twz_bake_options_default(struct twz_bake_options *opt);

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
/* transit_access: access nodes in 8-byte entries (FORMAT.md 5j ACCESS),
 * where 1 and 2 pack them into 4 bytes whenever they fit. */
#define TWZ_TRANSIT_ACCESS_WIDE 3

struct twz_pool {
	const struct twz_bake_options *opt;
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

struct twz_out_header;

/* The header fields every method writes alike: the level's hash and
 * size, gr's counts, connectivity and node order, and opt's codec. */
void twz_bake_header(struct twz_out_header *h, const struct twz_grid *g,
		     const struct twz_graph *gr,
		     const struct twz_bake_options *opt, uint8_t method);

/* The BUILD_INFO text (FORMAT.md section 5d) of a bake of method with
 * opt: the tool's version and every option that decides the file's
 * bytes, keys in ascending order; for TRANSIT, gr's block side and radii
 * (twz_transit_layout sets them without a bake). Nothing about the
 * machine, the time or the thread count. Its length, or 0 when cap is
 * too small. */
size_t twz_build_info_text(const struct twz_bake_options *opt, uint8_t method,
			   const struct twz_graph *gr, char *buf, size_t cap);

struct twz_cpd {
	struct twz_graph graph;
	uint32_t *row_offsets;   /* [node_count+1], into runs */
	uint32_t *runs;          /* [run_count]: start << 4 | symbol */
	uint64_t run_count;
	unsigned layout;         /* TWZ_LAYOUT_* the runs were made for */
	double seconds;          /* wall time of the searches */
};

int twz_bake_cpd(const struct twz_grid *g, const struct twz_bake_options *opt,
		 struct twz_cpd *out, struct twz_error *err);

/* Where a CPD bake larger than memory sends each chunk of rows as it is
 * made (method_cpd_stream.c): chunk k holds the rows of sources
 * [64k, 64k + 64); chunk takes the runs and empties them (0, or -1 to
 * stop the bake). Called from the bake's threads. */
struct twz_runs;
struct twz_cpd_spill {
	int (*chunk)(void *ctx, uint32_t chunk, struct twz_runs *runs);
	void *ctx;
};

/* twz_bake_cpd with every chunk handed to spill: out gets the graph and
 * row_offsets, no runs; the limits are the caller's to check. */
int twz_bake_cpd_spilled(const struct twz_grid *g,
			 const struct twz_bake_options *opt,
			 const struct twz_cpd_spill *spill, struct twz_cpd *out,
			 struct twz_error *err);

void twz_cpd_free(struct twz_cpd *cpd);

/* A CPD bake under opt->max_memory (--memory-limit) smaller than the bake
 * in memory needs (method_cpd_stream.c): rows go to a temporary file
 * next to path as they are made, and the file written to path is
 * twz_cpd_write's, byte for byte. */
struct twz_cpd_stream_result {
	uint32_t node_count;
	uint32_t component_count;
	uint64_t run_count;
	double seconds;          /* wall time of the searches */
	uint64_t spool_bytes;    /* the temporary file's largest size */
};

/* Peak bytes of the streamed bake of g (nodes walkable) with opt. */
uint64_t twz_bake_stream_estimate_bytes(const struct twz_grid *g,
					uint64_t nodes,
					const struct twz_bake_options *opt);

/* Whether opt->max_memory is set and below the in-memory estimate of a
 * CPD bake of g: the bake must stream. */
int twz_cpd_stream_needed(const struct twz_grid *g,
			  const struct twz_bake_options *opt);

/* The streamed bake and write; refused up front (-1, err set) when even
 * its estimate exceeds the limit. */
int twz_cpd_bake_streamed(const struct twz_grid *g,
			  const struct twz_bake_options *opt, const char *path,
			  struct twz_cpd_stream_result *res,
			  struct twz_error *err);

struct twz_out_file;

/* The header and sections of cpd's file, into f, as twz_cpd_write would
 * write them (agent_sizes.c lays several such into one file). */
void twz_cpd_out_file(const struct twz_cpd *cpd, const struct twz_grid *g,
		      const struct twz_bake_options *opt,
		      struct twz_out_file *f);

/* Write the database to path atomically (temporary file, then rename). */
int twz_cpd_write(const struct twz_cpd *cpd, const struct twz_grid *g,
		  const struct twz_bake_options *opt, const char *path,
		  struct twz_error *err);

/* Encode into memory (malloc'd), as twz_cpd_write would write it. */
int twz_cpd_encode(const struct twz_cpd *cpd, const struct twz_grid *g,
		   const struct twz_bake_options *opt, uint8_t **buf,
		   size_t *len, struct twz_error *err);

#endif
