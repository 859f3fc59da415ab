/*
 * fuzz_section.c - libFuzzer target: one section of an honest database
 * rewritten, every checksum valid, so each mutation reaches the checks
 * of that section's kind (FORMAT.md section 9, steps 3 and 4) the way a
 * crafted file would.
 *
 * The honest databases are the .twz seeds of fuzz_twz (every method,
 * layout and level kind the project has a seed of), read once at start
 * from TWZ_FUZZ_BASES. An input names one base and one of its sections
 * (or a kind to add) and says how to change it:
 *
 *   byte 0     the base (modulo their count, in name order)
 *   byte 1     the section (modulo its count + 1: the last adds one)
 *   byte 2     bits 0-1: 0 XOR the payload into the section from offset,
 *              1 the payload is the section, 2 the section cut or grown
 *              to offset bytes (modulo twice its size + 64), then XOR;
 *              bit 2: stored as a zstd frame, else raw
 *   bytes 3-6  offset, u32 (the added section's kind: offset & 0xFFF)
 *   the rest   the payload
 *
 * The file is rebuilt with its sections 64-aligned and every checksum
 * recomputed, then opened; whatever opens must answer consistently
 * (fuzz_queries.h). A chunked section (FORMAT.md 5h) is changed in its
 * stored bytes, its directory and frames, and opened with its checksum
 * skipped as well.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "fuzz_queries.h"

#define MAX_BASES 64

struct base {
	uint8_t *buf;
	size_t len;
	uint32_t count;   /* sections */
};

