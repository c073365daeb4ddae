/*
 * kvcodec.c: the key and value encoding of catalog rows (see kvcodec.h for the layout).
 *
 * Nothing here knows any particular DuckLake table. The descriptor table below gives
 * each table its tag, its protobuf message and its key columns; columns, their types
 * and their nullability come from the message's protobuf-c descriptor (catalog.proto's
 * conventions: field N is column N, `required` is NOT NULL, sfixed64 is TIMESTAMPTZ,
 * bytes is UUID), and fields are read and written by offset. Values are unpacked with
 * the system allocator and kept alive inside a decoded KvRow so that its text datums
 * can point into them without copying.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <protobuf-c/protobuf-c.h>

#include "catalog.pb-c.h"
#include "catalog/kvcodec.h"

/* Seconds from the Unix epoch to PostgreSQL's (2000-01-01 UTC). */
#define POSTGRES_EPOCH_UNIX_SECONDS 946684800LL
#define UUID_LEN 16
/* How many bytes of an undecodable value kv_describe_value shows in hex. */
#define DESCRIBE_HEX_LIMIT 256

#define KEY_ID(column)		{column, KV_KEY_ID}
#define KEY_BEGIN_DESC		{"begin_snapshot", KV_KEY_SNAPSHOT_DESC}
#define KEY_TEXT(column)	{column, KV_KEY_TEXT}

static const KvTable kv_tables[] = {
	{0x01, "ducklake_metadata", &rocklake__ducklake_metadata__descriptor,
	{{"scope", KV_KEY_NULLABLE_TEXT}, {"scope_id", KV_KEY_NULLABLE_ID}, KEY_TEXT("key")}},
	{0x02, "ducklake_snapshot", &rocklake__ducklake_snapshot__descriptor,
	{KEY_ID("snapshot_id")}},
	{0x03, "ducklake_snapshot_changes", &rocklake__ducklake_snapshot_changes__descriptor,
	{KEY_ID("snapshot_id")}},
	{0x04, "ducklake_schema", &rocklake__ducklake_schema__descriptor,
	{KEY_ID("schema_id"), KEY_BEGIN_DESC}},
	{0x05, "ducklake_table", &rocklake__ducklake_table__descriptor,
	{KEY_ID("schema_id"), KEY_ID("table_id"), KEY_BEGIN_DESC}},
	{0x06, "ducklake_column", &rocklake__ducklake_column__descriptor,
	{KEY_ID("table_id"), KEY_ID("column_id"), KEY_BEGIN_DESC}},
	{0x07, "ducklake_data_file", &rocklake__ducklake_data_file__descriptor,
	{KEY_ID("table_id"), KEY_ID("data_file_id")}},
	{0x08, "ducklake_delete_file", &rocklake__ducklake_delete_file__descriptor,
	{KEY_ID("table_id"), KEY_ID("delete_file_id")}},
	{0x09, "ducklake_file_column_stats", &rocklake__ducklake_file_column_stats__descriptor,
	{KEY_ID("data_file_id"), KEY_ID("column_id")}},
	{0x0A, "ducklake_table_stats", &rocklake__ducklake_table_stats__descriptor,
	{KEY_ID("table_id")}},
	{0x0B, "ducklake_view", &rocklake__ducklake_view__descriptor,
	{KEY_ID("schema_id"), KEY_ID("view_id"), KEY_BEGIN_DESC}},
	{0x11, "ducklake_tag", &rocklake__ducklake_tag__descriptor,
	{KEY_ID("object_id"), KEY_TEXT("key"), KEY_BEGIN_DESC}},
	{0x12, "ducklake_column_tag", &rocklake__ducklake_column_tag__descriptor,
	{KEY_ID("table_id"), KEY_ID("column_id"), KEY_TEXT("key"), KEY_BEGIN_DESC}},
	{0x13, "ducklake_table_column_stats", &rocklake__ducklake_table_column_stats__descriptor,
	{KEY_ID("table_id"), KEY_ID("column_id")}},
	{0x14, "ducklake_partition_info", &rocklake__ducklake_partition_info__descriptor,
	{KEY_ID("table_id"), KEY_ID("partition_id")}},
	{0x15, "ducklake_partition_column", &rocklake__ducklake_partition_column__descriptor,
	{KEY_ID("table_id"), KEY_ID("partition_id"), KEY_ID("partition_key_index")}},
	{0x16, "ducklake_file_partition_value", &rocklake__ducklake_file_partition_value__descriptor,
	{KEY_ID("table_id"), KEY_ID("data_file_id"), KEY_ID("partition_key_index")}},
	{0x17, "ducklake_files_scheduled_for_deletion",
		&rocklake__ducklake_files_scheduled_for_deletion__descriptor,
	{KEY_ID("data_file_id")}},
	{0x18, "ducklake_inlined_data_tables", &rocklake__ducklake_inlined_data_tables__descriptor,
	{KEY_ID("table_id"), KEY_ID("schema_version")}},
	{0x19, "ducklake_column_mapping", &rocklake__ducklake_column_mapping__descriptor,
	{KEY_ID("table_id"), KEY_ID("mapping_id")}},
	{0x1A, "ducklake_name_mapping", &rocklake__ducklake_name_mapping__descriptor,
	{KEY_ID("mapping_id"), KEY_ID("column_id")}},
	{0x1B, "ducklake_schema_versions", &rocklake__ducklake_schema_versions__descriptor,
	{KEY_ID("begin_snapshot")}},
};

