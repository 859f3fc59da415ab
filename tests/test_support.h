/*
 * test_support.h - what the Check suites share: small levels made from
 * text or generated, in-memory bakes, a plain Dijkstra to compare with,
 * where the Moving AI benchmark levels are, files of the source tree and
 * of scratch directories, and runs of the twigz tool.
 */
#ifndef TEST_SUPPORT_H
#define TEST_SUPPORT_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bake.h"
#include "graph.h"
#include "level_map.h"
#include "level_scen.h"
#include "twigz.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* ck_assert reports every check that passes to the runner, a system call
 * each: inner loops check with this, which calls Check only on failure. */
#define expect(cond, ...)                          \
	do {                                       \
		if (!(cond))                       \
			ck_abort_msg(__VA_ARGS__); \
	} while (0)

/* Five regions: two large, one of four cells, two single cells (whose
 * rows hold no move at all). */
extern const char *const twz_test_small_level;

/* A grid from rows of '.' (walkable) and '@' (blocked), '\n' between rows;
 * aborts the test on malformed text. */
void twz_test_grid_from_text(struct twz_grid *g, const char *text);

/* The window (x0, y0, w, h) of g into out (cells past g's edge
 * blocked). */
void twz_test_grid_window(struct twz_grid *out, const struct twz_grid *g,
			  uint32_t x0, uint32_t y0, uint32_t w, uint32_t h);

/* Level kinds the generator makes, each with its own failure modes. */
enum twz_test_level_kind {
	TWZ_TEST_ROOMS,        /* rooms joined by one-cell doors */
	TWZ_TEST_MAZE,         /* one-cell corridors, many dead ends */
	TWZ_TEST_CAVES,        /* cellular-automaton caves, ragged walls */
	TWZ_TEST_OPEN_HOLLOW,  /* open ground with hollow obstacles (walls
				  around walkable insides) */
	TWZ_TEST_POCKETS,      /* several unconnected regions, some of one cell */
	TWZ_TEST_KIND_COUNT
};

/* A deterministic generated level (same kind, size, seed: same grid). */
void twz_test_generate(struct twz_grid *g, enum twz_test_level_kind kind,
		       uint32_t width, uint32_t height, uint64_t seed);

const char *twz_test_kind_name(enum twz_test_level_kind kind);

/* A random navmesh: a jittered grid of w x h quads, some left out, the
 * rest split into two triangles along a random diagonal or kept whole.
 * The text of an OBJ file, malloc'd; the same seed gives the same mesh. */
char *twz_test_random_obj(uint64_t seed, unsigned w, unsigned h);

/* Bake g into an in-memory .twz (malloc'd); aborts the test on failure. */
uint8_t *twz_test_bake(const struct twz_grid *g, unsigned connectivity,
		       unsigned codec, unsigned threads, size_t *len);
/* The same with a TWZ_LAYOUT_* (0: the default). */
uint8_t *twz_test_bake_layout(const struct twz_grid *g, unsigned connectivity,
			      unsigned codec, unsigned threads, unsigned layout,
			      size_t *len);

/* Plain Dijkstra (binary heap, exact costs) from cell (sx, sy): dist has
 * width*height entries; unreachable and blocked cells get
 * {UINT32_MAX, UINT32_MAX}. */
void twz_test_dijkstra(const struct twz_grid *g, unsigned connectivity,
		       uint32_t sx, uint32_t sy, struct twz_cost *dist);

/* twz_test_dijkstra from every cell: [cells][cells] costs, malloc'd
 * (the caller frees them). */
struct twz_cost *twz_test_dijkstra_all(const struct twz_grid *g,
				       unsigned connectivity);

/* The cost twz_test_dijkstra gives a cell it cannot reach, whether two
 * costs are the same, and c plus the cost of move m (0..3 straight, 4..7
 * diagonal). Inline: the oracles call them in their innermost loops. */
static const struct twz_cost twz_test_unreachable = { UINT32_MAX, UINT32_MAX };

static inline int twz_test_cost_eq(struct twz_cost a, struct twz_cost b)
{
	return a.straight == b.straight && a.diagonal == b.diagonal;
}

