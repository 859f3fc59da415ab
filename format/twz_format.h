/*
 * twz_format.h - the on-disk layout of a .twz file, shared by the writer
 * (precompute/) and the reader (runtime/). FORMAT.md is the normative spec;
 * every offset and size here is checked against it by _Static_assert.
 *
 * All fields are little-endian and are read and written only through the
 * twz_le*() helpers below, never by casting a pointer into the mapping:
 * the mapping is read-only and may be unaligned (twz_open_memory).
 */
#ifndef TWZ_FORMAT_H
#define TWZ_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- identity and versions ---------------------------------------- */

/* PNG-style magic: a high byte and CR LF ^Z LF catch text-mode damage. */
#define TWZ_MAGIC "\x89TWZ\r\n\x1a\n"
#define TWZ_MAGIC_SIZE 8
#define TWZ_FORMAT_MAJOR 1
#define TWZ_FORMAT_MINOR 5

/* ---- fixed sizes ---------------------------------------------------- */

#define TWZ_HEADER_SIZE 128
#define TWZ_SECTION_ENTRY_SIZE 48
#define TWZ_SECTION_ALIGN 64

/* ---- limits, checked before any arithmetic on a stored size -------- */

#define TWZ_MAX_SECTIONS 64
#define TWZ_MAX_SIDE 16384u                 /* width or height, cells */
#define TWZ_MAX_CELLS (1u << 26)            /* width * height */
#define TWZ_MAX_NODES (1u << 26)            /* must fit TWZ_RUN_START_BITS */
#define TWZ_MAX_RUNS 0xFFFFFFF0u            /* total runs, offsets are u32 */
#define TWZ_MAX_RAW_SECTION ((uint64_t)1 << 40) /* 1 TiB: refuse larger */

/* ---- header fields (byte offsets) ---------------------------------- */

#define TWZ_H_MAGIC 0              /* u8[8]  TWZ_MAGIC */
#define TWZ_H_MAJOR 8              /* u16    format major */
#define TWZ_H_MINOR 10             /* u16    format minor */
#define TWZ_H_HEADER_SIZE 12       /* u32    TWZ_HEADER_SIZE */
#define TWZ_H_REQUIRED 16          /* u64    required feature bits */
#define TWZ_H_OPTIONAL 24          /* u64    optional feature bits */
#define TWZ_H_FILE_SIZE 32         /* u64    whole file, bytes */
#define TWZ_H_SECTION_COUNT 40     /* u32    entries in the section table */
#define TWZ_H_TABLE_OFFSET 44      /* u32    = TWZ_HEADER_SIZE */
#define TWZ_H_TABLE_CHECKSUM 48    /* u64    XXH3-64 of the table bytes */
#define TWZ_H_LEVEL_HASH 56        /* u64    XXH3-64 of the input level */
#define TWZ_H_WIDTH 64             /* u32    grid width, cells */
#define TWZ_H_HEIGHT 68            /* u32    grid height, cells */
#define TWZ_H_NODE_COUNT 72        /* u32    walkable cells */
#define TWZ_H_COMPONENT_COUNT 76   /* u32    connected regions */
#define TWZ_H_METHOD 80            /* u8     TWZ_METHOD_* */
#define TWZ_H_CONNECTIVITY 81      /* u8     4 or 8 */
#define TWZ_H_NODE_ORDER 82        /* u8     TWZ_ORDER_* used by the bake */
#define TWZ_H_BUILD_CODEC 83       /* u8     TWZ_CODEC_* asked for */
#define TWZ_H_BUILD_LEVEL 84       /* i8     zstd level asked for */
#define TWZ_H_LEVEL_KIND 85        /* u8     1.4: TWZ_LEVEL_*, 0 before */
#define TWZ_H_RESERVED 86          /* u8[34] zero */
#define TWZ_H_RESERVED_END 120
#define TWZ_H_HEADER_CHECKSUM 120  /* u64    XXH3-64 of bytes [0, 120) */

/* ---- section table entry fields ------------------------------------ */

