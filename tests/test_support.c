/*
 * test_support.c - levels from text or generated, in-memory bakes, a plain
 * Dijkstra to compare the product's searches with, where the Moving AI
 * levels are, files, and runs of the twigz tool.
 *
 * The Dijkstra and its move rule are written here from the movement rules
 * (the README and FORMAT.md), not from precompute/, which is what the suites test.
 */
#include "test_support.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

#include "twz_format.h"
#include "twz_heap.h"
#include "twz_rng.h"
#include "twz_validate.h"

/* ---- levels from text --------------------------------------------- */

const char *const twz_test_small_level =
	"....@.....\n"
	".@@.@.@@..\n"
	".@..@..@..\n"
	"....@@.@..\n"
	"@@@@@.....\n"
	"..@.@.@@@.\n"
	"..@@@.@.@.\n";

void twz_test_grid_window(struct twz_grid *out, const struct twz_grid *g,
			  uint32_t x0, uint32_t y0, uint32_t w, uint32_t h)
{
	memset(out, 0, sizeof *out);
	out->width = w;
	out->height = h;
	out->walkable = malloc((size_t)w * h);
	ck_assert(out->walkable);
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++)
			out->walkable[(size_t)y * w + x] =
				x0 + x < g->width && y0 + y < g->height &&
				g->walkable[(size_t)(y0 + y) * g->width + x0 + x];
}

void twz_test_grid_from_text(struct twz_grid *g, const char *text)
{
	size_t len = strlen(text);
	uint32_t width = 0, height = 0, x = 0;

	/* First pass: the size, every row the same width. */
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (c == '\n') {
			expect(x > 0, "grid text: empty row %u", height + 1);
			expect(height == 0 || x == width,
			       "grid text: row %u has %u cells, not %u",
			       height + 1, x, width);
			width = x;
			height++;
			x = 0;
			continue;
		}
		expect(c == '.' || c == '@',
		       "grid text: row %u: unexpected byte 0x%02x",
		       height + 1, (unsigned char)c);
		x++;
	}
	if (x > 0) {  /* last row without '\n' */
		ck_assert_msg(height == 0 || x == width,
			      "grid text: row %u has %u cells, not %u",
			      height + 1, x, width);
		width = x;
		height++;
	}
	ck_assert_msg(width > 0 && height > 0, "grid text: no cells");

	g->width = width;
	g->height = height;
	g->walkable = malloc((size_t)width * height);
	ck_assert_ptr_nonnull(g->walkable);
	size_t cell = 0;
	for (size_t i = 0; i < len; i++)
		if (text[i] != '\n')
			g->walkable[cell++] = text[i] == '.';
	g->level_hash = XXH3_64bits(text, len);
}

/* ---- generated levels ---------------------------------------------- */

struct gen {
	struct twz_grid *g;
	uint64_t rng;
};

static int in_grid(const struct gen *gen, int64_t x, int64_t y)
{
	return x >= 0 && y >= 0 && x < gen->g->width && y < gen->g->height;
}

static void set_cell(struct gen *gen, int64_t x, int64_t y, uint8_t walkable)
{
	if (in_grid(gen, x, y))
		gen->g->walkable[(size_t)y * gen->g->width + (size_t)x] = walkable;
}

static uint8_t get_cell(const struct gen *gen, int64_t x, int64_t y)
{
	if (!in_grid(gen, x, y))
		return 0;
	return gen->g->walkable[(size_t)y * gen->g->width + (size_t)x];
}

static void fill(struct gen *gen, uint8_t walkable)
{
	memset(gen->g->walkable, walkable,
	       (size_t)gen->g->width * gen->g->height);
}

/* Doors in the wall lines across one axis (wall[a] for a < n; vertical:
 * a is x): one per segment between crossing lines (cross[b] for b < m),
 * most of the time. */
static void doors(struct gen *gen, const uint8_t *wall, uint32_t n,
		  const uint8_t *cross, uint32_t m, int vertical)
{
	for (uint32_t a = 0; a < n; a++) {
		if (!wall[a])
			continue;
		for (uint32_t b0 = 0; b0 < m;) {
			uint32_t b1 = b0;
			while (b1 < m && !cross[b1])
				b1++;
			if (b1 > b0 && rng_below(&gen->rng, 8) != 0) {
				uint32_t b = b0 + rng_below(&gen->rng, b1 - b0);
				if (vertical)
					set_cell(gen, a, b, 1);
				else
					set_cell(gen, b, a, 1);
			}
			b0 = b1 + 1;
		}
	}
}

/* Wall lines at random spacing split the level into rooms; each wall
 * segment between two crossings gets a one-cell door, most of the time
 * (a room may stay closed), and rooms get a few pillars. */
static void gen_rooms(struct gen *gen)
{
	uint32_t w = gen->g->width, h = gen->g->height;
	uint8_t *wall_col = calloc(w, 1), *wall_row = calloc(h, 1);

	ck_assert_ptr_nonnull(wall_col);
	ck_assert_ptr_nonnull(wall_row);
	fill(gen, 1);
	for (uint32_t x = 3 + rng_below(&gen->rng, 3); x + 2 < w;
	     x += 3 + rng_below(&gen->rng, 5))
		wall_col[x] = 1;
	for (uint32_t y = 3 + rng_below(&gen->rng, 3); y + 2 < h;
	     y += 3 + rng_below(&gen->rng, 5))
		wall_row[y] = 1;
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++)
			if (wall_col[x] || wall_row[y])
				set_cell(gen, x, y, 0);

	doors(gen, wall_col, w, wall_row, h, 1);
	doors(gen, wall_row, h, wall_col, w, 0);
	/* Pillars: single blocked cells that diagonals must go around. */
	uint32_t pillars = w * h / 40;
	for (uint32_t i = 0; i < pillars; i++) {
		uint32_t x = rng_below(&gen->rng, w), y = rng_below(&gen->rng, h);
		if (!wall_col[x] && !wall_row[y])
			set_cell(gen, x, y, 0);
	}
	free(wall_col);
	free(wall_row);
}

