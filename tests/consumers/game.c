/*
 * game.c - the smallest game that links libtwigz, built by the consumer
 * projects beside it (scripts/test.sh, step consumers): opens DB and
 * prints the version and the cost from (SX, SY) to (GX, GY).
 *
 *   game DB SX SY GX GY
 */
#include <stdio.h>
#include <stdlib.h>

#include <twigz.h>

int main(int argc, char **argv)
{
	twz_db *db;

	if (argc != 6) {
		fprintf(stderr, "usage: game DB SX SY GX GY\n");
		return 2;
	}
	twz_status st = twz_open(argv[1], 0, &db);
	if (st != TWZ_OK) {
		fprintf(stderr, "game: %s: %s\n", argv[1], twz_strerror(st));
		return 1;
	}
	twz_node s = twz_node_at(db, atoi(argv[2]), atoi(argv[3]));
	twz_node t = twz_node_at(db, atoi(argv[4]), atoi(argv[5]));
	if (s == TWZ_NONE || t == TWZ_NONE) {
		fprintf(stderr, "game: a blocked cell or one off the grid\n");
		twz_close(db);
		return 1;
	}
	printf("libtwigz %s: cost %.3f\n", twz_version(), twz_cost(db, s, t));
	twz_close(db);
	return 0;
}
