/*
 * level_map.c - the Moving AI .map reader. Every size is checked against
 * the format limits before anything is allocated from it.
 */
#include "level_map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>

#include "file_read.h"
#include "twz_format.h"

int twz_parse_u32(const char *s, size_t len, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;

	if (len == 0 || len > 10)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > max)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int is_blank(const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t')
			return 0;
	return 1;
}

/* Split "key value" on the first run of blanks; trailing blanks dropped. */
static int split_key_value(const char *line, size_t len, const char **key,
			   size_t *key_len, const char **val, size_t *val_len)
{
	size_t i = 0;

	while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	while (i < len && line[i] != ' ' && line[i] != '\t')
		i++;
	*key = line;
	*key_len = i;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	*val = line + i;
	*val_len = len - i;
	return *key_len > 0;
}

static int word_is(const char *s, size_t len, const char *word)
{
	return len == strlen(word) && memcmp(s, word, len) == 0;
}

static int cell_walkable(char c, int *walkable)
{
	switch (c) {
	case '.': case 'G': case 'S':
		*walkable = 1;
		return 0;
	case '@': case 'O': case 'T': case 'W':
		*walkable = 0;
		return 0;
	}
	return -1;
}

/* Prints a byte for a message: itself when printable, else \xNN. */
static const char *show_byte(char c, char out[8])
{
	unsigned char u = (unsigned char)c;
	if (u >= 0x20 && u < 0x7f)
		snprintf(out, 8, "'%c'", c);
	else
		snprintf(out, 8, "\\x%02x", u);
	return out;
}

/*
 * XXH3-64 of the file's bytes with the CR of every CR LF left out, so a
 * level saved with Windows line ends hashes as its LF copy does, and a
 * file with LF line ends hashes exactly its bytes (what every bake before
 * this rule recorded). Everything else counts: a BOM, blank lines, and
 * whether the last line ends with a newline.
 */
uint64_t twz_level_hash(const uint8_t *buf, size_t len)
{
	XXH3_state_t st;
	size_t from = 0;

	XXH3_64bits_reset(&st);
	for (size_t i = 0; i + 1 < len; i++) {
		if (buf[i] != '\r' || buf[i + 1] != '\n')
			continue;
		XXH3_64bits_update(&st, buf + from, i - from);
		from = i + 1;   /* the LF starts the next piece */
	}
	XXH3_64bits_update(&st, buf + from, len - from);
	return XXH3_64bits_digest(&st);
}

int twz_grid_parse(const uint8_t *buf, size_t len, const char *name,
		   struct twz_grid *g, struct twz_error *err)
{
	return twz_grid_parse_letters(buf, len, name, g, NULL, err);
}

int twz_grid_parse_letters(const uint8_t *buf, size_t len, const char *name,
			   struct twz_grid *g, uint8_t **letters,
			   struct twz_error *err)
{
	if (letters)
		*letters = NULL;
	struct twz_lines it;
	const char *line, *key, *val;
	size_t line_len, key_len, val_len;
	uint32_t width = 0, height = 0;
	unsigned long type_line = 0, height_line = 0, width_line = 0;
	char shown[8];

	memset(g, 0, sizeof *g);
	/* Editors on Windows start a UTF-8 file with a byte-order mark; it
	 * is no part of the header. The level hash still covers it
	 * (twz_level_hash). */
	const uint8_t *text = buf;
	size_t text_len = len;
	if (len >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF) {
		text += 3;
		text_len -= 3;
	}
	if (text_len == 0) {
		/* There is no line 0 to name. */
		twz_error_set(err, "%s: empty file", name);
		return -1;
	}
	if (memchr(buf, 0, len)) {
		twz_error_set(err, "%s: binary data (a NUL byte) in a text level", name);
		return -1;
	}
	twz_lines_init(&it, text, text_len);