/* A depth-first maze over the odd cells, with a few walls knocked out so
 * that some places have several optimal paths. */
static void gen_maze(struct gen *gen)
{
	uint32_t w = gen->g->width, h = gen->g->height;
	uint32_t cw = (w - 1) / 2, ch = (h - 1) / 2;

	fill(gen, 0);
	if (cw == 0 || ch == 0) {
		fill(gen, 1);
		return;
	}
	uint8_t *seen = calloc((size_t)cw * ch, 1);
	uint32_t *stack = malloc((size_t)cw * ch * sizeof *stack);
	ck_assert_ptr_nonnull(seen);
	ck_assert_ptr_nonnull(stack);
	size_t top = 0;
	uint32_t start = rng_below(&gen->rng, cw * ch);
	stack[top++] = start;
	seen[start] = 1;
	set_cell(gen, 2 * (start % cw) + 1, 2 * (start / cw) + 1, 1);
	while (top) {
		uint32_t c = stack[top - 1], cx = c % cw, cy = c / cw;
		uint32_t options[4];
		unsigned n = 0;
		if (cy > 0 && !seen[c - cw])
			options[n++] = c - cw;
		if (cx + 1 < cw && !seen[c + 1])
			options[n++] = c + 1;
		if (cy + 1 < ch && !seen[c + cw])
			options[n++] = c + cw;
		if (cx > 0 && !seen[c - 1])
			options[n++] = c - 1;
		if (n == 0) {
			top--;
			continue;
		}
		uint32_t d = options[rng_below(&gen->rng, n)];
		uint32_t dx = d % cw, dy = d / cw;
		seen[d] = 1;
		set_cell(gen, 2 * dx + 1, 2 * dy + 1, 1);
		set_cell(gen, cx + dx + 1, cy + dy + 1, 1);  /* the wall between */
		stack[top++] = d;
	}
	/* Loops: open some walls between two corridor cells. */
	for (uint32_t y = 1; y + 1 < h; y++)
		for (uint32_t x = 1; x + 1 < w; x++) {
			if (get_cell(gen, x, y) || (x % 2) == (y % 2))
				continue;
			int horizontal = x % 2 == 0;
			int a = horizontal ? get_cell(gen, x - 1, y) : get_cell(gen, x, y - 1);
			int b = horizontal ? get_cell(gen, x + 1, y) : get_cell(gen, x, y + 1);
			if (a && b && rng_below(&gen->rng, 12) == 0)
				set_cell(gen, x, y, 1);
		}
	free(seen);
	free(stack);
}

/* Random fill smoothed by a cellular automaton: a cell becomes a wall when
 * at least 5 of the 9 cells around it (itself included, off-grid counted
 * as wall) are walls. */
static void gen_caves(struct gen *gen)
{
	uint32_t w = gen->g->width, h = gen->g->height;
	size_t cells = (size_t)w * h;
	uint8_t *next = malloc(cells);

	ck_assert_ptr_nonnull(next);
	for (size_t c = 0; c < cells; c++)
		gen->g->walkable[c] = rng_below(&gen->rng, 100) >= 42;
	for (int round = 0; round < 4; round++) {
		for (uint32_t y = 0; y < h; y++)
			for (uint32_t x = 0; x < w; x++) {
				unsigned walls = 0;
				for (int dy = -1; dy <= 1; dy++)
					for (int dx = -1; dx <= 1; dx++)
						walls += !get_cell(gen, (int64_t)x + dx,
								   (int64_t)y + dy);
				next[(size_t)y * w + x] = walls < 5;
			}
		memcpy(gen->g->walkable, next, cells);
	}
	free(next);
}

/* A place for a rectangle of rw x rh cells, drawn at random: its corner
 * cells (x0, y0) and (x1, y1); 0 when it does not fit in the level. */
static int place_rect(struct gen *gen, uint32_t rw, uint32_t rh, int64_t *x0,
		      int64_t *y0, int64_t *x1, int64_t *y1)
{
	uint32_t w = gen->g->width, h = gen->g->height;

	if (rw > w || rh > h)
		return 0;
	*x0 = rng_below(&gen->rng, w - rw + 1);
	*y0 = rng_below(&gen->rng, h - rh + 1);
	*x1 = *x0 + rw - 1;
	*y1 = *y0 + rh - 1;
	return 1;
}

/* A rectangle outline of walls around walkable ground, closed, with a gap
 * in a side, or with a gap at a corner (still closed: the corner rule
 * refuses the diagonal through it). */
static void hollow_rect(struct gen *gen)
{
	uint32_t rw = 3 + rng_below(&gen->rng, 6), rh = 3 + rng_below(&gen->rng, 5);
	int64_t x0, y0, x1, y1;

	if (!place_rect(gen, rw, rh, &x0, &y0, &x1, &y1))
		return;
	for (int64_t y = y0; y <= y1; y++)
		for (int64_t x = x0; x <= x1; x++)
			set_cell(gen, x, y, !(x == x0 || x == x1 || y == y0 || y == y1));

	switch (rng_below(&gen->rng, 4)) {
	case 0:  /* closed */
		break;
	case 1:  /* a gap in a side */
		if (rng_below(&gen->rng, 2))
			set_cell(gen, x0 + 1 + rng_below(&gen->rng, rw - 2),
				 rng_below(&gen->rng, 2) ? y0 : y1, 1);
		else
			set_cell(gen, rng_below(&gen->rng, 2) ? x0 : x1,
				 y0 + 1 + rng_below(&gen->rng, rh - 2), 1);
		break;
	case 2:  /* a gap at a corner: diagonally only, so still closed */
		set_cell(gen, rng_below(&gen->rng, 2) ? x0 : x1,
			 rng_below(&gen->rng, 2) ? y0 : y1, 1);
		break;
	default: /* two gaps in the sides: a way through */
		set_cell(gen, x0 + 1 + rng_below(&gen->rng, rw - 2), y0, 1);
		set_cell(gen, x0 + 1 + rng_below(&gen->rng, rw - 2), y1, 1);
		break;
	}
}