#define TWZ_S_KIND 0               /* u32    TWZ_SECTION_* */
#define TWZ_S_CODEC 4              /* u16    TWZ_CODEC_* */
#define TWZ_S_FLAGS 6              /* u16    TWZ_SF_*, zero before 1.4 */
#define TWZ_S_OFFSET 8             /* u64    from the file start, 64-aligned */
#define TWZ_S_SIZE 16              /* u64    stored bytes */
#define TWZ_S_RAW_SIZE 24          /* u64    bytes after decoding */
#define TWZ_S_RAW_CHECKSUM 32      /* u64    XXH3-64 of the decoded bytes */
#define TWZ_S_RESERVED 40          /* u64    zero */

/* Section entry flags (1.4; every other bit is reserved zero). */
#define TWZ_SF_CHUNKED 0x1u        /* stored bytes: a chunk directory, then
				      one zstd frame a chunk (below) */
#define TWZ_SF_KNOWN TWZ_SF_CHUNKED

/*
 * Chunked sections (1.4, TWZ_FEATURE_CHUNKED_SECTIONS): the stored bytes
 * of a zstd section with TWZ_SF_CHUNKED start with a directory,
 *   u32 count       chunks, 1 ..= TWZ_CHUNK_MAX_COUNT
 *   u32 max_raw     the largest chunk's raw size
 *   u64 reserved    zero
 *   count entries of TWZ_CHUNK_ENTRY_SIZE bytes:
 *     u32 raw_size     1 ..= TWZ_CHUNK_MAX_RAW
 *     u32 stored_size  bytes of the chunk's zstd frame
 *     u64 checksum     XXH3-64 of the chunk's raw bytes
 * followed by the frames, back to back in chunk order. Chunk i decodes
 * to raw bytes [sum of the raw sizes before it, + raw_size) of the
 * section; the raw sizes add up to the section's raw size and the
 * directory and frames fill its stored size exactly.
 */
#define TWZ_CHUNK_DIR_HEADER 16
#define TWZ_CHUNK_ENTRY_SIZE 16
#define TWZ_CD_COUNT 0
#define TWZ_CD_MAX_RAW 4
#define TWZ_CD_RESERVED 8
#define TWZ_CE_RAW_SIZE 0
#define TWZ_CE_STORED_SIZE 4
#define TWZ_CE_CHECKSUM 8
#define TWZ_CHUNK_MAX_COUNT (1u << 24)
#define TWZ_CHUNK_MAX_RAW (1u << 30)
/* The chunk size twigz build --chunk accepts, bytes. */
#define TWZ_CHUNK_MIN_TARGET 4096u

_Static_assert(TWZ_H_HEADER_CHECKSUM + 8 == TWZ_HEADER_SIZE, "header size");
_Static_assert(TWZ_S_RESERVED + 8 == TWZ_SECTION_ENTRY_SIZE, "entry size");
_Static_assert(TWZ_HEADER_SIZE % 8 == 0, "table alignment");

/* ---- enumerations --------------------------------------------------- */

enum twz_method {
	TWZ_METHOD_CPD = 1,        /* all-pairs first-move rows */
	TWZ_METHOD_TRANSIT = 2,    /* 1.1: transit nodes + local rows */
};

enum twz_order {
	TWZ_ORDER_DFS = 1,         /* DFS preorder, one region after another */
	TWZ_ORDER_BLOCKS = 2,      /* TRANSIT: block after block, DFS inside */
};

/* What the nodes are (TWZ_H_LEVEL_KIND). Files before 1.4 hold 0. */
enum twz_level_kind {
	TWZ_LEVEL_GRID = 0,        /* cells of a .map grid */
	TWZ_LEVEL_GRAPH = 1,       /* 1.4: vertices of a weighted directed graph */
	TWZ_LEVEL_NAVMESH = 2,     /* 1.4: convex polygons of a navmesh */
};

enum twz_codec {
	TWZ_CODEC_RAW = 0,
	TWZ_CODEC_ZSTD = 1,
};

/* Feature bits. An unknown required bit refuses the file, an unknown
 * optional bit is ignored. 1.0 defines none. */
/* 1.1: rows may hold the direction symbols TWZ_SYMBOL_TOWARD and
 * TWZ_SYMBOL_NEAREST, decoded from the two nodes' coordinates. */
#define TWZ_FEATURE_DIRECTION_SYMBOLS (1u << 0)
/* 1.1: rows are bucketed (NODE_RECORDS + REGIONS + ROWS replace
 * NODE_CELL, NODE_COMPONENT, ROW_OFFSETS and RUNS). */
