/*
 * check_kvcodec.c: unit tests for the catalog key/value encoding (kvcodec).
 *
 * The descriptor table is checked against DuckLake 0.3's own CREATE TABLE statements
 * (as DuckDB 1.4.4 sends them, doc/ducklake-wire.md), so a message that drifts from the real
 * columns fails here. Then every table round-trips generated rows (NULL and empty text
 * kept apart), keys are checked to sort the way scans need (numeric id order, newest
 * version first, one prefix per table), damaged values are rejected, and the admin
 * renderings, generic relation rows and system keys are pinned down.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/kvcodec.h"

/* The column lists of DuckLake 0.3's CREATE TABLE statements, verbatim as DuckDB 1.4.4 sends them. */
static const char *const ducklake_tables_sql[] = {
	"ducklake_metadata(key VARCHAR NOT NULL, value VARCHAR NOT NULL, scope VARCHAR, scope_id BIGINT)",
	"ducklake_snapshot(snapshot_id BIGINT PRIMARY KEY, snapshot_time TIMESTAMPTZ, schema_version BIGINT, next_catalog_id BIGINT, next_file_id BIGINT)",
	"ducklake_snapshot_changes(snapshot_id BIGINT PRIMARY KEY, changes_made VARCHAR, author VARCHAR, commit_message VARCHAR, commit_extra_info VARCHAR)",
	"ducklake_schema(schema_id BIGINT PRIMARY KEY, schema_uuid UUID, begin_snapshot BIGINT, end_snapshot BIGINT, schema_name VARCHAR, path VARCHAR, path_is_relative BOOLEAN)",
	"ducklake_table(table_id BIGINT, table_uuid UUID, begin_snapshot BIGINT, end_snapshot BIGINT, schema_id BIGINT, table_name VARCHAR, path VARCHAR, path_is_relative BOOLEAN)",
	"ducklake_view(view_id BIGINT, view_uuid UUID, begin_snapshot BIGINT, end_snapshot BIGINT, schema_id BIGINT, view_name VARCHAR, dialect VARCHAR, sql VARCHAR, column_aliases VARCHAR)",
	"ducklake_tag(object_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, key VARCHAR, value VARCHAR)",
	"ducklake_column_tag(table_id BIGINT, column_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, key VARCHAR, value VARCHAR)",
	"ducklake_data_file(data_file_id BIGINT PRIMARY KEY, table_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, file_order BIGINT, path VARCHAR, path_is_relative BOOLEAN, file_format VARCHAR, record_count BIGINT, file_size_bytes BIGINT, footer_size BIGINT, row_id_start BIGINT, partition_id BIGINT, encryption_key VARCHAR, partial_file_info VARCHAR, mapping_id BIGINT)",
	"ducklake_file_column_stats(data_file_id BIGINT, table_id BIGINT, column_id BIGINT, column_size_bytes BIGINT, value_count BIGINT, null_count BIGINT, min_value VARCHAR, max_value VARCHAR, contains_nan BOOLEAN, extra_stats VARCHAR)",
	"ducklake_delete_file(delete_file_id BIGINT PRIMARY KEY, table_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, data_file_id BIGINT, path VARCHAR, path_is_relative BOOLEAN, format VARCHAR, delete_count BIGINT, file_size_bytes BIGINT, footer_size BIGINT, encryption_key VARCHAR)",
	"ducklake_column(column_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, table_id BIGINT, column_order BIGINT, column_name VARCHAR, column_type VARCHAR, initial_default VARCHAR, default_value VARCHAR, nulls_allowed BOOLEAN, parent_column BIGINT)",
	"ducklake_table_stats(table_id BIGINT, record_count BIGINT, next_row_id BIGINT, file_size_bytes BIGINT)",
	"ducklake_table_column_stats(table_id BIGINT, column_id BIGINT, contains_null BOOLEAN, contains_nan BOOLEAN, min_value VARCHAR, max_value VARCHAR, extra_stats VARCHAR)",
	"ducklake_partition_info(partition_id BIGINT, table_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT)",
	"ducklake_partition_column(partition_id BIGINT, table_id BIGINT, partition_key_index BIGINT, column_id BIGINT, transform VARCHAR)",
	"ducklake_file_partition_value(data_file_id BIGINT, table_id BIGINT, partition_key_index BIGINT, partition_value VARCHAR)",
	"ducklake_files_scheduled_for_deletion(data_file_id BIGINT, path VARCHAR, path_is_relative BOOLEAN, schedule_start TIMESTAMPTZ)",
	"ducklake_inlined_data_tables(table_id BIGINT, table_name VARCHAR, schema_version BIGINT)",
	"ducklake_column_mapping(mapping_id BIGINT, table_id BIGINT, type VARCHAR)",
	"ducklake_name_mapping(mapping_id BIGINT, column_id BIGINT, source_name VARCHAR, target_field_id BIGINT, parent_column BIGINT, is_partition BOOLEAN)",
	"ducklake_schema_versions(begin_snapshot BIGINT, schema_version BIGINT)",
};

#define NTABLES_SQL ((int) (sizeof(ducklake_tables_sql) / sizeof(ducklake_tables_sql[0])))
#define MAX_COLUMNS 32

static const uint8_t sample_uuid[16] = {
	0x6f, 0x1c, 0x2a, 0x00, 0x12, 0x34, 0x45, 0x67,
	0x89, 0xab, 0xcd, 0xef, 0x00, 0x11, 0x22, 0x33
};

static KvDatum
int_datum(int64_t v)
{
	return (KvDatum) {.type = KV_INT64, .i = v};
}