/* A diamond ring of diagonal walls: closed under the corner rule even
 * though every wall cell touches the next one only by a corner. */
static void hollow_diamond(struct gen *gen)
{
	uint32_t w = gen->g->width, h = gen->g->height;
	int64_t r = 2 + rng_below(&gen->rng, 3);

	if ((uint32_t)(2 * r + 1) > w || (uint32_t)(2 * r + 1) > h)
		return;
	int64_t cx = r + rng_below(&gen->rng, w - 2 * (uint32_t)r);
	int64_t cy = r + rng_below(&gen->rng, h - 2 * (uint32_t)r);
	for (int64_t dy = -r; dy <= r; dy++)
		for (int64_t dx = -r; dx <= r; dx++) {
			int64_t d = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
			if (d < r)
				set_cell(gen, cx + dx, cy + dy, 1);
			else if (d == r)
				set_cell(gen, cx + dx, cy + dy, 0);
		}
	if (rng_below(&gen->rng, 2)) {  /* one gap somewhere on the ring */
		int64_t a = rng_below(&gen->rng, (uint32_t)r + 1);
		int64_t sx = rng_below(&gen->rng, 2) ? 1 : -1;
		int64_t sy = rng_below(&gen->rng, 2) ? 1 : -1;
		set_cell(gen, cx + sx * a, cy + sy * (r - a), 1);
	}
}

static void gen_open_hollow(struct gen *gen)
{
	uint32_t count = gen->g->width * gen->g->height / 60 + 1;

	fill(gen, 1);
	for (uint32_t i = 0; i < count; i++) {
		if (rng_below(&gen->rng, 3) == 0)
			hollow_diamond(gen);
		else
			hollow_rect(gen);
	}
}

/* Whether [x0, x1] x [y0, y1] grown by one cell on every side (corners
 * included) is all blocked, so something carved there is its own region. */
static int area_free(const struct gen *gen, int64_t x0, int64_t y0,
		     int64_t x1, int64_t y1)
{
	for (int64_t y = y0 - 1; y <= y1 + 1; y++)
		for (int64_t x = x0 - 1; x <= x1 + 1; x++)
			if (get_cell(gen, x, y))
				return 0;
	return 1;
}

/* Separate regions: rectangles, single cells, a checkerboard patch whose
 * cells touch only by corners, and cells that touch a rectangle only by
 * its corner. With the corner rule, none of them connect. */
static void gen_pockets(struct gen *gen)
{
	uint32_t w = gen->g->width, h = gen->g->height;

	fill(gen, 0);
	/* Checkerboard patch, 5x5 at most. */
	uint32_t pw = w < 5 ? w : 5, ph = h < 5 ? h : 5;
	int64_t px = rng_below(&gen->rng, w - pw + 1);
	int64_t py = rng_below(&gen->rng, h - ph + 1);
	for (int64_t y = py; y < py + ph; y++)
		for (int64_t x = px; x < px + pw; x++)
			if ((x + y) % 2 == 0)
				set_cell(gen, x, y, 1);

	/* Rectangles, each with a corner-touching cell sometimes. */
	uint32_t tries = w * h / 8 + 8;
	for (uint32_t i = 0; i < tries; i++) {
		uint32_t rw = 1 + rng_below(&gen->rng, 7), rh = 1 + rng_below(&gen->rng, 6);
		int64_t x0, y0, x1, y1;
		if (!place_rect(gen, rw, rh, &x0, &y0, &x1, &y1))
			continue;
		if (!area_free(gen, x0, y0, x1, y1))
			continue;
		for (int64_t y = y0; y <= y1; y++)
			for (int64_t x = x0; x <= x1; x++)
				set_cell(gen, x, y, 1);
		if (rng_below(&gen->rng, 2)) {
			int64_t cx = rng_below(&gen->rng, 2) ? x1 + 1 : x0 - 1;
			int64_t cy = rng_below(&gen->rng, 2) ? y1 + 1 : y0 - 1;
			int64_t ox = cx > x1 ? x1 : x0, oy = cy > y1 ? y1 : y0;
			/* Only the rectangle's corner may be near it. */
			int clear = in_grid(gen, cx, cy);
			for (int64_t y = cy - 1; clear && y <= cy + 1; y++)
				for (int64_t x = cx - 1; x <= cx + 1; x++)
					if (!(x == ox && y == oy) && get_cell(gen, x, y))
						clear = 0;
			if (clear)
				set_cell(gen, cx, cy, 1);
		}
	}
	/* Single cells in what is left. */
	for (uint32_t i = 0; i < tries; i++) {
		int64_t x = rng_below(&gen->rng, w), y = rng_below(&gen->rng, h);
		if (area_free(gen, x, y, x, y))
			set_cell(gen, x, y, 1);
	}
}

const char *twz_test_kind_name(enum twz_test_level_kind kind)
{
	switch (kind) {
	case TWZ_TEST_ROOMS:
		return "rooms";
	case TWZ_TEST_MAZE:
		return "maze";
	case TWZ_TEST_CAVES:
		return "caves";
	case TWZ_TEST_OPEN_HOLLOW:
		return "open-hollow";
	case TWZ_TEST_POCKETS:
		return "pockets";
	default:
		return "unknown";
	}
}

