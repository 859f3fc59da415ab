/*
 * agent_sizes.c - a file for agents of several sizes (format section
 * 5c). Each size k sees the level as the cells of clearance k or more;
 * consecutive sizes that see the same cells share one layer. Every layer
 * is baked by the chosen method as a level of its own, one after another
 * on the bake's threads, and the layers' sections are laid into one
 * file: layer 0 (the smallest size) as a plain file's sections, the
 * AGENT_SIZES table, then layer l's sections with their kinds moved up
 * by 256 l.
 */
#include "agent_sizes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clearance.h"
#include "twz_writer.h"

int twz_agent_sizes_parse(const char *text, struct twz_agent_request *req,
			  struct twz_error *err)
{
	const char *p = text;
	unsigned seen = 0;

	memset(req, 0, sizeof *req);
	for (;;) {
		unsigned v = 0, digits = 0;
		while (*p >= '0' && *p <= '9' && digits < 3) {
			v = v * 10 + (unsigned)(*p++ - '0');
			digits++;
		}
		if (!digits || (*p && *p != ',') || v < 1 ||
		    v > TWZ_MAX_AGENT_SIZE) {
			twz_error_set(err, "--agent-sizes: '%.64s' is not a list of sizes "
				      "from 1 to %u, such as 1,2,3", text,
				      TWZ_MAX_AGENT_SIZE);
			return -1;
		}
		if (seen & (1u << v)) {
			twz_error_set(err, "--agent-sizes: size %u is listed twice", v);
			return -1;
		}
		seen |= 1u << v;
		if (!*p++)
			break;
	}
	for (unsigned k = 1; k <= TWZ_MAX_AGENT_SIZE; k++)
		if (seen & (1u << k))
			req->sizes[req->count++] = k;
	return 0;
}

/* One layer being baked: its level and, once baked, its sections. */
struct layer {
	struct twz_grid grid;
	struct twz_out_file f;
	uint8_t params[TWZ_TP_SIZE];     /* TRANSIT_PARAMS lives here */
};

/* Sections a layer of this method and layout takes. */
static unsigned layer_sections(const struct twz_bake_options *opt,
			       const struct twz_agent_request *req)
{
	if (req->topt)
		return 3 + (TWZ_SECTION_TRANSIT_MAX - TWZ_SECTION_TRANSIT_FIRST + 1);
	return opt->layout == TWZ_LAYOUT_PLAIN ? 5 : 4;
}

/* Bake one layer's level into its sections. */
static int bake_layer(struct layer *ly, const struct twz_bake_options *opt,
		      const struct twz_agent_request *req,
		      struct twz_agent_layer *info, struct twz_error *err)
{
	if (req->topt) {
		struct twz_transit_db db;
		if (twz_bake_transit(&ly->grid, opt, req->topt, &db, err) != 0)
			return -1;
		twz_transit_out_file(&db, &ly->grid, opt, ly->params, &ly->f);
		info->run_count = db.run_count;
		info->seconds = db.select_seconds + db.local_seconds +
				db.table_seconds;
		twz_transit_db_free(&db);
	} else {
		struct twz_cpd cpd;
		if (twz_bake_cpd(&ly->grid, opt, &cpd, err) != 0)
			return -1;
		twz_cpd_out_file(&cpd, &ly->grid, opt, &ly->f);
		info->run_count = cpd.run_count;
		info->seconds = cpd.seconds;
		twz_cpd_free(&cpd);
	}
	if (ly->f.failed) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		return -1;
	}
	info->node_count = ly->f.h.node_count;
	info->component_count = ly->f.h.component_count;
	return 0;
}

/* The AGENT_SIZES table (malloc'd; NULL out of memory). */
static uint8_t *agent_table(const struct twz_agent_request *req,
			    const uint8_t *layer_of, const struct layer *ly,
			    unsigned layers, size_t *size)
{
	*size = TWZ_AS_HEAD_SIZE + (size_t)layers * TWZ_AL_SIZE +
		(size_t)req->count * TWZ_AZ_RECORD;
	uint8_t *t = calloc(1, *size);
	if (!t)
		return NULL;
	twz_put32(t + TWZ_AS_SIZE_COUNT, req->count);
	twz_put32(t + TWZ_AS_LAYER_COUNT, layers);
	uint8_t *r = t + TWZ_AS_HEAD_SIZE;
	for (unsigned l = 0; l < layers; l++, r += TWZ_AL_SIZE) {
		twz_put32(r + TWZ_AL_NODE_COUNT, ly[l].f.h.node_count);
		twz_put32(r + TWZ_AL_COMPONENT_COUNT, ly[l].f.h.component_count);
		twz_put64(r + TWZ_AL_REQUIRED, ly[l].f.h.required_features);
	}
	for (unsigned i = 0; i < req->count; i++, r += TWZ_AZ_RECORD) {
		twz_put32(r + TWZ_AZ_SIZE, req->sizes[i]);
		twz_put32(r + TWZ_AZ_LAYER, layer_of[i]);
	}
	return t;
}

