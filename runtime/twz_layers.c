/*
 * twz_layers.c - agent sizes: the AGENT_SIZES section of a file baked
 * with `twigz build --agent-sizes`, and one database a layer, opened and
 * validated like a whole file when the file is opened, sharing its
 * mapping (format section 5c). twz_view_agent hands them out; they live
 * until twz_close of the handle they came from.
 */
#include "twz_layers.h"
#include "twz_validate_layers.h"

#include <stdlib.h>

struct twz_layers {
	struct twz_layer_table t;
	twz_db *layer[TWZ_MAX_LAYERS];   /* [0]: the handle itself */
};

/* Layer l of db's file, as a database of its own. */
static twz_status open_layer(twz_db *db, struct twz_layers *ls, unsigned l,
			     unsigned flags)
{
	twz_db *v = calloc(1, sizeof *v);

	if (!v)
		return TWZ_E_NOMEM;
	ls->layer[l] = v;
	v->file = db->file;
	v->file_len = db->file_len;
	v->parent = db;
	twz_layer_container(&db->c, &ls->t, l, &v->c);
	twz_status st = twz__load_sections(v, flags);
	if (st != TWZ_OK)
		return st;
	return twz__db_finish(v);
}

twz_status twz__layers_open(twz_db *db, unsigned flags)
{
	const struct twz_section_ref *as = NULL;
	twz_status st;

	for (uint32_t i = 0; i < db->c.section_count; i++)
		if (db->c.sections[i].kind == TWZ_SECTION_AGENT_SIZES)
			as = &db->c.sections[i];
	if (!as)
		return TWZ_OK;
	/* Agent sizes are a grid's: no graph level has them (G2). */
	if (db->c.level_kind != TWZ_LEVEL_GRID)
		return TWZ_E_DAMAGED;
	if (!db->content.data[TWZ_SECTION_AGENT_SIZES]) {
		st = twz__load_section(db, as, NULL, flags);
		if (st != TWZ_OK)
			return st;
	}
	struct twz_layers *ls = calloc(1, sizeof *ls);
	if (!ls)
		return TWZ_E_NOMEM;
	db->layers = ls;
	st = twz_validate_agent_sizes(&db->c,
				      db->content.data[TWZ_SECTION_AGENT_SIZES],
				      db->content.size[TWZ_SECTION_AGENT_SIZES],
				      &ls->t);
	if (st != TWZ_OK)
		return st;
	ls->layer[0] = db;
	for (unsigned l = 1; l < ls->t.layer_count; l++) {
		st = open_layer(db, ls, l, flags);
		if (st != TWZ_OK)
			return st;
	}
	return TWZ_OK;
}

void twz__layers_close(twz_db *db)
{
	struct twz_layers *ls = db->layers;

	if (!ls)
		return;
	for (unsigned l = 1; l < TWZ_MAX_LAYERS; l++)
		if (ls->layer[l])
			twz__db_free(ls->layer[l]);
	free(ls);
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