void twz_test_generate(struct twz_grid *g, enum twz_test_level_kind kind,
		       uint32_t width, uint32_t height, uint64_t seed)
{
	struct gen gen = { g, 0 };
	size_t cells = (size_t)width * height;

	ck_assert_msg(width > 0 && height > 0 && width <= 4096 && height <= 4096,
		      "generate: bad size %ux%u", width, height);
	ck_assert_msg(kind < TWZ_TEST_KIND_COUNT, "generate: bad kind %d", kind);
	g->width = width;
	g->height = height;
	g->walkable = malloc(cells);
	ck_assert_ptr_nonnull(g->walkable);
	/* The stream depends on every parameter, not only the seed. */
	gen.rng = seed ^ ((uint64_t)kind << 56) ^ ((uint64_t)width << 32) ^
		  ((uint64_t)height << 16);
	rng_next(&gen.rng);

	switch (kind) {
	case TWZ_TEST_ROOMS:
		gen_rooms(&gen);
		break;
	case TWZ_TEST_MAZE:
		gen_maze(&gen);
		break;
	case TWZ_TEST_CAVES:
		gen_caves(&gen);
		break;
	case TWZ_TEST_OPEN_HOLLOW:
		gen_open_hollow(&gen);
		break;
	default:
		gen_pockets(&gen);
		break;
	}

	/* A level with no place to stand is not worth testing here. */
	size_t walkable = 0;
	for (size_t c = 0; c < cells; c++)
		walkable += g->walkable[c];
	if (walkable == 0)
		set_cell(&gen, width / 2, height / 2, 1);
	g->level_hash = XXH3_64bits(g->walkable, cells);
}

/* ---- bakes -------------------------------------------------------- */

uint8_t *twz_test_bake(const struct twz_grid *g, unsigned connectivity,
		       unsigned codec, unsigned threads, size_t *len)
{
	return twz_test_bake_layout(g, connectivity, codec, threads, 0, len);
}

uint8_t *twz_test_bake_layout(const struct twz_grid *g, unsigned connectivity,
			      unsigned codec, unsigned threads, unsigned layout,
			      size_t *len)
{
	struct twz_bake_options opt;
	struct twz_cpd cpd;
	struct twz_error err;
	uint8_t *buf = NULL;

	twz_bake_options_default(&opt);
	if (layout)
		opt.layout = layout;
	opt.connectivity = connectivity;
	opt.codec = codec;
	opt.threads = threads;
	opt.name = "test level";
	memset(&err, 0, sizeof err);
	ck_assert_msg(twz_bake_cpd(g, &opt, &cpd, &err) == 0, "bake: %s", err.msg);
	int rc = twz_cpd_encode(&cpd, g, &opt, &buf, len, &err);
	twz_cpd_free(&cpd);
	ck_assert_msg(rc == 0, "encode: %s", err.msg);
	return buf;
}

/* ---- the plain Dijkstra ---------------------------------------------- */

/* Moves as FORMAT.md numbers them: N E S W, then NE SE SW NW,
 * y growing downward. */
static const int move_dx[8] = { 0, 1, 0, -1, 1, 1, -1, -1 };
static const int move_dy[8] = { -1, 0, 1, 0, -1, 1, 1, -1 };

static int open_cell(const struct twz_grid *g, int64_t x, int64_t y)
{
	return x >= 0 && y >= 0 && x < g->width && y < g->height &&
	       g->walkable[(size_t)y * g->width + (size_t)x] != 0;
}

int twz_test_move_legal(const struct twz_grid *g, unsigned connectivity,
			uint32_t x, uint32_t y, unsigned m)
{
	if (m >= 8 || m >= connectivity)
		return 0;
	int64_t nx = (int64_t)x + move_dx[m], ny = (int64_t)y + move_dy[m];
	if (!open_cell(g, x, y) || !open_cell(g, nx, ny))
		return 0;
	/* No corner cutting: both cells beside a diagonal must be open. */
	if (m >= 4)
		return open_cell(g, nx, y) && open_cell(g, x, ny);
	return 1;
}

int twz_test_move_dx(unsigned m)
{
	return move_dx[m & 7];
}

int twz_test_move_dy(unsigned m)
{
	return move_dy[m & 7];
}

size_t twz_test_path_moves(const twz_db *db, const struct twz_grid *g,
			   unsigned connectivity, const twz_node *path,
			   size_t len, uint32_t *straight, uint32_t *diagonal)
{
	*straight = *diagonal = 0;
	for (size_t k = 1; k < len; k++) {
		uint32_t ax, ay, bx, by;
		twz_node_xy(db, path[k - 1], &ax, &ay);
		twz_node_xy(db, path[k], &bx, &by);
		int dx = (int)bx - (int)ax, dy = (int)by - (int)ay;
		unsigned m = 0;
		while (m < 8 && (move_dx[m] != dx || move_dy[m] != dy))
			m++;
		if (m == 8 || !twz_test_move_legal(g, connectivity, ax, ay, m))
			return k;
		if (m >= 4)
			(*diagonal)++;
		else
			(*straight)++;
	}
	return 0;
}

struct heap_item {
	struct twz_cost cost;
	uint32_t cell;
};

struct heap {
	struct heap_item *v;
	size_t len;
};

static int item_before(const void *ctx, const void *a, const void *b)
{
	(void)ctx;
	return twz_cost_less(((const struct heap_item *)a)->cost,
			     ((const struct heap_item *)b)->cost);
}

static void heap_push(struct heap *h, struct heap_item it)
{
	twz_heap_push(h->v, &h->len, &it, sizeof it, item_before, NULL, NULL);
}

