/*
 * navmesh_cli.h - the twigz subcommands on navmesh levels (.obj files and
 * the databases baked from them): build, query, verify, info and render,
 * called by the cmd_<name>.c of each when the level's extension or the
 * database's level kind says navmesh.
 */
#ifndef NAVMESH_CLI_H
#define NAVMESH_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "bake.h"
#include "twigz.h"
#include "twz_error.h"

/* `twigz query DB SX SY SZ GX GY GZ [--json] [--waypoints funnel|midpoints]`
 * and `twigz query DB --points FILE [--json] [--waypoints ...]`. */
int twz_navmesh_query_cmd(int argc, char **argv);

/* `twigz verify DB FILE.points`: every query's corridor against a plain
 * Dijkstra over the polygons, and its waypoints' endpoints and lengths. */
int twz_navmesh_verify_cmd(int argc, char **argv);

/* `twigz render DB.twz -o OUT.svg|OUT.png [--path SX SY SZ GX GY GZ]...
 * [--waypoints funnel|midpoints] [--scale N] [--no-legend]`
 * (render_navmesh.c). */
int twz_navmesh_render_cmd(int argc, char **argv);

/* Whether render's input (its first word that is no option, no option's
 * value and no number) is a navmesh database. */
int twz_navmesh_render_wanted(int argc, char **argv);

/* The lines twigz info adds for a navmesh database. */
void twz_navmesh_info_print(const twz_db *db, int json);

/* A points file: one query a line, `sx sy sz gx gy gz`; blank lines and
 * lines starting with '#' skipped. */
struct twz_points {
	size_t count;
	double *p;           /* [count * 6] */
	unsigned long *line; /* [count]: line of each query */
};

int twz_points_load(const char *path, struct twz_points *pts,
		    struct twz_error *err);
void twz_points_free(struct twz_points *pts);

/* The x-z length of a polyline of n points. */
double twz_navmesh_polyline_length(const float (*pts)[3], size_t n);

#endif
