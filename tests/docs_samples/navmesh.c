/* The wrapper of the docs' navmesh fragments: a database of
 * data/rooms.obj open as db. */
#include <stdio.h>
#include <twigz.h>

int main(void)
{
	twz_db *db;
	if (twz_open("rooms.twz", 0, &db) != TWZ_OK)
		return 1;
	/* SAMPLE */
	twz_close(db);
	return 0;
}
