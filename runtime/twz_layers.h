/*
 * twz_layers.h - agent sizes in the runtime (twz_layers.c): the table of
 * a file baked for several agent sizes, and its layers, each opened by
 * twz_open.c as a database of its own that shares the file's mapping.
 * Private to runtime/.
 */
#ifndef TWZ_LAYERS_H
#define TWZ_LAYERS_H

#include "twz_db.h"

/* Check db's decoded AGENT_SIZES section (format section 5c) and make
 * its table db->layers; db then answers for the smallest size listed. */
twz_status twz__layers_read(twz_db *db);

/* Layers of db's file (1 without agent sizes). */
unsigned twz__layers_count(const twz_db *db);

/* Layer l's database as a container of its own (l >= 1). */
void twz__layers_container(const twz_db *db, unsigned l,
			   struct twz_container *out);

/* Record v, opened by the caller, as db's layer l (l >= 1): v's parent,
 * layer and agent size are set. */
void twz__layers_set(twz_db *db, unsigned l, twz_db *v);

/* db's layer l (0: db itself), or NULL when it was not opened. */
twz_db *twz__layers_view(const twz_db *db, unsigned l);

/* Free db's table (the caller frees the layers' databases first). */
void twz__layers_free(twz_db *db);

/* The layer database holding the file's section of kind `kind` (256 l +
 * k), and that section's index in its table; NULL when none does. */
const twz_db *twz__layer_section(const twz_db *db, uint32_t kind,
				 uint32_t *index);

#endif /* TWZ_LAYERS_H */
