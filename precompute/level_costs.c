/*
 * level_costs.c - see level_costs.h.
 */
#include "level_costs.h"

#include <stdlib.h>
#include <string.h>

#include "file_read.h"

/* A costs file holds at most one line an area. */
#define COSTS_FILE_MAX ((size_t)1 << 20)

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static const char *word_end(const char *p, const char *end)
{
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	return p;
}

/* A multiplier of at most three decimals from 0.001 to 1000 in
 * thousandths, or 0 for "blocked"; -1 when the word is neither. */
static int64_t parse_milli(const char *p, size_t len)
{
	int64_t whole = 0, frac = 0;
	size_t i = 0, decimals = 0;

	if (len == 7 && !memcmp(p, "blocked", 7))
		return 0;
	while (i < len && p[i] >= '0' && p[i] <= '9' && whole <= 1000)
		whole = whole * 10 + (p[i++] - '0');
	if (i == 0 && !(i < len && p[i] == '.'))
		return -1;
	if (i < len && p[i] == '.') {
		i++;
		while (i < len && p[i] >= '0' && p[i] <= '9' && decimals < 3) {
			frac = frac * 10 + (p[i++] - '0');
			decimals++;
		}
		while (decimals < 3)
			frac *= 10, decimals++;
	}
	if (i != len)
		return -1;
	int64_t milli = whole * 1000 + frac;
	return milli >= 1 && milli <= TWZ_AREA_MILLI_MAX ? milli : -1;
}

int twz_cost_table_load(const char *path, struct twz_cost_table *t,
			struct twz_error *err)
{
	struct twz_lines it;
	const char *line;
	size_t len, file_len;
	uint8_t *buf = twz_read_file(path, COSTS_FILE_MAX, &file_len, err);

	memset(t, 0, sizeof *t);
	if (!buf)
		return -1;
	twz_lines_init(&it, buf, file_len);
	while (twz_lines_next(&it, &line, &len)) {
		const char *end = line + len, *p = skip_blanks(line, end);
		if (p == end || *p == '#')
			continue;
		const char *n_end = word_end(p, end);
		const char *c = skip_blanks(n_end, end);
		const char *c_end = word_end(c, end);
		int64_t milli = c < end ? parse_milli(c, (size_t)(c_end - c)) : -1;
		if (c == end || skip_blanks(c_end, end) != end || milli < 0) {
			twz_error_set(err, "%s:%lu: expected 'NAME COST' (a multiplier "
				      "from 0.001 to 1000, at most three decimals, or "
				      "'blocked'), not '%.*s'", path, it.number,
				      (int)(end - p > 40 ? 40 : end - p), p);
			goto fail;
		}
		size_t nl = (size_t)(n_end - p);
		if (nl >= TWZ_AREA_NAME_BYTES) {
			twz_error_set(err, "%s:%lu: an area name has at most %u bytes",
				      path, it.number, TWZ_AREA_NAME_BYTES - 1);
			goto fail;
		}
		for (unsigned k = 0; k < t->count; k++)
			if (strlen(t->name[k]) == nl && !memcmp(t->name[k], p, nl)) {
				twz_error_set(err, "%s:%lu: area '%.*s' is given twice",
					      path, it.number, (int)nl, p);
				goto fail;
			}
		if (t->count == TWZ_AREA_LIMIT) {
			twz_error_set(err, "%s:%lu: more than %u areas", path, it.number,
				      TWZ_AREA_LIMIT);
			goto fail;
		}
		memcpy(t->name[t->count], p, nl);
		t->milli[t->count++] = (uint32_t)milli;
	}
	free(buf);
	return 0;
fail:
	free(buf);
	return -1;
}

/* The table's entry for name, or -1. */
static int table_find(const struct twz_cost_table *t, const char *name)
{
	for (unsigned k = 0; t && k < t->count; k++)
		if (!strcmp(t->name[k], name))
			return (int)k;
	return -1;
}

static int alloc_places(struct twz_level_costs *out, uint32_t places,
			const char *name, struct twz_error *err)
{
	memset(out, 0, sizeof *out);
	out->places = places;
	out->place_area = malloc(places ? places : 1);
	out->place_milli = malloc((places ? places : 1) * sizeof *out->place_milli);
	if (out->place_area && out->place_milli)
		return 0;
	twz_level_costs_free(out);
	twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", name);
	return -1;
}

