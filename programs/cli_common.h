/*
 * cli_common.h - what every `twigz` subcommand shares: exit statuses,
 * the usage text, one-line errors, opening a database, number parsing.
 * A new subcommand lives in its own cmd_<name>.c, declares its entry
 * point here and adds one line to main() in twigz_main.c.
 */
#ifndef CLI_COMMON_H
#define CLI_COMMON_H

#include "twigz.h"
#include "twz_error.h"

/* Exit statuses of the command (documented in the README). */
enum {
	EXIT_VERIFY = 1,   /* verification found a failure */
	EXIT_USAGE = 2,    /* bad command line */
	EXIT_INPUT = 3,    /* malformed level, scenario or database */
	EXIT_IO = 4,       /* a file could not be read or written */
	EXIT_NOMEM = 5,    /* out of memory */
};

extern const char twz_usage_text[];

/* Prints "twigz: <fmt with arg>" and the usage; returns EXIT_USAGE. */
int twz_cli_usage(const char *fmt, const char *arg);

/* Prints the error's one line; returns the exit status for its kind. */
int twz_cli_error(const struct twz_error *err);

/* Opens a database, printing a one-line error; 0 or an exit status. */
int twz_cli_open_db(const char *path, twz_db **db);

/* A whole decimal number in [lo, hi]; 0 on success. */
int twz_cli_parse_int(const char *s, long lo, long hi, long *out);

/* Subcommands in their own files: cmd_bench.c, cmd_unpack.c. */
int twz_cmd_bench(int argc, char **argv);
int twz_cmd_unpack(int argc, char **argv);
int twz_cmd_render(int argc, char **argv);

#endif