#define KV_TABLE_COUNT ((int) (sizeof(kv_tables) / sizeof(kv_tables[0])))

static const char *const counter_names[] = {
	[KV_COUNTER_NEXT_CATALOG_ID] = "next_catalog_id",
	[KV_COUNTER_NEXT_FILE_ID] = "next_file_id",
	[KV_COUNTER_COMMIT_SEQ] = "commit_seq",
	[KV_COUNTER_NEXT_RELATION_ID] = "next_relation_id",
	[KV_COUNTER_NEXT_ROW_KEY] = "next_row_key",
};

static const char *const system_key_names[] = {
	[KV_SYSTEM_WRITER_EPOCH] = "writer-epoch",
	[KV_SYSTEM_FORMAT_VERSION] = "catalog-format-version",
	[KV_SYSTEM_RETAIN_FROM] = "retain-from",
};

#define NAME_COUNT(names) ((int) (sizeof(names) / sizeof(names[0])))

/* ---------------------------------------------------------------- descriptors */

int
kv_table_count(void)
{
	return KV_TABLE_COUNT;
}

const KvTable *
kv_table_at(int index)
{
	if (index < 0 || index >= KV_TABLE_COUNT)
		return NULL;
	return &kv_tables[index];
}

const KvTable *
kv_table_by_name(const char *name)
{
	for (int i = 0; i < KV_TABLE_COUNT; i++)
		if (strcmp(kv_tables[i].name, name) == 0)
			return &kv_tables[i];
	return NULL;
}

const KvTable *
kv_table_by_tag(uint8_t tag)
{
	for (int i = 0; i < KV_TABLE_COUNT; i++)
		if (kv_tables[i].tag == tag)
			return &kv_tables[i];
	return NULL;
}

int
kv_table_ncolumns(const KvTable *table)
{
	return (int) table->message->n_fields;
}

const char *
kv_table_column_name(const KvTable *table, int column)
{
	return table->message->fields[column].name;
}

KvColumnType
kv_table_column_type(const KvTable *table, int column)
{
	switch (table->message->fields[column].type)
	{
		case PROTOBUF_C_TYPE_INT64:
			return KV_COL_BIGINT;
		case PROTOBUF_C_TYPE_STRING:
			return KV_COL_VARCHAR;
		case PROTOBUF_C_TYPE_BOOL:
			return KV_COL_BOOLEAN;
		case PROTOBUF_C_TYPE_SFIXED64:
			return KV_COL_TIMESTAMPTZ;
		case PROTOBUF_C_TYPE_BYTES:
			return KV_COL_UUID;
		default:
			/* catalog.proto broke its own convention: a build error, not data */
			abort();
	}
}

bool
kv_table_column_nullable(const KvTable *table, int column)
{
	return table->message->fields[column].label != PROTOBUF_C_LABEL_REQUIRED;
}

int
kv_table_column_index(const KvTable *table, const char *name)
{
	const ProtobufCFieldDescriptor *field =
		protobuf_c_message_descriptor_get_field_by_name(table->message, name);

	return field ? (int) (field - table->message->fields) : -1;
}

int
kv_table_nkey(const KvTable *table)
{
	int			n = 0;

	while (n < KV_MAX_KEY_COLUMNS && table->key[n].column != NULL)
		n++;
	return n;
}

int
kv_table_key_column(const KvTable *table, int k)
{
	return kv_table_column_index(table, table->key[k].column);
}

bool
kv_table_versioned(const KvTable *table)
{
	int			n = kv_table_nkey(table);

	return n > 0 && table->key[n - 1].kind == KV_KEY_SNAPSHOT_DESC;
}

/* ---------------------------------------------------------------- value header */

static const char *
datum_type_name(KvDatumType type)
{
	switch (type)
	{
		case KV_NULL:
			return "NULL";
		case KV_INT64:
			return "int64";
		case KV_DOUBLE:
			return "double";
		case KV_TEXT:
			return "text";
		case KV_BOOL:
			return "bool";
		case KV_BYTES:
			return "bytes";
	}
	return "invalid datum type";
}

