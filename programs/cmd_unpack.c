/*
 * cmd_unpack.c - `twigz unpack IN.twz -o OUT.twz`: rewrite a shipped
 * database with every section stored raw, so it is queried straight from
 * the mapping (no inflate, no copy at open). The header keeps everything
 * the bake recorded (level hash, grid, method, features); only the codec
 * changes, and the answers stay identical.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "twz_inspect.h"
#include "twz_writer.h"

/* Encode db's sections, in their order, raw. 0 or an exit status. */
static int unpack(const twz_db *db, const char *in, uint8_t **buf,
		  size_t *len, struct twz_error *err)
{
	const struct twz_container *c = twz_inspect_container(db);
	struct twz_out_section sec[TWZ_MAX_SECTIONS];
	void *owned[TWZ_MAX_SECTIONS] = { 0 };
	unsigned count = 0;
	int rc = -1;

	/* The runtime skips sections of a newer minor version, and feature
	 * bits it does not know: copying the rest would lose them. */
	if ((c->optional_features & ~(uint64_t)TWZ_FEATURES_KNOWN_OPTIONAL) ||
	    (c->required_features & ~(uint64_t)TWZ_FEATURES_KNOWN_REQUIRED)) {
		twz_error_set(err, "%s: has features of a newer format version; unpack it with that version",
			      in);
		return -1;
	}
	for (uint32_t i = 0; i < c->section_count; i++) {
		uint32_t kind = c->sections[i].kind;
		const uint8_t *data;
		size_t size;
		int got = twz_inspect_section_bytes(db, i, &data, &size,
						    &owned[count]);
		if (got > 0) {
			twz_error_set(err, "%s: section %u has kind %u, which this version does not know; unpack it with a newer version",
				      in, i, kind);
			goto out;
		}
		if (got < 0) {
			twz_error_set(err, "%s: section %u cannot be inflated again (out of memory, or the file changed)",
				      in, i);
			goto out;
		}
		sec[count++] = (struct twz_out_section){ kind, data, size };
	}
	struct twz_out_header h = {
		.minor = c->minor,
		/* Raw sections have no chunks. */
		.required_features = c->required_features &
				     ~(uint64_t)TWZ_FEATURE_CHUNKED_SECTIONS,
		.level_hash = c->level_hash,
		.width = c->width,
		.height = c->height,
		.node_count = c->node_count,
		.component_count = c->component_count,
		.method = c->method,
		.connectivity = c->connectivity,
		.node_order = c->node_order,
		.level_kind = c->level_kind,
		.codec = TWZ_CODEC_RAW,
		.level = c->build_level,
	};
	rc = twz_encode(&h, sec, count, buf, len, err);
out:
	for (unsigned i = 0; i <= count && i < TWZ_MAX_SECTIONS; i++)
		free(owned[i]);
	return rc;
}

int twz_cmd_unpack(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (i + 1 >= argc)
				return twz_cli_usage("%s needs a file name", a);
			out = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			return twz_cli_usage("unknown option '%s'", a);
		} else if (!in) {
			in = a;
		} else {
			return twz_cli_usage("unexpected argument '%s'", a);
		}
	}
	if (!in)
		return twz_cli_usage("%s", "unpack needs a database");
	if (!out)
		return twz_cli_usage("%s", "unpack needs -o OUT.twz");
	int rc = twz_cli_check_output("-o", out);
	if (rc)
		return rc;

	struct twz_error err = { { 0 }, 0 };
	uint8_t *buf = NULL;
	size_t len = 0;
	twz_db *db, *check;
	rc = twz_cli_open_db(in, &db);
	if (rc)
		return rc;
	if (unpack(db, in, &buf, &len, &err) != 0) {
		rc = twz_cli_error(&err);
		goto out;
	}
	/* What is written must open: the same validation a game will run. */
	twz_status st = twz_open_memory(buf, len, 0, &check);
	if (st != TWZ_OK) {
		fprintf(stderr, "twigz: %s: the unpacked database does not open: %s\n",
			out, twz_strerror(st));
		rc = EXIT_INPUT;
		goto out;
	}
	twz_close(check);
	if (twz_write_atomic(out, buf, len, &err) != 0)
		rc = twz_cli_error(&err);
out:
	free(buf);
	twz_close(db);
	return rc;
}