static struct heap_item heap_pop(struct heap *h)
{
	struct heap_item top;

	twz_heap_pop(h->v, &h->len, &top, sizeof top, item_before, NULL, NULL);
	return top;
}

uint64_t twz_test_path_hash(const twz_node *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

struct twz_cost *twz_test_dijkstra_all(const struct twz_grid *g,
				       unsigned connectivity)
{
	size_t cells = (size_t)g->width * g->height;
	struct twz_cost *dist = malloc(cells * cells * sizeof *dist);

	ck_assert_ptr_nonnull(dist);
	for (size_t c = 0; c < cells; c++)
		twz_test_dijkstra(g, connectivity, (uint32_t)(c % g->width),
				  (uint32_t)(c / g->width), dist + c * cells);
	return dist;
}

void twz_test_dijkstra(const struct twz_grid *g, unsigned connectivity,
		       uint32_t sx, uint32_t sy, struct twz_cost *dist)
{
	size_t cells = (size_t)g->width * g->height;
	const struct twz_cost inf = twz_test_unreachable;
	uint8_t *done = calloc(cells ? cells : 1, 1);
	/* Every cell is pushed at most once per move into it, plus the source. */
	struct heap h = { malloc((cells * 8 + 1) * sizeof *h.v), 0 };

	/* expect, not ck_assert: this runs once a source, and a passing
	 * ck_assert costs a system call. */
	expect(done && h.v, "Dijkstra: out of memory");
	for (size_t c = 0; c < cells; c++)
		dist[c] = inf;
	if (open_cell(g, sx, sy)) {
		size_t s = (size_t)sy * g->width + sx;
		dist[s] = (struct twz_cost){ 0, 0 };
		heap_push(&h, (struct heap_item){ dist[s], (uint32_t)s });
	}
	while (h.len) {
		struct heap_item it = heap_pop(&h);
		if (done[it.cell] || !twz_test_cost_eq(it.cost, dist[it.cell]))
			continue;  /* a stale entry */
		done[it.cell] = 1;
		uint32_t x = it.cell % g->width, y = it.cell / g->width;
		for (unsigned m = 0; m < connectivity && m < 8; m++) {
			if (!twz_test_move_legal(g, connectivity, x, y, m))
				continue;
			size_t n = (size_t)(y + move_dy[m]) * g->width + (x + move_dx[m]);
			struct twz_cost c = twz_test_cost_add_move(it.cost, m);
			if (!done[n] && (twz_test_cost_eq(dist[n], inf) ||
					 twz_cost_less(c, dist[n]))) {
				dist[n] = c;
				heap_push(&h, (struct heap_item){ c, (uint32_t)n });
			}
		}
	}
	free(done);
	free(h.v);
}

/* ---- the Moving AI levels ------------------------------------------ */

static char movingai_where[4096];

const char *twz_test_movingai_where(void)
{
	const char *env = getenv("TWZ_MOVINGAI_DIR");
	const char *root = getenv("TWZ_SOURCE_ROOT");

	if (env && *env)
		snprintf(movingai_where, sizeof movingai_where, "%s", env);
	else
		snprintf(movingai_where, sizeof movingai_where,
			 "%s/../shared/data/movingai", root && *root ? root : ".");
	return movingai_where;
}

const char *twz_test_movingai_dir(void)
{
	const char *dir = twz_test_movingai_where();
	struct stat st;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return NULL;
	return dir;
}

int twz_test_movingai_path(char *buf, size_t cap, const char *rel)
{
	const char *dir = twz_test_movingai_dir();

	if (!dir)
		return -1;
	int n = snprintf(buf, cap, "%s/%s", dir, rel);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

int twz_test_movingai_load(const char *name, struct twz_grid *g,
			   struct twz_scen *sc, char *scen_path, size_t cap)
{
	struct twz_error err;
	char rel[4096], map_path[4096];

	snprintf(rel, sizeof rel, "%s.map", name);
	if (twz_test_movingai_path(map_path, sizeof map_path, rel) != 0)
		return -1;
	snprintf(rel, sizeof rel, "%s.map.scen", name);
	if (twz_test_movingai_path(scen_path, cap, rel) != 0)
		return -1;
	memset(&err, 0, sizeof err);
	ck_assert_msg(twz_grid_load(map_path, g, &err) == 0, "%s", err.msg);
	ck_assert_msg(twz_scen_load(scen_path, sc, &err) == 0, "%s", err.msg);
	return 0;
}

void twz_test_compare_lazy(const struct twz_grid *g, unsigned connectivity,
			   const twz_db *lazy, const twz_db *eager,
			   unsigned source_step, unsigned path_step)
{
	size_t cells = (size_t)g->width * g->height;
	struct twz_cost *dist = malloc(cells * sizeof *dist);
	size_t cap = (size_t)twz_node_count(eager) + 1;
	twz_node *pa = malloc(cap * sizeof *pa), *pb = malloc(cap * sizeof *pb);
	uint32_t k = 0, sources = 0;

	expect(dist && pa && pb, "compare lazy: out of memory");
	for (size_t sc = 0; sc < cells; sc++) {
		twz_node s = twz_node_at(lazy, sc % g->width, sc / g->width);
		if (s == TWZ_NONE || k++ % source_step)
			continue;
		int walk = path_step && sources++ % path_step == 0;
		twz_test_dijkstra(g, connectivity, sc % g->width, sc / g->width, dist);
		for (size_t tc = 0; tc < cells; tc++) {
			twz_node t = twz_node_at(lazy, tc % g->width, tc / g->width);
			if (t == TWZ_NONE)
				continue;
			uint32_t st = 0, dg = 0;
			twz_status r = twz_cost_exact(lazy, s, t, &st, &dg);
			if (dist[tc].straight == UINT32_MAX)
				expect(r == TWZ_E_UNREACHABLE, "%u->%u: %s", s, t,
				       twz_strerror(r));
			else
				expect(r == TWZ_OK && st == dist[tc].straight &&
				       dg == dist[tc].diagonal,
				       "%u->%u: %s, %u+%u*sqrt2, optimum %u+%u*sqrt2",
				       s, t, twz_strerror(r), st, dg,
				       dist[tc].straight, dist[tc].diagonal);
			expect(twz_next(lazy, s, t) == twz_next(eager, s, t),
			       "%u->%u: lazy and eager first moves differ", s, t);
			if (!walk)
				continue;
			size_t la = 0, lb = 0;
			twz_status ra = twz_path(lazy, s, t, pa, cap, &la);
			twz_status rb = twz_path(eager, s, t, pb, cap, &lb);
			expect(ra == rb && la == lb &&
			       (ra != TWZ_OK || !memcmp(pa, pb, la * sizeof *pa)),
			       "%u->%u: lazy and eager paths differ", s, t);
		}
	}
	free(dist);
	free(pa);
	free(pb);
}

void twz_test_check_scenarios(const twz_db *db, const struct twz_grid *g,
			      const struct twz_scen *sc, const char *scen_path)
{
	size_t cap = (size_t)twz_node_count(db) + 1;
	twz_node *path = malloc(cap * sizeof *path);

	ck_assert_ptr_nonnull(path);
	for (size_t i = 0; i < sc->count; i++) {
		const struct twz_scen_entry *e = &sc->entries[i];
		twz_node s = twz_node_at(db, e->sx, e->sy);
		twz_node t = twz_node_at(db, e->gx, e->gy);
		size_t len = 0;
		twz_status st = twz_path(db, s, t, path, cap, &len);
		if (e->unreachable) {
			expect(st == TWZ_E_UNREACHABLE, "%s:%lu: %s", scen_path,
			       e->line, twz_strerror(st));
			continue;
		}
		expect(st == TWZ_OK && len >= 1 && path[0] == s && path[len - 1] == t,
		       "%s:%lu: %s, %zu nodes", scen_path, e->line,
		       twz_strerror(st), len);
		uint32_t straight, diagonal;
		size_t bad = twz_test_path_moves(db, g, 8, path, len, &straight,
						 &diagonal);
		expect(bad == 0, "%s:%lu: step %zu is no legal move", scen_path,
		       e->line, bad);
		double cost = straight + diagonal * 1.41421356237309504880;
		expect(twz_scen_cost_matches(e, cost) &&
		       twz_scen_cost_matches(e, twz_cost(db, s, t)),
		       "%s:%lu: cost %.6f (twz_cost %.6f), optimum %.6f", scen_path,
		       e->line, cost, twz_cost(db, s, t), e->optimal);
		uint32_t cs = 0, cd = 0;
		expect(twz_cost_exact(db, s, t, &cs, &cd) == TWZ_OK &&
		       cs == straight && cd == diagonal,
		       "%s:%lu: twz_cost_exact %u+%u*sqrt2, the path %u+%u*sqrt2",
		       scen_path, e->line, cs, cd, straight, diagonal);
	}
	free(path);
}

/* ---- files ------------------------------------------------------------- */

/* Rotating path buffers: a caller may hold a few paths at once. */
#define PATH_SLOTS 8
static char path_slot[PATH_SLOTS][4200];
static unsigned path_next;

static const char *path_in_slot(const char *dir, const char *rel)
{
	char *p = path_slot[path_next];

	path_next = (path_next + 1) % PATH_SLOTS;
	snprintf(p, sizeof path_slot[0], "%s/%s", dir, rel);
	return p;
}

static const char *source_root(void)
{
	const char *root = getenv("TWZ_SOURCE_ROOT");

	return root && *root ? root : ".";
}

const char *twz_test_source_file(const char *rel)
{
	return path_in_slot(source_root(), rel);
}

const char *twz_test_level_file(const char *name)
{
	char rel[4096];

	snprintf(rel, sizeof rel, "tests/levels/%s", name);
	return path_in_slot(source_root(), rel);
}

const char *twz_test_temp_dir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : P_tmpdir;
}

char *twz_test_make_dir(char *buf, size_t cap, const char *prefix)
{
	snprintf(buf, cap, "%s/%sXXXXXX", twz_test_temp_dir(), prefix);
	return mkdtemp(buf);
}

void twz_test_remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	chmod(path, 0755);  /* a test may have taken the write bit away */
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char sub[8192];
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
		twz_test_remove_tree(sub);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

/* All of f, NUL-terminated (the NUL not counted in *len); f is closed. */
static uint8_t *read_and_close(FILE *f, size_t *len)
{
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0;

	for (;;) {
		if (n + 1 >= cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			ck_assert_ptr_nonnull(buf);
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		if (got == 0)
			break;
		n += got;
	}
	buf[n] = 0;
	fclose(f);
	if (len)
		*len = n;
	return buf;
}

uint8_t *twz_test_try_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");

	if (!f) {
		if (len)
			*len = 0;
		return NULL;
	}
	return read_and_close(f, len);
}

uint8_t *twz_test_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	return read_and_close(f, len);
}