/* Append the header and msg packed. */
static void
append_value(RlBuf *value, const ProtobufCMessage *msg)
{
	size_t		size = protobuf_c_message_get_packed_size(msg);

	rlbuf_put_u8(value, KV_VALUE_FORMAT_VERSION);
	rlbuf_append(value, KV_VALUE_MAGIC, 4);
	rlbuf_reserve(value, size);
	protobuf_c_message_pack(msg, value->data + value->len);
	value->len += size;
}

/* Check the header and unpack the rest as a desc message; what names it in errors. */
static RlStatus
unpack_value(const ProtobufCMessageDescriptor *desc, const char *what,
			 const uint8_t *value, size_t len, ProtobufCMessage **msg)
{
	*msg = NULL;
	if (len < KV_VALUE_HEADER_LEN)
		return rl_error(RL_CORRUPT, "%s value: %zu bytes is shorter than the %d-byte header",
						what, len, KV_VALUE_HEADER_LEN);
	if (memcmp(value + 1, KV_VALUE_MAGIC, 4) != 0)
		return rl_error(RL_CORRUPT, "%s value: bad magic (expected \"%s\")",
						what, KV_VALUE_MAGIC);
	if (value[0] != KV_VALUE_FORMAT_VERSION)
		return rl_error(RL_CORRUPT, "%s value: unknown format version %u (this build reads %d)",
						what, value[0], KV_VALUE_FORMAT_VERSION);
	*msg = protobuf_c_message_unpack(desc, NULL, len - KV_VALUE_HEADER_LEN,
									 value + KV_VALUE_HEADER_LEN);
	if (*msg == NULL)
		return rl_error(RL_CORRUPT, "%s value: %zu protobuf bytes do not unpack as %s",
						what, len - KV_VALUE_HEADER_LEN, desc->name);
	return RL_OK;
}

/* ---------------------------------------------------------------- keys */

static RlStatus
check_text(const char *table, const char *column, const KvDatum *d)
{
	if (d->len > 0 && memchr(d->s, '\0', d->len) != NULL)
		return rl_error(RL_INVALID, "%s.%s: text contains a NUL byte", table, column);
	return RL_OK;
}

static RlStatus
append_key_component(const KvTable *table, const KvKeyColumn *kc, const KvDatum *d, RlBuf *key)
{
	bool		nullable = kc->kind == KV_KEY_NULLABLE_ID || kc->kind == KV_KEY_NULLABLE_TEXT;
	bool		text = kc->kind == KV_KEY_TEXT || kc->kind == KV_KEY_NULLABLE_TEXT;
	KvDatumType want = text ? KV_TEXT : KV_INT64;
	RlStatus	status;

	if (d->type == KV_NULL && nullable)
	{
		rlbuf_put_u8(key, 0x00);
		return RL_OK;
	}
	if (d->type != want)
		return rl_error(RL_INVALID, "%s.%s: key column must be %s, got %s",
						table->name, kc->column, datum_type_name(want),
						datum_type_name(d->type));
	if (nullable)
		rlbuf_put_u8(key, 0x01);
	if (text)
	{
		if ((status = check_text(table->name, kc->column, d)) != RL_OK)
			return status;
		rlbuf_append(key, d->s, d->len);
		rlbuf_put_u8(key, 0x00);
		return RL_OK;
	}
	if (d->i < 0)
		return rl_error(RL_INVALID, "%s.%s: negative key id %lld",
						table->name, kc->column, (long long) d->i);
	rlbuf_put_u64be(key, kc->kind == KV_KEY_SNAPSHOT_DESC ?
					UINT64_MAX - (uint64_t) d->i : (uint64_t) d->i);
	return RL_OK;
}

RlStatus
kv_encode_key_prefix(const KvTable *table, const KvDatum *components, int ncomponents,
					 RlBuf *key)
{
	size_t		start = key->len;

	if (ncomponents < 0 || ncomponents > kv_table_nkey(table))
		return rl_error(RL_INVALID, "%s: %d key components, the key has %d",
						table->name, ncomponents, kv_table_nkey(table));
	rlbuf_put_u8(key, table->tag);
	for (int k = 0; k < ncomponents; k++)
	{
		RlStatus	status = append_key_component(table, &table->key[k], &components[k], key);

		if (status != RL_OK)
		{
			key->len = start;
			return status;
		}
	}
	return RL_OK;
}

static RlStatus
check_column_count(const KvTable *table, int ncolumns)
{
	if (ncolumns != kv_table_ncolumns(table))
		return rl_error(RL_INVALID, "%s: row has %d columns, the table has %d",
						table->name, ncolumns, kv_table_ncolumns(table));
	return RL_OK;
}

