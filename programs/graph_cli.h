/*
 * graph_cli.h - the twigz subcommands on graph levels (.gr files and the
 * databases baked from them): build, query, verify and info, called by
 * the cmd_<name>.c of each when the level's extension or the database's
 * level kind says graph.
 */
#ifndef GRAPH_CLI_H
#define GRAPH_CLI_H

#include "bake.h"
#include "twigz.h"


/* The level kind a database file's header names (TWZ_KIND_*), or
 * TWZ_KIND_GRID when it cannot tell (the command then reports what is
 * wrong when it opens the file). */
unsigned twz_cli_db_kind(const char *path);

/* The database among a command's words: the first that is no option
 * and no option's value (those of takes_value, NULL-terminated). */
const char *twz_cli_db_word(int argc, char **argv,
			    const char *const *takes_value);

/* `twigz query DB S T [--json]`, `twigz query DB --p2p FILE [--json]`. */
int twz_graph_query_cmd(int argc, char **argv);

/* `twigz verify DB FILE.p2p`: every query against a plain Dijkstra over
 * the arcs the database holds. */
int twz_graph_verify_cmd(int argc, char **argv);

/* `twigz render DB -o OUT [--path S,T]...` of a graph baked with
 * coordinates (render_graph.c). */
int twz_graph_render_cmd(int argc, char **argv);

/* The lines twigz info adds for a graph database. */
void twz_graph_info_print(const twz_db *db, int json);

#endif