void twz_test_write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* A generated level written as a Moving AI .map. */
void twz_test_write_map(const char *path, const struct twz_grid *g)
{
	size_t cap = 64 + ((size_t)g->width + 1) * g->height;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	int n = snprintf(text, cap, "type octile\nheight %u\nwidth %u\nmap\n",
			 g->height, g->width);
	size_t len = (size_t)n;
	for (uint32_t y = 0; y < g->height; y++) {
		for (uint32_t x = 0; x < g->width; x++)
			text[len++] = twz_grid_walkable(g, x, y) ? '.' : '@';
		text[len++] = '\n';
	}
	twz_test_write_file(path, text, len);
	free(text);
}

uint8_t *twz_test_section_entry(uint8_t *buf, uint32_t kind)
{
	uint32_t n = twz_le32(buf + TWZ_H_SECTION_COUNT);

	for (uint32_t i = 0; i < n; i++) {
		uint8_t *e = buf + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
		if (twz_le32(e + TWZ_S_KIND) == kind)
			return e;
	}
	return NULL;
}

void twz_test_reseal(uint8_t *buf)
{
	uint32_t n = twz_le32(buf + TWZ_H_SECTION_COUNT);

	for (uint32_t i = 0; i < n; i++) {
		uint8_t *e = buf + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
		twz_put64(e + TWZ_S_RAW_CHECKSUM,
			  twz_checksum(buf + twz_le64(e + TWZ_S_OFFSET),
				       (size_t)twz_le64(e + TWZ_S_SIZE)));
	}
	twz_put64(buf + TWZ_H_TABLE_CHECKSUM,
		  twz_checksum(buf + TWZ_HEADER_SIZE,
			       (size_t)n * TWZ_SECTION_ENTRY_SIZE));
	twz_put64(buf + TWZ_H_HEADER_CHECKSUM,
		  twz_checksum(buf, TWZ_H_HEADER_CHECKSUM));
}