static KvDatum
text_datum(const char *s)
{
	return (KvDatum) {.type = KV_TEXT, .s = s, .len = strlen(s)};
}

static KvDatum
null_datum(void)
{
	return (KvDatum) {.type = KV_NULL};
}

static bool
datum_equal(const KvDatum *a, const KvDatum *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type)
	{
		case KV_NULL:
			return true;
		case KV_INT64:
			return a->i == b->i;
		case KV_DOUBLE:
			return a->d == b->d;
		case KV_BOOL:
			return a->b == b->b;
		case KV_TEXT:
		case KV_BYTES:
			return a->len == b->len && (a->len == 0 || memcmp(a->s, b->s, a->len) == 0);
	}
	return false;
}

static int
compare_keys(const RlBuf *a, const RlBuf *b)
{
	size_t		n = a->len < b->len ? a->len : b->len;
	int			c = memcmp(a->data, b->data, n);

	if (c != 0)
		return c;
	return (a->len > b->len) - (a->len < b->len);
}

/*
 * A sample row for table. Key ids are 1000 + column index (more than one byte), the
 * begin_snapshot of a versioned key 7. all_null: every nullable non-key column NULL;
 * otherwise every column set, with text alternately empty and "<column>-value".
 */
static void
sample_row(const KvTable *t, bool all_null, KvDatum *row, char texts[][64])
{
	int			n = kv_table_ncolumns(t);

	for (int c = 0; c < n; c++)
	{
		bool		is_key = false;

		for (int k = 0; k < kv_table_nkey(t); k++)
			is_key |= kv_table_key_column(t, k) == c;
		snprintf(texts[c], 64, "%s-value", kv_table_column_name(t, c));
		if (all_null && !is_key && kv_table_column_nullable(t, c))
		{
			row[c] = null_datum();
			continue;
		}
		switch (kv_table_column_type(t, c))
		{
			case KV_COL_BIGINT:
				row[c] = int_datum(strcmp(kv_table_column_name(t, c), "begin_snapshot") == 0 ?
								   7 : 1000 + c);
				break;
			case KV_COL_TIMESTAMPTZ:
				row[c] = int_datum(800000000123456LL);
				break;
			case KV_COL_VARCHAR:
				row[c] = text_datum(c % 2 && !is_key ? "" : texts[c]);
				break;
			case KV_COL_BOOLEAN:
				row[c] = (KvDatum) {.type = KV_BOOL, .b = c % 2};
				break;
			case KV_COL_UUID:
				row[c] = (KvDatum) {.type = KV_BYTES, .s = (const char *) sample_uuid, .len = 16};
				break;
		}
	}
}

static void
must_encode(const KvTable *t, const KvDatum *row, RlBuf *key, RlBuf *value)
{
	RlStatus	status = kv_encode_row(t, row, kv_table_ncolumns(t), key, value);

	ck_assert_msg(status == RL_OK, "%s: %s", t->name, rl_last_error());
}

/* Key of a ducklake_table row with the given ids. */
static void
table_key(int64_t schema_id, int64_t table_id, int64_t begin, RlBuf *key)
{
	const KvTable *t = kv_table_by_name("ducklake_table");
	KvDatum		row[8] = {int_datum(table_id), null_datum(), int_datum(begin), null_datum(),
	int_datum(schema_id), text_datum("t"), null_datum(), null_datum()};

	rlbuf_reset(key);
	ck_assert_int_eq(kv_encode_key(t, row, 8, key), RL_OK);
}

/* ---------------------------------------------------------------- descriptors */

START_TEST(test_descriptors_match_ducklake_sql)
{
	ck_assert_int_eq(kv_table_count(), NTABLES_SQL);
	for (int i = 0; i < NTABLES_SQL; i++)
	{
		char		sql[1024];
		char	   *open,
				   *save = NULL;
		const KvTable *t;
		int			c = 0;

		snprintf(sql, sizeof(sql), "%s", ducklake_tables_sql[i]);
		open = strchr(sql, '(');
		*open = '\0';
		open[strlen(open + 1)] = '\0';	/* drop the closing parenthesis */
		t = kv_table_by_name(sql);
		ck_assert_msg(t != NULL, "no descriptor for %s", sql);
		for (char *col = strtok_r(open + 1, ",", &save); col; col = strtok_r(NULL, ",", &save), c++)
		{
			char		name[64],
						type[64];
			static const char *const type_names[] = {
				[KV_COL_BIGINT] = "BIGINT", [KV_COL_VARCHAR] = "VARCHAR",
				[KV_COL_BOOLEAN] = "BOOLEAN", [KV_COL_TIMESTAMPTZ] = "TIMESTAMPTZ",
				[KV_COL_UUID] = "UUID"
			};
			bool		not_null = strstr(col, "NOT NULL") || strstr(col, "PRIMARY KEY");

			ck_assert_int_eq(sscanf(col, " %63s %63s", name, type), 2);
			ck_assert_int_lt(c, kv_table_ncolumns(t));
			ck_assert_str_eq(kv_table_column_name(t, c), name);
			ck_assert_str_eq(type_names[kv_table_column_type(t, c)], type);
			ck_assert_msg(kv_table_column_nullable(t, c) == !not_null, "%s.%s nullability",
						  t->name, name);
			ck_assert_int_eq(kv_table_column_index(t, name), c);
		}
		ck_assert_int_eq(c, kv_table_ncolumns(t));
	}
}
END_TEST

