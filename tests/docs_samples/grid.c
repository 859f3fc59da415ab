/* The wrapper of the docs' grid fragments: a database of data/demo.map
 * open as db, a start s and a goal t in one region, a path buffer. */
#include <stdio.h>
#include <stdlib.h>
#include <twigz.h>

int main(void)
{
	twz_db *db;
	if (twz_open("demo.twz", 0, &db) != TWZ_OK)
		return 1;
	twz_node s = twz_node_at(db, 3, 3), t = twz_node_at(db, 60, 29);
	twz_node path[1024];
	size_t cap = 1024, len = 0;
	twz_status st = TWZ_OK;
	/* SAMPLE */
	(void)s, (void)t, (void)path, (void)cap, (void)len, (void)st;
	twz_close(db);
	return 0;
}
