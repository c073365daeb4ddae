-- The distinct statements (numbers aside) that DuckDB 1.5.5 with its ducklake and postgres
-- extensions sent to PostgreSQL 15 while migrating a DuckLake 0.3 catalog to 1.0 and using it
-- as captured on the wire, one message per entry, in the order
-- first sent. Entries are separated by a line holding only "-- ---". Read by
-- test_ducklake_1_0_statements.py.
SELECT version(), (SELECT COUNT(*) FROM pg_settings WHERE name LIKE 'rds%')
-- ---
SELECT 1
-- ---
DISCARD ALL
-- ---
SELECT to_regclass('duckdb_secrets')
-- ---
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;

SELECT oid, nspname
FROM pg_namespace

ORDER BY oid;

SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') 
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') 
ORDER BY namespace_id, relname, attnum, constraint_id;

SELECT n.oid, enumtypid, typname, enumlabel
FROM pg_enum e
JOIN pg_type t ON e.enumtypid = t.oid
JOIN pg_namespace AS n ON (typnamespace=n.oid)

ORDER BY n.oid, enumtypid, enumsortorder;

SELECT n.oid, t.typrelid AS id, t.typname as type, pg_attribute.attname, sub_type.typname,
       sub_type_ns.nspname AS sub_type_schema
FROM pg_type t
JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
JOIN pg_class ON pg_class.oid = t.typrelid
JOIN pg_attribute ON attrelid=t.typrelid
JOIN pg_type sub_type ON (pg_attribute.atttypid=sub_type.oid)
JOIN pg_catalog.pg_namespace sub_type_ns ON sub_type_ns.oid = sub_type.typnamespace
WHERE pg_class.relkind IN ('c', 'r', 'v', 'm', 'f', 'p')
AND t.typtype='c'
AND pg_attribute.attnum > 0
AND NOT pg_attribute.attisdropped

ORDER BY n.oid, t.oid, attrelid, attnum;

SELECT pg_namespace.oid, tablename, indexname
FROM pg_indexes
JOIN pg_namespace ON (schemaname=nspname)