START_TEST(test_descriptor_table_consistent)
{
	static const char *const versioned[] = {
		"ducklake_schema", "ducklake_table", "ducklake_view", "ducklake_column",
		"ducklake_tag", "ducklake_column_tag"
	};
	int			nversioned = 0;

	for (int i = 0; i < kv_table_count(); i++)
	{
		const KvTable *t = kv_table_at(i);

		ck_assert_ptr_eq(kv_table_by_tag(t->tag), t);
		ck_assert_ptr_eq(kv_table_by_name(t->name), t);
		ck_assert_int_lt(t->tag, KV_TAG_GENERIC);
		ck_assert_int_gt(kv_table_nkey(t), 0);
		for (int k = 0; k < kv_table_nkey(t); k++)
		{
			int			c = kv_table_key_column(t, k);
			KvKeyKind	kind = t->key[k].kind;
			bool		text = kind == KV_KEY_TEXT || kind == KV_KEY_NULLABLE_TEXT;

			ck_assert_msg(c >= 0, "%s: key column %s missing", t->name, t->key[k].column);
			ck_assert_int_eq(kv_table_column_type(t, c), text ? KV_COL_VARCHAR : KV_COL_BIGINT);
			if (kind == KV_KEY_SNAPSHOT_DESC)
			{
				ck_assert_str_eq(t->key[k].column, "begin_snapshot");
				ck_assert_int_eq(k, kv_table_nkey(t) - 1);
			}
		}
		if (kv_table_versioned(t))
			nversioned++;
	}
	for (size_t i = 0; i < sizeof(versioned) / sizeof(versioned[0]); i++)
		ck_assert_msg(kv_table_versioned(kv_table_by_name(versioned[i])), "%s", versioned[i]);
	ck_assert_int_eq(nversioned, 6);
	/* the tags 0x01..0x0B of the key table */
	ck_assert_int_eq(kv_table_by_name("ducklake_snapshot")->tag, 0x02);
	ck_assert_int_eq(kv_table_by_name("ducklake_schema")->tag, 0x04);
	ck_assert_int_eq(kv_table_by_name("ducklake_table")->tag, 0x05);
	ck_assert_int_eq(kv_table_by_name("ducklake_column")->tag, 0x06);
	ck_assert_int_eq(kv_table_by_name("ducklake_data_file")->tag, 0x07);
	ck_assert_int_eq(kv_table_by_name("ducklake_delete_file")->tag, 0x08);
	ck_assert_int_eq(kv_table_by_name("ducklake_file_column_stats")->tag, 0x09);
	ck_assert_int_eq(kv_table_by_name("ducklake_table_stats")->tag, 0x0A);
	ck_assert_int_eq(kv_table_by_name("ducklake_view")->tag, 0x0B);
	ck_assert_ptr_null(kv_table_by_name("ducklake_macro"));
	ck_assert_ptr_null(kv_table_by_tag(0x0C));
	ck_assert_ptr_null(kv_table_by_tag(KV_TAG_GENERIC));
	ck_assert_ptr_null(kv_table_at(kv_table_count()));
}
END_TEST

/* ---------------------------------------------------------------- round trips */

START_TEST(test_round_trip_every_table)
{
	const KvTable *t = kv_table_at(_i / 2);
	bool		all_null = _i % 2;
	KvDatum		row[MAX_COLUMNS];
	char		texts[MAX_COLUMNS][64];
	RlBuf		key,
				value;
	KvDatum		components[KV_MAX_KEY_COLUMNS];
	const KvTable *key_table;
	KvRow		decoded;
	bool		has_row_id;
	int64_t		row_id;

	rlbuf_init(&key);
	rlbuf_init(&value);
	sample_row(t, all_null, row, texts);
	must_encode(t, row, &key, &value);
	ck_assert_int_eq(key.data[0], t->tag);
	ck_assert_int_eq(value.data[0], KV_VALUE_FORMAT_VERSION);
	ck_assert_int_eq(memcmp(value.data + 1, "SDKV", 4), 0);

	ck_assert_int_eq(kv_decode_value(t, value.data, value.len, &decoded), RL_OK);
	ck_assert_int_eq(decoded.ncolumns, kv_table_ncolumns(t));
	for (int c = 0; c < decoded.ncolumns; c++)
		ck_assert_msg(datum_equal(&row[c], &decoded.columns[c]), "%s.%s (all_null=%d)",
					  t->name, kv_table_column_name(t, c), all_null);
	kv_row_free(&decoded);

	ck_assert_int_eq(kv_decode_key(key.data, key.len, &key_table, components, &has_row_id, &row_id), RL_OK);
	ck_assert(!has_row_id);
	ck_assert_ptr_eq(key_table, t);
	for (int k = 0; k < kv_table_nkey(t); k++)
		ck_assert(datum_equal(&components[k], &row[kv_table_key_column(t, k)]));
	/* the row id that ends a key: any int64, in numeric order */
	for (int64_t id = -2; id <= 2; id++)
	{
		RlBuf		with_id;

		rlbuf_init(&with_id);
		rlbuf_append(&with_id, key.data, key.len);
		kv_append_row_id(&with_id, id == 2 ? INT64_MAX : id == -2 ? INT64_MIN : id);
		ck_assert_int_eq(kv_decode_key(with_id.data, with_id.len, &key_table, components, &has_row_id, &row_id),
						 RL_OK);
		ck_assert(has_row_id);
		ck_assert(row_id == (id == 2 ? INT64_MAX : id == -2 ? INT64_MIN : id));
		ck_assert_int_eq(with_id.data[key.len] & 0x80, id >= 0 ? 0x80 : 0);
		rlbuf_free(&with_id);
	}

	rlbuf_free(&key);
	rlbuf_free(&value);
}
END_TEST