RlStatus
kv_encode_key(const KvTable *table, const KvDatum *row, int ncolumns, RlBuf *key)
{
	KvDatum		components[KV_MAX_KEY_COLUMNS];
	int			nkey = kv_table_nkey(table);
	RlStatus	status;

	if ((status = check_column_count(table, ncolumns)) != RL_OK)
		return status;
	for (int k = 0; k < nkey; k++)
		components[k] = row[kv_table_key_column(table, k)];
	return kv_encode_key_prefix(table, components, nkey, key);
}

/* Read one key component at r; false when the key is malformed. */
static bool
read_key_component(RlReader *r, KvKeyKind kind, KvDatum *d)
{
	memset(d, 0, sizeof(*d));
	if (kind == KV_KEY_NULLABLE_ID || kind == KV_KEY_NULLABLE_TEXT)
	{
		uint8_t		present = rlreader_u8(r);

		if (r->failed || present > 1)
			return false;
		if (!present)
		{
			d->type = KV_NULL;
			return true;
		}
	}
	if (kind == KV_KEY_TEXT || kind == KV_KEY_NULLABLE_TEXT)
	{
		const uint8_t *nul = memchr(r->p, '\0', rlreader_remaining(r));

		if (nul == NULL)
			return false;
		d->type = KV_TEXT;
		d->len = (size_t) (nul - r->p);
		d->s = (const char *) rlreader_bytes(r, d->len + 1);
		return true;
	}

	const uint8_t *bytes = rlreader_bytes(r, 8);
	uint64_t	v;

	if (bytes == NULL)
		return false;
	v = rl_load_u64be(bytes);
	if (kind == KV_KEY_SNAPSHOT_DESC)
		v = UINT64_MAX - v;
	if (v > INT64_MAX)
		return false;
	d->type = KV_INT64;
	d->i = (int64_t) v;
	return true;
}

void
kv_append_row_id(RlBuf *key, int64_t row_id)
{
	rlbuf_put_u64be(key, (uint64_t) row_id ^ KV_ROW_ID_SIGN);
}

RlStatus
kv_decode_key(const uint8_t *key, size_t len, const KvTable **table,
			  KvDatum components[KV_MAX_KEY_COLUMNS], bool *has_row_id, int64_t *row_id)
{
	RlReader	r;

	*table = len > 0 ? kv_table_by_tag(key[0]) : NULL;
	if (*table == NULL)
		return rl_error(RL_NOT_FOUND, "key of %zu bytes is not a known table's", len);
	rlreader_init(&r, key + 1, len - 1);
	for (int k = 0; k < kv_table_nkey(*table); k++)
		if (!read_key_component(&r, (*table)->key[k].kind, &components[k]))
			return rl_error(RL_CORRUPT, "%s key: malformed component %s",
							(*table)->name, (*table)->key[k].column);
	*has_row_id = rlreader_remaining(&r) == KV_ROW_ID_LEN;
	if (rlreader_remaining(&r) != 0 && !*has_row_id)
		return rl_error(RL_CORRUPT, "%s key: %zu trailing bytes",
						(*table)->name, rlreader_remaining(&r));
	*row_id = *has_row_id ? (int64_t) (rl_load_u64be(rlreader_bytes(&r, KV_ROW_ID_LEN)) ^ KV_ROW_ID_SIGN) : 0;
	return RL_OK;
}

/* ---------------------------------------------------------------- values of known tables */

static KvDatumType
datum_type_for(KvColumnType type)
{
	switch (type)
	{
		case KV_COL_BIGINT:
		case KV_COL_TIMESTAMPTZ:
			return KV_INT64;
		case KV_COL_VARCHAR:
			return KV_TEXT;
		case KV_COL_BOOLEAN:
			return KV_BOOL;
		case KV_COL_UUID:
			return KV_BYTES;
	}
	abort();
}

