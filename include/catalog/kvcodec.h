/*
 * kvcodec.h: how catalog rows become keys and values in the LSM store, and back.
 *
 * The SQL layer hands rows of DuckLake's metadata tables as arrays of KvDatum in the
 * table's column order (DuckLake 0.3's CREATE TABLE statements, doc/ducklake-wire.md); this module turns each row into a
 * key that sorts the way DuckLake reads (by parent id, then id, newest version first)
 * and a value holding every column (a protobuf message from catalog.proto behind a
 * 5-byte header). Everything is driven by one descriptor table (KvTable) plus
 * protobuf-c's reflection, so adding a table means one descriptor line in kvcodec.c
 * and one message in catalog.proto.
 *
 * KEYS
 *   [tag u8][component]...[row id]  Components, in the order each table lists them:
 *     id        u64 big-endian of a non-negative BIGINT, so byte order = numeric order
 *     !snapshot u64 big-endian of (UINT64_MAX - begin_snapshot): newest version first
 *     text      the bytes followed by 0x00 (text never holds NUL), so byte order = text
 *               order and no key is a prefix of another
 *     ?id ?text nullable: 0x00 for NULL, else 0x01 then the component (NULL sorts first)
 *     row id    u64 big-endian of the row's _rl_rowid with its sign bit flipped
 *               (kv_append_row_id), so byte order = numeric order
 *   A key column must not be NULL (unless nullable) or negative: RL_INVALID.
 *   Key columns are immutable for a row: changing one is a delete plus an insert.
 *   A table is "versioned" when its key ends in !begin_snapshot: several rows share the
 *   id and a prefix scan over the id meets the newest one first.
 *
 *   THE ROW ID ENDS EVERY KEY. The components are not a key of the table: DuckLake's
 *   DDL declares only the primary keys below, and PostgreSQL stores any two rows the
 *   DDL lets through (DuckDB 1.4.4's ducklake_add_data_files of a file partitioned by
 *   year and month writes two ducklake_file_partition_value rows with the same file and
 *   partition_key_index). Only the constraints a client declared are enforced (by the
 *   cache's SQLite table); the components group and order a table's rows, and the row
 *   id, the row's _rl_rowid in the cache, makes every key unique and carries the row's
 *   place in the table (scan order, ctid) across a rebuild of the cache. A row whose
 *   key columns this layout cannot encode (NULL, negative) is stored by the cache as a
 *   generic row of its relation (0x80), as PostgreSQL stores it. Stores written
 *   before this rule hold keys without the row id; kv_decode_key accepts both
 *   (doc/design.md section 4, "The cache's write path", says how the cache keeps
 *   such rows).
 *
 *   tag   table (ducklake_...)         components                           declared key
 *   0x01  metadata                     ?scope, ?scope_id, key               -
 *   0x02  snapshot                     snapshot_id                          PRIMARY KEY (snapshot_id)
 *   0x03  snapshot_changes             snapshot_id                          PRIMARY KEY (snapshot_id)
 *   0x04  schema                       schema_id, !begin_snapshot           PRIMARY KEY (schema_id)
 *   0x05  table                        schema_id, table_id, !begin_snapshot -
 *   0x06  column                       table_id, column_id, !begin_snapshot -
 *   0x07  data_file                    table_id, data_file_id               PRIMARY KEY (data_file_id)
 *   0x08  delete_file                  table_id, delete_file_id             PRIMARY KEY (delete_file_id)
 *   0x09  file_column_stats            data_file_id, column_id              -
 *   0x0A  table_stats                  table_id                             -
 *   0x0B  view                         schema_id, view_id, !begin_snapshot  -
 *   0x0C..0x10 reserved: macro, table_macro, index, type, sequence (not in 0.3)
 *   0x11  tag                          object_id, key, !begin_snapshot      -
 *   0x12  column_tag                   table_id, column_id, key, !begin_snapshot -
 *   0x13  table_column_stats           table_id, column_id                  -
 *   0x14  partition_info               table_id, partition_id               -
 *   0x15  partition_column             table_id, partition_id, partition_key_index -
 *   0x16  file_partition_value         table_id, data_file_id, partition_key_index -
 *   0x17  files_scheduled_for_deletion data_file_id                         -
 *   0x18  inlined_data_tables          table_id, schema_version             -
 *   0x19  column_mapping               table_id, mapping_id                 -
 *   0x1A  name_mapping                 mapping_id, column_id                -
 *   0x1B  schema_versions              begin_snapshot                       -
 *   (the declared keys of DuckLake 0.3's and 1.0's CREATE TABLE statements, which
 *   are the same for these tables)
 *   Tags 0x01..0x0B follow the first key plan (its 0x01 was the catalog root: here
 *   ducklake_metadata, the catalog-wide settings; 0x03 is the gap it leaves, next to
 *   ducklake_snapshot).
 *   The parent id in front (schema_id, table_id) groups rows for prefix scans.
 *
 *   0x80  generic relation row: [0x80][relation id u32 BE][row key u64 BE]; the row key
 *         is the relation's integer primary key or a row id the writer hands out
 *   0xFE  counter: [0xFE][counter name, ASCII]     (KvCounter)
 *   0xFF  system:  [0xFF][system key name, ASCII]  (KvSystemKey)
 *
 * VALUES
 *   [format version u8 = 1]["SDKV"][protobuf bytes]. Known tables: their catalog.proto
 *   message; generic rows: GenericRow; counters and system keys: SystemValue. A short or
 *   wrong header, an unknown version or bytes protobuf cannot unpack give RL_CORRUPT.
 *
 * COLUMN TYPES (catalog.proto's convention)
 *   BIGINT -> KV_INT64, VARCHAR -> KV_TEXT, BOOLEAN -> KV_BOOL,
 *   TIMESTAMPTZ -> KV_INT64 (microseconds since 2000-01-01 UTC, PostgreSQL's binary form),
 *   UUID -> KV_BYTES of exactly 16 bytes. Any column may be KV_NULL unless NOT NULL.
 */
