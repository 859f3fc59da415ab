/*
 * level_scen.c - the Moving AI scenario reader.
 */
#include "level_scen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_read.h"

#define SCEN_FIELDS 9

/* The versions of the Moving AI scenario format read here: 0 and 1, as
 * "1", "1.0" or "1.00" (the fields and their meaning are the same). */
static int known_version(const char *v, size_t len)
{
	size_t i = 1;

	if (len == 0 || (v[0] != '0' && v[0] != '1'))
		return 0;
	if (len == 1)
		return 1;
	if (v[1] != '.' || len == 2)
		return 0;
	for (i = 2; i < len; i++)
		if (v[i] != '0')
			return 0;
	return 1;
}

/* Split on tabs when the line has any (version 1 files, where the map
 * name may hold spaces), otherwise on runs of spaces. */
static int split_fields(const char *line, size_t len, const char *f[],
			size_t flen[], int max)
{
	int tabs = memchr(line, '\t', len) != NULL;
	int n = 0;
	size_t i = 0;

	while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	while (i < len) {
		if (!tabs)
			while (i < len && line[i] == ' ')
				i++;
		size_t start = i;
		while (i < len && line[i] != (tabs ? '\t' : ' '))
			i++;
		if (n == max)
			return max + 1;
		f[n] = line + start;
		flen[n] = i - start;
		n++;
		if (i < len)
			i++;  /* the separator */
	}
	return n;
}

/* A non-negative decimal like 12, 3.41421 or 446.00; returns the number
 * of digits after the point in *decimals. */
static int parse_length(const char *s, size_t len, double *out, int *decimals)
{
	char tmp[64];
	size_t i = 0;
	int digits = 0, dec = -1;

	if (len == 0 || len >= sizeof tmp)
		return -1;
	for (; i < len; i++) {
		if (s[i] >= '0' && s[i] <= '9') {
			digits++;
			if (dec >= 0)
				dec++;
		} else if (s[i] == '.' && dec < 0) {
			dec = 0;
		} else {
			return -1;
		}
	}
	if (!digits)
		return -1;
	memcpy(tmp, s, len);
	tmp[len] = 0;
	*out = strtod(tmp, NULL);
	*decimals = dec < 0 ? 0 : dec;
	return isfinite(*out) ? 0 : -1;
}

static const char *field_names[SCEN_FIELDS] = {
	"bucket", "map", "width", "height", "start x", "start y", "goal x",
	"goal y", "optimal length"
};

/* "-1", "-1.0", "-1.00"...: how generated files say there is no path. */
static int is_no_path(const char *s, size_t len)
{
	if (len < 2 || s[0] != '-' || s[1] != '1')
		return 0;
	if (len == 2)
		return 1;
	if (s[2] != '.' || len == 3)
		return 0;
	for (size_t i = 3; i < len; i++)
		if (s[i] != '0')
			return 0;
	return 1;
}

/* The ninth field of e: its optimum and tolerance. 0 or -1. */
static int parse_optimum(const char *f, size_t fl, const char *name,
			 struct twz_scen_entry *e, struct twz_error *err)
{
	int decimals;

	if (is_no_path(f, fl)) {
		e->optimal = -1;
		e->tolerance = 0;
		e->unreachable = 1;
		return 0;
	}
	if (parse_length(f, fl, &e->optimal, &decimals) != 0) {
		twz_error_set(err, "%s:%lu: optimal length is not a number (or -1, no path): '%.*s'",
			      name, e->line, (int)(fl > 40 ? 40 : fl), f);
		return -1;
	}
	/* Within 1e-4 relative or half a unit of the last printed digit,
	 * whichever is larger. */
	double half_digit = 0.5 * pow(10.0, -decimals);
	double rel = 1e-4 * e->optimal;
	e->tolerance = rel > half_digit ? rel : half_digit;
	return 0;
}

int twz_scen_parse(const uint8_t *buf, size_t len, const char *name,
		   struct twz_scen *sc, struct twz_error *err)
{
	return twz_scen_parse_flags(buf, len, name, 0, sc, err);
}

int twz_scen_parse_flags(const uint8_t *buf, size_t len, const char *name,
			 unsigned flags, struct twz_scen *sc,
			 struct twz_error *err)
{
	int want_optimum = !(flags & TWZ_SCEN_NO_OPTIMUM);
	struct twz_lines it;
	const char *line;
	size_t line_len, cap = 0;