/* Move section j of layer l into out, its kind moved up for the layer;
 * out owns its bytes from now on (a copy of those the layer did not own,
 * which live in the layer, freed before out is encoded). */
static void move_section(struct twz_out_file *out, struct layer *ly,
			 unsigned l, unsigned j)
{
	const struct twz_out_section *s = &ly->f.sec[j];
	uint32_t kind = twz_layer_kind(l, s->kind);
	void *own = ly->f.owned[j];

	if (!own) {
		own = malloc(s->raw_size ? s->raw_size : 1);
		if (own && s->raw_size)
			memcpy(own, s->raw, s->raw_size);
	}
	ly->f.owned[j] = NULL;
	twz_out_add_owned(out, kind, own, s->raw_size);
}

/* Lay the layers into one file: layer 0's kinds below AGENT_SIZES, the
 * table, layer 0's other kinds, then each further layer's; so kinds
 * ascend through the file. */
static int lay_out(struct twz_out_file *out, struct layer *ly,
		   unsigned layers, const struct twz_agent_request *req,
		   const uint8_t *layer_of, const char *name,
		   struct twz_error *err)
{
	unsigned total = 1;

	for (unsigned l = 0; l < layers; l++)
		total += ly[l].f.count;
	if (total > TWZ_MAX_SECTIONS) {
		twz_error_set(err, "%s: %u layers need %u sections, more than the %u "
			      "a file holds; bake fewer agent sizes", name,
			      layers, total, TWZ_MAX_SECTIONS);
		return -1;
	}
	out->h = ly[0].f.h;
	out->h.minor = TWZ_LAYER_FORMAT_MINOR;
	for (unsigned l = 0; l < layers; l++)  /* 1.4 when a layer is */
		if (ly[l].f.h.minor > out->h.minor)
			out->h.minor = ly[l].f.h.minor;
	size_t tsize;
	uint8_t *table = agent_table(req, layer_of, ly, layers, &tsize);
	unsigned j = 0;
	for (; j < ly[0].f.count && ly[0].f.sec[j].kind < TWZ_SECTION_AGENT_SIZES; j++)
		move_section(out, &ly[0], 0, j);
	twz_out_add_owned(out, TWZ_SECTION_AGENT_SIZES, table, tsize);
	for (; j < ly[0].f.count; j++)
		move_section(out, &ly[0], 0, j);
	for (unsigned l = 1; l < layers; l++)
		for (j = 0; j < ly[l].f.count; j++)
			move_section(out, &ly[l], l, j);
	return 0;
}

/* A size-k agent's cost multipliers: on each cell, the dearest of the
 * k x k square it stands on (0 where the square leaves the grid). */
static uint32_t *layer_milli(const uint32_t *base, const struct twz_grid *g,
			     unsigned k)
{
	uint32_t *m = calloc((size_t)g->width * g->height + 1, sizeof *m);

	for (uint32_t y = 0; m && y + k <= g->height; y++)
		for (uint32_t x = 0; x + k <= g->width; x++) {
			uint32_t most = 0;
			for (uint32_t dy = 0; dy < k; dy++)
				for (uint32_t dx = 0; dx < k; dx++) {
					uint32_t v = base[(size_t)(y + dy) * g->width + x + dx];
					most = v > most ? v : most;
				}
			m[(size_t)y * g->width + x] = most;
		}
	return m;
}

static void layer_free(struct layer *ly)
{
	for (unsigned j = 0; j < ly->f.count; j++)
		free(ly->f.owned[j]);
	free(ly->grid.walkable);
}

/* Bake every layer and lay them into out. */
static int build(const struct twz_grid *g, const struct twz_bake_options *opt,
		 const struct twz_agent_request *req, struct twz_out_file *out,
		 struct twz_agent_result *res, struct twz_error *err)
{
	size_t cells = (size_t)g->width * g->height;
	uint8_t layer_of[TWZ_MAX_AGENT_SIZE];
	unsigned layers = 0;
	int rc = -1;

