/* The wrapper of the docs' fragments that open their own database (the
 * scratch folder's world.twz: data/demo.map baked with --chunk). */
#include <stdio.h>
#include <stdlib.h>
#include <twigz.h>

int main(void)
{
	/* SAMPLE */
	return 0;
}