#define TWZ_FEATURE_BUCKETED_ROWS (1u << 1)
/* 1.2: CELL_NODE holds u16 entries, 0xFFFF for a wall: only in a CPD
 * file with bucketed rows and fewer than 0xFFFF nodes. */
#define TWZ_FEATURE_NARROW_CELL_NODE (1u << 2)
/* 1.4 adds these feature bits (each file sets the ones it uses):
 * bit 3 graph levels, bit 4 navmesh levels, bit 5 junction graphs,
 * bit 6 CPD node records with an inline first bucket, bit 7 TRANSIT
 * access nodes, bit 8 chunked sections. */
/* 1.4: a CPD file over a junction graph (sections 80..86, below). */
#define TWZ_FEATURE_JUNCTIONS (1u << 5)
/* 1.4: rows are inline-summarised (INLINE_RECORDS + REGIONS +
 * INLINE_ROWS, below, replace the 1.0 and 1.1 row sections). */
#define TWZ_FEATURE_CPD_INLINE (1u << 6)
/* 1.4: a TRANSIT file of the access-node layout (FORMAT.md 5j): kinds
 * 112..115 replace 33..37. */
#define TWZ_FEATURE_TRANSIT_ACCESS (1u << 7)
/* 1.4: some zstd sections are stored as independently compressed
 * chunks behind a chunk directory (TWZ_SF_CHUNKED, below). */
#define TWZ_FEATURE_CHUNKED_SECTIONS (1u << 8)
#define TWZ_FEATURES_KNOWN_REQUIRED \
	(TWZ_FEATURE_DIRECTION_SYMBOLS | TWZ_FEATURE_BUCKETED_ROWS | \
	 TWZ_FEATURE_NARROW_CELL_NODE | TWZ_FEATURE_JUNCTIONS | \
	 (1u << 3) /* graph levels */ | (1u << 4) /* navmesh levels */ | \
	 TWZ_FEATURE_CPD_INLINE | TWZ_FEATURE_TRANSIT_ACCESS | \
	 TWZ_FEATURE_CHUNKED_SECTIONS | (1u << 9) /* areas, 1.5 */ | \
	 (1u << 10) /* off-mesh links, 1.5 */)
#define TWZ_FEATURES_KNOWN_OPTIONAL 0u

enum twz_section_kind {
	TWZ_SECTION_CELL_NODE = 1,      /* u32[width*height]: node or NONE
	                                   (u16, 0xFFFF: NONE, when narrow) */
	TWZ_SECTION_NODE_CELL = 2,      /* u32[node_count]: y*width + x */
	TWZ_SECTION_NODE_COMPONENT = 3, /* u32[node_count]: region id */
	TWZ_SECTION_ROW_OFFSETS = 4,    /* u32[node_count+1]: run index */
	TWZ_SECTION_RUNS = 5,           /* u32[runs]: start << 4 | symbol */
	/* 1.1, TWZ_FEATURE_BUCKETED_ROWS: */
	TWZ_SECTION_NODE_RECORDS = 6,   /* 8 bytes a node, see below */
	TWZ_SECTION_REGIONS = 7,        /* u32[component_count+1]: first node */
	TWZ_SECTION_ROWS = 8,           /* u16[]: each row's buckets + runs */
	/* Any file, any version (readers before it ignore it): */
	TWZ_SECTION_BUILD_INFO = 9,     /* key=value text: how it was baked
	                                   (twz_build_info.h) */
};
#define TWZ_SECTION_KIND_MAX 9

#define TWZ_NODE_NONE 0xFFFFFFFFu
#define TWZ_NARROW_NONE 0xFFFFu

/* ---- TRANSIT sections (1.1, method TWZ_METHOD_TRANSIT) ----------------
 * Kinds 32..47 are TRANSIT's; FORMAT.md, "TRANSIT sections", is the spec.
 * A TRANSIT file holds CELL_NODE, NODE_CELL and NODE_COMPONENT and these.
 */