#ifndef KVCODEC_H
#define KVCODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/rl_buffer.h"
#include "common/rl_status.h"

struct ProtobufCMessageDescriptor;

#define KV_VALUE_FORMAT_VERSION	1
#define KV_VALUE_MAGIC			"SDKV"
#define KV_VALUE_HEADER_LEN		5

#define KV_TAG_GENERIC			0x80
#define KV_TAG_COUNTER			0xFE
#define KV_TAG_SYSTEM			0xFF

#define KV_MAX_KEY_COLUMNS		4
#define KV_ROW_ID_LEN			8
#define KV_ROW_ID_SIGN			0x8000000000000000ULL

/* One column value. s/len hold KV_TEXT and KV_BYTES; the other members their type. */
typedef enum KvDatumType
{
	KV_NULL = 0,
	KV_INT64,
	KV_DOUBLE,
	KV_TEXT,
	KV_BOOL,
	KV_BYTES
} KvDatumType;

typedef struct KvDatum
{
	KvDatumType type;
	int64_t		i;
	double		d;
	const char *s;
	size_t		len;
	bool		b;
} KvDatum;

/* A decoded row: columns point into storage owned by the row; free with kv_row_free. */
typedef struct KvRow
{
	int			ncolumns;
	KvDatum    *columns;
	void	   *message;		/* the unpacked protobuf message the datums point into */
} KvRow;

/* The SQL type of a column of a known table. */
typedef enum KvColumnType
{
	KV_COL_BIGINT,
	KV_COL_VARCHAR,
	KV_COL_BOOLEAN,
	KV_COL_TIMESTAMPTZ,
	KV_COL_UUID
} KvColumnType;

/* How one key column is encoded (see KEYS above). */
typedef enum KvKeyKind
{
	KV_KEY_ID,					/* id */
	KV_KEY_SNAPSHOT_DESC,		/* !snapshot */
	KV_KEY_TEXT,				/* text */
	KV_KEY_NULLABLE_ID,			/* ?id */
	KV_KEY_NULLABLE_TEXT		/* ?text */
} KvKeyKind;

typedef struct KvKeyColumn
{
	const char *column;			/* column name; NULL ends the list */
	KvKeyKind	kind;
} KvKeyColumn;

/* The descriptor of one DuckLake table. */
typedef struct KvTable
{
	uint8_t		tag;
	const char *name;
	const struct ProtobufCMessageDescriptor *message;
	KvKeyColumn key[KV_MAX_KEY_COLUMNS + 1];
} KvTable;

/* --- the descriptor table --- */
int			kv_table_count(void);
const KvTable *kv_table_at(int index);
const KvTable *kv_table_by_name(const char *name);
const KvTable *kv_table_by_tag(uint8_t tag);

int			kv_table_ncolumns(const KvTable *table);
const char *kv_table_column_name(const KvTable *table, int column);
KvColumnType kv_table_column_type(const KvTable *table, int column);
bool		kv_table_column_nullable(const KvTable *table, int column);
/* -1 when the table has no such column. */
int			kv_table_column_index(const KvTable *table, const char *name);
int			kv_table_nkey(const KvTable *table);
/* Row column index of key column k. */
int			kv_table_key_column(const KvTable *table, int k);
bool		kv_table_versioned(const KvTable *table);

/* --- rows of known tables --- */

/*
 * Append the key (without its row id) and the value of row (ncolumns datums in the
 * table's column order) to key and value. On error (RL_INVALID: wrong column count or type, NULL in a NOT NULL
 * or key column, negative key id, NUL in text, UUID not 16 bytes) both are left as
 * they were and rl_last_error() says which column.
 */
