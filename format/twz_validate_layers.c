/*
 * twz_validate_layers.c - the AGENT_SIZES section (FORMAT.md section 5c,
 * checks A1 to A5) and the container of one layer, which the method
 * validators then check like a whole file's; see twz_validate_layers.h.
 */
#include "twz_validate_layers.h"

/* Check 12 and the feature rules of check 13 for one layer's counts:
 * what parse_header checks of the file's own. */
static twz_status check_layer(const struct twz_container *c, uint32_t nodes,
			      uint32_t comps, uint64_t req)
{
	if (req & ~(uint64_t)TWZ_FEATURES_KNOWN_REQUIRED)
		return TWZ_E_FEATURE;
	if (nodes > (uint64_t)c->width * c->height || comps > nodes ||
	    (nodes > 0 && comps == 0))
		return TWZ_E_DAMAGED;
	if ((req & TWZ_FEATURE_NARROW_CELL_NODE) &&
	    (!(req & TWZ_FEATURE_BUCKETED_ROWS) ||
	     c->method != TWZ_METHOD_CPD || nodes >= TWZ_NARROW_NONE))
		return TWZ_E_DAMAGED;
	return TWZ_OK;
}

twz_status twz_validate_agent_sizes(const struct twz_container *c,
				    const uint8_t *data, uint64_t size,
				    struct twz_layer_table *t)
{
	twz_status st;

	memset(t, 0, sizeof *t);
	/* A1: counts within bounds, and the size the counts give. */
	if (!data || size < TWZ_AS_HEAD_SIZE)
		return TWZ_E_DAMAGED;
	uint32_t sizes = twz_le32(data + TWZ_AS_SIZE_COUNT);
	uint32_t layers = twz_le32(data + TWZ_AS_LAYER_COUNT);
	if (sizes < 1 || sizes > TWZ_MAX_AGENT_SIZE || layers < 1 ||
	    layers > sizes || layers > TWZ_MAX_LAYERS)
		return TWZ_E_DAMAGED;
	if (size != TWZ_AS_HEAD_SIZE + (uint64_t)layers * TWZ_AL_SIZE +
			    (uint64_t)sizes * TWZ_AZ_RECORD)
		return TWZ_E_DAMAGED;
	t->size_count = sizes;
	t->layer_count = layers;

	/* A2, A3: sizes rise from 1 to 16; layers are named in order, each
	 * by a run of consecutive sizes, the first size by layer 0. */
	const uint8_t *z = data + TWZ_AS_HEAD_SIZE + (size_t)layers * TWZ_AL_SIZE;
	for (uint32_t i = 0; i < sizes; i++, z += TWZ_AZ_RECORD) {
		uint32_t k = twz_le32(z + TWZ_AZ_SIZE);
		uint32_t l = twz_le32(z + TWZ_AZ_LAYER);
		if (k < 1 || k > TWZ_MAX_AGENT_SIZE || (i && k <= t->size[i - 1]))
			return TWZ_E_DAMAGED;
		uint32_t want = i ? t->layer_of[i - 1] : 0;
		if (l != want && l != want + 1)
			return TWZ_E_DAMAGED;
		if (!i && l != 0)
			return TWZ_E_DAMAGED;
		t->size[i] = k;
		t->layer_of[i] = (uint8_t)l;
	}
	if (t->layer_of[sizes - 1] != layers - 1)
		return TWZ_E_DAMAGED;

	/* A4, A5: layer 0 is the header's database; every layer's counts
	 * and features hold what the header's must. */
	const uint8_t *r = data + TWZ_AS_HEAD_SIZE;
	for (uint32_t l = 0; l < layers; l++, r += TWZ_AL_SIZE) {
		t->node_count[l] = twz_le32(r + TWZ_AL_NODE_COUNT);
		t->component_count[l] = twz_le32(r + TWZ_AL_COMPONENT_COUNT);
		t->required[l] = twz_le64(r + TWZ_AL_REQUIRED);
		if (l == 0 && (t->node_count[0] != c->node_count ||
			       t->component_count[0] != c->component_count ||
			       t->required[0] != c->required_features))
			return TWZ_E_DAMAGED;
		st = check_layer(c, t->node_count[l], t->component_count[l],
				 t->required[l]);
		if (st != TWZ_OK)
			return st;
	}
	return TWZ_OK;
}

void twz_layer_container(const struct twz_container *c,
			 const struct twz_layer_table *t, unsigned l,
			 struct twz_container *out)
{
	*out = *c;
	out->node_count = t->node_count[l];
	out->component_count = t->component_count[l];
	out->required_features = t->required[l];
	out->section_count = 0;
	if (l == 0) {
		out->section_count = c->section_count;
		return;
	}
	uint32_t lo = twz_layer_kind(l, 0);
	for (uint32_t i = 0; i < c->section_count; i++) {
		const struct twz_section_ref *s = &c->sections[i];
		/* Kinds a layer cannot hold (0, 48 and above) are left out,
		 * as a reader leaves unknown kinds. */
		if (s->kind <= lo || s->kind - lo >= TWZ_SECTION_KIND_LIMIT)
			continue;
		out->sections[out->section_count] = *s;
		out->sections[out->section_count++].kind = s->kind - lo;
	}
}