enum twz_transit_section_kind {
	TWZ_SECTION_TRANSIT_PARAMS = 32,  /* TWZ_TP_SIZE bytes, below */
	TWZ_SECTION_TRANSIT_BLOCKS = 33,  /* TWZ_TB_SIZE bytes a block, +1 */
	TWZ_SECTION_TRANSIT_LISTS = 34,   /* u32[]: each block's transits */
	TWZ_SECTION_TRANSIT_NODES = 35,   /* u32[M]: node of each transit */
	TWZ_SECTION_TRANSIT_NODE_DIST = 36, /* node -> its block's transits */
	TWZ_SECTION_TRANSIT_TABLE = 37,   /* transit <-> transit, i < j */
	TWZ_SECTION_TRANSIT_ROW_OFFSETS = 38, /* u32[node_count+1] */
	TWZ_SECTION_TRANSIT_RUNS = 39,    /* u32[]: start << 4 | symbol */
};
#define TWZ_SECTION_TRANSIT_FIRST 32
#define TWZ_SECTION_TRANSIT_MAX 39
/* Kinds of 1.4 by feature: 48..63 graph levels, 64..79 navmesh levels,
 * 80..95 junction graphs, 96..111 CPD inline records, 112..127 TRANSIT
 * access nodes. Layers (5c) put layer l's kind k at 256 * l + k. */
/* Junction graphs (1.4, TWZ_FEATURE_JUNCTIONS): FORMAT.md, "Junction
 * graphs", is the spec. Such a file holds CELL_NODE, NODE_CELL and
 * NODE_COMPONENT (u32, DFS order) and these. */
enum twz_junction_section_kind {
	TWZ_SECTION_JUNCTION_PARAMS = 80,      /* TWZ_JP_SIZE bytes */
	TWZ_SECTION_JUNCTION_NODES = 81,       /* u32[J]: node of each junction */
	TWZ_SECTION_JUNCTION_ROW_OFFSETS = 82, /* u32[J+1]: run index */
	TWZ_SECTION_JUNCTION_RUNS = 83,        /* u32[]: start << 4 | symbol */
	TWZ_SECTION_JUNCTION_LINKS = 84,       /* TWZ_JL_SIZE bytes a link */
	TWZ_SECTION_LINK_ROW_OFFSETS = 85,     /* u32[L+1]: run index */
	TWZ_SECTION_LINK_RUNS = 86,            /* TWZ_JR_SIZE bytes a run */
};
#define TWZ_SECTION_JUNCTION_FIRST 80
#define TWZ_SECTION_JUNCTION_MAX 86
/* JUNCTION_PARAMS fields. */
#define TWZ_JP_JUNCTIONS 0         /* u32    junctions, J */
#define TWZ_JP_LINKS 4             /* u32    links with chain cells, L */
#define TWZ_JP_RESERVED 8          /* u8[24] zero */
#define TWZ_JP_SIZE 32
/* JUNCTION_LINKS record: a chain of cells between two junctions. */
#define TWZ_JL_A 0                 /* u32    junction at the chain's start */
#define TWZ_JL_B 4                 /* u32    junction at its end (may be A) */
#define TWZ_JL_FIRST 8             /* u32    node of the first chain cell */
#define TWZ_JL_COUNT 12            /* u32    chain cells, nodes FIRST.. */
#define TWZ_JL_SIZE 16
/* LINK_RUNS entry: from target junction START on, d(A, t) - d(B, t). */
#define TWZ_JR_START 0             /* u32    first target junction */
#define TWZ_JR_STRAIGHT 4          /* i32    straight part of the difference */
#define TWZ_JR_DIAGONAL 8          /* i32    diagonal part */
#define TWZ_JR_SIZE 12

/* 1.4, TWZ_FEATURE_TRANSIT_ACCESS (FORMAT.md 5j): */
enum twz_access_section_kind {
	TWZ_SECTION_ACCESS_FIRST = 112,   /* u32[node_count+1]: into ACCESS */
	TWZ_SECTION_ACCESS = 113,         /* TWZ_AE_SIZE bytes an access node */
	TWZ_SECTION_ACCESS_NODES = 114,   /* TWZ_AN_SIZE bytes a transit node */
	TWZ_SECTION_ACCESS_TABLE = 115,   /* bit-packed rows, + TWZ_AT_PAD */
	/* the packed entries, in place of ACCESS: */
	TWZ_SECTION_ACCESS_BLOCK_FIRST = 116, /* u32[blocks+1]: into BLOCK_LIST */
	TWZ_SECTION_ACCESS_BLOCK_LIST = 117,  /* u32: each block's transits */
	TWZ_SECTION_ACCESS_PACKED = 118,      /* u32 an access node */
};
#define TWZ_SECTION_ACCESS_FIRST_KIND 112
#define TWZ_SECTION_ACCESS_MAX 118
/* Bound of arrays indexed by any known section kind. */
#define TWZ_SECTION_KIND_LIMIT 256

