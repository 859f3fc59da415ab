/*
 * twz_layers.c - agent sizes: the AGENT_SIZES section of a file baked
 * with `twigz build --agent-sizes` (format section 5c) and its layers,
 * one database a layer that twz_open.c opens and validates like a whole
 * file, sharing its mapping. twz_view_agent hands them out; they live
 * until twz_close of the handle they came from.
 */
#include "twz_layers.h"
#include "twz_validate_layers.h"

#include <stdlib.h>

struct twz_layers {
	struct twz_layer_table t;
	twz_db *layer[TWZ_MAX_LAYERS];   /* [0]: the handle itself */
};

/* The smallest size layer l answers for. */
static unsigned layer_size(const struct twz_layer_table *t, unsigned l)
{
	for (unsigned i = 0; i < t->size_count; i++)
		if (t->layer_of[i] == l)
			return t->size[i];
	return 1;
}

twz_status twz__layers_read(twz_db *db)
{
	struct twz_layers *ls = calloc(1, sizeof *ls);

	if (!ls)
		return TWZ_E_NOMEM;
	db->layers = ls;
	twz_status st = twz_validate_agent_sizes(
		&db->c, db->content.data[TWZ_SECTION_AGENT_SIZES],
		db->content.size[TWZ_SECTION_AGENT_SIZES], &ls->t);
	if (st != TWZ_OK)
		return st;
	ls->layer[0] = db;
	db->agent_size = layer_size(&ls->t, 0);
	return TWZ_OK;
}

unsigned twz__layers_count(const twz_db *db)
{
	return db->layers ? db->layers->t.layer_count : 1;
}

void twz__layers_container(const twz_db *db, unsigned l,
			   struct twz_container *out)
{
	twz_layer_container(&db->c, &db->layers->t, l, out);
}

void twz__layers_set(twz_db *db, unsigned l, twz_db *v)
{
	db->layers->layer[l] = v;
	v->parent = db;
	v->layer = l;
	v->agent_size = layer_size(&db->layers->t, l);
}

twz_db *twz__layers_view(const twz_db *db, unsigned l)
{
	if (!db->layers)
		return l == 0 ? (twz_db *)db : NULL;
	return l < TWZ_MAX_LAYERS ? db->layers->layer[l] : NULL;
}

void twz__layers_free(twz_db *db)
{
	free(db->layers);
	db->layers = NULL;
}

const twz_db *twz__layer_section(const twz_db *db, uint32_t kind,
				 uint32_t *index)
{
	const struct twz_layers *ls = db->layers;
	uint32_t l = kind / TWZ_LAYER_KIND_STRIDE;

	if (!ls || l == 0 || l >= ls->t.layer_count || !ls->layer[l])
		return NULL;
	const twz_db *v = ls->layer[l];
	for (uint32_t i = 0; i < v->c.section_count; i++)
		if (v->c.sections[i].kind == kind % TWZ_LAYER_KIND_STRIDE) {
			*index = i;
			return v;
		}
	return NULL;
}

twz_status twz_view_agent(const twz_db *db, unsigned size,
			  const twz_db **view)
{
	if (view)
		*view = NULL;
	if (!db || !view)
		return TWZ_E_ARGUMENT;
	const twz_db *root = db->parent ? db->parent : db;
	const struct twz_layers *ls = root->layers;
	if (!ls) {
		/* A file without AGENT_SIZES answers for size 1. */
		if (size != 1)
			return TWZ_E_ARGUMENT;
		*view = root;
		return TWZ_OK;
	}
	for (unsigned i = 0; i < ls->t.size_count; i++)
		if (ls->t.size[i] == size) {
			*view = ls->layer[ls->t.layer_of[i]];
			return TWZ_OK;
		}
	return TWZ_E_ARGUMENT;
}

twz_status twz_agent_sizes(const twz_db *db, unsigned *sizes, size_t cap,
			   size_t *count)
{
	if (count)
		*count = 0;
	if (!db || !count || (!sizes && cap))
		return TWZ_E_ARGUMENT;
	const twz_db *root = db->parent ? db->parent : db;
	const struct twz_layers *ls = root->layers;
	size_t n = ls ? ls->t.size_count : 1;
	for (size_t i = 0; i < n && i < cap; i++)
		sizes[i] = ls ? ls->t.size[i] : 1;
	*count = n;
	return n > cap ? TWZ_E_BUFFER_TOO_SMALL : TWZ_OK;
}