int twz_grid_costs(struct twz_grid *g, const uint8_t *letters,
		   const struct twz_cost_table *t, const char *name,
		   struct twz_level_costs *out, struct twz_error *err)
{
	static const char order[] = ".GS@OTW";
	int area_of[256];
	uint32_t cells = g->width * g->height;

	for (unsigned k = 0; t && k < t->count; k++)
		if (strlen(t->name[k]) != 1 || !strchr(order, t->name[k][0])) {
			twz_error_set(err, "%s: area '%s' is no letter of a map "
				      "(one of . G S @ O T W)", name, t->name[k]);
			return -1;
		}
	if (alloc_places(out, cells, name, err) != 0)
		return -1;
	int seen[256] = { 0 };
	for (uint32_t c = 0; c < cells; c++)
		seen[letters[c]] = 1;
	for (const char *o = order; *o; o++) {
		char nm[2] = { *o, 0 };
		int k = table_find(t, nm);
		uint32_t milli = k >= 0 ? t->milli[k] : o - order < 3 ? 1000 : 0;
		area_of[(unsigned char)*o] = -1;
		if (!milli || !seen[(unsigned char)*o])
			continue;
		area_of[(unsigned char)*o] = (int)out->area_count;
		memcpy(out->area_name[out->area_count], nm, 2);
		out->area_milli[out->area_count++] = milli;
	}
	for (uint32_t c = 0; c < cells; c++) {
		int a = area_of[letters[c]];
		g->walkable[c] = a >= 0;
		out->place_area[c] = a >= 0 ? (uint8_t)a : TWZ_AREA_NONE;
		out->place_milli[c] = a >= 0 ? out->area_milli[a] : 0;
	}
	return 0;
}

int twz_navmesh_costs(uint32_t faces, const uint32_t *group,
		      char (*group_name)[TWZ_AREA_NAME_BYTES],
		      unsigned group_count, const struct twz_cost_table *t,
		      const char *name, struct twz_level_costs *out,
		      struct twz_error *err)
{
	int area_of[TWZ_AREA_LIMIT];
	static char def[1][TWZ_AREA_NAME_BYTES] = { "default" };

	if (!group) {
		group_name = def;
		group_count = 1;
	}
	for (unsigned k = 0; t && k < t->count; k++) {
		unsigned g = 0;
		while (g < group_count && strcmp(group_name[g], t->name[k]))
			g++;
		if (g == group_count) {
			twz_error_set(err, "%s: the mesh has no material or group '%s'",
				      name, t->name[k]);
			return -1;
		}
	}
	if (group_count > TWZ_AREA_LIMIT) {
		twz_error_set(err, "%s: more than %u materials and groups", name,
			      TWZ_AREA_LIMIT);
		return -1;
	}
	if (alloc_places(out, faces, name, err) != 0)
		return -1;
	for (unsigned g = 0; g < group_count; g++) {
		int k = table_find(t, group_name[g]);
		uint32_t milli = k >= 0 ? t->milli[k] : 1000;
		area_of[g] = -1;
		if (!milli)
			continue;
		area_of[g] = (int)out->area_count;
		memcpy(out->area_name[out->area_count], group_name[g], TWZ_AREA_NAME_BYTES);
		out->area_milli[out->area_count++] = milli;
	}
	for (uint32_t f = 0; f < faces; f++) {
		int a = area_of[group ? group[f] : 0];
		out->place_area[f] = a >= 0 ? (uint8_t)a : TWZ_AREA_NONE;
		out->place_milli[f] = a >= 0 ? out->area_milli[a] : 0;
	}
	return 0;
}

void twz_level_costs_free(struct twz_level_costs *lc)
{
	free(lc->place_area);
	free(lc->place_milli);
	memset(lc, 0, sizeof *lc);
}

uint8_t *twz_areas_section(const struct twz_level_costs *lc, size_t *size)
{
	uint8_t *b = calloc((size_t)lc->area_count * TWZ_AR_SIZE + 1, 1);

	*size = (size_t)lc->area_count * TWZ_AR_SIZE;
	for (unsigned a = 0; b && a < lc->area_count; a++) {
		memcpy(b + a * TWZ_AR_SIZE + TWZ_AR_NAME, lc->area_name[a],
		       strlen(lc->area_name[a]));
		twz_put32(b + a * TWZ_AR_SIZE + TWZ_AR_MILLI, lc->area_milli[a]);
	}
	return b;
}