/* TRANSIT_PARAMS fields (byte offsets). */
#define TWZ_TP_ORIGIN_X 0          /* u32    walkable bounding box corner */
#define TWZ_TP_ORIGIN_Y 4          /* u32 */
#define TWZ_TP_SIDE 8              /* u32    block side, squares */
#define TWZ_TP_COLS 12             /* u32    blocks across */
#define TWZ_TP_ROWS 16             /* u32    blocks down */
#define TWZ_TP_INNER 20            /* u32    inner box radius, blocks */
#define TWZ_TP_OUTER 24            /* u32    outer square radius, blocks */
#define TWZ_TP_TRANSITS 28         /* u32    transit nodes, M */
#define TWZ_TP_MAX_LIST 32         /* u32    longest block transit list */
#define TWZ_TP_DIST_BYTES 36       /* u32    4 (i16 planes) or 8 (i32) */
#define TWZ_TP_RESERVED 40         /* u8[24] zero */
#define TWZ_TP_SIZE 64
/* TRANSIT_BLOCKS record (cols*rows of them, then one closing record). */
#define TWZ_TB_FIRST_NODE 0        /* u32    first node of the block */
#define TWZ_TB_FIRST_LIST 4        /* u32    first entry in TRANSIT_LISTS */
#define TWZ_TB_FIRST_DIST 8        /* u64    first entry in NODE_DIST */
#define TWZ_TB_SIZE 16
/* A block may list at most this many transit nodes (queries scan a
 * block's list, and a pair of lists, on the stack). */
#define TWZ_TRANSIT_MAX_LIST 1024u
/*
 * Distances (NODE_DIST, TABLE): n entries are two planes, the n straight
 * halves, then the n diagonal halves, each i16 (dist_bytes 4) or i32 (8).
 * A half holds the distance's count minus that of the reference cost
 * below between the two nodes' cells (mostly 0 on open ground, which is
 * what makes the planes compress). The most negative value in both
 * halves means unreachable. Distances are below TWZ_MAX_NODES.
 */
#define TWZ_TRANSIT_FAR16 (-32768)
#define TWZ_TRANSIT_FAR32 INT32_MIN

/* The reference cost between cells dx, dy apart (absolute differences):
 * the shortest move sequence on open ground. */
static inline void twz_transit_reference(unsigned connectivity, uint32_t dx,
					 uint32_t dy, uint32_t *straight,
					 uint32_t *diagonal)
{
	uint32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;

	if (connectivity == 4) {
		*straight = dx + dy;
		*diagonal = 0;
	} else {
		*straight = hi - lo;
		*diagonal = lo;
	}
}

/* Whether s straight and d diagonal moves can be a shortest path
 * between two cells dx, dy apart (absolute differences): none between a
 * cell and itself; else at least as many moves as the larger difference
 * and s + 2 d at least their sum (each move changes a coordinate by at
 * most one, a straight move one of them), so never below the reference
 * cost; no diagonal on a 4-connected level. The checks of stored TRANSIT
 * distances (T10, TA6, TA7) and the merge of shards hold every distance
 * to it. */
static inline int twz_transit_counts_possible(unsigned connectivity,
					      uint32_t dx, uint32_t dy,
					      uint64_t s, uint64_t d)
{
	uint64_t hi = dx > dy ? dx : dy;

	if (dx == 0 && dy == 0)
		return s == 0 && d == 0;
	if (connectivity == 4 && d)
		return 0;
	return s + d >= hi && s + 2 * d >= (uint64_t)dx + dy;
}

_Static_assert(TWZ_SECTION_TRANSIT_MAX < TWZ_SECTION_KIND_LIMIT, "kinds");

