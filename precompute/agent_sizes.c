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

#include "bake_method.h"
#include "clearance.h"
#include "twz_chunk_writer.h"
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

/* Sections a layer of this method and layout takes. */
static unsigned layer_sections(const struct twz_bake_options *opt)
{
	if (opt->method == TWZ_BAKE_TRANSIT)
		return 3 + (TWZ_SECTION_TRANSIT_MAX - TWZ_SECTION_TRANSIT_FIRST + 1);
	return opt->layout == TWZ_LAYOUT_PLAIN ? 5 : 4;
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

/* The options of every layer: opt's, under each one's name. With areas,
 * each layer's moves cost by its agents' squares, and the file's areas
 * are the handle's, layer 0's. 0, or -1 out of memory. */
static int layer_options(const struct twz_grid *g, struct twz_layers *ly,
			 const struct twz_bake_options *opt)
{
	for (unsigned l = 0; l < ly->count; l++) {
		struct twz_bake_options *lopt = &ly->opt[l];
		*lopt = *opt;
		if (!ly->layered)
			continue;
		snprintf(ly->name[l], sizeof ly->name[l], "%s (agent size %u)",
			 opt->name, ly->res.layer[l].first_size);
		lopt->name = ly->name[l];
		lopt->layout = twz_layer_layout(lopt->layout);
		if (!opt->cell_milli)
			continue;
		ly->milli[l] = layer_milli(opt->cell_milli, g,
					   ly->res.layer[l].first_size);
		if (!ly->milli[l])
			return -1;
		lopt->cell_milli = ly->milli[l];
		lopt->costs = l == 0 ? opt->costs : NULL;
	}
	return 0;
}

int twz_layers_make(const struct twz_grid *g, const struct twz_bake_options *opt,
		    const struct twz_bake_method *m, struct twz_layers *ly,
		    struct twz_error *err)
{
	size_t cells = (size_t)g->width * g->height;
	struct twz_agent_result *res = &ly->res;

	memset(ly, 0, sizeof *ly);
	ly->m = m;
	for (unsigned k = 1; k <= TWZ_MAX_AGENT_SIZE; k++)
		if (opt->agent_sizes & (1u << k))
			ly->req.sizes[ly->req.count++] = k;
	/* Size 1 alone is the plain file, byte for byte. */
	if (!(opt->agent_sizes & ~(uint32_t)2)) {
		ly->count = res->layer_count = 1;
		ly->grid[0] = *g;
		res->layer[0].first_size = res->layer[0].last_size = 1;
		return layer_options(g, ly, opt);
	}
	ly->layered = 1;
	uint8_t *clr = twz_clearance_map(g);
	if (!clr) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		return -1;
	}
	/* Open sets shrink as sizes grow, so equal ones are neighbours. */
	for (unsigned i = 0; i < ly->req.count; i++) {
		unsigned l = ly->count;
		if (twz_grid_for_agent(g, clr, ly->req.sizes[i], &ly->grid[l], opt->name,
				       err) != 0) {
			free(clr);
			return -1;
		}
		if (l && !memcmp(ly->grid[l].walkable, ly->grid[l - 1].walkable, cells)) {
			twz_grid_free(&ly->grid[l]);
			ly->layer_of[i] = (uint8_t)(l - 1);
			res->layer[l - 1].last_size = ly->req.sizes[i];
			continue;
		}
		ly->owned[l] = 1;
		ly->layer_of[i] = (uint8_t)l;
		res->layer[l].first_size = res->layer[l].last_size = ly->req.sizes[i];
		ly->count++;
	}
	free(clr);
	res->layer_count = ly->count;
	/* Refused before hours of baking, not after. */
	unsigned need = 1 + ly->count * layer_sections(opt);
	if (need > TWZ_MAX_SECTIONS) {
		twz_error_set(err, "%s: %u distinct agent layers need %u sections, more "
			      "than the %u a file holds; bake fewer agent sizes",
			      opt->name, ly->count, need, TWZ_MAX_SECTIONS);
		return -1;
	}
	if (layer_options(g, ly, opt) != 0) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		return -1;
	}
	return 0;
}

void twz_layers_free(struct twz_layers *ly)
{
	for (unsigned l = 0; l < ly->count; l++) {
		if (ly->db[l])
			ly->m->free(ly->db[l]);
		if (ly->owned[l])
			twz_grid_free(&ly->grid[l]);
		free(ly->milli[l]);
	}
	memset(ly, 0, sizeof *ly);
}

int twz_layer_prepare(struct twz_layers *ly, unsigned l,
		      struct twz_spool *spool, struct twz_error *err)
{
	return ly->m->prepare(&ly->grid[l], &ly->opt[l], spool, &ly->db[l], err);
}

/* The AGENT_SIZES table (malloc'd; NULL out of memory); chunked (0 or
 * TWZ_FEATURE_CHUNKED_SECTIONS) is added to every layer's features, as
 * the header will have it (FORMAT.md 5c, A4). */