	memset(res, 0, sizeof *res);
	if (!req->count || req->count > TWZ_MAX_AGENT_SIZE) {
		twz_error_set(err, "%s: no agent sizes to bake", opt->name);
		return -1;
	}
	uint8_t *clr = twz_clearance_map(g);
	struct layer *ly = calloc(req->count, sizeof *ly);
	if (!clr || !ly) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		goto out;
	}
	/* Open sets shrink as sizes grow, so equal ones are neighbours. */
	for (unsigned i = 0; i < req->count; i++) {
		struct layer *cur = &ly[layers];
		if (twz_grid_for_agent(g, clr, req->sizes[i], &cur->grid, opt->name,
				       err) != 0)
			goto out;
		if (layers && !memcmp(cur->grid.walkable, ly[layers - 1].grid.walkable,
				      cells)) {
			free(cur->grid.walkable);
			cur->grid.walkable = NULL;
			layer_of[i] = (uint8_t)(layers - 1);
			res->layer[layers - 1].last_size = req->sizes[i];
			continue;
		}
		layer_of[i] = (uint8_t)layers;
		res->layer[layers].first_size = res->layer[layers].last_size =
			req->sizes[i];
		layers++;
	}
	res->layer_count = layers;
	/* Refused before hours of baking, not after. */
	unsigned need = 1 + layers * layer_sections(opt, req);
	if (need > TWZ_MAX_SECTIONS) {
		twz_error_set(err, "%s: %u distinct agent layers need %u sections, more "
			      "than the %u a file holds; bake fewer agent sizes",
			      opt->name, layers, need, TWZ_MAX_SECTIONS);
		goto out;
	}
	for (unsigned l = 0; l < layers; l++) {
		char name[600];
		struct twz_bake_options lopt = *opt;
		snprintf(name, sizeof name, "%s (agent size %u)", opt->name,
			 res->layer[l].first_size);
		lopt.name = name;
		/* Layer kinds stop at 47 (FORMAT.md 5c): a layer keeps
		 * 1.2's rows where the file asks 1.4's. */
		if (lopt.layout == TWZ_LAYOUT_INLINE)
			lopt.layout = TWZ_LAYOUT_NARROW;
		/* Areas: each layer's moves cost by its agents' squares;
		 * the file's areas are the handle's, layer 0's. */
		uint32_t *milli = NULL;
		if (opt->cell_milli) {
			milli = layer_milli(opt->cell_milli, g, res->layer[l].first_size);
			if (!milli) {
				twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory",
						   opt->name);
				goto out;
			}
			lopt.cell_milli = milli;
			lopt.costs = l == 0 ? opt->costs : NULL;
		}
		int failed = bake_layer(&ly[l], &lopt, req, &res->layer[l], err);
		free(milli);
		if (failed)
			goto out;
	}
	if (lay_out(out, ly, layers, req, layer_of, opt->name, err) != 0)
		goto out;
	res->sections = out->count;
	rc = 0;
out:
	if (ly)
		for (unsigned l = 0; l < req->count; l++)
			layer_free(&ly[l]);
	free(ly);
	free(clr);
	return rc;
}

int twz_agent_encode(const struct twz_grid *g,
		     const struct twz_bake_options *opt,
		     const struct twz_agent_request *req, uint8_t **buf,
		     size_t *len, struct twz_agent_result *res,
		     struct twz_error *err)
{
	struct twz_out_file *f = calloc(1, sizeof *f);
	int rc = -1;

	if (!f) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		return -1;
	}
	if (build(g, opt, req, f, res, err) == 0)
		rc = twz_out_encode(f, opt->name, buf, len, err);
	else
		for (unsigned j = 0; j < f->count; j++)
			free(f->owned[j]);
	free(f);
	return rc;
}

int twz_agent_write(const struct twz_grid *g,
		    const struct twz_bake_options *opt,
		    const struct twz_agent_request *req, const char *path,
		    struct twz_agent_result *res, struct twz_error *err)
{
	uint8_t *buf;
	size_t len;

	if (twz_agent_encode(g, opt, req, &buf, &len, res, err) != 0)
		return -1;
	int rc = twz_write_atomic(path, buf, len, err);
	free(buf);
	return rc;
}
