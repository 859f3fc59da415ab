/*
 * reroute_bench.c - rerouting many agents after a door shuts
 * (`ninja -C BUILD bench-reroute`), the way a game spreads it over
 * frames with twigz, against one plain A* per agent on the changed grid.
 *
 *   reroute_bench [--agents N] [--budget NODES] [--seed N]
 *                 [--door X,Y,h|v] LEVEL.map
 *
 * The level is baked in memory (CPD). Its chokepoint is found: the run of
 * three walkable cells across a corridor three cells wide (walls at both
 * ends of the run) that the most static paths of 2,000 random pairs
 * cross (or --door: the run of three from X,Y along x (h) or y (v)).
 * Agents hold their static paths when the door shuts. Each frame twigz
 * gets a budget of work (nodes expanded, path nodes checked or copied):
 *   1. every agent's held path is checked (twz_path_open): open, it is
 *      still optimal (shutting only lengthens paths) and nothing more is
 *      done for it;
 *   2. the blocked agents are grouped by goal: a goal with several gets
 *      one field (twz_field_begin with the agents' places, stepped until
 *      they are settled, then each agent's path along it); a goal with
 *      one gets a search with the database's exact static cost as its
 *      heuristic (twz_search_begin/step/path), helped by landmarks
 *      (twz_search_landmarks), fields made once on the changed level:
 *      toward the cells either side of the door, and, when many agents
 *      search alone, toward up to six more places, each the one farthest
 *      from those before.
 * Reported: the frames it took, the most twigz time in one frame, the
 * nodes twigz expanded, and side by side the nodes a plain A* (octile
 * heuristic, binary heap) expands rerouting every agent on the changed
 * grid; every new path's cost must equal the A*'s exactly. Scenarios:
 * agents on random pairs of the level, or only on pairs whose static
 * path crosses the door; with one goal, eight, or a goal each.
 *
 * Never asserts a timing: the figures depend on the machine.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "astar.h"
#include "bake.h"
#include "level_map.h"
#include "twigz.h"
#include "twz_format.h"
#include "twz_rng.h"


/* This thread's processor time: what a frame's work costs, apart from
 * the time the shared machine gives other processes. */
static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct level {
	const char *name;
	twz_db *db;
	uint8_t *buf;
	twz_info info;
	twz_world *world;
	twz_scratch *sc;
	struct twz_astar astar;
	uint32_t *orig;           /* the A*'s unpatched neighbours */
	twz_node door[3];
	twz_node side[2];         /* the cells either side of the door */
	twz_scratch *landmark[8];
	double *far;              /* [node_count]: cost to the nearest
				   * landmark so far */
	twz_node *tmp;            /* node_count + 1 */
};

struct agent {
	twz_node s, t;
	twz_node *path;           /* node_count + 1 */
	size_t len;
	int crosses;              /* its static path passes the door */
	int blocked;
	twz_status status;        /* of its new path */
};

static int level_open(struct level *lv, const char *path)
{
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	struct twz_grid grid;
	struct twz_cpd cpd;
	size_t len;

	memset(lv, 0, sizeof *lv);
	lv->name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	twz_bake_options_default(&opt);
	opt.codec = TWZ_CODEC_RAW;
	opt.name = path;
	if (twz_grid_load(path, &grid, &err) != 0 ||
	    twz_bake_cpd(&grid, &opt, &cpd, &err) != 0) {
		fprintf(stderr, "reroute_bench: %s\n", err.msg);
		return -1;
	}
	int rc = twz_cpd_encode(&cpd, &grid, &opt, &lv->buf, &len, &err);
	twz_cpd_free(&cpd);
	twz_grid_free(&grid);
	if (rc != 0 || twz_open_memory(lv->buf, len, 0, &lv->db) != TWZ_OK) {
		fprintf(stderr, "reroute_bench: %s: cannot bake\n", path);
		return -1;
	}
	twz_get_info(lv->db, &lv->info);
	size_t moves = (size_t)lv->info.node_count * TWZ_MOVE_COUNT;
	lv->tmp = malloc(((size_t)lv->info.node_count + 1) * sizeof *lv->tmp);
	lv->orig = malloc(moves * sizeof *lv->orig);
	if (!lv->tmp || !lv->orig || twz_astar_init(&lv->astar, lv->db) != 0 ||
	    twz_world_create(lv->db, &lv->world) != TWZ_OK ||
	    twz_scratch_create(lv->db, &lv->sc) != TWZ_OK ||
	    !(lv->far = malloc((size_t)lv->info.node_count * sizeof *lv->far))) {
		fprintf(stderr, "reroute_bench: out of memory\n");
		return -1;
	}
	memcpy(lv->orig, lv->astar.neighbour, moves * sizeof *lv->orig);
	return 0;
}