	/* Header: type, height, width in any order, then "map". */
	for (;;) {
		if (!twz_lines_next(&it, &line, &line_len)) {
			twz_error_set(err, "%s:%lu: unexpected end of file in the header (no 'map' line)",
				      name, it.number);
			return -1;
		}
		if (!split_key_value(line, line_len, &key, &key_len, &val, &val_len)) {
			twz_error_set(err, "%s:%lu: empty line in the header", name, it.number);
			return -1;
		}
		if (word_is(key, key_len, "map") && val_len == 0)
			break;
		unsigned long *seen = word_is(key, key_len, "type") ? &type_line :
				      word_is(key, key_len, "height") ? &height_line :
				      word_is(key, key_len, "width") ? &width_line : NULL;
		/* A repeated field is a mistake, not an override: refuse it
		 * rather than let one of the two win silently. */
		if (seen && *seen) {
			twz_error_set(err, "%s:%lu: '%.*s' given again (first on line %lu)",
				      name, it.number, (int)key_len, key, *seen);
			return -1;
		}
		if (seen)
			*seen = it.number;
		if (word_is(key, key_len, "type")) {
			if (!word_is(val, val_len, "octile")) {
				twz_error_set(err, "%s:%lu: unknown map type '%.*s' (only 'octile' is known)",
					      name, it.number, (int)(val_len > 40 ? 40 : val_len), val);
				return -1;
			}
		} else if (word_is(key, key_len, "height") ||
			   word_is(key, key_len, "width")) {
			uint32_t v;
			int is_h = key[0] == 'h';
			if (twz_parse_u32(val, val_len, UINT32_MAX, &v) != 0) {
				twz_error_set(err, "%s:%lu: %s is not a number: '%.*s'",
					      name, it.number, is_h ? "height" : "width",
					      (int)(val_len > 40 ? 40 : val_len), val);
				return -1;
			}
			if (v == 0 || v > TWZ_MAX_SIDE) {
				twz_error_set(err, "%s:%lu: %s %u out of range (1 to %u)",
					      name, it.number, is_h ? "height" : "width",
					      v, TWZ_MAX_SIDE);
				return -1;
			}
			*(is_h ? &height : &width) = v;
		} else {
			twz_error_set(err, "%s:%lu: unknown header line '%.*s'",
				      name, it.number, (int)(line_len > 40 ? 40 : line_len), line);
			return -1;
		}
	}
	if (!type_line || !width || !height) {
		twz_error_set(err, "%s:%lu: header lacks %s before 'map'", name, it.number,
			      !type_line ? "'type'" : !height ? "'height'" : "'width'");
		return -1;
	}
	if ((uint64_t)width * height > TWZ_MAX_CELLS) {
		twz_error_set(err, "%s: %ux%u cells exceed the limit of %u", name,
			      width, height, TWZ_MAX_CELLS);
		return -1;
	}
	/* The rows must be there before we allocate for them. */
	if ((uint64_t)width * height > len) {
		twz_error_set(err, "%s: file too short for a %ux%u map", name, width, height);
		return -1;
	}
	g->walkable = malloc((size_t)width * height);
	if (letters)
		*letters = malloc((size_t)width * height);
	if (!g->walkable || (letters && !*letters)) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory for a %ux%u map", name, width, height);
		goto fail;
	}
	g->width = width;
	g->height = height;

	for (uint32_t y = 0; y < height; y++) {
		if (!twz_lines_next(&it, &line, &line_len)) {
			twz_error_set(err, "%s:%lu: only %u of %u map rows", name,
				      it.number, y, height);
			goto fail;
		}
		if (line_len != width) {
			twz_error_set(err, "%s:%lu: row %u has %zu cells, expected %u",
				      name, it.number, y, line_len, width);
			goto fail;
		}
		for (uint32_t x = 0; x < width; x++) {
			int w;
			if (cell_walkable(line[x], &w) != 0) {
				twz_error_set(err, "%s:%lu: column %u: unknown cell %s",
					      name, it.number, x + 1, show_byte(line[x], shown));
				goto fail;
			}
			g->walkable[(size_t)y * width + x] = (uint8_t)w;
			if (letters)
				(*letters)[(size_t)y * width + x] = (uint8_t)line[x];
		}
	}
	while (twz_lines_next(&it, &line, &line_len)) {
		if (!is_blank(line, line_len)) {
			twz_error_set(err, "%s:%lu: more than %u map rows", name,
				      it.number, height);
			goto fail;
		}
	}
	g->level_hash = twz_level_hash(buf, len);
	return 0;

fail:
	twz_grid_free(g);
	if (letters) {
		free(*letters);
		*letters = NULL;
	}
	return -1;
}

int twz_grid_load(const char *path, struct twz_grid *g, struct twz_error *err)
{
	return twz_grid_load_letters(path, g, NULL, err);
}

int twz_grid_load_letters(const char *path, struct twz_grid *g,
			  uint8_t **letters, struct twz_error *err)
{
	size_t len;
	uint8_t *buf = twz_read_file(path, TWZ_MAX_LEVEL_BYTES, &len, err);

	memset(g, 0, sizeof *g);
	if (letters)
		*letters = NULL;
	if (!buf)
		return -1;
	int rc = twz_grid_parse_letters(buf, len, path, g, letters, err);
	free(buf);
	return rc;
}

void twz_grid_free(struct twz_grid *g)
{
	free(g->walkable);
	g->walkable = NULL;
	g->width = g->height = 0;
}
