/*
 * twz_layers.h - agent sizes in the runtime (twz_layers.c): the layers
 * of a file baked for several agent sizes, each opened as a database of
 * its own that shares the file's mapping, and what twz_open.c lends them
 * to do it. Private to runtime/.
 */
#ifndef TWZ_LAYERS_H
#define TWZ_LAYERS_H

#include "twz_db.h"

/* After db itself is open: read AGENT_SIZES, when the file has it, and
 * open every further layer (format section 5c). */
twz_status twz__layers_open(twz_db *db, unsigned flags);
/* Free what twz__layers_open made (also after it failed). */
void twz__layers_close(twz_db *db);

/* The layer database holding the file's section of kind `kind` (256 l +
 * k), and that section's index in its table; NULL when none does. */
const twz_db *twz__layer_section(const twz_db *db, uint32_t kind,
				 uint32_t *index);

/* twz_open.c: decode section s into db's content, its size first
 * checked against what db's counts and pr (TRANSIT parameters, or NULL)
 * allow. */
twz_status twz__load_section(twz_db *db, const struct twz_section_ref *s,
			     const struct twz_tparams *pr, unsigned flags);
/* twz_open.c: decode every section of db's container this version reads. */
twz_status twz__load_sections(twz_db *db, unsigned flags);
/* twz_open.c: validate db's decoded sections, then set up its queries. */
twz_status twz__db_finish(twz_db *db);
/* twz_open.c: free db whether a handle or a layer. */
void twz__db_free(twz_db *db);

#endif /* TWZ_LAYERS_H */