static void level_close(struct level *lv)
{
	twz_scratch_free(lv->sc);
	for (int i = 0; i < 8; i++)
		twz_scratch_free(lv->landmark[i]);
	free(lv->far);
	twz_world_free(lv->world);
	twz_astar_free(&lv->astar);
	twz_close(lv->db);
	free(lv->buf);
	free(lv->orig);
	free(lv->tmp);
}

static int is_door(const struct level *lv, twz_node n)
{
	return n == lv->door[0] || n == lv->door[1] || n == lv->door[2];
}

/* Whether the static path from s to t passes the door. */
static int crosses(struct level *lv, twz_node s, twz_node t)
{
	size_t len;

	if (twz_path(lv->db, s, t, lv->tmp, (size_t)lv->info.node_count + 1,
		     &len) != TWZ_OK)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (is_door(lv, lv->tmp[i]))
			return 1;
	return 0;
}

/* The three cells from (x, y) along x (along != 0) or y, as nodes. */
static int door_at(struct level *lv, uint32_t x, uint32_t y, int along_x,
		   twz_node door[3])
{
	for (int i = 0; i < 3; i++) {
		door[i] = twz_node_at(lv->db, x + (along_x ? i : 0),
				      y + (along_x ? 0 : i));
		if (door[i] == TWZ_NONE)
			return 0;
	}
	/* Walls at both ends: the run spans its corridor; the cells either
	 * side of its middle are the corridor's, on both sides of the door. */
	twz_node a = twz_node_at(lv->db, x + (along_x ? 1 : -1), y + (along_x ? -1 : 1));
	twz_node b = twz_node_at(lv->db, x + 1, y + 1);
	lv->side[0] = a;
	lv->side[1] = b;
	return twz_node_at(lv->db, (int64_t)x - (along_x ? 1 : 0),
			   (int64_t)y - (along_x ? 0 : 1)) == TWZ_NONE &&
	       twz_node_at(lv->db, x + (along_x ? 3 : 0),
			   y + (along_x ? 0 : 3)) == TWZ_NONE &&
	       a != TWZ_NONE && b != TWZ_NONE;
}

/* The chokepoint the most sampled static paths cross. */
static int find_door(struct level *lv, uint64_t *rng)
{
	uint32_t n = lv->info.node_count;
	uint32_t *hits = calloc(n, sizeof *hits);
	unsigned best = 0, bx = 0, by = 0, balong = 0;

	if (!hits)
		return -1;
	for (int i = 0; i < 2000; i++) {
		twz_node s = rng_next(rng) % n, t = rng_next(rng) % n;
		size_t len;
		if (twz_path(lv->db, s, t, lv->tmp, (size_t)n + 1, &len) != TWZ_OK)
			continue;
		for (size_t k = 0; k < len; k++)
			hits[lv->tmp[k]]++;
	}
	for (uint32_t y = 0; y < lv->info.height; y++)
		for (uint32_t x = 0; x < lv->info.width; x++)
			for (int along = 0; along < 2; along++) {
				twz_node d[3];
				if (!door_at(lv, x, y, along, d))
					continue;
				unsigned score = hits[d[0]] + hits[d[1]] + hits[d[2]];
				if (score > best) {
					best = score;
					bx = x, by = y, balong = (unsigned)along;
				}
			}
	free(hits);
	return best && door_at(lv, bx, by, (int)balong, lv->door) ? 0 : -1;
}