/* Store d into column of msg (allocations become the message's, freed with it). */
static RlStatus
set_column(const KvTable *table, int column, const KvDatum *d, ProtobufCMessage *msg)
{
	const ProtobufCFieldDescriptor *field = &table->message->fields[column];
	char	   *member = (char *) msg + field->offset;
	KvDatumType want = datum_type_for(kv_table_column_type(table, column));
	RlStatus	status;

	if (d->type == KV_NULL)
	{
		if (field->label == PROTOBUF_C_LABEL_REQUIRED)
			return rl_error(RL_INVALID, "%s.%s: NULL in a NOT NULL column",
							table->name, field->name);
		return RL_OK;			/* message_init left it absent */
	}
	if (d->type != want)
		return rl_error(RL_INVALID, "%s.%s: expected %s, got %s", table->name, field->name,
						datum_type_name(want), datum_type_name(d->type));
	switch (field->type)
	{
		case PROTOBUF_C_TYPE_INT64:
		case PROTOBUF_C_TYPE_SFIXED64:
			*(int64_t *) member = d->i;
			break;
		case PROTOBUF_C_TYPE_BOOL:
			*(protobuf_c_boolean *) member = d->b;
			break;
		case PROTOBUF_C_TYPE_STRING:
			{
				char	   *copy;

				if ((status = check_text(table->name, field->name, d)) != RL_OK)
					return status;
				copy = malloc(d->len + 1);
				if (copy == NULL)
					abort();
				if (d->len > 0)
					memcpy(copy, d->s, d->len);
				copy[d->len] = '\0';
				*(char **) member = copy;
				break;
			}
		case PROTOBUF_C_TYPE_BYTES:
			{
				ProtobufCBinaryData *bin = (ProtobufCBinaryData *) member;

				if (d->len != UUID_LEN)
					return rl_error(RL_INVALID, "%s.%s: a UUID is %d bytes, got %zu",
									table->name, field->name, UUID_LEN, d->len);
				bin->data = malloc(UUID_LEN);
				if (bin->data == NULL)
					abort();
				memcpy(bin->data, d->s, UUID_LEN);
				bin->len = UUID_LEN;
				break;
			}
		default:
			abort();
	}
	/* optional scalars and bytes carry a has_ flag; strings are present when non-NULL */
	if (field->label == PROTOBUF_C_LABEL_OPTIONAL && field->type != PROTOBUF_C_TYPE_STRING)
		*(protobuf_c_boolean *) ((char *) msg + field->quantifier_offset) = 1;
	return RL_OK;
}

static RlStatus
encode_value(const KvTable *table, const KvDatum *row, RlBuf *value)
{
	ProtobufCMessage *msg = malloc(table->message->sizeof_message);
	RlStatus	status = RL_OK;

	if (msg == NULL)
		abort();
	table->message->message_init(msg);
	for (int c = 0; c < kv_table_ncolumns(table) && status == RL_OK; c++)
		status = set_column(table, c, &row[c], msg);
	if (status == RL_OK)
		append_value(value, msg);
	protobuf_c_message_free_unpacked(msg, NULL);
	return status;
}

RlStatus
kv_encode_row(const KvTable *table, const KvDatum *row, int ncolumns,
			  RlBuf *key, RlBuf *value)
{
	size_t		key_start = key->len;
	RlStatus	status;

	if ((status = kv_encode_key(table, row, ncolumns, key)) != RL_OK)
		return status;
	if ((status = encode_value(table, row, value)) != RL_OK)
		key->len = key_start;
	return status;
}

/* Read column of msg into d (text and bytes point into msg). */
static RlStatus
get_column(const KvTable *table, int column, const ProtobufCMessage *msg, KvDatum *d)
{
	const ProtobufCFieldDescriptor *field = &table->message->fields[column];
	const char *member = (const char *) msg + field->offset;

	memset(d, 0, sizeof(*d));
	d->type = KV_NULL;
	if (field->type == PROTOBUF_C_TYPE_STRING)
	{
		const char *s = *(char *const *) member;

		if (s != NULL)
		{
			d->type = KV_TEXT;
			d->s = s;
			d->len = strlen(s);
		}
		return RL_OK;
	}
	if (field->label == PROTOBUF_C_LABEL_OPTIONAL &&
		!*(const protobuf_c_boolean *) ((const char *) msg + field->quantifier_offset))
		return RL_OK;
	d->type = datum_type_for(kv_table_column_type(table, column));
	switch (field->type)
	{
		case PROTOBUF_C_TYPE_INT64:
		case PROTOBUF_C_TYPE_SFIXED64:
			d->i = *(const int64_t *) member;
			break;
		case PROTOBUF_C_TYPE_BOOL:
			d->b = *(const protobuf_c_boolean *) member;
			break;
		case PROTOBUF_C_TYPE_BYTES:
			{
				const ProtobufCBinaryData *bin = (const ProtobufCBinaryData *) member;

				if (bin->len != UUID_LEN)
					return rl_error(RL_CORRUPT, "%s value: %s is a UUID of %zu bytes",
									table->name, field->name, bin->len);
				d->s = (const char *) bin->data;
				d->len = bin->len;
				break;
			}
		default:
			abort();
	}
	return RL_OK;
}

RlStatus
kv_decode_value(const KvTable *table, const uint8_t *value, size_t len, KvRow *row)
{
	ProtobufCMessage *msg;
	RlStatus	status;

	memset(row, 0, sizeof(*row));
	if ((status = unpack_value(table->message, table->name, value, len, &msg)) != RL_OK)
		return status;
	row->message = msg;
	row->ncolumns = kv_table_ncolumns(table);
	row->columns = calloc((size_t) row->ncolumns, sizeof(KvDatum));
	if (row->columns == NULL)
		abort();
	for (int c = 0; c < row->ncolumns; c++)
		if ((status = get_column(table, c, msg, &row->columns[c])) != RL_OK)
		{
			kv_row_free(row);
			return status;
		}
	return RL_OK;
}