RlStatus	kv_encode_row(const KvTable *table, const KvDatum *row, int ncolumns,
						  RlBuf *key, RlBuf *value);
/* Append only the key of row (to delete or look up a row). */
RlStatus	kv_encode_key(const KvTable *table, const KvDatum *row, int ncolumns, RlBuf *key);

/*
 * Append the tag and the first ncomponents key components (values in key order, e.g.
 * {schema_id} for ducklake_table): the prefix every key of those rows starts with.
 * ncomponents = 0 gives the one-byte prefix of the whole table.
 */
RlStatus	kv_encode_key_prefix(const KvTable *table, const KvDatum *components,
								 int ncomponents, RlBuf *key);

/* Append the row id that ends a key made by kv_encode_row or kv_encode_key. */
void		kv_append_row_id(RlBuf *key, int64_t row_id);

/*
 * Parse a key of a known table: its descriptor, its key components in key order
 * (text components point into key) and its row id (*has_row_id false for a key
 * written before keys ended in one). RL_NOT_FOUND for a tag that is not a known
 * table, RL_CORRUPT for a malformed key.
 */
RlStatus	kv_decode_key(const uint8_t *key, size_t len, const KvTable **table,
						  KvDatum components[KV_MAX_KEY_COLUMNS], bool *has_row_id, int64_t *row_id);

/* Decode a value of table into a row (free it with kv_row_free). RL_CORRUPT on damage. */
RlStatus	kv_decode_value(const KvTable *table, const uint8_t *value, size_t len, KvRow *row);
void		kv_row_free(KvRow *row);

/* --- rows of relations the layout does not know (tag 0x80) --- */
void		kv_generic_key(uint32_t relation_id, uint64_t row_key, RlBuf *key);
/* [0x80][relation id]: the prefix of every row of the relation. */
void		kv_generic_prefix(uint32_t relation_id, RlBuf *key);
RlStatus	kv_decode_generic_key(const uint8_t *key, size_t len,
								  uint32_t *relation_id, uint64_t *row_key);
/* Any datum types; RL_INVALID only for NUL inside text. */
RlStatus	kv_encode_generic_value(const KvDatum *row, int ncolumns, RlBuf *value);
RlStatus	kv_decode_generic_value(const uint8_t *value, size_t len, KvRow *row);

/* --- system keys: counters (0xFE) and system state (0xFF), each holding a u64 --- */
typedef enum KvCounter
{
	KV_COUNTER_NEXT_CATALOG_ID,	/* "next_catalog_id": schema/table/view/column... ids */
	KV_COUNTER_NEXT_FILE_ID,	/* "next_file_id": data and delete file ids */
	KV_COUNTER_COMMIT_SEQ,		/* "commit_seq": sequence number of the last commit */
	KV_COUNTER_NEXT_RELATION_ID,	/* "next_relation_id": ids of generic relations */
	KV_COUNTER_NEXT_ROW_KEY		/* "next_row_key": row keys of keyless generic rows */
} KvCounter;

typedef enum KvSystemKey
{
	KV_SYSTEM_WRITER_EPOCH,		/* "writer-epoch" */
	KV_SYSTEM_FORMAT_VERSION,	/* "catalog-format-version" */
	KV_SYSTEM_RETAIN_FROM		/* "retain-from": retention horizon snapshot */
} KvSystemKey;

void		kv_counter_key(KvCounter counter, RlBuf *key);
void		kv_system_key(KvSystemKey which, RlBuf *key);
void		kv_encode_system_value(uint64_t v, RlBuf *value);
RlStatus	kv_decode_system_value(const uint8_t *value, size_t len, uint64_t *v);

/* --- rendering for rocklake-admin: both append to out and never fail --- */

/*
 * e.g. "ducklake_table(schema_id=1, table_id=2, begin_snapshot=5)",
 * "relation(relation_id=7, row_key=3)", "counter(next_file_id)", "system(writer-epoch)";
 * a malformed key of a known table "<malformed ducklake_table key: 05...>" and an unknown
 * tag "<unknown key: 42...>" (hex).
 */
void		kv_describe_key(const uint8_t *key, size_t len, RlBuf *out);

/*
 * e.g. "{schema_id: 0, schema_uuid: 6f1c...-..., begin_snapshot: 0, end_snapshot: NULL,
 * schema_name: 'main', ...}"; generic rows "[1, 'x', NULL]"; system values "{value: 7}";
 * a value that does not decode "<corrupt: reason>"; a value under an unknown tag
 * "<value: hex>".
 */
void		kv_describe_value(const uint8_t *key, size_t klen,
							  const uint8_t *value, size_t vlen, RlBuf *out);

#endif
