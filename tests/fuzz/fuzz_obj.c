/*
 * fuzz_obj.c - libFuzzer target: the Wavefront OBJ navmesh reader, and
 * the bake of what it accepts.
 *
 * A mesh is either refused with one printable line that names the file,
 * or accepted with a consistent graph: every arc has its way back at the
 * same cost and key, keys within the budget; a small accepted mesh bakes
 * into a database that opens and answers queries between its centroids.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake_navmesh.h"
#include "fuzz_check.h"
#include "level_navmesh.h"
#include "twigz.h"

#define NAME "fuzz.obj"

static void check_graph(const struct twz_navmesh *m)
{
	uint64_t keys = 0;

	require(m->poly_count >= 1);
	for (uint32_t p = 0; p < m->poly_count; p++) {
		require(m->poly_first[p + 1] - m->poly_first[p] >= 3);
		require(isfinite(m->centroid[2 * p]) && isfinite(m->centroid[2 * p + 1]));
		for (uint32_t a = m->arc_first[p]; a < m->arc_first[p + 1]; a++) {
			uint32_t h = m->arc_head[a], back = UINT32_MAX;
			require(h < m->poly_count && h != p);
			for (uint32_t b = m->arc_first[h]; b < m->arc_first[h + 1]; b++)
				if (m->arc_head[b] == p)
					back = b;
			require(back != UINT32_MAX);
			require(m->arc_key[a] == m->arc_key[back] && m->arc_key[a] >= 1);
			keys += m->arc_key[a];
		}
	}
	require(keys <= (uint64_t)TWZ_NAVMESH_KEY_BUDGET);
}

static void check_bake(const struct twz_navmesh *m)
{
	struct twz_bake_options opt;
	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf = NULL;
	size_t len;
	twz_db *db;

	twz_bake_options_default(&opt);
	opt.threads = 1;
	opt.codec = 0;
	opt.name = NAME;
	require(twz_bake_navmesh(m, &opt, NULL, &buf, &len, &err) == 0);
	require(twz_open_memory(buf, len, 0, &db) == TWZ_OK);
	twz_node cor[64];
	float pts[65][3];
	size_t cl, pl;
	for (uint32_t a = 0; a < m->poly_count; a++) {
		uint32_t b = (a * 7 + 3) % m->poly_count;
		float s[3] = { (float)m->centroid[2 * a], 0, (float)m->centroid[2 * a + 1] };
		float g[3] = { (float)m->centroid[2 * b], 0, (float)m->centroid[2 * b + 1] };
		twz_status st = twz_navmesh_path(db, s, g, a & 1, cor, 64, &cl, pts, 65, &pl);
		require(st != TWZ_E_DAMAGED);
		if (st == TWZ_OK)
			require(pl >= 2 && pl <= cl + 1);
	}
	twz_close(db);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct twz_navmesh m;
	struct twz_error err = { { 0 }, 0 };

	/* The reader takes a NUL-terminated buffer, as twz_read_file makes. */
	uint8_t *text = malloc(size + 1);
	require(text != NULL);
	memcpy(text, data, size);
	text[size] = 0;
	if (twz_navmesh_parse(text, size, NAME, &m, &err) != 0) {
		require(m.vert == NULL && m.poly_first == NULL);
		check_message(err.msg, NAME);
		free(text);
		return 0;
	}
	check_graph(&m);
	if (m.poly_count <= 64)
		check_bake(&m);
	twz_navmesh_free(&m);
	free(text);
	return 0;
}