void
kv_row_free(KvRow *row)
{
	if (row->message != NULL)
		protobuf_c_message_free_unpacked(row->message, NULL);
	free(row->columns);
	memset(row, 0, sizeof(*row));
}

/* ---------------------------------------------------------------- generic relations */

void
kv_generic_prefix(uint32_t relation_id, RlBuf *key)
{
	rlbuf_put_u8(key, KV_TAG_GENERIC);
	rlbuf_put_u32be(key, relation_id);
}

void
kv_generic_key(uint32_t relation_id, uint64_t row_key, RlBuf *key)
{
	kv_generic_prefix(relation_id, key);
	rlbuf_put_u64be(key, row_key);
}

RlStatus
kv_decode_generic_key(const uint8_t *key, size_t len, uint32_t *relation_id, uint64_t *row_key)
{
	if (len != 1 + 4 + 8 || key[0] != KV_TAG_GENERIC)
		return rl_error(RL_CORRUPT, "generic relation key: %zu bytes, expected 13 starting 0x80",
						len);
	*relation_id = rl_load_u32be(key + 1);
	*row_key = rl_load_u64be(key + 5);
	return RL_OK;
}

RlStatus
kv_encode_generic_value(const KvDatum *row, int ncolumns, RlBuf *value)
{
	Rocklake__GenericRow msg = ROCKLAKE__GENERIC_ROW__INIT;
	Rocklake__Datum *datums = calloc((size_t) ncolumns + 1, sizeof(Rocklake__Datum));
	Rocklake__Datum **columns = calloc((size_t) ncolumns + 1, sizeof(Rocklake__Datum *));
	RlStatus	status = RL_OK;
	int			c;

	if (datums == NULL || columns == NULL)
		abort();
	for (c = 0; c < ncolumns && status == RL_OK; c++)
	{
		const KvDatum *d = &row[c];
		Rocklake__Datum *out = &datums[c];

		rocklake__datum__init(out);
		columns[c] = out;
		switch (d->type)
		{
			case KV_NULL:
				break;
			case KV_INT64:
				out->value_case = ROCKLAKE__DATUM__VALUE_INT64;
				out->int64 = d->i;
				break;
			case KV_DOUBLE:
				out->value_case = ROCKLAKE__DATUM__VALUE_FLOAT64;
				out->float64 = d->d;
				break;
			case KV_BOOL:
				out->value_case = ROCKLAKE__DATUM__VALUE_BOOLEAN;
				out->boolean = d->b;
				break;
			case KV_BYTES:
				out->value_case = ROCKLAKE__DATUM__VALUE_BYTES;
				out->bytes.data = (uint8_t *) d->s;
				out->bytes.len = d->len;
				break;
			case KV_TEXT:
				if ((status = check_text("generic row", "text", d)) != RL_OK)
					break;
				out->value_case = ROCKLAKE__DATUM__VALUE_TEXT;
				out->text = strndup(d->len > 0 ? d->s : "", d->len);
				if (out->text == NULL)
					abort();
				break;
		}
	}
	if (status == RL_OK)
	{
		msg.n_columns = (size_t) ncolumns;
		msg.columns = columns;
		append_value(value, &msg.base);
	}
	for (int i = 0; i < c; i++)
		if (datums[i].value_case == ROCKLAKE__DATUM__VALUE_TEXT)
			free(datums[i].text);
	free(columns);
	free(datums);
	return status;
}

RlStatus
kv_decode_generic_value(const uint8_t *value, size_t len, KvRow *row)
{
	ProtobufCMessage *msg;
	Rocklake__GenericRow *generic;
	RlStatus	status;

	memset(row, 0, sizeof(*row));
	if ((status = unpack_value(&rocklake__generic_row__descriptor, "generic row",
							   value, len, &msg)) != RL_OK)
		return status;
	generic = (Rocklake__GenericRow *) msg;
	row->message = msg;
	row->ncolumns = (int) generic->n_columns;
	row->columns = calloc(generic->n_columns + 1, sizeof(KvDatum));
	if (row->columns == NULL)
		abort();
	for (size_t c = 0; c < generic->n_columns; c++)
	{
		const Rocklake__Datum *in = generic->columns[c];
		KvDatum    *d = &row->columns[c];

		switch (in->value_case)
		{
			case ROCKLAKE__DATUM__VALUE__NOT_SET:
				d->type = KV_NULL;
				break;
			case ROCKLAKE__DATUM__VALUE_INT64:
				d->type = KV_INT64;
				d->i = in->int64;
				break;
			case ROCKLAKE__DATUM__VALUE_FLOAT64:
				d->type = KV_DOUBLE;
				d->d = in->float64;
				break;
			case ROCKLAKE__DATUM__VALUE_BOOLEAN:
				d->type = KV_BOOL;
				d->b = in->boolean;
				break;
			case ROCKLAKE__DATUM__VALUE_BYTES:
				d->type = KV_BYTES;
				d->s = (const char *) in->bytes.data;
				d->len = in->bytes.len;
				break;
			case ROCKLAKE__DATUM__VALUE_TEXT:
				d->type = KV_TEXT;
				d->s = in->text;
				d->len = strlen(in->text);
				break;
			default:
				kv_row_free(row);
				return rl_error(RL_CORRUPT, "generic row value: column %zu has unknown kind %d",
								c, (int) in->value_case);
		}
	}
	return RL_OK;
}

