/*
 * commands.h - the `twigz` subcommands, one cmd_<name>.c each. Every
 * entry point takes the words after the subcommand's name and returns
 * the exit status (cli_common.h); twigz_main.c dispatches to them.
 */
#ifndef COMMANDS_H
#define COMMANDS_H

int twz_cmd_build(int argc, char **argv);   /* cmd_build.c */
int twz_cmd_query(int argc, char **argv);   /* cmd_query.c */
int twz_cmd_verify(int argc, char **argv);  /* cmd_verify.c */
int twz_cmd_info(int argc, char **argv);    /* cmd_info.c */
int twz_cmd_bench(int argc, char **argv);   /* cmd_bench.c */
int twz_cmd_render(int argc, char **argv);  /* cmd_render.c */
int twz_cmd_unpack(int argc, char **argv);  /* cmd_unpack.c */
int twz_cmd_check(int argc, char **argv);   /* cmd_check.c */
int twz_cmd_merge(int argc, char **argv);   /* cmd_merge.c */

#endif