/* ACCESS entry: one access node of a node, entries of a node sorted by
 * exact cost, then transit index. */
#define TWZ_AE_TRANSIT 0           /* u32    transit index */
#define TWZ_AE_STRAIGHT 4          /* u16    straight moves to it */
#define TWZ_AE_DIAGONAL 6          /* u16    diagonal moves to it */
#define TWZ_AE_SIZE 8
/* ACCESS_PACKED entry (u32): the place of the access node in the list of
 * the node's block (ACCESS_BLOCK_LIST, at most TWZ_AP_MAX_LIST long), and
 * each count of the distance to it minus that of the reference cost
 * between the two cells, plus TWZ_AP_BIAS. */
#define TWZ_AP_PLACE_BITS 8
#define TWZ_AP_FIELD_BITS 12       /* straight at bit 8, diagonal at 20 */
#define TWZ_AP_BIAS 2048
#define TWZ_AP_MAX_LIST 256u
#define TWZ_AP_PLACE(e) ((e) & 0xFFu)
#define TWZ_AP_STRAIGHT(e) (((e) >> 8) & 0xFFFu)
#define TWZ_AP_DIAGONAL(e) ((e) >> 20)
/* ACCESS_NODES record: a transit node and its row of ACCESS_TABLE. */
#define TWZ_AN_NODE 0              /* u32    node */
#define TWZ_AN_X 4                 /* u16    its cell */
#define TWZ_AN_Y 6                 /* u16 */
#define TWZ_AN_ROW_END 8           /* u32    row holds j in (i, row_end) */
#define TWZ_AN_WIDTH_S 12          /* u8     bits of a straight field */
#define TWZ_AN_WIDTH_D 13          /* u8     bits of a diagonal field */
#define TWZ_AN_RESERVED 14         /* u16    zero */
#define TWZ_AN_ROW_BIT 16          /* u64    row's first bit in the table */
#define TWZ_AN_BASE_S 24           /* i32    added to every straight field */
#define TWZ_AN_BASE_D 28           /* i32    ... diagonal field */
#define TWZ_AN_SIZE 32
#define TWZ_AN_MAX_WIDTH 28        /* bits a field, at most */
/* Zero bytes after the last row: a reader loads 8 bytes at a field. */
#define TWZ_AT_PAD 8
/* w bits (at most 2 TWZ_AN_MAX_WIDTH) of ACCESS_TABLE from bit on, the
 * first bit in the lowest of its byte. */
#define TWZ_ACCESS_BITS(table, bit, w) \
	((w) ? (twz_le64((table) + ((bit) >> 3)) >> ((bit) & 7)) & \
		       ((UINT64_C(1) << (w)) - 1) \
	     : 0)

/* A run holds the first target (in node order) it covers and a move. */
#define TWZ_RUN_SYMBOL_BITS 4
#define TWZ_RUN_SYMBOL_MASK 0xFu
#define TWZ_RUN_START_BITS 28
/* A row whose source has no move toward any target of its own region (a
 * region of one cell) holds this symbol. */
#define TWZ_SYMBOL_NONE 8u
/* Direction symbols (TWZ_FEATURE_DIRECTION_SYMBOLS), with dx = tx - sx and
 * dy = ty - sy of source s and target t:
 * TOWARD is the move (sign dx, sign dy);
 * NEAREST is the move whose direction is nearest to (dx, dy): straight
 * along x when |dy| * 1000 < |dx| * 414 (tan 22.5 deg ~ 0.414), straight
 * along y when |dx| * 1000 < |dy| * 414, else diagonal. Both are integer
 * rules, so writer and reader agree exactly. */
#define TWZ_SYMBOL_TOWARD 9u
#define TWZ_SYMBOL_NEAREST 10u

/* The move a direction symbol stands for, from s toward t (dx = tx - sx,
 * dy = ty - sy); TWZ_SYMBOL_NONE when dx == dy == 0. */