ORDER BY pg_namespace.oid;
-- ---
COPY (SELECT NULL FROM "public"."ducklake_metadata"  LIMIT 1) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "key", "value", "scope", "scope_id" FROM "public"."ducklake_metadata" ) TO STDOUT (FORMAT "binary");
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_macro'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_macro'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_macro"("schema_id" BIGINT, "macro_id" BIGINT, "macro_name" VARCHAR, "begin_snapshot" BIGINT, "end_snapshot" BIGINT);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_macro_impl'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_macro_impl'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_macro_impl"("macro_id" BIGINT, "impl_id" BIGINT, "dialect" VARCHAR, "sql" VARCHAR, "type" VARCHAR);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_macro_parameters'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_macro_parameters'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_macro_parameters"("macro_id" BIGINT, "impl_id" BIGINT, "column_id" BIGINT, "parameter_name" VARCHAR, "parameter_type" VARCHAR, "default_value" VARCHAR, "default_value_type" VARCHAR);
-- ---
ALTER TABLE "public"."ducklake_column" ADD COLUMN  "default_value_type" VARCHAR DEFAULT 'literal'
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
COPY (SELECT "default_value_type", ctid FROM "public"."ducklake_column" ) TO STDOUT (FORMAT "binary");
-- ---
CREATE LOCAL TEMPORARY TABLE "update_data_62fdcf9b-e465-447e-a0bf-99961167450c"("default_value_type" VARCHAR, __page_id_string VARCHAR) ON COMMIT DROP;
-- ---
UPDATE "public"."ducklake_column" SET "default_value_type" = "update_data_62fdcf9b-e465-447e-a0bf-99961167450c"."default_value_type" FROM "update_data_62fdcf9b-e465-447e-a0bf-99961167450c" WHERE "ducklake_column".ctid=__page_id_string::TID
-- ---
ALTER TABLE "public"."ducklake_column" ADD COLUMN  "default_value_dialect" VARCHAR DEFAULT NULL
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_sort_info'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_sort_info'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_sort_info"("sort_id" BIGINT, "table_id" BIGINT, "begin_snapshot" BIGINT, "end_snapshot" BIGINT);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_sort_expression'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_sort_expression'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_sort_expression"("sort_id" BIGINT, "table_id" BIGINT, "sort_key_index" BIGINT, "expression" VARCHAR, "dialect" VARCHAR, "sort_direction" VARCHAR, "null_order" VARCHAR);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_file_variant_stats'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_file_variant_stats'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_file_variant_stats"("data_file_id" BIGINT, "table_id" BIGINT, "column_id" BIGINT, "variant_path" VARCHAR, "shredded_type" VARCHAR, "column_size_bytes" BIGINT, "value_count" BIGINT, "null_count" BIGINT, "min_value" VARCHAR, "max_value" VARCHAR, "contains_nan" BOOLEAN, "extra_stats" VARCHAR);
-- ---
ALTER TABLE "public"."ducklake_schema_versions" ADD COLUMN  "table_id" BIGINT
-- ---
ALTER TABLE "public"."ducklake_data_file" ADD COLUMN  "partial_max" BIGINT
-- ---
ALTER TABLE "public"."ducklake_delete_file" ADD COLUMN  "partial_max" BIGINT
-- ---
COPY (SELECT "partial_file_info", "data_file_id" FROM "public"."ducklake_data_file" ) TO STDOUT (FORMAT "binary");
-- ---
ALTER TABLE "public"."ducklake_data_file" DROP COLUMN  "partial_file_info"
-- ---
COPY (SELECT "data_file_id", ctid FROM "public"."ducklake_data_file" ) TO STDOUT (FORMAT "binary");
-- ---
CREATE LOCAL TEMPORARY TABLE "update_data_90509275-a8f4-43a1-9a91-510972719ef6"("partial_max" BIGINT, __page_id_string VARCHAR) ON COMMIT DROP;
-- ---
UPDATE "public"."ducklake_data_file" SET "partial_max" = "update_data_90509275-a8f4-43a1-9a91-510972719ef6"."partial_max" FROM "update_data_90509275-a8f4-43a1-9a91-510972719ef6" WHERE "ducklake_data_file".ctid=__page_id_string::TID
-- ---
COPY (SELECT "key", ctid FROM "public"."ducklake_metadata" WHERE "key" = 'version' COLLATE "C") TO STDOUT (FORMAT "binary");
-- ---
CREATE LOCAL TEMPORARY TABLE "update_data_2fa4c0d8-7b80-44bf-af4b-d5ec8b2dd634"("value" VARCHAR, __page_id_string VARCHAR) ON COMMIT DROP;
-- ---
COPY "update_data_2fa4c0d8-7b80-44bf-af4b-d5ec8b2dd634" FROM STDIN (FORMAT TEXT, NULL '')
-- ---
UPDATE "public"."ducklake_metadata" SET "value" = "update_data_2fa4c0d8-7b80-44bf-af4b-d5ec8b2dd634"."value" FROM "update_data_2fa4c0d8-7b80-44bf-af4b-d5ec8b2dd634" WHERE "ducklake_metadata".ctid=__page_id_string::TID
-- ---
COPY (SELECT "begin_snapshot", "table_id", "schema_version" FROM "public"."ducklake_schema_versions" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "begin_snapshot", "end_snapshot", "table_id" FROM "public"."ducklake_table" ) TO STDOUT (FORMAT "binary");
-- ---
COPY "public"."ducklake_schema_versions" ("table_id", "begin_snapshot", "schema_version") FROM STDIN (FORMAT BINARY)
-- ---
COPY (SELECT "table_id", ctid FROM "public"."ducklake_schema_versions" ) TO STDOUT (FORMAT "binary");
-- ---
DELETE FROM "public".ducklake_schema_versions WHERE ctid IN ('(0,1)','(0,2)','(0,3)','(0,4)','(0,5)','(0,6)','(0,7)','(0,8)','(0,9)','(0,10)','(0,11)')
-- ---
CREATE LOCAL TEMPORARY TABLE "update_data_a629b304-38d3-4d89-a600-70ba34f06a73"("value" VARCHAR, __page_id_string VARCHAR) ON COMMIT DROP;
-- ---
COPY "update_data_a629b304-38d3-4d89-a600-70ba34f06a73" FROM STDIN (FORMAT TEXT, NULL '')
-- ---
UPDATE "public"."ducklake_metadata" SET "value" = "update_data_a629b304-38d3-4d89-a600-70ba34f06a73"."value" FROM "update_data_a629b304-38d3-4d89-a600-70ba34f06a73" WHERE "ducklake_metadata".ctid=__page_id_string::TID
-- ---
COMMIT
-- ---
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ
-- ---
COPY (SELECT "snapshot_id", "schema_version", "next_catalog_id", "next_file_id" FROM (SELECT snapshot_id, schema_version, next_catalog_id, next_file_id
		 FROM "public".ducklake_snapshot WHERE snapshot_id = (
		     SELECT MAX(snapshot_id) FROM "public".ducklake_snapshot
		 )) AS __unnamed_subquery ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "begin_snapshot", "end_snapshot", "schema_id", "schema_uuid", "schema_name", "path", "path_is_relative" FROM "public"."ducklake_schema" WHERE "begin_snapshot" <= '24') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "begin_snapshot", "end_snapshot", "schema_id", "table_uuid", "table_name", "path", "path_is_relative" FROM "public"."ducklake_table" WHERE "begin_snapshot" <= '24') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "begin_snapshot", "end_snapshot", "column_id", "column_name", "column_type", "initial_default", "default_value", "nulls_allowed", "parent_column", "default_value_type", "column_order" FROM "public"."ducklake_column" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "object_id", "begin_snapshot", "end_snapshot", "key", "value" FROM "public"."ducklake_tag" WHERE "begin_snapshot" <= '24') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "table_name", "schema_version" FROM "public"."ducklake_inlined_data_tables" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "column_id", "begin_snapshot", "end_snapshot", "key", "value" FROM "public"."ducklake_column_tag" WHERE "begin_snapshot" <= '24') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "begin_snapshot", "end_snapshot", "view_id", "view_uuid", "schema_id", "view_name", "dialect", "sql", "column_aliases" FROM "public"."ducklake_view" WHERE "begin_snapshot" <= '24') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "begin_snapshot", "end_snapshot", "schema_id", "macro_id", "macro_name" FROM "public"."ducklake_macro" WHERE "begin_snapshot" <= '24') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "macro_id", "dialect", "sql", "type", "impl_id" FROM "public"."ducklake_macro_impl" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "macro_id", "impl_id", "parameter_name", "parameter_type", "default_value", "default_value_type" FROM "public"."ducklake_macro_parameters" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "partition_id", "begin_snapshot", "end_snapshot", "table_id" FROM "public"."ducklake_partition_info" WHERE "begin_snapshot" <= '24') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "partition_id", "partition_key_index", "column_id", "transform" FROM "public"."ducklake_partition_column" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "sort_id", "begin_snapshot", "end_snapshot", "table_id" FROM "public"."ducklake_sort_info" WHERE "begin_snapshot" <= '24') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "sort_id", "sort_key_index", "expression", "dialect", "sort_direction", "null_order" FROM "public"."ducklake_sort_expression" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "record_count", "file_size_bytes", "next_row_id" FROM "public"."ducklake_table_stats" WHERE "table_id" = '1') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "column_id", "contains_null", "contains_nan", "min_value", "max_value", "extra_stats" FROM "public"."ducklake_table_column_stats" WHERE "table_id" = '1') TO STDOUT (FORMAT "binary");
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_inlined_delete_1'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_inlined_delete_1'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
COPY (SELECT "data_file_id", "table_id", "begin_snapshot", "end_snapshot", "delete_count" FROM "public"."ducklake_delete_file" WHERE "table_id" = '1' AND "begin_snapshot" <= '24') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "data_file_id", "begin_snapshot", "end_snapshot" FROM "public"."ducklake_data_file" WHERE "begin_snapshot" <= '24') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "begin_snapshot", "end_snapshot", "record_count" FROM "public"."ducklake_data_file" WHERE "table_id" = '1' AND "begin_snapshot" <= '24') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "begin_snapshot", "end_snapshot" FROM "public"."ducklake_inlined_data_1_4" WHERE "begin_snapshot" <= '24') TO STDOUT (FORMAT "binary");
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_metadata'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_metadata'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_metadata"("key" VARCHAR NOT NULL, "value" VARCHAR NOT NULL, "scope" VARCHAR, "scope_id" BIGINT);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_snapshot'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_snapshot'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_snapshot"("snapshot_id" BIGINT PRIMARY KEY, "snapshot_time" TIMESTAMP WITH TIME ZONE, "schema_version" BIGINT, "next_catalog_id" BIGINT, "next_file_id" BIGINT);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_snapshot_changes'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_snapshot_changes'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_snapshot_changes"("snapshot_id" BIGINT PRIMARY KEY, "changes_made" VARCHAR, "author" VARCHAR, "commit_message" VARCHAR, "commit_extra_info" VARCHAR);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_schema'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_schema'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_schema"("schema_id" BIGINT PRIMARY KEY, "schema_uuid" UUID, "begin_snapshot" BIGINT, "end_snapshot" BIGINT, "schema_name" VARCHAR, "path" VARCHAR, "path_is_relative" BOOLEAN);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_table'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_table'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_table"("table_id" BIGINT, "table_uuid" UUID, "begin_snapshot" BIGINT, "end_snapshot" BIGINT, "schema_id" BIGINT, "table_name" VARCHAR, "path" VARCHAR, "path_is_relative" BOOLEAN);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_view'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_view'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_view"("view_id" BIGINT, "view_uuid" UUID, "begin_snapshot" BIGINT, "end_snapshot" BIGINT, "schema_id" BIGINT, "view_name" VARCHAR, "dialect" VARCHAR, "sql" VARCHAR, "column_aliases" VARCHAR);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_tag'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_tag'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_tag"("object_id" BIGINT, "begin_snapshot" BIGINT, "end_snapshot" BIGINT, "key" VARCHAR, "value" VARCHAR);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_column_tag'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_column_tag'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_column_tag"("table_id" BIGINT, "column_id" BIGINT, "begin_snapshot" BIGINT, "end_snapshot" BIGINT, "key" VARCHAR, "value" VARCHAR);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_data_file'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_data_file'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_data_file"("data_file_id" BIGINT PRIMARY KEY, "table_id" BIGINT, "begin_snapshot" BIGINT, "end_snapshot" BIGINT, "file_order" BIGINT, "path" VARCHAR, "path_is_relative" BOOLEAN, "file_format" VARCHAR, "record_count" BIGINT, "file_size_bytes" BIGINT, "footer_size" BIGINT, "row_id_start" BIGINT, "partition_id" BIGINT, "encryption_key" VARCHAR, "mapping_id" BIGINT, "partial_max" BIGINT);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_file_column_stats'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_file_column_stats'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_file_column_stats"("data_file_id" BIGINT, "table_id" BIGINT, "column_id" BIGINT, "column_size_bytes" BIGINT, "value_count" BIGINT, "null_count" BIGINT, "min_value" VARCHAR, "max_value" VARCHAR, "contains_nan" BOOLEAN, "extra_stats" VARCHAR);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_delete_file'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_delete_file'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_delete_file"("delete_file_id" BIGINT PRIMARY KEY, "table_id" BIGINT, "begin_snapshot" BIGINT, "end_snapshot" BIGINT, "data_file_id" BIGINT, "path" VARCHAR, "path_is_relative" BOOLEAN, "format" VARCHAR, "delete_count" BIGINT, "file_size_bytes" BIGINT, "footer_size" BIGINT, "encryption_key" VARCHAR, "partial_max" BIGINT);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_column'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_column'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_column"("column_id" BIGINT, "begin_snapshot" BIGINT, "end_snapshot" BIGINT, "table_id" BIGINT, "column_order" BIGINT, "column_name" VARCHAR, "column_type" VARCHAR, "initial_default" VARCHAR, "default_value" VARCHAR, "nulls_allowed" BOOLEAN, "parent_column" BIGINT, "default_value_type" VARCHAR, "default_value_dialect" VARCHAR);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_table_stats'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_table_stats'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_table_stats"("table_id" BIGINT, "record_count" BIGINT, "next_row_id" BIGINT, "file_size_bytes" BIGINT);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_table_column_stats'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_table_column_stats'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_table_column_stats"("table_id" BIGINT, "column_id" BIGINT, "contains_null" BOOLEAN, "contains_nan" BOOLEAN, "min_value" VARCHAR, "max_value" VARCHAR, "extra_stats" VARCHAR);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_partition_info'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_partition_info'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_partition_info"("partition_id" BIGINT, "table_id" BIGINT, "begin_snapshot" BIGINT, "end_snapshot" BIGINT);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_partition_column'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_partition_column'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_partition_column"("partition_id" BIGINT, "table_id" BIGINT, "partition_key_index" BIGINT, "column_id" BIGINT, "transform" VARCHAR);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_file_partition_value'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_file_partition_value'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_file_partition_value"("data_file_id" BIGINT, "table_id" BIGINT, "partition_key_index" BIGINT, "partition_value" VARCHAR);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_files_scheduled_for_deletion'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_files_scheduled_for_deletion'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_files_scheduled_for_deletion"("data_file_id" BIGINT, "path" VARCHAR, "path_is_relative" BOOLEAN, "schedule_start" TIMESTAMP WITH TIME ZONE);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_inlined_data_tables'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_inlined_data_tables'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_inlined_data_tables"("table_id" BIGINT, "table_name" VARCHAR, "schema_version" BIGINT);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_column_mapping'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_column_mapping'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_column_mapping"("mapping_id" BIGINT, "table_id" BIGINT, "type" VARCHAR);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_name_mapping'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_name_mapping'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_name_mapping"("mapping_id" BIGINT, "column_id" BIGINT, "source_name" VARCHAR, "target_field_id" BIGINT, "parent_column" BIGINT, "is_partition" BOOLEAN);
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_schema_versions'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_schema_versions'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
CREATE TABLE "public"."ducklake_schema_versions"("begin_snapshot" BIGINT, "schema_version" BIGINT, "table_id" BIGINT);
-- ---
COPY "public"."ducklake_snapshot" FROM STDIN (FORMAT BINARY)
-- ---
COPY "public"."ducklake_snapshot_changes" FROM STDIN (FORMAT BINARY)
-- ---
COPY "public"."ducklake_metadata" ("key", "value") FROM STDIN (FORMAT BINARY)
-- ---
COPY "public"."ducklake_schema" FROM STDIN (FORMAT BINARY)
-- ---
COPY (SELECT "schema_id", "path", "path_is_relative" FROM "public"."ducklake_schema" WHERE "schema_id" = '0') TO STDOUT (FORMAT "binary");
-- ---
INSERT INTO "public".ducklake_snapshot VALUES (1, NOW(), 1, 2, 0);INSERT INTO "public".ducklake_table VALUES (1, '01a2280c-3ed2-7ff8-a62f-22640790b4e6', 1, NULL, 0, 't', 't/', true);INSERT INTO "public".ducklake_column VALUES (1, 1, NULL, 1, 1, 'id', 'int32', NULL, 'NULL', true, NULL, 'literal', 'duckdb'),(2, 1, NULL, 1, 2, 'name', 'varchar', NULL, 'NULL', true, NULL, 'literal', 'duckdb'),(3, 1, NULL, 1, 3, 'ts', 'timestamp', NULL, 'NULL', true, NULL, 'literal', 'duckdb'),(4, 1, NULL, 1, 4, 'amount', 'float64', NULL, 'NULL', true, NULL, 'literal', 'duckdb');INSERT INTO "public".ducklake_inlined_data_tables VALUES (1, 'ducklake_inlined_data_1_1', 1);CREATE TABLE IF NOT EXISTS "public".ducklake_inlined_data_1_1(row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, id INTEGER, "name" BYTEA, ts VARCHAR, amount DOUBLE PRECISION);INSERT INTO "public".ducklake_schema_versions VALUES (1,1,1);INSERT INTO "public".ducklake_snapshot_changes VALUES (1, 'created_table:"main"."t"', NULL, NULL, NULL);
-- ---
COPY (SELECT "table_id", "schema_version", "table_name" FROM "public"."ducklake_inlined_data_tables" WHERE "table_id" = '1') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "schema_version" FROM "public"."ducklake_inlined_data_tables" WHERE "table_id" = '1') TO STDOUT (FORMAT "binary");
-- ---
INSERT INTO "public".ducklake_snapshot VALUES (2, NOW(), 1, 2, 1);INSERT INTO "public".ducklake_table_stats VALUES (1, 2, 2, 0);INSERT INTO "public".ducklake_table_column_stats VALUES (1, 1, false, NULL, '1', '2', NULL),(1, 2, false, NULL, 'a', 'b', NULL),(1, 3, false, NULL, '2024-01-01 10:00:00', '2024-01-02 10:00:00', NULL),(1, 4, false, NULL, '1.5', '2.5', NULL);INSERT INTO "public".ducklake_inlined_data_1_1 VALUES (0, 2, NULL, 1, '\x61', CAST('2024-01-01 10:00:00' AS VARCHAR), 1.5), (1, 2, NULL, 2, '\x62', CAST('2024-01-02 10:00:00' AS VARCHAR), 2.5);INSERT INTO "public".ducklake_snapshot_changes VALUES (2, 'inlined_insert:1', NULL, NULL, NULL);
-- ---
COPY (SELECT "data_file_id", "table_id", "begin_snapshot", "end_snapshot", "path", "path_is_relative", "file_size_bytes", "footer_size", "row_id_start", "partial_max", "mapping_id" FROM "public"."ducklake_data_file" WHERE "table_id" = '1' AND "begin_snapshot" <= '2') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "begin_snapshot", "end_snapshot", "data_file_id", "path", "path_is_relative", "format", "file_size_bytes", "footer_size" FROM "public"."ducklake_delete_file" WHERE "table_id" = '1' AND "begin_snapshot" <= '2') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "schema_version", "begin_snapshot" FROM "public"."ducklake_schema_versions" WHERE "table_id" = '1' AND "schema_version" = '1') TO STDOUT (FORMAT "binary");
-- ---
SELECT pg_namespace.oid AS namespace_id, relname, relpages, attname,
    pg_type.typname type_name, atttypmod type_modifier, pg_attribute.attndims ndim,
    attnum, pg_attribute.attnotnull AS notnull, NULL constraint_id,
    NULL constraint_type, NULL constraint_key, type_ns.nspname AS type_schema,
    col_desc.description AS column_comment,
    tbl_desc.description AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_attribute ON pg_class.oid=pg_attribute.attrelid