START_TEST(test_null_distinct_from_empty)
{
	const KvTable *t = kv_table_by_name("ducklake_snapshot_changes");
	KvDatum		with_empty[5] = {int_datum(0), text_datum("created_schema:\"main\""),
	text_datum(""), null_datum(), text_datum("")};
	RlBuf		key,
				value;
	KvRow		row;

	rlbuf_init(&key);
	rlbuf_init(&value);
	must_encode(t, with_empty, &key, &value);
	ck_assert_int_eq(kv_decode_value(t, value.data, value.len, &row), RL_OK);
	ck_assert_int_eq(row.columns[2].type, KV_TEXT);
	ck_assert_uint_eq(row.columns[2].len, 0);
	ck_assert_int_eq(row.columns[3].type, KV_NULL);
	ck_assert_int_eq(row.columns[4].type, KV_TEXT);
	kv_row_free(&row);

	/* zero and false stay distinct from NULL too */
	t = kv_table_by_name("ducklake_schema");
	KvDatum		schema[7] = {int_datum(0), null_datum(), int_datum(0), int_datum(0),
	text_datum("main"), null_datum(), {.type = KV_BOOL, .b = false}};

	rlbuf_reset(&key);
	rlbuf_reset(&value);
	must_encode(t, schema, &key, &value);
	ck_assert_int_eq(kv_decode_value(t, value.data, value.len, &row), RL_OK);
	ck_assert_int_eq(row.columns[1].type, KV_NULL);
	ck_assert(datum_equal(&row.columns[3], &schema[3]));
	ck_assert_int_eq(row.columns[5].type, KV_NULL);
	ck_assert(datum_equal(&row.columns[6], &schema[6]));
	kv_row_free(&row);
	rlbuf_free(&key);
	rlbuf_free(&value);
}
END_TEST

START_TEST(test_invalid_rows_rejected)
{
	const KvTable *t = kv_table_by_name("ducklake_table");
	KvDatum		row[8] = {int_datum(2), null_datum(), int_datum(5), null_datum(),
	int_datum(1), text_datum("t"), null_datum(), null_datum()};
	RlBuf		key,
				value;

	rlbuf_init(&key);
	rlbuf_init(&value);
	rlbuf_append(&key, "xy", 2);
	rlbuf_append(&value, "z", 1);

	row[0] = int_datum(-1);		/* negative key id */
	ck_assert_int_eq(kv_encode_row(t, row, 8, &key, &value), RL_INVALID);
	ck_assert_ptr_nonnull(strstr(rl_last_error(), "table_id"));
	row[0] = null_datum();		/* NULL key column */
	ck_assert_int_eq(kv_encode_row(t, row, 8, &key, &value), RL_INVALID);
	row[0] = text_datum("2");	/* wrong type for a key */
	ck_assert_int_eq(kv_encode_row(t, row, 8, &key, &value), RL_INVALID);
	row[0] = int_datum(2);
	row[3] = text_datum("x");	/* wrong type for a value column */
	ck_assert_int_eq(kv_encode_row(t, row, 8, &key, &value), RL_INVALID);
	ck_assert_ptr_nonnull(strstr(rl_last_error(), "end_snapshot"));
	row[3] = null_datum();
	row[1] = (KvDatum) {.type = KV_BYTES, .s = "short", .len = 5};	/* UUID not 16 bytes */
	ck_assert_int_eq(kv_encode_row(t, row, 8, &key, &value), RL_INVALID);
	row[1] = null_datum();
	row[5] = (KvDatum) {.type = KV_TEXT, .s = "a\0b", .len = 3};	/* NUL in text */
	ck_assert_int_eq(kv_encode_row(t, row, 8, &key, &value), RL_INVALID);
	row[5] = text_datum("t");
	ck_assert_int_eq(kv_encode_row(t, row, 7, &key, &value), RL_INVALID);	/* column count */
	/* failures leave both buffers as they were */
	ck_assert_uint_eq(key.len, 2);
	ck_assert_uint_eq(value.len, 1);

	/* NULL in a NOT NULL column */
	t = kv_table_by_name("ducklake_metadata");
	KvDatum		meta[4] = {text_datum("version"), null_datum(), null_datum(), null_datum()};

	ck_assert_int_eq(kv_encode_row(t, meta, 4, &key, &value), RL_INVALID);
	ck_assert_ptr_nonnull(strstr(rl_last_error(), "NOT NULL"));
	ck_assert_uint_eq(key.len, 2);
	ck_assert_uint_eq(value.len, 1);
	rlbuf_free(&key);
	rlbuf_free(&value);
}
END_TEST

/* ---------------------------------------------------------------- key order */

START_TEST(test_ids_sort_numerically)
{
	RlBuf		a,
				b;

	rlbuf_init(&a);
	rlbuf_init(&b);
	table_key(1, 255, 0, &a);
	table_key(1, 256, 0, &b);
	ck_assert_int_lt(compare_keys(&a, &b), 0);
	table_key(255, 70000, 0, &a);
	table_key(256, 1, 0, &b);
	ck_assert_int_lt(compare_keys(&a, &b), 0);
	table_key(1, 1, 0, &a);
	table_key(1, INT64_MAX, 0, &b);
	ck_assert_int_lt(compare_keys(&a, &b), 0);
	ck_assert_uint_eq(a.len, 1 + 3 * 8);
	rlbuf_free(&a);
	rlbuf_free(&b);
}
END_TEST