static inline struct twz_cost twz_test_cost_add_move(struct twz_cost c,
						     unsigned m)
{
	if (m >= 4)
		c.diagonal++;
	else
		c.straight++;
	return c;
}

/* FNV-1a over a path's nodes: one number to compare two answers by. */
uint64_t twz_test_path_hash(const twz_node *p, size_t n);

/* Check db from `threads` threads at once against known answers of
 * `pairs` pairs: twz_next gives next[i] and twz_path a path of len[i]
 * nodes hashing to hash[i] (len[i] 0: no path). Each thread walks the
 * pairs `rounds` times from its own offset. The most wrong answers of
 * one thread; which thread in *worst. */
int twz_test_pairs_threaded(const twz_db *db, unsigned threads,
			    unsigned rounds, unsigned pairs, const twz_node *s,
			    const twz_node *t, const twz_node *next,
			    const size_t *len, const uint64_t *hash,
			    unsigned *worst);

/* The Moving AI directory (env TWZ_MOVINGAI_DIR, else ../shared/data/
 * movingai from the source root) when it exists, else NULL. A path of
 * one benchmark file, e.g. "dao/arena.map", into buf. */
const char *twz_test_movingai_dir(void);
int twz_test_movingai_path(char *buf, size_t cap, const char *rel);

/* Where twz_test_movingai_dir looks, whether or not it exists (for the
 * "not found" note). twz_test_movingai_path returns 0, or -1 when the
 * directory is absent or the path does not fit. */
const char *twz_test_movingai_where(void);

/* Load a Moving AI level and its scenarios: name is e.g. "dao/arena" for
 * dao/arena.map and dao/arena.map.scen; the scenario file's path goes to
 * scen_path. Returns -1 when the levels are not here; a file that does not
 * load fails the test. */
int twz_test_movingai_load(const char *name, struct twz_grid *g,
			   struct twz_scen *sc, char *scen_path, size_t cap);

/* A database read under a cache budget (lazy) against the same file
 * inflated at open (eager), on g: from every source_step-th walkable
 * source, every target's exact cost in lazy is Dijkstra's (or
 * unreachable) and its first move eager's; from every path_step-th of
 * those sources (0: none) the whole path is eager's too. */
void twz_test_compare_lazy(const struct twz_grid *g, unsigned connectivity,
			   const twz_db *lazy, const twz_db *eager,
			   unsigned source_step, unsigned path_step);

/* Every problem of the scenario sc (of the 8-connected level g, read
 * from scen_path) asked of db: an unreachable goal has no path; any other
 * a path from start to goal of legal moves whose cost is the published
 * optimum, and twz_cost_exact and twz_cost say that cost too. */
void twz_test_check_scenarios(const twz_db *db, const struct twz_grid *g,
			      const struct twz_scen *sc, const char *scen_path);

/* The movement rule written from the README, independently of graph.c:
 * move m (0..3 N E S W, 4..7 NE SE SW NW, y down) from (x, y) is legal. */
int twz_test_move_legal(const struct twz_grid *g, unsigned connectivity,
			uint32_t x, uint32_t y, unsigned m);
int twz_test_move_dx(unsigned m);
int twz_test_move_dy(unsigned m);

/* Count the straight and diagonal steps of path[0..len) of db on g: the
 * index of the first step that is no legal move (by the rule above),
 * or 0 when every one is. */
size_t twz_test_path_moves(const twz_db *db, const struct twz_grid *g,
			   unsigned connectivity, const twz_node *path,
			   size_t len, uint32_t *straight, uint32_t *diagonal);

/* ---- files ---- */

/* A file of the source tree (env TWZ_SOURCE_ROOT, else "."), e.g.
 * "tests/golden/v1_0.map", and one of tests/levels. The paths are in
 * rotating buffers: a few may be held at once. */
const char *twz_test_source_file(const char *rel);
const char *twz_test_level_file(const char *name);

/* $TMPDIR, else the system's temporary directory. */
const char *twz_test_temp_dir(void);

/* A fresh directory "<temp dir>/<prefix>XXXXXX", its path into buf (cap
 * bytes); NULL (errno set) when it cannot be made. */
char *twz_test_make_dir(char *buf, size_t cap, const char *prefix);