/* ---------------------------------------------------------------- system keys */

void
kv_counter_key(KvCounter counter, RlBuf *key)
{
	rlbuf_put_u8(key, KV_TAG_COUNTER);
	rlbuf_append_str(key, counter_names[counter]);
}

void
kv_system_key(KvSystemKey which, RlBuf *key)
{
	rlbuf_put_u8(key, KV_TAG_SYSTEM);
	rlbuf_append_str(key, system_key_names[which]);
}

void
kv_encode_system_value(uint64_t v, RlBuf *value)
{
	Rocklake__SystemValue msg = ROCKLAKE__SYSTEM_VALUE__INIT;

	msg.value = v;
	append_value(value, &msg.base);
}

RlStatus
kv_decode_system_value(const uint8_t *value, size_t len, uint64_t *v)
{
	ProtobufCMessage *msg;
	RlStatus	status;

	if ((status = unpack_value(&rocklake__system_value__descriptor, "system",
							   value, len, &msg)) != RL_OK)
		return status;
	*v = ((Rocklake__SystemValue *) msg)->value;
	protobuf_c_message_free_unpacked(msg, NULL);
	return RL_OK;
}

/* ---------------------------------------------------------------- describe */

static void
append_hex(RlBuf *out, const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		rlbuf_printf(out, "%02x", p[i]);
}

/* 'text' with quotes doubled and control bytes as \xNN. */
static void
append_quoted(RlBuf *out, const char *s, size_t len)
{
	rlbuf_put_u8(out, '\'');
	for (size_t i = 0; i < len; i++)
	{
		unsigned char ch = (unsigned char) s[i];

		if (ch == '\'')
			rlbuf_append(out, "''", 2);
		else if (ch < 0x20 || ch == 0x7f)
			rlbuf_printf(out, "\\x%02x", ch);
		else
			rlbuf_put_u8(out, ch);
	}
	rlbuf_put_u8(out, '\'');
}

/* A datum as SQL-ish text: 42, 1.5, 'text', true, '\x0aff', NULL. */
static void
append_datum(RlBuf *out, const KvDatum *d)
{
	switch (d->type)
	{
		case KV_NULL:
			rlbuf_append_str(out, "NULL");
			break;
		case KV_INT64:
			rlbuf_printf(out, "%lld", (long long) d->i);
			break;
		case KV_DOUBLE:
			rlbuf_printf(out, "%.17g", d->d);
			break;
		case KV_TEXT:
			append_quoted(out, d->s, d->len);
			break;
		case KV_BOOL:
			rlbuf_append_str(out, d->b ? "true" : "false");
			break;
		case KV_BYTES:
			rlbuf_append_str(out, "'\\x");
			append_hex(out, (const uint8_t *) d->s, d->len);
			rlbuf_put_u8(out, '\'');
			break;
	}
}

/* PostgreSQL-epoch microseconds as "YYYY-MM-DD HH:MM:SS.ffffff+00". */
static void
append_timestamptz(RlBuf *out, int64_t micros)
{
	int64_t		seconds = micros / 1000000;
	int64_t		fraction = micros % 1000000;
	time_t		unix_seconds;
	struct tm	tm;

	if (fraction < 0)
	{
		fraction += 1000000;
		seconds--;
	}
	unix_seconds = (time_t) (seconds + POSTGRES_EPOCH_UNIX_SECONDS);
	if (gmtime_r(&unix_seconds, &tm) == NULL)
	{
		rlbuf_printf(out, "%lld", (long long) micros);
		return;
	}
	rlbuf_printf(out, "%04d-%02d-%02d %02d:%02d:%02d.%06lld+00",
				 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
				 tm.tm_hour, tm.tm_min, tm.tm_sec, (long long) fraction);
}

static void
append_uuid(RlBuf *out, const uint8_t *p)
{
	for (int i = 0; i < UUID_LEN; i++)
	{
		if (i == 4 || i == 6 || i == 8 || i == 10)
			rlbuf_put_u8(out, '-');
		rlbuf_printf(out, "%02x", p[i]);
	}
}

static void
append_column_value(RlBuf *out, const KvTable *table, int column, const KvDatum *d)
{
	KvColumnType type = kv_table_column_type(table, column);

	if (type == KV_COL_TIMESTAMPTZ && d->type == KV_INT64)
		append_timestamptz(out, d->i);
	else if (type == KV_COL_UUID && d->type == KV_BYTES)
		append_uuid(out, (const uint8_t *) d->s);
	else
		append_datum(out, d);
}

