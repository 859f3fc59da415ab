/* The wrapper of the docs' graph fragments: a database of data/city.gr
 * open as db, and a vehicle to move. */
#include <stdio.h>
#include <twigz.h>

static void drive_to(twz_node node)
{
	printf(" %u", node);
}

int main(void)
{
	twz_db *db;
	if (twz_open("city.twz", 0, &db) != TWZ_OK)
		return 1;
	/* SAMPLE */
	printf("\n");
	twz_close(db);
	return 0;
}