static inline unsigned twz_direction_move(unsigned symbol, int32_t dx,
					  int32_t dy)
{
	/* [sign dx + 1][sign dy + 1] */
	static const uint8_t by_sign[3][3] = {
		{ 7, 3, 6 }, { 0, TWZ_SYMBOL_NONE, 2 }, { 4, 1, 5 }
	};
	int64_t ax = dx < 0 ? -(int64_t)dx : dx;
	int64_t ay = dy < 0 ? -(int64_t)dy : dy;

	if (symbol == TWZ_SYMBOL_NEAREST) {
		if (ay * 1000 < ax * 414)
			dy = 0;
		else if (ax * 1000 < ay * 414)
			dx = 0;
	}
	return by_sign[(dx > 0) - (dx < 0) + 1][(dy > 0) - (dy < 0) + 1];
}

/* ---- bucketed rows (1.1) ----------------------------------------------
 * A node record (NODE_RECORDS, 8 bytes, little-endian):
 *   0  u32  bits 0..27: row offset in ROWS, in u16 units;
 *           bits 28..31: bucket shift k (a bucket is 2^k targets, k <= 12)
 *   4  u16  x
 *   6  u16  y
 * The node's region is the one whose REGIONS range holds it; its row
 * covers the region's targets [lo, hi), len = hi - lo, in
 * buckets = ((len - 1) >> k) + 1 buckets:
 *   u16 index[buckets + 1]: entry b is the run (0-based, within the row)
 *       covering target lo + (b << k); the last entry is the last run;
 *   u16 run[]: (start - bucket base) << 4 | symbol, where the bucket is the
 *       one the run starts in; the first run starts at lo.
 * The row ends where the next node's row begins (ROWS' end for the last).
 */
#define TWZ_RECORD_SIZE 8
#define TWZ_R_ROW 0
#define TWZ_R_X 4
#define TWZ_R_Y 6
#define TWZ_ROW_OFFSET_BITS 28
#define TWZ_ROW_OFFSET_MASK ((1u << TWZ_ROW_OFFSET_BITS) - 1)
#define TWZ_MAX_BUCKET_SHIFT 12


#define TWZ_MAX_ROW_RUNS 65536u  /* run indices are u16 */

/* ---- inline-summarised rows (1.4, TWZ_FEATURE_CPD_INLINE) -------------
 * Kinds 96..111 are this layout's; FORMAT.md section 5e is the spec.
 * A node record (INLINE_RECORDS, 16 bytes, little-endian):
 *   0  u32  bits 0..27: row offset in INLINE_ROWS, in u16 units;
 *           bits 28..31: bucket shift k (k <= 12), as NODE_RECORDS
 *   4  u16  x
 *   6  u16  y
 *   8  u64  summary: nibble i (bits 4i..4i+3), for bucket i < 16, is the
 *           symbol of every target of the bucket, or TWZ_INLINE_ESCAPE
 *           when the bucket's runs are in the row; 0 past the buckets
 * Buckets 16 and on are always in the row. INLINE_RECORDS_WIDE (24
 * bytes a node) is the same record with a u64[2] summary at 8: nibble i
 * of the pair (word i / 16) for bucket i < 32, and buckets 32 and on in
 * the row. A file holds one of the two kinds. The row holds, for the E
 * buckets in it (in order), u16 first[E - 1] (where bucket j = 1..E-1's
 * runs start among the row's runs; bucket 0's start at 0), then the
 * runs: offset in the bucket << 4 | symbol, each bucket's first at
 * offset 0. The row ends where the next node's row begins.
 */
enum twz_inline_section_kind {
	TWZ_SECTION_INLINE_RECORDS = 96, /* TWZ_INLINE_RECORD_SIZE a node */
	TWZ_SECTION_INLINE_ROWS = 97,    /* u16[]: escaped buckets' runs */
	TWZ_SECTION_INLINE_RECORDS_WIDE = 98, /* TWZ_INLINE_WIDE_RECORD_SIZE */
};
#define TWZ_SECTION_INLINE_FIRST 96
#define TWZ_SECTION_INLINE_MAX 98
#define TWZ_INLINE_RECORD_SIZE 16
#define TWZ_INLINE_WIDE_RECORD_SIZE 24
#define TWZ_INLINE_WIDE_BUCKETS 32 /* buckets a wide summary holds */
#define TWZ_IR_ROW 0
#define TWZ_IR_X 4
#define TWZ_IR_Y 6
#define TWZ_IR_SUMMARY 8
#define TWZ_INLINE_BUCKETS 16     /* buckets a summary holds */
#define TWZ_INLINE_ESCAPE 0xFu
_Static_assert(TWZ_IR_ROW == TWZ_R_ROW && TWZ_IR_X == TWZ_R_X &&
	       TWZ_IR_Y == TWZ_R_Y, "an inline record starts as a 1.1 one");