/* Shut or open the door for twigz and for the A*'s grid. */
static void set_door(struct level *lv, int shut)
{
	for (int i = 0; i < 3; i++) {
		uint32_t x, y;
		twz_node_xy(lv->db, lv->door[i], &x, &y);
		twz_world_shut_cell(lv->world, x, y, shut);
	}
	memcpy(lv->astar.neighbour, lv->orig, (size_t)lv->info.node_count *
	       TWZ_MOVE_COUNT * sizeof *lv->orig);
	if (!shut)
		return;
	for (twz_node u = 0; u < lv->info.node_count; u++) {
		uint32_t x, y;
		twz_node_xy(lv->db, u, &x, &y);
		for (unsigned m = 0; m < TWZ_MOVE_COUNT; m++) {
			uint32_t *v = &lv->astar.neighbour[(size_t)u * TWZ_MOVE_COUNT + m];
			if (*v == TWZ_NONE)
				continue;
			int cut = is_door(lv, u) || is_door(lv, *v);
			if (twz_move_is_diagonal(m))
				cut |= is_door(lv, twz_node_at(lv->db, x + twz_move_dx[m], y)) ||
				       is_door(lv, twz_node_at(lv->db, x, y + twz_move_dy[m]));
			if (cut)
				*v = TWZ_NONE;
		}
	}
}

/* ---- the game's side: rerouting in frames --------------------------------- */

struct reroute {
	struct level *lv;
	struct agent *ag;
	size_t count;
	twz_filter filter;
	/* Goals with blocked agents, in order: each goal's agents. */
	size_t *order;            /* agents by goal */
	size_t *group_first;      /* [groups + 1] into order */
	size_t groups;
	/* Progress. */
	size_t checked;           /* agents whose held path was checked */
	size_t group;             /* the group under way */
	int begun;
	unsigned landmarks;       /* landmark fields made */
	unsigned landmarks_wanted;
	int landmark_begun;
	int landmark_scan;        /* the next place is still to choose */
	twz_node landmark_at;     /* where the next one goes */
	twz_node *wanted;
	uint64_t expanded;        /* nodes twigz expanded, in all */
	uint64_t touched;         /* path nodes checked or copied */
};

/* Group the blocked agents by goal (stable: by goal, then agent). */
static void group_blocked(struct reroute *rr)
{
	size_t n = 0;

	for (size_t i = 0; i < rr->count; i++)
		if (rr->ag[i].blocked)
			rr->order[n++] = i;
	/* Insertion sort by goal: a few hundred agents. */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && rr->ag[rr->order[j - 1]].t > rr->ag[rr->order[j]].t; j--) {
			size_t tmp = rr->order[j];
			rr->order[j] = rr->order[j - 1];
			rr->order[j - 1] = tmp;
		}
	rr->groups = 0;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || rr->ag[rr->order[i]].t != rr->ag[rr->order[i - 1]].t)
			rr->group_first[rr->groups++] = i;
	rr->group_first[rr->groups] = n;
	/* Landmarks pay for themselves over many lone searches: two for a
	 * few, up to eight for many (a field each costs about the level). */
	size_t alone = 0;
	for (size_t g = 0; g < rr->groups; g++)
		alone += rr->group_first[g + 1] - rr->group_first[g] == 1;
	rr->landmarks_wanted = alone == 0 ? 0 : alone < 32 ? 2
			     : alone >= 128 ? 8 : (unsigned)(alone / 16);
}

/* One frame of twigz work, at most `budget` nodes; 1 when all is done,
 * -1 out of memory. */
