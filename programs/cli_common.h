/*
 * cli_common.h - what every `twigz` subcommand shares: exit statuses,
 * the usage text, one-line errors, opening a database, number parsing,
 * and reading a subcommand's words (options, their values, operands).
 * A new subcommand lives in its own cmd_<name>.c, declares its entry
 * point in commands.h and adds one line to the table in twigz_main.c.
 */
#ifndef CLI_COMMON_H
#define CLI_COMMON_H

#include <stdio.h>

#include "commands.h"
#include "twigz.h"
#include "twz_error.h"

/* Exit statuses of the command (documented in docs/commands.md). */
enum {
	EXIT_VERIFY = 1,   /* verification found a failure */
	EXIT_USAGE = 2,    /* bad command line */
	EXIT_INPUT = 3,    /* malformed level, scenario or database */
	EXIT_IO = 4,       /* a file could not be read or written */
	EXIT_NOMEM = 5,    /* out of memory */
};

extern const char twz_usage_text[];

/* Prints "twigz: <fmt with arg>" and the usage (the current command's
 * lines once twz_cli_set_command named one, else every command's);
 * returns EXIT_USAGE. */
int twz_cli_usage(const char *fmt, const char *arg);

/* The subcommand whose words are read from now on (twigz_main.c sets it
 * before dispatching), for the usage its errors print. */
void twz_cli_set_command(const char *cmd);

/* `twigz CMD --help`: CMD's lines of the usage text on stdout; 0 when
 * the text has none for CMD. */
int twz_cli_command_usage(const char *cmd);

/* An output file name a command will write: not "-" (the tool writes
 * files, not standard output) and not a directory. 0, or an exit status
 * after a one-line error. */
int twz_cli_check_output(const char *opt, const char *path);

/* Prints the error's one line; returns the exit status for its kind. */
int twz_cli_error(const struct twz_error *err);

/* The exit status of a verify of the queries in file: passed and failed
 * were checked, off were not (off the level, mesh or graph, named by
 * off_what). EXIT_VERIFY when any failed, and when none was checked at
 * all, which it says on stderr: a verify that checked nothing proves
 * nothing. */
int twz_cli_verify_status(const char *file, size_t passed, size_t failed,
			  size_t off, const char *off_what);

/* Opens a database, printing a one-line error; 0 or an exit status. */
int twz_cli_open_db(const char *path, twz_db **db);
/* The same with a chunk cache of cache bytes (0: none; twz_open_ex). */
int twz_cli_open_db_cache(const char *path, uint64_t cache, twz_db **db);

/* A whole decimal number in [lo, hi]; 0 on success. */
int twz_cli_parse_int(const char *s, long lo, long hi, long *out);

/*
 * A subcommand's words, read one at a time. An option that takes a value
 * consumes the next word with it. The first bad word prints its usage
 * error and stops the reading: status is then EXIT_USAGE, and what the
 * readers below return is not to be used.
 */
struct twz_cli_args {
	int argc;
	char **argv;
	int next;          /* index of the word after the current one */
	int status;        /* 0, or EXIT_USAGE once an error is printed */
};

#define TWZ_CLI_ARGS(argc, argv) { (argc), (argv), 0, 0 }

/* The next word; NULL at the end or once an error stopped the reading. */
const char *twz_cli_next(struct twz_cli_args *ar);

/* Option opt's value: "OPT needs NEEDS" when there is none. */
const char *twz_cli_value(struct twz_cli_args *ar, const char *opt,
			  const char *needs);

/* Stops the reading with "OPT needs NEEDS, not 'VAL'" (VAL may be NULL). */
void twz_cli_bad_value(struct twz_cli_args *ar, const char *opt,
		       const char *needs, const char *val);

/* Option opt's value, a whole number in [lo, hi]. */
long twz_cli_number(struct twz_cli_args *ar, const char *opt, long lo,
		    long hi, const char *needs);

/* Option opt's value, a size in bytes in [lo, hi]: digits with an
 * optional K, M, G or T (binary multiples, any case, then B or iB
 * allowed). */
uint64_t twz_cli_bytes(struct twz_cli_args *ar, const char *opt, uint64_t lo,
		       uint64_t hi, const char *needs);

/* Option opt's value, one of the words of the NULL-terminated choices:
 * its index. */
int twz_cli_choice(struct twz_cli_args *ar, const char *opt,
		   const char *const *choices, const char *needs);

/* A word no option took: an unknown option when it starts with '-' (a
 * lone "-" is a file name), else the first NULL one of slots[0..n). */
void twz_cli_operand(struct twz_cli_args *ar, const char *word,
		     const char **slots, int n);

/* The same without the option check, for words such as "-1". */
void twz_cli_place(struct twz_cli_args *ar, const char *word,
		   const char **slots, int n);

#endif
