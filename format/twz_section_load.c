/*
 * twz_section_load.c - one section's claim checked, then its bytes
 * decoded; see twz_section_load.h.
 */
#include "twz_section_load.h"

#include <stdlib.h>
#include <zstd.h>

twz_status twz_section_fits(const struct twz_section_ref *s, uint64_t limit,
			    int exact)
{
	if (limit == TWZ_NO_LIMIT)
		return TWZ_E_DAMAGED;
	if (exact ? s->raw_size != limit : s->raw_size > limit)
		return TWZ_E_DAMAGED;
	if (s->raw_size > SIZE_MAX)
		return TWZ_E_LIMIT;
	return TWZ_OK;
}

twz_status twz_section_decode(const uint8_t *file,
			      const struct twz_section_ref *s, unsigned flags,
			      const uint8_t **raw, void **owned)
{
	const uint8_t *stored = file + s->offset;

	*raw = stored;
	*owned = NULL;
	if (s->codec == TWZ_CODEC_ZSTD) {
		/* The frame must say what the table says before memory is
		 * taken for it. */
		unsigned long long content =
			ZSTD_getFrameContentSize(stored, (size_t)s->size);
		if (content == ZSTD_CONTENTSIZE_ERROR ||
		    content == ZSTD_CONTENTSIZE_UNKNOWN || content != s->raw_size)
			return TWZ_E_DAMAGED;
		if (ZSTD_findFrameCompressedSize(stored, (size_t)s->size) !=
		    s->size)
			return TWZ_E_DAMAGED;
		void *buf = malloc(s->raw_size ? (size_t)s->raw_size : 1);
		if (!buf)
			return TWZ_E_NOMEM;
		*owned = buf;
		size_t got = ZSTD_decompress(buf, (size_t)s->raw_size, stored,
					     (size_t)s->size);
		if (ZSTD_isError(got) || got != s->raw_size)
			return TWZ_E_DAMAGED;
		*raw = buf;
	}
	if (!(flags & TWZ_OPEN_SKIP_CHECKSUMS) &&
	    twz_checksum(*raw, (size_t)s->raw_size) != s->raw_checksum)
		return TWZ_E_CHECKSUM;
	return TWZ_OK;
}

twz_status twz_section_load(const uint8_t *file,
			    const struct twz_section_ref *s, uint64_t limit,
			    int exact, unsigned flags, const uint8_t **raw,
			    void **owned)
{
	twz_status st = twz_section_fits(s, limit, exact);

	*raw = NULL;
	*owned = NULL;
	if (st != TWZ_OK)
		return st;
	return twz_section_decode(file, s, flags, raw, owned);
}