static int frame(struct reroute *rr, uint64_t budget)
{
	struct level *lv = rr->lv;
	size_t cap = (size_t)lv->info.node_count + 1;
	uint64_t work = 0;

	while (rr->checked < rr->count && work < budget) {
		struct agent *a = &rr->ag[rr->checked++];
		twz_status st = twz_path_open(lv->db, &rr->filter, a->path, a->len);
		work += a->len;
		rr->touched += a->len;
		a->blocked = st != TWZ_OK;
		a->status = TWZ_OK;
		if (rr->checked == rr->count)
			group_blocked(rr);
	}
	/* The landmarks: fields toward each side of the door, then toward
	 * the place farthest from those before. */
	while (rr->checked == rr->count && rr->landmarks < rr->landmarks_wanted &&
	       work < budget) {
		twz_scratch **lm = &lv->landmark[rr->landmarks];
		/* Choosing the next place scans the level: a frame's work of
		 * its own when the frame has done some already. */
		if (rr->landmark_scan && work)
			break;
		if (rr->landmark_scan) {
			double far = -1;
			const twz_scratch *prev = lv->landmark[rr->landmarks - 1];
			for (twz_node v = 0; v < lv->info.node_count; v++) {
				double c;
				twz_field_cost(prev, v, &c);
				if (rr->landmarks == 1 || c < lv->far[v])
					lv->far[v] = c;
				if (lv->far[v] > far && lv->far[v] < INFINITY) {
					far = lv->far[v];
					rr->landmark_at = v;
				}
			}
			work += lv->info.node_count / 4;
			rr->landmark_scan = 0;
			continue;
		}
		if (!rr->landmark_begun) {
			if (!*lm && twz_scratch_create(lv->db, lm) != TWZ_OK)
				return -1;
			twz_field_begin(*lm, &rr->filter, rr->landmarks < 2
					? lv->side[rr->landmarks] : rr->landmark_at,
					NULL, 0);
			rr->landmark_begun = 1;
		}
		uint64_t before = twz_scratch_expanded(*lm);
		twz_status st = twz_field_step(*lm, budget - work);
		uint64_t spent = twz_scratch_expanded(*lm) - before;
		work += spent;
		rr->expanded += spent;
		if (st == TWZ_IN_PROGRESS)
			break;
		/* The next place: the farthest from every landmark so far,
		 * by a scan of the field's costs. */
		rr->landmarks++;
		rr->landmark_scan = rr->landmarks < rr->landmarks_wanted;
		rr->landmark_begun = 0;
		if (rr->landmarks == rr->landmarks_wanted)
			twz_search_landmarks(lv->sc, (const twz_scratch *const *)lv->landmark,
					     rr->landmarks);
	}
	while (rr->checked == rr->count && rr->landmarks == rr->landmarks_wanted &&
	       rr->group < rr->groups && work < budget) {
		size_t first = rr->group_first[rr->group];
		size_t count = rr->group_first[rr->group + 1] - first;
		struct agent *g0 = &rr->ag[rr->order[first]];
		if (!rr->begun) {
			if (count > 1) {
				for (size_t k = 0; k < count; k++)
					rr->wanted[k] = rr->ag[rr->order[first + k]].s;
				twz_field_begin(lv->sc, &rr->filter, g0->t, rr->wanted, count);
			} else {
				twz_search_begin(lv->sc, &rr->filter, g0->s, g0->t, 0);
			}
			rr->begun = 1;
		}
		uint64_t before = twz_scratch_expanded(lv->sc);
		twz_status st = count > 1 ? twz_field_step(lv->sc, budget - work)
					  : twz_search_step(lv->sc, budget - work);
		uint64_t spent = twz_scratch_expanded(lv->sc) - before;
		work += spent;
		rr->expanded += spent;
		if (st == TWZ_IN_PROGRESS)
			break;
		for (size_t k = 0; k < count; k++) {
			struct agent *a = &rr->ag[rr->order[first + k]];
			double cost;
			if (count > 1)
				a->status = twz_field_path(lv->sc, a->s, a->path, cap,
							   &a->len, &cost);
			else
				a->status = twz_search_path(lv->sc, a->path, cap,
							    &a->len, &cost, NULL);
			if (a->status != TWZ_OK)
				a->len = 0;
			work += a->len;
			rr->touched += a->len;
		}
		rr->group++;
		rr->begun = 0;
	}
	return rr->checked == rr->count && rr->group == rr->groups;
}

/* The agents' paths' moves against the A* on the changed grid: -1 when
 * any cost differs. The A*'s expansions into *expanded. */
