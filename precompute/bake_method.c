/*
 * bake_method.c - the table of the bake's methods (bake_method.h).
 */
#include "bake_method.h"

const struct twz_bake_method *twz_bake_method_of(const struct twz_bake_options *opt)
{
	switch (opt->method) {
	case TWZ_BAKE_CPD:
		return &twz_cpd_method;
	case TWZ_BAKE_TRANSIT:
		return &twz_transit_method;
	}
	return NULL;
}