uint8_t *twz_test_dup_bytes(const uint8_t *buf, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, buf, len);
	return copy;
}

twz_db *twz_test_open_buf(const uint8_t *buf, size_t len)
{
	twz_db *db = NULL;
	twz_status st = twz_open_memory(buf, len, 0, &db);

	ck_assert_msg(st == TWZ_OK, "open: %s", twz_strerror(st));
	return db;
}

twz_status twz_test_try_open(const uint8_t *buf, size_t len, unsigned flags)
{
	uint8_t *copy = twz_test_dup_bytes(buf, len);
	twz_db *db = (twz_db *)copy;  /* not NULL: a refusal must clear it */
	twz_status st = twz_open_memory(copy, len, flags, &db);

	if (st == TWZ_OK) {
		expect(db != NULL, "an accepted open gave no handle");
		twz_close(db);
	} else {
		expect(db == NULL, "a refused open left a handle");
	}
	free(copy);
	return st;
}

int twz_test_cap_address_space(unsigned long headroom)
{
#ifdef UNDER_ASAN
	(void)headroom;
	return 0;
#else
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long pages = 0;
	struct rlimit rl;

	if (!f)
		return 0;
	if (fscanf(f, "%lu", &pages) != 1)
		pages = 0;
	fclose(f);
	if (!pages)
		return 0;
	rl.rlim_cur = rl.rlim_max = pages * (unsigned long)sysconf(_SC_PAGESIZE) +
				   headroom;
	return setrlimit(RLIMIT_AS, &rl) == 0;
#endif
}

/* ---- generated levels of other kinds ---------------------------------- */

/* A random mesh: a jittered grid of w x h quads, some left out, the
 * rest split into two triangles along a random diagonal or kept whole.
 * The text of an OBJ file, malloc'd. */
char *twz_test_random_obj(uint64_t seed, unsigned w, unsigned h)
{
	size_t cap = 64 * (size_t)(w + 1) * (h + 1) + 64 * (size_t)w * h + 64, n = 0;
	char *t = malloc(cap);
	uint64_t s = seed;

	ck_assert(t != NULL);
	for (unsigned z = 0; z <= h; z++)
		for (unsigned x = 0; x <= w; x++) {
			double jx = (double)(rng_next(&s) % 1000) / 4000.0 - 0.125;
			double jz = (double)(rng_next(&s) % 1000) / 4000.0 - 0.125;
			double y = (double)(rng_next(&s) % 100) / 100.0;
			n += (size_t)snprintf(t + n, cap - n, "v %.6f %.6f %.6f\n",
					      x + jx, y, z + jz);
		}
	for (unsigned z = 0; z < h; z++)
		for (unsigned x = 0; x < w; x++) {
			unsigned a = z * (w + 1) + x + 1, b = a + 1;
			unsigned c = b + w + 1, d = a + w + 1;
			unsigned r = (unsigned)(rng_next(&s) % 10);
			if (r == 0)
				continue;   /* a hole */
			if (r < 4)
				n += (size_t)snprintf(t + n, cap - n, "f %u %u %u %u\n", a, b, c, d);
			else if (r < 7)
				n += (size_t)snprintf(t + n, cap - n, "f %u %u %u\nf %u %u %u\n",
						      a, b, c, a, c, d);
			else
				n += (size_t)snprintf(t + n, cap - n, "f %u %u %u\nf %u %u %u\n",
						      a, b, d, b, c, d);
		}
	return t;
}

/* ---- a suite's scratch directory ---------------------------------------- */

static char work_prefix[64] = "twz_test.";
static char work_dir[4096];

void twz_test_work_prefix(const char *prefix)
{
	snprintf(work_prefix, sizeof work_prefix, "%s", prefix);
}

void twz_test_work_setup(void)
{
	ck_assert_msg(twz_test_make_dir(work_dir, sizeof work_dir, work_prefix) != NULL,
		      "mkdtemp: %s", strerror(errno));
}

void twz_test_work_teardown(void)
{
	twz_test_remove_tree(work_dir);
}

const char *twz_test_work_dir(void)
{
	return work_dir;
}

const char *twz_test_in_work(const char *name)
{
	static char bufs[8][4200];
	static unsigned next;
	char *b = bufs[next++ % 8];

	snprintf(b, sizeof bufs[0], "%s/%s", work_dir, name);
	return b;
}