static int verify(struct level *lv, struct agent *ag, size_t count,
		  uint64_t *expanded, double *seconds)
{
	int bad = 0;

	*expanded = 0;
	*seconds = 0;
	for (size_t i = 0; i < count; i++) {
		struct twz_astar_result r;
		uint64_t before = lv->astar.expanded;
		double t0 = cpu_seconds();
		int rc = twz_astar_search(&lv->astar, ag[i].s, ag[i].t, &r);
		*seconds += cpu_seconds() - t0;
		*expanded += lv->astar.expanded - before;
		uint32_t st = 0, dg = 0;
		for (size_t k = 1; k < ag[i].len; k++) {
			uint32_t x0, y0, x1, y1;
			twz_node_xy(lv->db, ag[i].path[k - 1], &x0, &y0);
			twz_node_xy(lv->db, ag[i].path[k], &x1, &y1);
			if (x0 != x1 && y0 != y1)
				dg++;
			else
				st++;
		}
		int ours_found = ag[i].status == TWZ_OK;
		if (ours_found != (rc == 0) ||
		    (rc == 0 && (r.straight != st || r.diagonal != dg))) {
			if (bad++ < 5)
				fprintf(stderr, "reroute_bench: %s: agent %zu: %s %u+%u*sqrt2, "
					"A* %s %u+%u*sqrt2\n", lv->name, i,
					twz_strerror(ag[i].status), st, dg,
					rc ? "none" : "found", r.straight, r.diagonal);
		}
	}
	return bad ? -1 : 0;
}

/* Agents: `goals` goals (0: one each), starts random or (crossing) only
 * where the static path passes the door. */
static void place_agents(struct level *lv, struct agent *ag, size_t count,
			 unsigned goals, int crossing, uint64_t *rng)
{
	uint32_t n = lv->info.node_count;
	twz_node goal[8];

	for (unsigned g = 0; g < goals && g < 8; g++) {
		do
			goal[g] = rng_next(rng) % n;
		while (is_door(lv, goal[g]));
	}
	for (size_t i = 0; i < count; i++) {
		for (unsigned tries = 0;; tries++) {
			ag[i].s = rng_next(rng) % n;
			ag[i].t = goals ? goal[rng_next(rng) % goals] : rng_next(rng) % n;
			if (is_door(lv, ag[i].s) || is_door(lv, ag[i].t) ||
			    twz_next(lv->db, ag[i].s, ag[i].t) == TWZ_NONE)
				continue;
			ag[i].crosses = crosses(lv, ag[i].s, ag[i].t);
			if (!crossing || ag[i].crosses || tries > 100000)
				break;
		}
		twz_path(lv->db, ag[i].s, ag[i].t, ag[i].path,
			 (size_t)n + 1, &ag[i].len);
	}
}

static int scenario(struct level *lv, struct agent *ag, size_t count,
		    unsigned goals, int crossing, uint64_t budget, uint64_t seed)
{
	uint64_t rng = seed;
	struct reroute rr;
	size_t crossed = 0, blocked = 0;

	set_door(lv, 0);
	place_agents(lv, ag, count, goals, crossing, &rng);
	for (size_t i = 0; i < count; i++)
		crossed += ag[i].crosses;
	set_door(lv, 1);

	memset(&rr, 0, sizeof rr);
	twz_search_landmarks(lv->sc, NULL, 0);
	rr.lv = lv;
	rr.ag = ag;
	rr.count = count;
	rr.filter.world = lv->world;
	rr.order = malloc((count + 1) * sizeof *rr.order);
	rr.group_first = malloc((count + 2) * sizeof *rr.group_first);
	rr.wanted = malloc((count + 1) * sizeof *rr.wanted);
	if (!rr.order || !rr.group_first || !rr.wanted)
		return -1;
	unsigned frames = 0;
	double worst = 0, total = 0, worst_wall = 0;
	for (int done = 0; !done; frames++) {
		double w0 = twz_now_seconds(), t0 = cpu_seconds();
		done = frame(&rr, budget);
		if (done < 0)
			return -1;
		double t = cpu_seconds() - t0, w = twz_now_seconds() - w0;
		total += t;
		if (t > worst)
			worst = t;
		if (w > worst_wall)
			worst_wall = w;
	}
	for (size_t i = 0; i < count; i++)
		blocked += ag[i].blocked;
	uint64_t ref_expanded;
	double ref_seconds;
	int rc = verify(lv, ag, count, &ref_expanded, &ref_seconds);
	char what[64];
	snprintf(what, sizeof what, "%s, %s", crossing ? "all cross" : "random pairs",
		 goals == 1 ? "1 goal" : goals ? "8 goals" : "a goal each");
	printf("| %s | %s | %zu | %zu | %zu | %zu | %u | %u | %.3f (%.3f) | %.2f | %" PRIu64
	       " | %" PRIu64 " | %" PRIu64 " | %.3f | %.2f |\n", lv->name, what,
	       count, crossed, blocked, rr.groups, rr.landmarks, frames, worst * 1e3,
	       worst_wall * 1e3, total * 1e3, rr.expanded, rr.touched, ref_expanded,
	       ref_expanded ? (double)rr.expanded / ref_expanded : 0,
	       ref_seconds * 1e3);
	free(rr.order);
	free(rr.group_first);
	free(rr.wanted);
	set_door(lv, 0);
	return rc;
}