START_TEST(test_versions_newest_first)
{
	RlBuf		v5,
				v10,
				v256,
				next;

	rlbuf_init(&v5);
	rlbuf_init(&v10);
	rlbuf_init(&v256);
	rlbuf_init(&next);
	table_key(1, 2, 5, &v5);
	table_key(1, 2, 10, &v10);
	table_key(1, 2, 256, &v256);
	table_key(1, 3, 0, &next);
	ck_assert_int_lt(compare_keys(&v256, &v10), 0);
	ck_assert_int_lt(compare_keys(&v10, &v5), 0);
	/* every version of table 2 comes before table 3 */
	ck_assert_int_lt(compare_keys(&v5, &next), 0);

	/* a text component: versions of tag "a" together, before "ab" and "b" */
	const KvTable *tag = kv_table_by_name("ducklake_tag");
	KvDatum		comps[3] = {int_datum(1), text_datum("a"), int_datum(9)};

	rlbuf_reset(&v5);
	rlbuf_reset(&v10);
	rlbuf_reset(&v256);
	ck_assert_int_eq(kv_encode_key_prefix(tag, comps, 3, &v5), RL_OK);
	comps[2] = int_datum(1);
	ck_assert_int_eq(kv_encode_key_prefix(tag, comps, 3, &v10), RL_OK);
	comps[1] = text_datum("ab");
	comps[2] = int_datum(100);
	ck_assert_int_eq(kv_encode_key_prefix(tag, comps, 3, &v256), RL_OK);
	ck_assert_int_lt(compare_keys(&v5, &v10), 0);
	ck_assert_int_lt(compare_keys(&v10, &v256), 0);

	/* ducklake_metadata: global settings (NULL scope) before scoped ones */
	const KvTable *meta = kv_table_by_name("ducklake_metadata");
	KvDatum		global[4] = {text_datum("zzz"), text_datum("v"), null_datum(), null_datum()};
	KvDatum		scoped[4] = {text_datum("aaa"), text_datum("v"), text_datum("table"),
	int_datum(1)};

	rlbuf_reset(&v5);
	rlbuf_reset(&v10);
	ck_assert_int_eq(kv_encode_key(meta, global, 4, &v5), RL_OK);
	ck_assert_int_eq(kv_encode_key(meta, scoped, 4, &v10), RL_OK);
	ck_assert_int_lt(compare_keys(&v5, &v10), 0);

	rlbuf_free(&v5);
	rlbuf_free(&v10);
	rlbuf_free(&v256);
	rlbuf_free(&next);
}
END_TEST

START_TEST(test_prefix_scan_lists_table)
{
	RlBuf		prefix,
				key,
				value;
	KvDatum		schema_one = int_datum(1);
	const KvTable *table = kv_table_by_name("ducklake_table");

	rlbuf_init(&prefix);
	rlbuf_init(&key);
	rlbuf_init(&value);

	/* every table's rows start with its one-byte prefix and no other table's */
	for (int i = 0; i < kv_table_count(); i++)
	{
		const KvTable *t = kv_table_at(i);
		KvDatum		row[MAX_COLUMNS];
		char		texts[MAX_COLUMNS][64];

		rlbuf_reset(&prefix);
		ck_assert_int_eq(kv_encode_key_prefix(t, NULL, 0, &prefix), RL_OK);
		ck_assert_uint_eq(prefix.len, 1);
		for (int j = 0; j < kv_table_count(); j++)
		{
			const KvTable *other = kv_table_at(j);

			rlbuf_reset(&key);
			rlbuf_reset(&value);
			sample_row(other, false, row, texts);
			must_encode(other, row, &key, &value);
			ck_assert_int_eq(memcmp(key.data, prefix.data, 1) == 0, i == j);
		}
	}

	/* [tag][schema_id] lists the tables of one schema, every version */
	rlbuf_reset(&prefix);
	ck_assert_int_eq(kv_encode_key_prefix(table, &schema_one, 1, &prefix), RL_OK);
	ck_assert_uint_eq(prefix.len, 9);
	table_key(1, 2, 5, &key);
	ck_assert_int_eq(memcmp(key.data, prefix.data, prefix.len), 0);
	table_key(1, 99, 0, &key);
	ck_assert_int_eq(memcmp(key.data, prefix.data, prefix.len), 0);
	table_key(2, 2, 5, &key);
	ck_assert_int_ne(memcmp(key.data, prefix.data, prefix.len), 0);
	table_key(256 + 1, 2, 5, &key);
	ck_assert_int_ne(memcmp(key.data, prefix.data, prefix.len), 0);

	/* too many components, negative ids */
	KvDatum		comps[4] = {int_datum(1), int_datum(2), int_datum(3), int_datum(4)};

	rlbuf_reset(&prefix);
	ck_assert_int_eq(kv_encode_key_prefix(table, comps, 4, &prefix), RL_INVALID);
	comps[0] = int_datum(-5);
	ck_assert_int_eq(kv_encode_key_prefix(table, comps, 1, &prefix), RL_INVALID);
	ck_assert_uint_eq(prefix.len, 0);

	rlbuf_free(&prefix);
	rlbuf_free(&key);
	rlbuf_free(&value);
}
END_TEST