void twz_test_expect_same_file(const char *a, const char *b, const char *what)
{
	size_t la, lb;
	uint8_t *x = twz_test_read_file(a, &la), *y = twz_test_read_file(b, &lb);

	ck_assert_msg(la == lb && memcmp(x, y, la) == 0,
		      "%s%s%s (%zu bytes) and %s (%zu bytes) differ", what ? what : "",
		      what ? ": " : "", a, la, b, lb);
	free(x);
	free(y);
}

/* ---- the twigz tool ------------------------------------------------------ */

static const char *tool_path(void)
{
	const char *tool = getenv("TWZ_TOOL");

	ck_assert_msg(tool && *tool, "TWZ_TOOL is not set (meson test sets it)");
	return tool;
}

/* An unnamed temporary file: gone as soon as it is closed. */
static int capture_file(void)
{
	char path[4200];

	snprintf(path, sizeof path, "%s/twz_test_out_XXXXXX", twz_test_temp_dir());
	int fd = mkstemp(path);
	ck_assert_msg(fd >= 0, "mkstemp %s: %s", path, strerror(errno));
	unlink(path);
	return fd;
}

static char *read_capture(int fd, size_t *len)
{
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	FILE *f = fdopen(fd, "rb");
	ck_assert_ptr_nonnull(f);
	return (char *)read_and_close(f, len);
}

/* fork and exec the tool with args; in the child, stdin is /dev/null and
 * stdout/stderr go to out/err (-1: /dev/null). Only async-signal-safe calls
 * after the fork. */
static pid_t start_tool(const char *const args[], const char *dir,
			unsigned long as_cap, int out, int err)
{
	const char *tool = tool_path();
	char *argv[64];
	size_t n = 0;

	argv[n++] = (char *)"twigz";
	for (; args[n - 1]; n++) {
		ck_assert_uint_lt(n, 63);
		argv[n] = (char *)args[n - 1];
	}
	argv[n] = NULL;

	pid_t pid = fork();
	ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
	if (pid != 0)
		return pid;
	int null = open("/dev/null", O_RDWR);
	if (null < 0 || (dir && chdir(dir) != 0))
		_exit(127);
	dup2(null, STDIN_FILENO);
	dup2(out >= 0 ? out : null, STDOUT_FILENO);
	dup2(err >= 0 ? err : null, STDERR_FILENO);
	if (as_cap) {
		struct rlimit rl = { as_cap, as_cap };
		setrlimit(RLIMIT_AS, &rl);
	}
	execv(tool, argv);
	_exit(127);
}

void twz_test_run_tool(const char *const args[], const char *dir,
		       unsigned long as_cap, struct twz_test_run *r)
{
	int out = capture_file(), err = capture_file(), ws;
	pid_t pid = start_tool(args, dir, as_cap, out, err);

	ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
	r->out = read_capture(out, &r->out_len);
	r->err = read_capture(err, &r->err_len);
	r->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
	r->signal = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
}

int twz_test_tool_status(const char *const args[], char *err, size_t cap)
{
	struct twz_test_run r;

	twz_test_run_tool(args, NULL, 0, &r);
	ck_assert_msg(r.signal == 0, "the tool died (signal %d)", r.signal);
	if (err)
		snprintf(err, cap, "%s", r.err);
	int status = r.status;
	twz_test_run_free(&r);
	return status;
}

void twz_test_run_free(struct twz_test_run *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

pid_t twz_test_spawn_tool(const char *const args[])
{
	return start_tool(args, NULL, 0, -1, -1);
}

/* ---- suites -------------------------------------------------------------- */

int twz_test_run_suite(Suite *suite)
{
	SRunner *sr = srunner_create(suite);

	if (!getenv("CK_FORK"))
		srunner_set_fork_status(sr, CK_FORK);
	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* ---- many threads on one database ---- */

struct pairs_job {
	const twz_db *db;
	const twz_node *s, *t, *next;
	const size_t *len;
	const uint64_t *hash;
	unsigned pairs, rounds, first;
	int bad;
};

static void *pairs_worker(void *arg)
{
	struct pairs_job *j = arg;
	static _Thread_local twz_node buf[8192];

	for (unsigned round = 0; round < j->rounds; round++)
		for (unsigned k = 0; k < j->pairs; k++) {
			unsigned i = (j->first + k * 7 + round) % j->pairs;
			size_t len = 0;
			if (twz_next(j->db, j->s[i], j->t[i]) != j->next[i])
				j->bad++;
			twz_status st = twz_path(j->db, j->s[i], j->t[i], buf, 8192, &len);
			if ((st == TWZ_OK) != (j->len[i] != 0) ||
			    (st == TWZ_OK && (len != j->len[i] ||
					      twz_test_path_hash(buf, len) != j->hash[i])))
				j->bad++;
		}
	return NULL;
}

int twz_test_pairs_threaded(const twz_db *db, unsigned threads,
			    unsigned rounds, unsigned pairs, const twz_node *s,
			    const twz_node *t, const twz_node *next,
			    const size_t *len, const uint64_t *hash,
			    unsigned *worst)
{
	pthread_t tid[64];
	struct pairs_job jobs[64];
	int most = 0;

	ck_assert_uint_le(threads, 64);
	for (unsigned k = 0; k < threads; k++) {
		jobs[k] = (struct pairs_job){ db, s, t, next, len, hash, pairs,
					      rounds, k * (pairs / threads), 0 };
		ck_assert_int_eq(pthread_create(&tid[k], NULL, pairs_worker,
						&jobs[k]), 0);
	}
	*worst = 0;
	for (unsigned k = 0; k < threads; k++) {
		pthread_join(tid[k], NULL);
		if (jobs[k].bad > most) {
			most = jobs[k].bad;
			*worst = k;
		}
	}
	return most;
}