JOIN pg_type ON atttypid=pg_type.oid
JOIN pg_namespace type_ns ON pg_type.typnamespace = type_ns.oid
LEFT JOIN pg_description col_desc ON col_desc.objoid=pg_class.oid AND col_desc.objsubid=pg_attribute.attnum
LEFT JOIN pg_description tbl_desc ON tbl_desc.objoid=pg_class.oid AND tbl_desc.objsubid=0
WHERE attnum > 0 AND relkind IN ('r', 'v', 'm', 'f', 'p') AND pg_namespace.nspname IN ('public')AND relname='ducklake_inlined_data_1_1'
UNION ALL
SELECT pg_namespace.oid AS namespace_id, relname, NULL relpages, NULL attname, NULL type_name,
    NULL type_modifier, NULL ndim, NULL attnum, NULL AS notnull,
    pg_constraint.oid AS constraint_id, contype AS constraint_type,
    conkey AS constraint_key, NULL AS type_schema,
    NULL AS column_comment, NULL AS table_comment
FROM pg_class
JOIN pg_namespace ON relnamespace = pg_namespace.oid
JOIN pg_constraint ON (pg_class.oid=pg_constraint.conrelid)
WHERE relkind IN ('r', 'v', 'm', 'f', 'p') AND contype IN ('p', 'u') AND pg_namespace.nspname IN ('public')AND relname='ducklake_inlined_data_1_1'
ORDER BY namespace_id, relname, attnum, constraint_id;
-- ---
COPY (SELECT "begin_snapshot", "end_snapshot", "id", "name", "ts", "amount", "row_id" FROM "public"."ducklake_inlined_data_1_1" WHERE "begin_snapshot" <= '2') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "schema_id", "path", "path_is_relative" FROM "public"."ducklake_schema" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "schema_id", "table_id", "path", "path_is_relative" FROM "public"."ducklake_table" WHERE "table_id" = '1') TO STDOUT (FORMAT "binary");
-- ---
INSERT INTO "public".ducklake_snapshot VALUES (3, NOW(), 1, 2, 2);UPDATE "public".ducklake_table_stats SET record_count=1002, file_size_bytes=8499, next_row_id=1002 WHERE table_id=1;
WITH new_values(tid, cid, new_contains_null, new_contains_nan, new_min, new_max, new_extra_stats) AS (
VALUES (1, 1, false, NULL, '1', '1099', NULL),(1, 2, false, NULL, 'a', 'v999', NULL),(1, 3, true, NULL, '2024-01-01 10:00:00', '2024-01-02 10:00:00', NULL),(1, 4, true, NULL, '1.5', '2.5', NULL)
)
UPDATE "public".ducklake_table_column_stats
SET contains_null=CAST(new_contains_null AS BOOLEAN), contains_nan=CAST(new_contains_nan AS BOOLEAN), min_value=new_min, max_value=new_max, extra_stats=new_extra_stats
FROM new_values
WHERE table_id=tid AND column_id=cid;
INSERT INTO "public".ducklake_data_file VALUES (1, 1, 3, NULL, NULL, 'ducklake-01a2280c-4db6-7e9e-938a-6b92a0b045b4.parquet', true, 'parquet', 1000, 8499, 353, 2, NULL, NULL, NULL, NULL);INSERT INTO "public".ducklake_file_column_stats VALUES (1, 1, 1, 4032, 1000, 0, '100', '1099', NULL, NULL),(1, 1, 2, 4048, 1000, 0, 'v100', 'v999', NULL, NULL),(1, 1, 3, 27, 0, 1000, NULL, NULL, NULL, NULL),(1, 1, 4, 27, 0, 1000, NULL, NULL, false, NULL);INSERT INTO "public".ducklake_snapshot_changes VALUES (3, 'inserted_into_table:1', NULL, NULL, NULL);
-- ---
COPY (SELECT "data_file_id", "value_count", "max_value", "min_value" FROM (SELECT data_file_id, value_count, max_value, min_value
     FROM "public".ducklake_file_column_stats
     WHERE column_id = 1 AND table_id = 1) AS __unnamed_subquery ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "begin_snapshot", "end_snapshot", "delete_file_id", "data_file_id", "path", "path_is_relative", "format", "file_size_bytes", "footer_size" FROM "public"."ducklake_delete_file" WHERE "table_id" = '1' AND "begin_snapshot" <= '3') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "data_file_id", "table_id", "begin_snapshot", "end_snapshot", "record_count", "path", "path_is_relative", "file_size_bytes", "footer_size", "row_id_start", "mapping_id" FROM "public"."ducklake_data_file" WHERE "table_id" = '1' AND "begin_snapshot" <= '3') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "begin_snapshot", "end_snapshot", "id", "row_id" FROM "public"."ducklake_inlined_data_1_1" WHERE "begin_snapshot" <= '3') TO STDOUT (FORMAT "binary");