START_TEST(test_malformed_keys)
{
	const KvTable *t;
	KvDatum		comps[KV_MAX_KEY_COLUMNS];
	bool		has_row_id;
	int64_t		row_id;
	uint8_t		key[32] = {0x05, 0, 0, 0, 0, 0, 0, 0, 1};

	ck_assert_int_eq(kv_decode_key(key, 9, &t, comps, &has_row_id, &row_id), RL_CORRUPT);	/* truncated */
	ck_assert_int_eq(kv_decode_key(key, 0, &t, comps, &has_row_id, &row_id), RL_NOT_FOUND);
	key[0] = 0x42;
	ck_assert_int_eq(kv_decode_key(key, 9, &t, comps, &has_row_id, &row_id), RL_NOT_FOUND);
	key[0] = 0x02;				/* snapshot key with a trailing byte */
	ck_assert_int_eq(kv_decode_key(key, 10, &t, comps, &has_row_id, &row_id), RL_CORRUPT);
	key[0] = 0x11;				/* tag key whose text is not terminated */
	memset(key + 1, 'a', 16);
	ck_assert_int_eq(kv_decode_key(key, 17, &t, comps, &has_row_id, &row_id), RL_CORRUPT);
}
END_TEST

/* ---------------------------------------------------------------- value headers */

START_TEST(test_bad_headers_rejected)
{
	const KvTable *t = kv_table_by_name("ducklake_metadata");
	KvDatum		meta[4] = {text_datum("version"), text_datum("0.3"), null_datum(), null_datum()};
	RlBuf		key,
				value;
	KvRow		row;
	uint8_t		bad[64];
	uint64_t	v;

	rlbuf_init(&key);
	rlbuf_init(&value);
	must_encode(t, meta, &key, &value);
	ck_assert_uint_lt(value.len, sizeof(bad));

	/* short */
	ck_assert_int_eq(kv_decode_value(t, value.data, 4, &row), RL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(rl_last_error(), "shorter than"));
	ck_assert_int_eq(kv_decode_value(t, value.data, 0, &row), RL_CORRUPT);
	/* wrong magic */
	memcpy(bad, value.data, value.len);
	bad[2] = 'X';
	ck_assert_int_eq(kv_decode_value(t, bad, value.len, &row), RL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(rl_last_error(), "magic"));
	/* wrong version */
	memcpy(bad, value.data, value.len);
	bad[0] = 2;
	ck_assert_int_eq(kv_decode_value(t, bad, value.len, &row), RL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(rl_last_error(), "version 2"));
	/* garbage protobuf: wire type 7 does not exist */
	memcpy(bad, value.data, KV_VALUE_HEADER_LEN);
	memset(bad + KV_VALUE_HEADER_LEN, 0xff, 8);
	ck_assert_int_eq(kv_decode_value(t, bad, KV_VALUE_HEADER_LEN + 8, &row), RL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(rl_last_error(), "unpack"));
	/* truncated protobuf */
	ck_assert_int_eq(kv_decode_value(t, value.data, value.len - 1, &row), RL_CORRUPT);
	/* empty protobuf: required key/value missing */
	ck_assert_int_eq(kv_decode_value(t, value.data, KV_VALUE_HEADER_LEN, &row), RL_CORRUPT);
	/* a UUID field of the wrong length */
	memcpy(bad, value.data, KV_VALUE_HEADER_LEN);
	memcpy(bad + KV_VALUE_HEADER_LEN, "\x08\x01\x12\x03" "abc", 7);	/* schema_id=1, uuid "abc" */
	ck_assert_int_eq(kv_decode_value(kv_table_by_name("ducklake_schema"), bad,
									 KV_VALUE_HEADER_LEN + 7, &row), RL_CORRUPT);
	ck_assert_ptr_nonnull(strstr(rl_last_error(), "schema_uuid"));

	/* the same checks guard generic rows and system values */
	ck_assert_int_eq(kv_decode_generic_value(value.data, 3, &row), RL_CORRUPT);
	ck_assert_int_eq(kv_decode_system_value(bad, 2, &v), RL_CORRUPT);
	memset(bad + KV_VALUE_HEADER_LEN, 0xff, 8);
	ck_assert_int_eq(kv_decode_generic_value(bad, KV_VALUE_HEADER_LEN + 8, &row), RL_CORRUPT);
	ck_assert_int_eq(kv_decode_system_value(bad, KV_VALUE_HEADER_LEN + 8, &v), RL_CORRUPT);

	rlbuf_free(&key);
	rlbuf_free(&value);
}
END_TEST

/* ---------------------------------------------------------------- describe */

static const char *
describe_key(const RlBuf *key, RlBuf *out)
{
	rlbuf_reset(out);
	kv_describe_key(key->data, key->len, out);
	return rlbuf_cstr(out);
}

static const char *
describe_value(const RlBuf *key, const uint8_t *value, size_t len, RlBuf *out)
{
	rlbuf_reset(out);
	kv_describe_value(key->data, key->len, value, len, out);
	return rlbuf_cstr(out);
}