static uint8_t *agent_table(const struct twz_layers *ly,
			    const struct twz_out_file *f, uint64_t chunked,
			    size_t *size)
{
	const struct twz_agent_request *req = &ly->req;

	*size = TWZ_AS_HEAD_SIZE + (size_t)ly->count * TWZ_AL_SIZE +
		(size_t)req->count * TWZ_AZ_RECORD;
	uint8_t *t = calloc(1, *size);
	if (!t)
		return NULL;
	twz_put32(t + TWZ_AS_SIZE_COUNT, req->count);
	twz_put32(t + TWZ_AS_LAYER_COUNT, ly->count);
	uint8_t *r = t + TWZ_AS_HEAD_SIZE;
	for (unsigned l = 0; l < ly->count; l++, r += TWZ_AL_SIZE) {
		twz_put32(r + TWZ_AL_NODE_COUNT, f[l].h.node_count);
		twz_put32(r + TWZ_AL_COMPONENT_COUNT, f[l].h.component_count);
		twz_put64(r + TWZ_AL_REQUIRED, f[l].h.required_features | chunked);
	}
	for (unsigned i = 0; i < req->count; i++, r += TWZ_AZ_RECORD) {
		twz_put32(r + TWZ_AZ_SIZE, req->sizes[i]);
		twz_put32(r + TWZ_AZ_LAYER, ly->layer_of[i]);
	}
	return t;
}

/* Move section j of layer file f into out, its kind moved up for layer
 * l; out owns it when f did. */
static void move_section(struct twz_out_file *out, struct twz_out_file *f,
			 unsigned l, unsigned j)
{
	const struct twz_out_section *s = &f->sec[j];
	uint32_t kind = twz_layer_kind(l, s->kind);

	if (f->owned[j])
		twz_out_add_owned(out, kind, f->owned[j], s->raw_size);
	else
		twz_out_add(out, kind, s->raw, s->raw_size);
	f->owned[j] = NULL;
}

/* Lay the layers' files into one: layer 0's kinds below AGENT_SIZES,
 * the table, layer 0's other kinds, then each further layer's; so kinds
 * ascend through the file. */
static int lay_out(struct twz_out_file *out, struct twz_out_file *f,
		   const struct twz_layers *ly, const struct twz_bake_options *opt,
		   struct twz_error *err)
{
	uint64_t chunked = 0;
	unsigned total = 1;

	for (unsigned l = 0; l < ly->count; l++) {
		total += f[l].count;
		for (unsigned j = 0; j < f[l].count; j++)
			if (opt->codec == TWZ_CODEC_ZSTD &&
			    twz_chunk_wanted(f[l].sec, f[l].count, j, opt->chunk))
				chunked = TWZ_FEATURE_CHUNKED_SECTIONS;
	}
	if (total > TWZ_MAX_SECTIONS) {
		twz_error_set(err, "%s: %u layers need %u sections, more than the %u "
			      "a file holds; bake fewer agent sizes", opt->name,
			      ly->count, total, TWZ_MAX_SECTIONS);
		return -1;
	}
	out->h = f[0].h;
	out->name = opt->name;
	out->h.minor = TWZ_LAYER_FORMAT_MINOR;
	for (unsigned l = 0; l < ly->count; l++)  /* 1.4 when a layer is */
		if (f[l].h.minor > out->h.minor)
			out->h.minor = f[l].h.minor;
	size_t tsize;
	uint8_t *table = agent_table(ly, f, chunked, &tsize);
	unsigned j = 0;
	for (; j < f[0].count && f[0].sec[j].kind < TWZ_SECTION_AGENT_SIZES; j++)
		move_section(out, &f[0], 0, j);
	twz_out_add_owned(out, TWZ_SECTION_AGENT_SIZES, table, tsize);
	for (; j < f[0].count; j++)
		move_section(out, &f[0], 0, j);
	for (unsigned l = 1; l < ly->count; l++)
		for (j = 0; j < f[l].count; j++)
			move_section(out, &f[l], l, j);
	return 0;
}

int twz_layers_write(struct twz_layers *ly, const struct twz_bake_options *opt,
		     struct twz_spool *spool, const struct twz_sink *sink,
		     struct twz_error *err)
{
	struct twz_out_file *f = calloc((size_t)ly->count + 1, sizeof *f);
	struct twz_out_file *out = f ? &f[ly->count] : NULL;
	int rc = -1;

	if (!f) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", opt->name);
		return -1;
	}
	for (unsigned l = 0; l < ly->count; l++) {
		ly->m->emit(ly->db[l], &ly->grid[l], &ly->opt[l], &f[l]);
		ly->res.layer[l].node_count = f[l].h.node_count;
		ly->res.layer[l].component_count = f[l].h.component_count;
	}
	/* The file's header is layer 0's: the level is the same. */
	if (!ly->layered) {
		rc = twz_out_finish(&f[0], sink, err);
	} else if (lay_out(out, f, ly, opt, err) == 0) {
		out->spool = spool;
		ly->res.sections = out->count;
		rc = twz_out_finish(out, sink, err);
	}
	for (unsigned l = 0; l <= ly->count; l++)
		twz_out_drop(&f[l]);
	free(f);
	return rc;
}