-- ---
INSERT INTO "public".ducklake_snapshot VALUES (4, NOW(), 1, 2, 2);
WITH deleted_row_list(deleted_row_id) AS (
VALUES (0)
)
UPDATE "public".ducklake_inlined_data_1_1
SET end_snapshot = 4
FROM deleted_row_list
WHERE row_id=deleted_row_id AND end_snapshot IS NULL AND begin_snapshot != 4;
CREATE TABLE IF NOT EXISTS "public".ducklake_inlined_delete_1(file_id BIGINT, row_id BIGINT, begin_snapshot BIGINT);
INSERT INTO "public".ducklake_inlined_delete_1 VALUES (1, 0, 4), (1, 1, 4);
INSERT INTO "public".ducklake_snapshot_changes VALUES (4, 'inlined_delete:1', NULL, NULL, NULL);
-- ---
COPY (SELECT NULL FROM "public"."ducklake_inlined_delete_1"  LIMIT 1) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "begin_snapshot", "file_id", "row_id" FROM "public"."ducklake_inlined_delete_1" WHERE "begin_snapshot" <= '4') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "begin_snapshot", "end_snapshot", "id", "ts", "amount", "row_id" FROM "public"."ducklake_inlined_data_1_1" WHERE "begin_snapshot" <= '4') TO STDOUT (FORMAT "binary");
-- ---
INSERT INTO "public".ducklake_snapshot VALUES (5, NOW(), 1, 2, 3);UPDATE "public".ducklake_table_stats SET record_count=1003, file_size_bytes=8499, next_row_id=1002 WHERE table_id=1;
WITH new_values(tid, cid, new_contains_null, new_contains_nan, new_min, new_max, new_extra_stats) AS (
VALUES (1, 1, false, NULL, '1', '1099', NULL),(1, 2, false, NULL, 'a', 'z', NULL),(1, 3, true, NULL, '2024-01-01 10:00:00', '2024-01-02 10:00:00', NULL),(1, 4, true, NULL, '1.5', '2.5', NULL)
)
UPDATE "public".ducklake_table_column_stats
SET contains_null=CAST(new_contains_null AS BOOLEAN), contains_nan=CAST(new_contains_nan AS BOOLEAN), min_value=new_min, max_value=new_max, extra_stats=new_extra_stats
FROM new_values
WHERE table_id=tid AND column_id=cid;
INSERT INTO "public".ducklake_inlined_data_1_1 VALUES (1, 5, NULL, 2, '\x7a', CAST('2024-01-02 10:00:00' AS VARCHAR), 2.5);
WITH deleted_row_list(deleted_row_id) AS (
VALUES (1)
)
UPDATE "public".ducklake_inlined_data_1_1
SET end_snapshot = 5
FROM deleted_row_list
WHERE row_id=deleted_row_id AND end_snapshot IS NULL AND begin_snapshot != 5;
INSERT INTO "public".ducklake_snapshot_changes VALUES (5, 'inlined_insert:1,inlined_delete:1', NULL, NULL, NULL);
-- ---
COPY (SELECT "snapshot_id", "schema_version", "next_catalog_id", "next_file_id" FROM "public"."ducklake_snapshot" WHERE "snapshot_id" = '2') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "begin_snapshot", "end_snapshot", "row_id" FROM "public"."ducklake_inlined_data_1_1" WHERE "begin_snapshot" <= '2') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "key", "scope" FROM "public"."ducklake_metadata" WHERE "key" = 'data_inlining_row_limit' COLLATE "C") TO STDOUT (FORMAT "binary");
-- ---
COPY "public"."ducklake_metadata" FROM STDIN (FORMAT BINARY)
-- ---
COPY (SELECT "key", "scope", ctid FROM "public"."ducklake_metadata" WHERE "key" = 'data_inlining_row_limit' COLLATE "C") TO STDOUT (FORMAT "binary");
-- ---
CREATE LOCAL TEMPORARY TABLE "update_data_4ec9bf2b-cf68-4633-930a-400ec1374b01"("value" VARCHAR, __page_id_string VARCHAR) ON COMMIT DROP;
-- ---
COPY "update_data_4ec9bf2b-cf68-4633-930a-400ec1374b01" FROM STDIN (FORMAT TEXT, NULL '')
-- ---
UPDATE "public"."ducklake_metadata" SET "value" = "update_data_4ec9bf2b-cf68-4633-930a-400ec1374b01"."value" FROM "update_data_4ec9bf2b-cf68-4633-930a-400ec1374b01" WHERE "ducklake_metadata".ctid=__page_id_string::TID
-- ---
COPY (SELECT "snapshot_id", "snapshot_time", "schema_version", "next_file_id" FROM "public"."ducklake_snapshot" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "snapshot_id", "changes_made", "author", "commit_message", "commit_extra_info" FROM "public"."ducklake_snapshot_changes" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "begin_snapshot", "end_snapshot", "schema_id", "table_name", "table_uuid" FROM "public"."ducklake_table" WHERE "begin_snapshot" <= '5') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "begin_snapshot", "end_snapshot", "file_size_bytes" FROM "public"."ducklake_data_file" WHERE "begin_snapshot" <= '5') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "begin_snapshot", "end_snapshot", "file_size_bytes" FROM "public"."ducklake_delete_file" WHERE "begin_snapshot" <= '5') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "column_id" FROM "public"."ducklake_column" WHERE "table_id" = '1') TO STDOUT (FORMAT "binary");
-- ---
INSERT INTO "public".ducklake_snapshot VALUES (6, NOW(), 2, 2, 3);INSERT INTO "public".ducklake_column VALUES (5, 6, NULL, 1, 5, 'extra', 'varchar', NULL, 'NULL', true, NULL, 'literal', 'duckdb');INSERT INTO "public".ducklake_inlined_data_tables VALUES (1, 'ducklake_inlined_data_1_2', 2);CREATE TABLE IF NOT EXISTS "public".ducklake_inlined_data_1_2(row_id BIGINT, begin_snapshot BIGINT, end_snapshot BIGINT, id INTEGER, "name" BYTEA, ts VARCHAR, amount DOUBLE PRECISION, extra BYTEA);INSERT INTO "public".ducklake_schema_versions VALUES (6,2,1);INSERT INTO "public".ducklake_snapshot_changes VALUES (6, 'altered_table:1', NULL, NULL, NULL);
-- ---
COPY (SELECT "table_id", "begin_snapshot", "end_snapshot", "delete_file_id", "data_file_id", "path", "path_is_relative", "format", "encryption_key" FROM "public"."ducklake_delete_file" WHERE "table_id" = '1' AND "begin_snapshot" <= '6') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "file_id", "row_id", "begin_snapshot" FROM "public"."ducklake_inlined_delete_1" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "data_file_id", "path", "path_is_relative" FROM "public"."ducklake_data_file" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT ctid FROM "public"."ducklake_inlined_delete_1" ) TO STDOUT (FORMAT "binary");
-- ---
DELETE FROM "public".ducklake_inlined_delete_1 WHERE ctid IN ('(0,1)','(0,2)')
-- ---
COPY (SELECT "begin_snapshot", "id", "name", "ts", "amount", "extra", "row_id" FROM "public"."ducklake_inlined_data_1_2" WHERE "begin_snapshot" <= '6') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "begin_snapshot", "id", "name", "ts", "amount", "row_id" FROM "public"."ducklake_inlined_data_1_1" WHERE "begin_snapshot" <= '6') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "begin_snapshot", ctid FROM "public"."ducklake_inlined_data_1_2" WHERE "begin_snapshot" <= '6') TO STDOUT (FORMAT "binary");
-- ---
DELETE FROM "public".ducklake_inlined_data_1_1 WHERE ctid IN ('(0,3)','(0,4)','(0,5)')
-- ---
INSERT INTO "public".ducklake_snapshot VALUES (7, NOW(), 2, 2, 6);UPDATE "public".ducklake_table_stats SET record_count=1003, file_size_bytes=9458, next_row_id=1002 WHERE table_id=1;
WITH new_values(tid, cid, new_contains_null, new_contains_nan, new_min, new_max, new_extra_stats) AS (
VALUES (1, 1, false, NULL, '1', '1099', NULL),(1, 2, false, NULL, 'a', 'z', NULL),(1, 3, true, NULL, '2024-01-01 10:00:00', '2024-01-02 10:00:00', NULL),(1, 4, true, NULL, '1.5', '2.5', NULL)
)
UPDATE "public".ducklake_table_column_stats
SET contains_null=CAST(new_contains_null AS BOOLEAN), contains_nan=CAST(new_contains_nan AS BOOLEAN), min_value=new_min, max_value=new_max, extra_stats=new_extra_stats
FROM new_values
WHERE table_id=tid AND column_id=cid;
INSERT INTO "public".ducklake_data_file VALUES (3, 1, 2, NULL, NULL, 'ducklake-01a2280c-77d2-7789-a11d-8d7994136076.parquet', true, 'parquet', 3, 959, 697, 0, NULL, NULL, NULL, 5);INSERT INTO "public".ducklake_file_column_stats VALUES (3, 1, 1, 37, 3, 0, '1', '2', NULL, NULL),(3, 1, 2, 40, 3, 0, 'a', 'z', NULL, NULL),(3, 1, 3, 49, 3, 0, '2024-01-01 10:00:00', '2024-01-02 10:00:00', NULL, NULL),(3, 1, 4, 45, 3, 0, '1.5', '2.5', false, NULL);DELETE FROM "public".ducklake_inlined_data_1_2 WHERE begin_snapshot <= 6;
DELETE FROM "public".ducklake_inlined_data_1_1 WHERE begin_snapshot <= 6;
INSERT INTO "public".ducklake_delete_file VALUES (4, 1, 4, NULL,  1, 'ducklake-01a2280c-769a-7aec-9a37-7248b6e0ba65-delete.parquet', true, 'parquet', 2, 930, 715, NULL, 4),(5, 1, 4, NULL,  3, 'ducklake-01a2280c-7832-7bf4-b7d7-cd87b1963527-delete.parquet', true, 'parquet', 2, 930, 715, NULL, NULL);INSERT INTO "public".ducklake_snapshot_changes VALUES (7, 'deleted_from_table:1,inline_flush:1', NULL, NULL, NULL);
-- ---
COPY (SELECT "schema_version", "table_id", "table_name" FROM "public"."ducklake_inlined_data_tables" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "schema_version" FROM "public"."ducklake_inlined_data_tables" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT NULL FROM "public"."ducklake_inlined_data_1_1" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "schema_version", ctid FROM "public"."ducklake_inlined_data_tables" WHERE "table_id" = '1' AND "schema_version" = '1') TO STDOUT (FORMAT "binary");
-- ---
DELETE FROM "public".ducklake_inlined_data_tables WHERE ctid IN ('(0,1)')
-- ---
BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;
DROP Table  IF EXISTS "public"."ducklake_inlined_data_1_1"
-- ---
COPY (SELECT "schema_version" FROM "public"."ducklake_snapshot" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "begin_snapshot", "data_file_id", "table_id", "file_size_bytes", "end_snapshot", "record_count", "row_id_start", "mapping_id", "partial_max", "partition_id", "path", "path_is_relative", "footer_size" FROM "public"."ducklake_data_file" WHERE "table_id" = '1' AND "file_size_bytes" < '536870912') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "data_file_id", "partition_value", "partition_key_index" FROM "public"."ducklake_file_partition_value" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "delete_file_id", "begin_snapshot", "end_snapshot", "data_file_id", "path", "path_is_relative", "format", "delete_count", "file_size_bytes", "footer_size", "partial_max" FROM "public"."ducklake_delete_file" WHERE "table_id" = '1') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "begin_snapshot", "schema_version" FROM "public"."ducklake_schema_versions" WHERE "table_id" = '1') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "file_id", "begin_snapshot" FROM "public"."ducklake_inlined_delete_1" WHERE "file_id" IN ('1', '3') AND "begin_snapshot" <= '7') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "snapshot_id", "snapshot_time", "schema_version", "next_file_id" FROM "public"."ducklake_snapshot" WHERE ("snapshot_id" >= '1' AND "snapshot_id" <= '2')) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "snapshot_id" FROM "public"."ducklake_snapshot" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id" FROM "public"."ducklake_table_stats" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "snapshot_id", ctid FROM "public"."ducklake_snapshot" WHERE ("snapshot_id" >= '1' AND "snapshot_id" <= '2')) TO STDOUT (FORMAT "binary");
-- ---
DELETE FROM "public".ducklake_snapshot WHERE ctid IN ('(0,2)','(0,3)')
-- ---
COPY (SELECT "snapshot_id", ctid FROM "public"."ducklake_snapshot_changes" WHERE ("snapshot_id" >= '1' AND "snapshot_id" <= '2')) TO STDOUT (FORMAT "binary");
-- ---
DELETE FROM "public".ducklake_snapshot_changes WHERE ctid IN ('(0,2)','(0,3)')
-- ---
COPY (SELECT "end_snapshot", "begin_snapshot", "table_id" FROM "public"."ducklake_table" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "table_id", "end_snapshot", "begin_snapshot" FROM "public"."ducklake_table" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "end_snapshot", "begin_snapshot", "data_file_id", "table_id", "path", "path_is_relative" FROM "public"."ducklake_data_file" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "end_snapshot", "begin_snapshot", "delete_file_id", "table_id", "path", "path_is_relative" FROM "public"."ducklake_delete_file" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "end_snapshot", "begin_snapshot", ctid FROM "public"."ducklake_schema" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "end_snapshot", "begin_snapshot", ctid FROM "public"."ducklake_view" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "end_snapshot", "begin_snapshot", ctid FROM "public"."ducklake_tag" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "end_snapshot", "begin_snapshot", ctid FROM "public"."ducklake_macro" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "macro_id" FROM "public"."ducklake_macro" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "macro_id", ctid FROM "public"."ducklake_macro_impl" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "macro_id", ctid FROM "public"."ducklake_macro_parameters" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "mapping_id" FROM "public"."ducklake_column_mapping" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "mapping_id", ctid FROM "public"."ducklake_name_mapping" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "data_file_id", "path", "path_is_relative", "schedule_start" FROM "public"."ducklake_files_scheduled_for_deletion" ) TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "data_file_id", "table_id", "begin_snapshot", "end_snapshot" FROM "public"."ducklake_data_file" WHERE "table_id" = '1' AND "begin_snapshot" <= '7') TO STDOUT (FORMAT "binary");
-- ---
COPY (SELECT "file_id", "begin_snapshot" FROM "public"."ducklake_inlined_delete_1" WHERE "begin_snapshot" <= '7') TO STDOUT (FORMAT "binary");
-- ---