START_TEST(test_describe)
{
	RlBuf		key,
				value,
				out;
	const KvTable *schema = kv_table_by_name("ducklake_schema");
	KvDatum		main_schema[7] = {int_datum(0),
		{.type = KV_BYTES, .s = (const char *) sample_uuid, .len = 16},
	int_datum(0), null_datum(), text_datum("it's main"), text_datum("main/"),
	{.type = KV_BOOL, .b = true}};
	const KvTable *snapshot = kv_table_by_name("ducklake_snapshot");
	KvDatum		snap[5] = {int_datum(0), int_datum(86400LL * 1000000 + 1), int_datum(0),
	int_datum(1), int_datum(0)};
	const KvTable *tag = kv_table_by_name("ducklake_tag");
	KvDatum		comment[5] = {int_datum(3), int_datum(4), null_datum(), text_datum("comment"),
	text_datum("hi")};

	rlbuf_init(&key);
	rlbuf_init(&value);
	rlbuf_init(&out);

	table_key(1, 2, 5, &key);
	ck_assert_str_eq(describe_key(&key, &out),
					 "ducklake_table(schema_id=1, table_id=2, begin_snapshot=5)");

	rlbuf_reset(&key);
	must_encode(schema, main_schema, &key, &value);
	ck_assert_str_eq(describe_key(&key, &out), "ducklake_schema(schema_id=0, begin_snapshot=0)");
	ck_assert_str_eq(describe_value(&key, value.data, value.len, &out),
					 "{schema_id: 0, schema_uuid: 6f1c2a00-1234-4567-89ab-cdef00112233, "
					 "begin_snapshot: 0, end_snapshot: NULL, schema_name: 'it''s main', "
					 "path: 'main/', path_is_relative: true}");
	ck_assert_str_eq(describe_value(&key, value.data, 3, &out),
					 "<corrupt: ducklake_schema value: 3 bytes is shorter than the 5-byte header>");

	rlbuf_reset(&key);
	rlbuf_reset(&value);
	must_encode(snapshot, snap, &key, &value);
	ck_assert_str_eq(describe_value(&key, value.data, value.len, &out),
					 "{snapshot_id: 0, snapshot_time: 2000-01-02 00:00:00.000001+00, "
					 "schema_version: 0, next_catalog_id: 1, next_file_id: 0}");

	rlbuf_reset(&key);
	rlbuf_reset(&value);
	must_encode(tag, comment, &key, &value);
	ck_assert_str_eq(describe_key(&key, &out),
					 "ducklake_tag(object_id=3, key='comment', begin_snapshot=4)");
	kv_append_row_id(&key, 12);
	ck_assert_str_eq(describe_key(&key, &out),
					 "ducklake_tag(object_id=3, key='comment', begin_snapshot=4, row_id=12)");

	/* nullable key components */
	const KvTable *meta = kv_table_by_name("ducklake_metadata");
	KvDatum		version[4] = {text_datum("version"), text_datum("0.3"), null_datum(), null_datum()};
	KvDatum		comps[KV_MAX_KEY_COLUMNS];
	const KvTable *decoded_table;
	bool		has_row_id;
	int64_t		row_id;

	rlbuf_reset(&key);
	rlbuf_reset(&value);
	must_encode(meta, version, &key, &value);
	ck_assert_int_eq(kv_decode_key(key.data, key.len, &decoded_table, comps, &has_row_id, &row_id), RL_OK);
	ck_assert_int_eq(comps[0].type, KV_NULL);
	ck_assert_int_eq(comps[1].type, KV_NULL);
	ck_assert(datum_equal(&comps[2], &version[0]));
	ck_assert_str_eq(describe_key(&key, &out),
					 "ducklake_metadata(scope=NULL, scope_id=NULL, key='version')");
	ck_assert_str_eq(describe_value(&key, value.data, value.len, &out),
					 "{key: 'version', value: '0.3', scope: NULL, scope_id: NULL}");

	/* malformed key of a known table, unknown tag */
	rlbuf_reset(&key);
	rlbuf_reset(&value);
	must_encode(tag, comment, &key, &value);
	key.len = 5;
	ck_assert_str_eq(describe_key(&key, &out), "<malformed ducklake_tag key: 1100000000>");
	rlbuf_reset(&key);
	rlbuf_append(&key, "\x42\x00\x01", 3);
	ck_assert_str_eq(describe_key(&key, &out), "<unknown key: 420001>");
	ck_assert_str_eq(describe_value(&key, (const uint8_t *) "\x01\xff", 2, &out), "<value: 01ff>");

	rlbuf_free(&key);
	rlbuf_free(&value);
	rlbuf_free(&out);
}
END_TEST

/* ---------------------------------------------------------------- generic rows */

START_TEST(test_generic_rows)
{
	RlBuf		key,
				other,
				value,
				out;
	KvDatum		row[7] = {int_datum(-42), {.type = KV_DOUBLE, .d = 1.5}, text_datum("x"),
		text_datum(""), null_datum(), {.type = KV_BOOL, .b = true},
	{.type = KV_BYTES, .s = "\0\xff", .len = 2}};
	KvRow		decoded;
	uint32_t	relation_id;
	uint64_t	row_key;

	rlbuf_init(&key);
	rlbuf_init(&other);
	rlbuf_init(&value);
	rlbuf_init(&out);

	kv_generic_key(7, 3, &key);
	ck_assert_uint_eq(key.len, 13);
	ck_assert_int_eq(key.data[0], KV_TAG_GENERIC);
	ck_assert_int_eq(kv_decode_generic_key(key.data, key.len, &relation_id, &row_key), RL_OK);
	ck_assert_uint_eq(relation_id, 7);
	ck_assert_uint_eq(row_key, 3);
	ck_assert_int_eq(kv_decode_generic_key(key.data, 12, &relation_id, &row_key), RL_CORRUPT);

	/* rows of a relation sort by row key and share the relation prefix */
	rlbuf_reset(&key);
	kv_generic_key(7, 255, &key);
	kv_generic_key(7, 256, &other);
	ck_assert_int_lt(compare_keys(&key, &other), 0);
	rlbuf_reset(&other);
	kv_generic_prefix(7, &other);
	ck_assert_uint_eq(other.len, 5);
	ck_assert_int_eq(memcmp(key.data, other.data, 5), 0);
	rlbuf_reset(&other);
	kv_generic_key(8, 0, &other);
	ck_assert_int_lt(compare_keys(&key, &other), 0);

	ck_assert_int_eq(kv_encode_generic_value(row, 7, &value), RL_OK);
	ck_assert_int_eq(kv_decode_generic_value(value.data, value.len, &decoded), RL_OK);
	ck_assert_int_eq(decoded.ncolumns, 7);
	for (int c = 0; c < 7; c++)
		ck_assert_msg(datum_equal(&row[c], &decoded.columns[c]), "generic column %d", c);
	kv_row_free(&decoded);

	rlbuf_reset(&key);
	kv_generic_key(7, 3, &key);
	ck_assert_str_eq(describe_key(&key, &out), "relation(relation_id=7, row_key=3)");
	ck_assert_str_eq(describe_value(&key, value.data, value.len, &out),
					 "[-42, 1.5, 'x', '', NULL, true, '\\x00ff']");

	/* an empty row, and NUL inside text */
	rlbuf_reset(&value);
	ck_assert_int_eq(kv_encode_generic_value(NULL, 0, &value), RL_OK);
	ck_assert_int_eq(kv_decode_generic_value(value.data, value.len, &decoded), RL_OK);
	ck_assert_int_eq(decoded.ncolumns, 0);
	kv_row_free(&decoded);
	row[2] = (KvDatum) {.type = KV_TEXT, .s = "a\0", .len = 2};
	rlbuf_reset(&value);
	ck_assert_int_eq(kv_encode_generic_value(row, 7, &value), RL_INVALID);
	ck_assert_uint_eq(value.len, 0);

	rlbuf_free(&key);
	rlbuf_free(&other);
	rlbuf_free(&value);
	rlbuf_free(&out);
}
END_TEST