int main(int argc, char **argv)
{
	size_t count = 200;
	uint64_t budget = 500, seed = 0x2545F4914F6CDD1Dull;
	const char *door = NULL, *path = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--agents") && i + 1 < argc)
			count = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--budget") && i + 1 < argc)
			budget = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--door") && i + 1 < argc)
			door = argv[++i];
		else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else {
			fprintf(stderr, "usage: reroute_bench [--agents N] [--budget NODES] "
				"[--seed N] [--door X,Y,h|v] LEVEL.map\n");
			return 2;
		}
	}
	if (!path || !count || !budget) {
		fprintf(stderr, "reroute_bench: a level, agents and a budget are needed\n");
		return 2;
	}
	FILE *f = fopen(path, "rb");
	if (!f) {
		printf("reroute_bench: %s is not here; nothing measured\n", path);
		return 0;
	}
	fclose(f);
	struct level lv;
	if (level_open(&lv, path) != 0)
		return 1;
	uint64_t rng = seed;
	unsigned dx, dy;
	char dir;
	if (door) {
		if (sscanf(door, "%u,%u,%c", &dx, &dy, &dir) != 3 ||
		    !door_at(&lv, dx, dy, dir == 'h', lv.door)) {
			fprintf(stderr, "reroute_bench: --door %s is no run of three "
				"cells across a corridor\n", door);
			return 2;
		}
	} else if (find_door(&lv, &rng) != 0) {
		fprintf(stderr, "reroute_bench: %s: no chokepoint of three cells\n",
			path);
		return 1;
	}
	uint32_t x0, y0, x2, y2;
	twz_node_xy(lv.db, lv.door[0], &x0, &y0);
	twz_node_xy(lv.db, lv.door[2], &x2, &y2);
	printf("%s: %u nodes; the door: (%u,%u) to (%u,%u); %zu agents; a budget of "
	       "%" PRIu64 " nodes a frame.\n\n", lv.name, lv.info.node_count, x0, y0,
	       x2, y2, count, budget);
	printf("| level | agents | n | crossing | blocked | searches | landmarks | frames | "
	       "worst frame ms, cpu (wall) | twigz cpu ms | twigz expanded | path nodes | "
	       "A* expanded | expanded / A* | A* ms |\n");
	printf("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
	       "---: | ---: | ---: | ---: | ---: |\n");
	struct agent *ag = calloc(count, sizeof *ag);
	int rc = ag ? 0 : -1;
	for (size_t i = 0; ag && i < count && rc == 0; i++) {
		ag[i].path = malloc(((size_t)lv.info.node_count + 1) * sizeof *ag[i].path);
		if (!ag[i].path)
			rc = -1;
	}
	static const unsigned goal_kinds[] = { 1, 8, 0 };
	for (int crossing = 0; crossing < 2 && rc == 0; crossing++)
		for (int g = 0; g < 3 && rc == 0; g++)
			rc = scenario(&lv, ag, count, goal_kinds[g], crossing, budget,
				      seed + 17 * (uint64_t)g + (uint64_t)crossing);
	for (size_t i = 0; ag && i < count; i++)
		free(ag[i].path);
	free(ag);
	level_close(&lv);
	return rc ? 1 : 0;
}