static struct base bases[MAX_BASES];
static unsigned base_count;

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .twz files of dir that open, in name order. */
static void load_bases(const char *dir)
{
	DIR *d = opendir(dir);
	char *names[MAX_BASES];
	unsigned n = 0;
	struct dirent *e;

	require(d != NULL);
	while ((e = readdir(d)) && n < MAX_BASES) {
		size_t l = strlen(e->d_name);
		if (l > 4 && !strcmp(e->d_name + l - 4, ".twz"))
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof names[0], by_name);
	for (unsigned i = 0; i < n; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		free(names[i]);
		size_t len;
		uint8_t *buf = read_whole(path, &len);
		twz_db *db;
		if (twz_open_memory(buf, len, 0, &db) != TWZ_OK) {
			free(buf);
			continue;
		}
		twz_close(db);
		bases[base_count++] = (struct base){
			buf, len, twz_le32(buf + TWZ_H_SECTION_COUNT) };
	}
	require(base_count > 0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *dir = getenv("TWZ_FUZZ_BASES");
	load_bases(dir ? dir : TWZ_FUZZ_BASES);
	return 0;
}

static const uint8_t *entry(const struct base *b, uint32_t i)
{
	return b->buf + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
}

/* Whether section i of a base is stored in chunks (FORMAT.md 5h). */
static int chunked(const struct base *b, uint32_t i)
{
	return i < b->count && (twz_le16(entry(b, i) + TWZ_S_FLAGS) & TWZ_SF_CHUNKED);
}

/* Section i of a base: its kind and decoded bytes (malloc'd); a chunked
 * one's stored bytes, its directory and frames. */
static uint8_t *section_of(const struct base *b, uint32_t i, uint32_t *kind,
			   size_t *n)
{
	const uint8_t *e = entry(b, i);
	uint64_t off = twz_le64(e + TWZ_S_OFFSET), size = twz_le64(e + TWZ_S_SIZE);
	uint64_t raw = chunked(b, i) ? size : twz_le64(e + TWZ_S_RAW_SIZE);
	uint8_t *out = malloc(raw ? (size_t)raw : 1);

	require(out != NULL);
	*kind = twz_le32(e + TWZ_S_KIND);
	*n = (size_t)raw;
	if (twz_le16(e + TWZ_S_CODEC) == TWZ_CODEC_ZSTD && !chunked(b, i))
		require(ZSTD_decompress(out, (size_t)raw, b->buf + off, (size_t)size) == raw);
	else
		memcpy(out, b->buf + off, (size_t)raw);
	return out;
}

/* Base b with section `which` (== b->count: a new one of kind) holding
 * bytes, stored as zstd when zstd; every checksum recomputed. A chunked
 * section's bytes are its stored ones: it keeps its flags, raw size and
 * checksum. */
static uint8_t *rebuilt(const struct base *b, uint32_t which, uint32_t kind,
			const uint8_t *bytes, size_t n, int zstd, size_t *len)
{
	uint32_t count = b->count + (which == b->count);
	int chunks = chunked(b, which);
	size_t bound = ZSTD_compressBound(n);
	uint8_t *frame = NULL;
	size_t stored = n;

	zstd = zstd && !chunks;
	frame = zstd ? malloc(bound) : NULL;
	if (zstd) {
		require(frame != NULL);
		stored = ZSTD_compress(frame, bound, bytes, n, 1);
		require(!ZSTD_isError(stored));
	}
	/* Room for every section at its old size, the new one, padding. */
	size_t cap = b->len + stored + 64 * ((size_t)count + 2) +
		     TWZ_SECTION_ENTRY_SIZE;
	uint8_t *out = calloc(1, cap);
	require(out != NULL);
	memcpy(out, b->buf, TWZ_HEADER_SIZE);
	uint64_t at = TWZ_HEADER_SIZE + (uint64_t)count * TWZ_SECTION_ENTRY_SIZE;
	for (uint32_t i = 0; i < count; i++) {
		uint8_t *e = out + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
		at = (at + TWZ_SECTION_ALIGN - 1) / TWZ_SECTION_ALIGN * TWZ_SECTION_ALIGN;
		twz_put64(e + TWZ_S_OFFSET, at);
		if (i == which && chunks) {
			memcpy(e, entry(b, i), TWZ_SECTION_ENTRY_SIZE);
			twz_put64(e + TWZ_S_OFFSET, at);
			twz_put64(e + TWZ_S_SIZE, n);
			memcpy(out + at, bytes, n);
			at += n;
		} else if (i == which) {
			twz_put32(e + TWZ_S_KIND, kind);
			twz_put16(e + TWZ_S_CODEC, zstd ? TWZ_CODEC_ZSTD : TWZ_CODEC_RAW);
			twz_put64(e + TWZ_S_SIZE, stored);
			twz_put64(e + TWZ_S_RAW_SIZE, n);
			twz_put64(e + TWZ_S_RAW_CHECKSUM, XXH3_64bits(bytes, n));
			memcpy(out + at, zstd ? frame : bytes, stored);
			at += stored;
		} else {
			const uint8_t *old = b->buf + TWZ_HEADER_SIZE +
					     (size_t)i * TWZ_SECTION_ENTRY_SIZE;
			uint64_t size = twz_le64(old + TWZ_S_SIZE);
			memcpy(e, old, TWZ_S_OFFSET);
			memcpy(e + TWZ_S_SIZE, old + TWZ_S_SIZE,
			       TWZ_SECTION_ENTRY_SIZE - TWZ_S_SIZE);
			memcpy(out + at, b->buf + twz_le64(old + TWZ_S_OFFSET), (size_t)size);
			at += size;
		}
	}
	free(frame);
	twz_put32(out + TWZ_H_SECTION_COUNT, count);
	twz_put64(out + TWZ_H_FILE_SIZE, at);
	twz_put64(out + TWZ_H_TABLE_CHECKSUM,
		  XXH3_64bits(out + TWZ_HEADER_SIZE, (size_t)count * TWZ_SECTION_ENTRY_SIZE));
	twz_put64(out + TWZ_H_HEADER_CHECKSUM, XXH3_64bits(out, TWZ_H_HEADER_CHECKSUM));
	*len = (size_t)at;
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 7)
		return 0;
	const struct base *b = &bases[data[0] % base_count];
	uint32_t which = data[1] % (b->count + 1), kind;
	unsigned how = data[2] & 3;
	uint32_t offset = twz_le32(data + 3);
	const uint8_t *payload = data + 7;
	size_t plen = size - 7, n;
	uint8_t *bytes;

	if (b->count >= TWZ_MAX_SECTIONS && which == b->count)
		which = 0;
	if (which == b->count) {
		kind = offset & 0xFFF;
		bytes = malloc(plen ? plen : 1);
		require(bytes != NULL);
		memcpy(bytes, payload, plen);
		n = plen;
	} else {
		bytes = section_of(b, which, &kind, &n);
		if (how == 1) {
			free(bytes);
			bytes = malloc(plen ? plen : 1);
			require(bytes != NULL);
			memcpy(bytes, payload, plen);
			n = plen;
		} else {
			if (how == 2) {
				size_t want = offset % (2 * n + 64);
				bytes = realloc(bytes, want ? want : 1);
				require(bytes != NULL);
				if (want > n)
					memset(bytes + n, 0, want - n);
				n = want;
				offset = 0;
			}
			for (size_t i = 0; i < plen && n; i++)
				bytes[(offset + i) % n] ^= payload[i];
		}
	}
	size_t len;
	uint8_t *file = rebuilt(b, which, kind, bytes, n, (data[2] & 4) != 0, &len);
	free(bytes);
	try_open(file, len, 0, data, size);
	/* A chunked section's checksum is its old bytes': skipping it lets
	 * the chunks' own checks see the change. */
	if (chunked(b, which))
		try_open(file, len, TWZ_OPEN_SKIP_CHECKSUMS, data, size);
	free(file);
	return 0;
}
