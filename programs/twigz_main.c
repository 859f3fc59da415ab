/*
 * twigz_main.c - the `twigz` command: the table of subcommands (one
 * cmd_<name>.c each, declared in commands.h), --version, `twigz help`
 * and the usage.
 *
 * Exit status: 0 success, 1 verification failed, 2 usage, 3 bad input
 * (level, scenario or database), 4 I/O error, 5 out of memory.
 */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "twz_format.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "build", twz_cmd_build },
	{ "query", twz_cmd_query },
	{ "verify", twz_cmd_verify },
	{ "info", twz_cmd_info },
	{ "bench", twz_cmd_bench },
	{ "unpack", twz_cmd_unpack },
	{ "merge", twz_cmd_merge },
	{ "render", twz_cmd_render },
	{ "check", twz_cmd_check },
};

/* --help or -h among a command's words asks for its usage (render has
 * its own, longer help). */
static int asks_help(const char *cmd, int argc, char **argv)
{
	if (!strcmp(cmd, "render"))
		return 0;
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

/* The table's entry for name, or -1. */
static int find_command(const char *name)
{
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		if (!strcmp(name, commands[i].name))
			return (int)i;
	return -1;
}

/* Runs command i on its words: its usage when they ask for help, and
 * its own usage on a usage error. */
static int run_command(int i, int argc, char **argv)
{
	const char *cmd = commands[i].name;

	twz_cli_set_command(cmd);
	if (asks_help(cmd, argc, argv)) {
		twz_cli_command_usage(cmd);
		return 0;
	}
	return commands[i].run(argc, argv);
}

/* `twigz help`: every command's usage; `twigz help COMMAND`: that one's,
 * as `twigz COMMAND --help` prints it. */
static int help(int argc, char **argv)
{
	if (argc == 0) {
		fputs(twz_usage_text, stdout);
		return 0;
	}
	if (argc > 1)
		return twz_cli_usage("help takes one command, not '%s'", argv[1]);
	int i = find_command(argv[0]);
	if (i < 0)
		return twz_cli_usage("help: unknown command '%s'", argv[0]);
	static char help_word[] = "--help";
	char *words[] = { help_word, NULL };
	return run_command(i, 1, words);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return twz_cli_usage("%s", "no command");
	const char *cmd = argv[1];
	int i = find_command(cmd);
	if (i >= 0)
		return run_command(i, argc - 2, argv + 2);
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("twigz %s (format %d.%d; reads 1.0 to %d.%d)\n", twz_version(),
		       TWZ_FORMAT_MAJOR, TWZ_FORMAT_MINOR, TWZ_FORMAT_MAJOR,
		       TWZ_FORMAT_MINOR);
		return 0;
	}
	if (!strcmp(cmd, "help"))
		return help(argc - 2, argv + 2);
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		fputs(twz_usage_text, stdout);
		return 0;
	}
	return twz_cli_usage("unknown command '%s'", cmd);
}