/* ---------------------------------------------------------------- system keys */

START_TEST(test_system_keys)
{
	RlBuf		key,
				value,
				out;
	uint64_t	v;

	rlbuf_init(&key);
	rlbuf_init(&value);
	rlbuf_init(&out);

	kv_counter_key(KV_COUNTER_NEXT_FILE_ID, &key);
	ck_assert_int_eq(key.data[0], KV_TAG_COUNTER);
	ck_assert_str_eq(describe_key(&key, &out), "counter(next_file_id)");
	kv_encode_system_value(UINT64_MAX, &value);
	ck_assert_int_eq(kv_decode_system_value(value.data, value.len, &v), RL_OK);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_str_eq(describe_value(&key, value.data, value.len, &out),
					 "{value: 18446744073709551615}");

	/* every counter and system key is distinct and under its tag */
	for (KvCounter c = KV_COUNTER_NEXT_CATALOG_ID; c <= KV_COUNTER_NEXT_ROW_KEY; c++)
	{
		RlBuf		other;

		rlbuf_init(&other);
		kv_counter_key(c, &other);
		ck_assert_int_eq(other.data[0], KV_TAG_COUNTER);
		ck_assert_ptr_eq(strstr(describe_key(&other, &out), "counter("), rlbuf_cstr(&out));
		ck_assert_int_eq(compare_keys(&other, &key) == 0, c == KV_COUNTER_NEXT_FILE_ID);
		rlbuf_free(&other);
	}
	rlbuf_reset(&key);
	kv_system_key(KV_SYSTEM_WRITER_EPOCH, &key);
	ck_assert_int_eq(key.data[0], KV_TAG_SYSTEM);
	ck_assert_str_eq(describe_key(&key, &out), "system(writer-epoch)");
	rlbuf_reset(&key);
	kv_system_key(KV_SYSTEM_FORMAT_VERSION, &key);
	ck_assert_str_eq(describe_key(&key, &out), "system(catalog-format-version)");
	rlbuf_reset(&key);
	kv_system_key(KV_SYSTEM_RETAIN_FROM, &key);
	ck_assert_str_eq(describe_key(&key, &out), "system(retain-from)");
	rlbuf_reset(&value);
	kv_encode_system_value(0, &value);
	ck_assert_int_eq(kv_decode_system_value(value.data, value.len, &v), RL_OK);
	ck_assert_uint_eq(v, 0);
	ck_assert_str_eq(describe_value(&key, value.data, 4, &out),
					 "<corrupt: system value: 4 bytes is shorter than the 5-byte header>");

	/* an unknown name under 0xFF renders as hex */
	rlbuf_reset(&key);
	rlbuf_append(&key, "\xffzz", 3);
	ck_assert_str_eq(describe_key(&key, &out), "<unknown key: ff7a7a>");

	rlbuf_free(&key);
	rlbuf_free(&value);
	rlbuf_free(&out);
}
END_TEST

static Suite *
kvcodec_suite(void)
{
	Suite	   *s = suite_create("kvcodec");
	TCase	   *tc = tcase_create("core");

	tcase_add_test(tc, test_descriptors_match_ducklake_sql);
	tcase_add_test(tc, test_descriptor_table_consistent);
	tcase_add_loop_test(tc, test_round_trip_every_table, 0, 2 * kv_table_count());
	tcase_add_test(tc, test_null_distinct_from_empty);
	tcase_add_test(tc, test_invalid_rows_rejected);
	tcase_add_test(tc, test_ids_sort_numerically);
	tcase_add_test(tc, test_versions_newest_first);
	tcase_add_test(tc, test_prefix_scan_lists_table);
	tcase_add_test(tc, test_malformed_keys);
	tcase_add_test(tc, test_bad_headers_rejected);
	tcase_add_test(tc, test_describe);
	tcase_add_test(tc, test_generic_rows);
	tcase_add_test(tc, test_system_keys);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner    *sr = srunner_create(kvcodec_suite());
	int			failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