	memset(sc, 0, sizeof *sc);
	if (memchr(buf, 0, len)) {
		twz_error_set(err, "%s: binary data (a NUL byte) in a scenario file", name);
		return -1;
	}
	/* A UTF-8 byte-order mark, as editors on Windows write it. */
	if (len >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF) {
		buf += 3;
		len -= 3;
	}
	twz_lines_init(&it, buf, len);
	while (twz_lines_next(&it, &line, &line_len)) {
		const char *f[SCEN_FIELDS];
		size_t fl[SCEN_FIELDS];
		int n = split_fields(line, line_len, f, fl, SCEN_FIELDS);

		if (n == 0)
			continue;
		if (it.number == 1 && fl[0] == 7 && !memcmp(f[0], "version", 7)) {
			if (n != 2 || !known_version(f[1], fl[1])) {
				twz_error_set(err, "%s:1: unsupported scenario version line '%.*s'",
					      name, (int)(line_len > 40 ? 40 : line_len), line);
				goto fail;
			}
			continue;
		}
		if (n != SCEN_FIELDS && (want_optimum || n != SCEN_FIELDS - 1)) {
			twz_error_set(err, "%s:%lu: %s fields, expected %d",
				      name, it.number, n > SCEN_FIELDS ? "too many" : "too few",
				      SCEN_FIELDS);
			goto fail;
		}
		struct twz_scen_entry e = { .line = it.number };
		uint32_t *ints[SCEN_FIELDS] = { &e.bucket, NULL, &e.map_width,
						&e.map_height, &e.sx, &e.sy, &e.gx,
						&e.gy, NULL };
		for (int k = 0; k < SCEN_FIELDS - 1; k++) {
			if (!ints[k])
				continue;
			if (twz_parse_u32(f[k], fl[k], UINT32_MAX, ints[k]) != 0) {
				twz_error_set(err, "%s:%lu: %s is not a non-negative integer: '%.*s'",
					      name, it.number, field_names[k],
					      (int)(fl[k] > 40 ? 40 : fl[k]), f[k]);
				goto fail;
			}
		}
		if (want_optimum && parse_optimum(f[8], fl[8], name, &e, err) != 0)
			goto fail;

		if (sc->count == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			struct twz_scen_entry *ne = realloc(sc->entries, ncap * sizeof *ne);
			if (!ne) {
				twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", name);
				goto fail;
			}
			sc->entries = ne;
			cap = ncap;
		}
		sc->entries[sc->count++] = e;
	}
	return 0;

fail:
	twz_scen_free(sc);
	return -1;
}

int twz_scen_load(const char *path, struct twz_scen *sc, struct twz_error *err)
{
	return twz_scen_load_flags(path, 0, sc, err);
}

int twz_scen_load_flags(const char *path, unsigned flags,
			struct twz_scen *sc, struct twz_error *err)
{
	size_t len;
	uint8_t *buf = twz_read_file(path, TWZ_MAX_SCEN_BYTES, &len, err);

	memset(sc, 0, sizeof *sc);
	if (!buf)
		return -1;
	int rc = twz_scen_parse_flags(buf, len, path, flags, sc, err);
	free(buf);
	return rc;
}

void twz_scen_free(struct twz_scen *sc)
{
	free(sc->entries);
	sc->entries = NULL;
	sc->count = 0;
}

int twz_scen_check_grid(const struct twz_scen *sc, const char *name,
			uint32_t width, uint32_t height,
			int (*walkable)(const void *ctx, uint32_t x, uint32_t y),
			const void *ctx, struct twz_error *err)
{
	for (size_t i = 0; i < sc->count; i++) {
		const struct twz_scen_entry *e = &sc->entries[i];
		if (e->map_width != width || e->map_height != height) {
			twz_error_set(err, "%s:%lu: scenario is for a %ux%u map, the level is %ux%u",
				      name, e->line, e->map_width, e->map_height, width, height);
			return -1;
		}
		if (e->sx >= width || e->sy >= height || e->gx >= width || e->gy >= height) {
			twz_error_set(err, "%s:%lu: %s (%u,%u) is off the %ux%u map", name, e->line,
				      e->sx >= width || e->sy >= height ? "start" : "goal",
				      e->sx >= width || e->sy >= height ? e->sx : e->gx,
				      e->sx >= width || e->sy >= height ? e->sy : e->gy,
				      width, height);
			return -1;
		}
		if (!walkable(ctx, e->sx, e->sy) || !walkable(ctx, e->gx, e->gy)) {
			int bad_start = !walkable(ctx, e->sx, e->sy);
			twz_error_set(err, "%s:%lu: %s (%u,%u) is a blocked cell", name, e->line,
				      bad_start ? "start" : "goal", bad_start ? e->sx : e->gx,
				      bad_start ? e->sy : e->gy);
			return -1;
		}
	}
	return 0;
}