_Static_assert(TWZ_SECTION_INLINE_MAX < TWZ_SECTION_KIND_LIMIT, "kinds");

/* ---- moves ------------------------------------------------------------
 * 0..3 straight (N E S W), 4..7 diagonal (NE SE SW NW). 4-connected
 * levels use 0..3 only. A diagonal is legal only when both straight cells
 * it passes between are walkable (no corner cutting).
 */
#define TWZ_MOVE_COUNT 8
static const int8_t twz_move_dx[TWZ_MOVE_COUNT] = { 0, 1, 0, -1, 1, 1, -1, -1 };
static const int8_t twz_move_dy[TWZ_MOVE_COUNT] = { -1, 0, 1, 0, -1, 1, 1, -1 };

static inline int twz_move_is_diagonal(unsigned move)
{
	return move >= 4;
}

/*
 * The corner rule, stated once: whether move m from the walkable cell
 * (x, y) is legal. walkable(ctx, x, y) says whether a cell is walkable and
 * must answer 0 off the grid. The move must land on a walkable cell and,
 * for a diagonal, both straight cells it passes between must be walkable
 * (no corner cutting). Every reader and writer of moves asks this.
 */
typedef int (*twz_walkable_fn)(const void *ctx, int64_t x, int64_t y);

static inline int twz_move_legal(twz_walkable_fn walkable, const void *ctx,
				 int64_t x, int64_t y, unsigned m)
{
	int64_t nx = x + twz_move_dx[m], ny = y + twz_move_dy[m];

	if (!walkable(ctx, nx, ny))
		return 0;
	return !twz_move_is_diagonal(m) ||
	       (walkable(ctx, nx, y) && walkable(ctx, x, ny));
}

/* The two straight moves a diagonal passes between. */
static inline unsigned twz_diagonal_side_x(unsigned move)
{
	return twz_move_dx[move] > 0 ? 1u : 3u;
}

static inline unsigned twz_diagonal_side_y(unsigned move)
{
	return twz_move_dy[move] > 0 ? 2u : 0u;
}

/* ---- little-endian helpers (memcpy: alignment-safe, byte-order-safe) */

static inline uint16_t twz_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (uint16_t)p[1] << 8);
}

static inline uint32_t twz_le32(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return v;
#else
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
#endif
}

/* Whether n bytes are all zero, as reserved fields and padding must be. */
static inline int twz_all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* Entry i of a CELL_NODE section, u32 or (narrow) u16, NONE either way. */
static inline uint32_t twz_cell_node_at(const uint8_t *cell_node, int narrow,
					uint64_t i)
{
	if (narrow) {
		uint32_t n = twz_le16(cell_node + 2 * i);
		return n == TWZ_NARROW_NONE ? TWZ_NODE_NONE : n;
	}
	return twz_le32(cell_node + 4 * i);
}

static inline uint64_t twz_le64(const uint8_t *p)
{
	return (uint64_t)twz_le32(p) | (uint64_t)twz_le32(p + 4) << 32;
}

static inline void twz_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void twz_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void twz_put64(uint8_t *p, uint64_t v)
{
	twz_put32(p, (uint32_t)v);
	twz_put32(p + 4, (uint32_t)(v >> 32));
}

/* The region holding node n: regions is REGIONS' u32[count + 1]. */
static inline uint32_t twz_region_of(const uint8_t *regions, uint32_t count,
				     uint32_t n)
{
	uint32_t lo = 0, hi = count;  /* first[lo] <= n < first[hi] */

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (twz_le32(regions + 4 * (size_t)mid) <= n)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The nodes of the region holding node n (the targets of n's row). */
static inline uint32_t twz_region_size_of(const uint8_t *regions,
					  uint32_t count, uint32_t n)
{
	uint32_t k = twz_region_of(regions, count, n);

	return twz_le32(regions + 4 * ((size_t)k + 1)) -
	       twz_le32(regions + 4 * (size_t)k);
}

#endif /* TWZ_FORMAT_H */
