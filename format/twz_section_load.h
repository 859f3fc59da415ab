/*
 * twz_section_load.h - the one loader of sections, for .twz files and
 * for the partial files of `twigz build --shard` alike (the same
 * container under another magic): a section's claimed raw size is held
 * to the limit of its kind before a byte is allocated for it (FORMAT.md
 * section 10a), and only then is it inflated and its checksum checked
 * (section 9, checks 25 to 32). The caller knows its kinds and gives the
 * limit; a kind it has no limit for is refused, never inflated.
 */
#ifndef TWZ_SECTION_LOAD_H
#define TWZ_SECTION_LOAD_H

#include "twz_validate.h"

/* The limit of a kind that has none: such a section is refused. */
#define TWZ_NO_LIMIT UINT64_MAX

/* Checks 25, 27 and 28 of one section's claim: raw_size is limit when
 * exact, else at most limit (TWZ_E_DAMAGED otherwise, and always for
 * TWZ_NO_LIMIT), and fits the address space (TWZ_E_LIMIT). */
twz_status twz_section_fits(const struct twz_section_ref *s, uint64_t limit,
			    int exact);

/* Checks 29 to 32 of a section that fits, not chunked: its decoded bytes
 * into *raw, in place in file when stored raw, else inflated into a
 * buffer *owned that the caller frees (NULL when none; set before any
 * failure, so the caller frees it whatever the status). The checksum is
 * skipped with TWZ_OPEN_SKIP_CHECKSUMS in flags. */
twz_status twz_section_decode(const uint8_t *file,
			      const struct twz_section_ref *s, unsigned flags,
			      const uint8_t **raw, void **owned);

/* twz_section_fits, then twz_section_decode. */
twz_status twz_section_load(const uint8_t *file,
			    const struct twz_section_ref *s, uint64_t limit,
			    int exact, unsigned flags, const uint8_t **raw,
			    void **owned);

#endif /* TWZ_SECTION_LOAD_H */