/* Index of name (len bytes) in names, or -1. */
static int
find_name(const char *const *names, int count, const uint8_t *name, size_t len)
{
	for (int i = 0; i < count; i++)
		if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
			return i;
	return -1;
}

void
kv_describe_key(const uint8_t *key, size_t len, RlBuf *out)
{
	const KvTable *table = NULL;
	KvDatum		components[KV_MAX_KEY_COLUMNS];
	bool		has_row_id;
	int64_t		row_id;
	uint32_t	relation_id = 0;
	uint64_t	row_key = 0;
	RlStatus	status;

	if (len > 0 && (key[0] == KV_TAG_COUNTER || key[0] == KV_TAG_SYSTEM))
	{
		bool		counter = key[0] == KV_TAG_COUNTER;
		int			found = counter ?
			find_name(counter_names, NAME_COUNT(counter_names), key + 1, len - 1) :
			find_name(system_key_names, NAME_COUNT(system_key_names), key + 1, len - 1);

		if (found >= 0)
		{
			rlbuf_printf(out, "%s(%s)", counter ? "counter" : "system",
						 counter ? counter_names[found] : system_key_names[found]);
			return;
		}
	}
	else if (len > 0 && key[0] == KV_TAG_GENERIC)
	{
		if (kv_decode_generic_key(key, len, &relation_id, &row_key) == RL_OK)
		{
			rlbuf_printf(out, "relation(relation_id=%u, row_key=%llu)",
						 relation_id, (unsigned long long) row_key);
			return;
		}
	}
	else if ((status = kv_decode_key(key, len, &table, components, &has_row_id, &row_id)) == RL_OK)
	{
		rlbuf_printf(out, "%s(", table->name);
		for (int k = 0; k < kv_table_nkey(table); k++)
		{
			rlbuf_printf(out, "%s%s=", k ? ", " : "", table->key[k].column);
			append_datum(out, &components[k]);
		}
		if (has_row_id)
			rlbuf_printf(out, ", row_id=%lld", (long long) row_id);
		rlbuf_put_u8(out, ')');
		return;
	}
	else if (status == RL_CORRUPT)
	{
		rlbuf_printf(out, "<malformed %s key: ", table->name);
		append_hex(out, key, len);
		rlbuf_put_u8(out, '>');
		return;
	}
	rlbuf_append_str(out, "<unknown key: ");
	append_hex(out, key, len);
	rlbuf_put_u8(out, '>');
}

static void
append_corrupt(RlBuf *out)
{
	rlbuf_printf(out, "<corrupt: %s>", rl_last_error());
}

void
kv_describe_value(const uint8_t *key, size_t klen, const uint8_t *value, size_t vlen,
				  RlBuf *out)
{
	const KvTable *table = klen > 0 ? kv_table_by_tag(key[0]) : NULL;
	KvRow		row;
	uint64_t	v;

	if (table != NULL)
	{
		if (kv_decode_value(table, value, vlen, &row) != RL_OK)
		{
			append_corrupt(out);
			return;
		}
		rlbuf_put_u8(out, '{');
		for (int c = 0; c < row.ncolumns; c++)
		{
			rlbuf_printf(out, "%s%s: ", c ? ", " : "", kv_table_column_name(table, c));
			append_column_value(out, table, c, &row.columns[c]);
		}
		rlbuf_put_u8(out, '}');
		kv_row_free(&row);
	}
	else if (klen > 0 && key[0] == KV_TAG_GENERIC)
	{
		if (kv_decode_generic_value(value, vlen, &row) != RL_OK)
		{
			append_corrupt(out);
			return;
		}
		rlbuf_put_u8(out, '[');
		for (int c = 0; c < row.ncolumns; c++)
		{
			if (c)
				rlbuf_append_str(out, ", ");
			append_datum(out, &row.columns[c]);
		}
		rlbuf_put_u8(out, ']');
		kv_row_free(&row);
	}
	else if (klen > 0 && (key[0] == KV_TAG_COUNTER || key[0] == KV_TAG_SYSTEM))
	{
		if (kv_decode_system_value(value, vlen, &v) != RL_OK)
		{
			append_corrupt(out);
			return;
		}
		rlbuf_printf(out, "{value: %llu}", (unsigned long long) v);
	}
	else
	{
		rlbuf_append_str(out, "<value: ");
		append_hex(out, value, vlen < DESCRIBE_HEX_LIMIT ? vlen : DESCRIBE_HEX_LIMIT);
		if (vlen > DESCRIBE_HEX_LIMIT)
			rlbuf_printf(out, "... (%zu bytes)", vlen);
		rlbuf_put_u8(out, '>');
	}
}