/* Remove path and, for a directory, all below it; quiet about failures. */
void twz_test_remove_tree(const char *path);

/* A suite's scratch directory, made afresh for each test: a checked
 * fixture of twz_test_work_setup (named with the prefix set by
 * twz_test_work_prefix) and twz_test_work_teardown. twz_test_in_work
 * gives the path of a file in it, in one of a few rotating buffers. */
void twz_test_work_prefix(const char *prefix);
void twz_test_work_setup(void);
void twz_test_work_teardown(void);
const char *twz_test_work_dir(void);
const char *twz_test_in_work(const char *name);

/* The two files hold the same bytes; fails the test otherwise, the
 * message starting with what (when not NULL). */
void twz_test_expect_same_file(const char *a, const char *b, const char *what);

/* The whole file (malloc'd, with a NUL after the last byte that *len,
 * when len is not NULL, does not count); the try_ form gives NULL when it
 * cannot be opened, the other fails the test. */
uint8_t *twz_test_try_read_file(const char *path, size_t *len);
uint8_t *twz_test_read_file(const char *path, size_t *len);

/* Write buf as the whole file; fails the test on any error. */
void twz_test_write_file(const char *path, const void *buf, size_t len);

/* g written as a Moving AI .map ("type octile"); fails the test on any
 * error. */
void twz_test_write_map(const char *path, const struct twz_grid *g);

/* The section table entry of the first section of kind in the file buf,
 * or NULL. */
uint8_t *twz_test_section_entry(uint8_t *buf, uint32_t kind);

/* Every section's checksum, the table's and the header's computed again
 * over buf (a raw file), as a crafter would: the validator, not a
 * checksum, then judges a change. */
void twz_test_reseal(uint8_t *buf);

/* A malloc'd exact-size copy (AddressSanitizer sees a read past its end). */
uint8_t *twz_test_dup_bytes(const uint8_t *buf, size_t len);

/* buf opened in place (twz_open_memory); fails the test unless it
 * opens. */
twz_db *twz_test_open_buf(const uint8_t *buf, size_t len);

/* Open an exact-size copy of buf and close it again; an accepted file
 * must give a handle, a refused one leave it NULL. */
twz_status twz_test_try_open(const uint8_t *buf, size_t len, unsigned flags);

/* Cap this process's address space at what it maps now plus headroom
 * bytes, so that an allocation a file does not justify fails instead of
 * succeeding. Returns 1 when capped; 0 under AddressSanitizer (whose
 * shadow memory a cap would break) or when the cap cannot be set. */
int twz_test_cap_address_space(unsigned long headroom);

/* ---- the twigz tool ---- */

/* What a run of the tool (env TWZ_TOOL, which meson test sets) left. */
struct twz_test_run {
	int status;      /* exit status, or -1 when a signal ended it */
	int signal;      /* that signal, else 0 */
	char *out;       /* stdout, NUL-terminated */
	size_t out_len;
	char *err;       /* stderr, NUL-terminated */
	size_t err_len;
};

/* Runs "twigz args..." (args NULL-terminated, without the program name)
 * with stdin from /dev/null, in directory dir (NULL: here), its address
 * space capped at as_cap bytes (0: not capped), and waits for it; stdout
 * and stderr are kept in r. */
void twz_test_run_tool(const char *const args[], const char *dir,
		       unsigned long as_cap, struct twz_test_run *r);
void twz_test_run_free(struct twz_test_run *r);

/* Runs "twigz args..." as twz_test_run_tool does (failing the test when
 * a signal ends it): its exit status, and its stderr into err (cap
 * bytes; err may be NULL). */
int twz_test_tool_status(const char *const args[], char *err, size_t cap);

/* Starts "twigz args..." with its output thrown away and does not wait:
 * for a test that stops it. */
pid_t twz_test_spawn_tool(const char *const args[]);

/* ---- suites ---- */

/* Runs a suite the way every check_*.c does: forking (so a crash fails one
 * test; CK_FORK=no in the environment still lets a debugger in), TAP on
 * stdout for meson. Returns main()'s exit status. */
int twz_test_run_suite(Suite *suite);

#endif
