/*
 * twz_build_info.c - checks and reads the BUILD_INFO section; see
 * twz_build_info.h and FORMAT.md section 5d.
 */
#include "twz_build_info.h"

#include <string.h>

static int key_byte(uint8_t b, int first)
{
	return (b >= 'a' && b <= 'z') ||
	       (!first && ((b >= '0' && b <= '9') || b == '_'));
}

/*
 * Length of the UTF-8 sequence at p (at most n bytes) that encodes a
 * character other than a control character (U+0000 to U+001F, U+007F to
 * U+009F), a surrogate or one above U+10FFFF, in its shortest form; 0
 * when there is no such sequence.
 */
static size_t text_char(const uint8_t *p, size_t n)
{
	uint8_t b = p[0];
	uint32_t cp, min;
	size_t len;

	if (b < 0x80)
		return b >= 0x20 && b != 0x7f;
	if (b >= 0xc2 && b <= 0xdf) {
		len = 2;
		cp = b & 0x1f;
		min = 0xa0;           /* U+0080 to U+009F are controls */
	} else if (b >= 0xe0 && b <= 0xef) {
		len = 3;
		cp = b & 0x0f;
		min = 0x800;
	} else if (b >= 0xf0 && b <= 0xf4) {
		len = 4;
		cp = b & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

twz_status twz_validate_build_info(const uint8_t *data, uint64_t size)
{
	const uint8_t *prev = NULL;
	size_t prev_len = 0, pos = 0;

	if (!data)
		return TWZ_OK;
	if (size > TWZ_BUILD_INFO_MAX)
		return TWZ_E_DAMAGED;
	while (pos < size) {
		const uint8_t *key = data + pos;
		size_t k = 0;

		while (pos + k < size && key_byte(key[k], k == 0))
			k++;
		if (k == 0 || k > TWZ_BUILD_INFO_KEY_MAX || pos + k >= size ||
		    key[k] != '=')
			return TWZ_E_DAMAGED;
		/* Keys strictly ascending: each at most once, one order. */
		if (prev) {
			size_t m = prev_len < k ? prev_len : k;
			int cmp = memcmp(prev, key, m);
			if (cmp > 0 || (cmp == 0 && prev_len >= k))
				return TWZ_E_DAMAGED;
		}
		prev = key;
		prev_len = k;
		pos += k + 1;
		while (pos < size && data[pos] != '\n') {
			size_t c = text_char(data + pos, (size_t)(size - pos));
			if (!c)
				return TWZ_E_DAMAGED;
			pos += c;
		}
		if (pos >= size)        /* every line ends with LF */
			return TWZ_E_DAMAGED;
		pos++;
	}
	return TWZ_OK;
}

int twz_build_info_next(const uint8_t *data, size_t size, size_t *pos,
			struct twz_build_entry *e)
{
	if (!data || *pos >= size)
		return 0;
	const char *line = (const char *)data + *pos;
	const char *nl = memchr(line, '\n', size - *pos);
	const char *eq = memchr(line, '=', size - *pos);

	if (!nl || !eq || eq > nl)
		return 0;               /* not a valid section */
	e->key = line;
	e->key_len = (size_t)(eq - line);
	e->value = eq + 1;
	e->value_len = (size_t)(nl - eq - 1);
	*pos = (size_t)(nl + 1 - (const char *)data);
	return 1;
}

int twz_build_info_find(const uint8_t *data, size_t size, const char *key,
			struct twz_build_entry *e)
{
	size_t pos = 0, len = strlen(key);

	while (twz_build_info_next(data, size, &pos, e))
		if (e->key_len == len && !memcmp(e->key, key, len))
			return 1;
	return 0;
}
