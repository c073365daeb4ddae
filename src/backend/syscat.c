/*
 * syscat.c: the pg_catalog relations, computed from the catalog cache.
 *
 * Clients discover tables through PostgreSQL's system catalogs (DuckDB's postgres
 * extension loads pg_namespace, pg_class, pg_attribute, pg_type, pg_constraint,
 * pg_enum and pg_indexes at ATTACH; reference/ducklake-wire.md §4). RockLake keeps
 * no such tables: each one is a SQLite subquery over the cache, rl_relation and
 * SQLite's table_info / index_list pragmas, that the analyser puts in FROM where
 * the client named the catalog, so it always shows the transaction's snapshot.
 * Columns carry PostgreSQL's names and types; only the columns clients read are
 * there. Object identifiers are stable: a relation's OID is FirstNormalObjectId +
 * its relid, a constraint's is CONSTRAINT_OID_BASE + relid * 256 + the index's
 * position, types keep PostgreSQL's OIDs. Every relation is in namespace public;
 * relpages is 0 (DESIGN.md §7). Keys are reported as UNIQUE constraints ('u'):
 * the cache declares a PRIMARY KEY as a UNIQUE constraint too. pg_settings lists
 * the session's settings as SHOW ALL does.
 */
#include <string.h>

#include "catalog_cache.h"
#include "executor.h"
#include "guc.h"
#include "mcxt.h"

#define PG_CATALOG_NAMESPACE	11
#define PG_PUBLIC_NAMESPACE		2200
#define INFORMATION_SCHEMA_NAMESPACE 13183
#define FirstNormalObjectId		16384
#define FirstGenbkiObjectId		10000	/* PostgreSQL's built-in types are below */
#define CONSTRAINT_OID_BASE		0x40000000
#define BOOTSTRAP_SUPERUSERID	10

#define STR(x) #x
#define XSTR(x) STR(x)

typedef struct SystemRelation
{
	const char *name;
	int			ncolumns;
	const ResultColumn *columns;
	const char *sql;			/* NULL: built by build_sql */
	char	   *(*build_sql) (void);
} SystemRelation;

#define COL(name, type) {name, type, -1}
#define NCOLS(a) ((int) (sizeof(a) / sizeof((a)[0])))

static const ResultColumn pg_namespace_cols[] = {
	COL("oid", OIDOID), COL("nspname", NAMEOID), COL("nspowner", OIDOID),
};

static const ResultColumn pg_class_cols[] = {
	COL("oid", OIDOID), COL("relname", NAMEOID), COL("relnamespace", OIDOID),
	COL("relowner", OIDOID), COL("relpages", INT4OID), COL("reltuples", FLOAT4OID),
	COL("relhasindex", BOOLOID), COL("relpersistence", TEXTOID), COL("relkind", TEXTOID),
	COL("relnatts", INT2OID),
};

static const ResultColumn pg_attribute_cols[] = {
	COL("attrelid", OIDOID), COL("attname", NAMEOID), COL("atttypid", OIDOID),
	COL("attnum", INT2OID), COL("attndims", INT4OID), COL("atttypmod", INT4OID),
	COL("attnotnull", BOOLOID), COL("atthasdef", BOOLOID), COL("attisdropped", BOOLOID),
};

static const ResultColumn pg_type_cols[] = {
	COL("oid", OIDOID), COL("typname", NAMEOID), COL("typnamespace", OIDOID),
	COL("typlen", INT2OID), COL("typtype", TEXTOID), COL("typrelid", OIDOID),
	COL("typelem", OIDOID), COL("typarray", OIDOID),
};

static const ResultColumn pg_constraint_cols[] = {
	COL("oid", OIDOID), COL("conname", NAMEOID), COL("connamespace", OIDOID),
	COL("contype", TEXTOID), COL("conrelid", OIDOID), COL("conkey", TEXTOID),
};

static const ResultColumn pg_enum_cols[] = {
	COL("oid", OIDOID), COL("enumtypid", OIDOID), COL("enumsortorder", FLOAT4OID),
	COL("enumlabel", NAMEOID),
};

static const ResultColumn pg_indexes_cols[] = {
	COL("schemaname", NAMEOID), COL("tablename", NAMEOID), COL("indexname", NAMEOID),
	COL("tablespace", NAMEOID), COL("indexdef", TEXTOID),
};

static const ResultColumn pg_settings_cols[] = {
	COL("name", TEXTOID), COL("setting", TEXTOID), COL("unit", TEXTOID),
	COL("short_desc", TEXTOID), COL("context", TEXTOID), COL("vartype", TEXTOID),
	COL("source", TEXTOID), COL("boot_val", TEXTOID), COL("reset_val", TEXTOID),
};

/* build_pg_type -- the types typio knows, once per backend */
static char *
build_pg_type(void)
{
	static char *sql;

	if (sql == NULL)
	{
		RlBuf		b;

		rlbuf_init_in(&b, CurrentMemoryContext);
		rlbuf_append_str(&b, "SELECT column1 AS oid, column2 AS typname, " XSTR(PG_CATALOG_NAMESPACE)
						 " AS typnamespace, column3 AS typlen, column4 AS typtype, 0 AS typrelid,"
						 " 0 AS typelem, 0 AS typarray FROM (VALUES ");
		for (Oid oid = 1, n = 0; oid < FirstGenbkiObjectId; oid++)
		{
			const TypeInfo *t = typio_lookup(oid);

			if (t != NULL)
				rlbuf_printf(&b, "%s(%u, '%s', %d, '%c')", n++ ? ", " : "", oid, t->name, t->typlen,
							 t->category == TYPCATEGORY_PSEUDO ? 'p' : 'b');
		}
		rlbuf_append_str(&b, ")");
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

		sql = pstrdup(rlbuf_cstr(&b));
		MemoryContextSwitchTo(old);
		rlbuf_free(&b);
	}
	return sql;
}

static void
add_setting_row(const GucInfo *info, void *arg)
{
	RlBuf	   *b = arg;
	const char *values[] = {info->name, info->setting, info->unit, info->short_desc, info->context,
	info->vartype, info->source, info->boot_val, info->reset_val};

	rlbuf_append_str(b, b->data[b->len - 1] == ')' ? ", (" : "(");
	for (int i = 0; i < NCOLS(values); i++)
	{
		char	   *q = sqlite3_mprintf("%s%Q", i ? ", " : "", values[i]);

		rlbuf_append_str(b, q);
		sqlite3_free(q);
	}
	rlbuf_append_str(b, ")");
}

/* build_pg_settings -- the session's settings as they are now */
static char *
build_pg_settings(void)
{
	RlBuf		b;

	rlbuf_init_in(&b, CurrentMemoryContext);
	rlbuf_append_str(&b, "SELECT column1 AS name, column2 AS setting, column3 AS unit, column4 AS short_desc,"
					 " column5 AS context, column6 AS vartype, column7 AS source, column8 AS boot_val,"
					 " column9 AS reset_val FROM (VALUES ");
	DescribeConfigOptions(add_setting_row, &b);
	rlbuf_append_str(&b, ")");
	char	   *sql = pstrdup(rlbuf_cstr(&b));

	rlbuf_free(&b);
	return sql;
}

static const SystemRelation system_relations[] = {
	{"pg_namespace", NCOLS(pg_namespace_cols), pg_namespace_cols,
		"SELECT column1 AS oid, column2 AS nspname, " XSTR(BOOTSTRAP_SUPERUSERID) " AS nspowner FROM (VALUES ("
		XSTR(PG_CATALOG_NAMESPACE) ", 'pg_catalog'), (" XSTR(PG_PUBLIC_NAMESPACE) ", 'public'), ("
		XSTR(INFORMATION_SCHEMA_NAMESPACE) ", 'information_schema'))", NULL},
	{"pg_class", NCOLS(pg_class_cols), pg_class_cols,
		"SELECT " XSTR(FirstNormalObjectId) " + r.relid AS oid, r.relname AS relname, "
		XSTR(PG_PUBLIC_NAMESPACE) " AS relnamespace, " XSTR(BOOTSTRAP_SUPERUSERID) " AS relowner,"
		" 0 AS relpages, -1.0 AS reltuples,"
		" EXISTS (SELECT 1 FROM pragma_index_list(r.relname, 'main') WHERE origin <> 'c') AS relhasindex,"
		" 'p' AS relpersistence, 'r' AS relkind,"
		" (SELECT count(*) FROM pragma_table_info(r.relname, 'main') WHERE name <> '" CACHE_ROWID_COLUMN "')"
		" AS relnatts FROM main." CACHE_RELATION_TABLE " AS r", NULL},
	{"pg_attribute", NCOLS(pg_attribute_cols), pg_attribute_cols,
		"SELECT " XSTR(FirstNormalObjectId) " + r.relid AS attrelid, a.name AS attname,"
		" rl_type_oid(a.type) AS atttypid, a.cid AS attnum, 0 AS attndims,"
		" rl_type_typmod(a.type) AS atttypmod, a.\"notnull\" AS attnotnull,"
		" a.dflt_value IS NOT NULL AS atthasdef, 0 AS attisdropped"
		" FROM main." CACHE_RELATION_TABLE " AS r, pragma_table_info(r.relname, 'main') AS a"
		" WHERE a.name <> '" CACHE_ROWID_COLUMN "'", NULL},
	{"pg_type", NCOLS(pg_type_cols), pg_type_cols, NULL, build_pg_type},
	{"pg_constraint", NCOLS(pg_constraint_cols), pg_constraint_cols,
		"SELECT " XSTR(CONSTRAINT_OID_BASE) " + r.relid * 256 + i.seq AS oid,"
		" r.relname || (SELECT group_concat('_' || name, '') FROM pragma_index_info(i.name, 'main'))"
		" || '_key' AS conname, " XSTR(PG_PUBLIC_NAMESPACE) " AS connamespace, 'u' AS contype,"
		" " XSTR(FirstNormalObjectId) " + r.relid AS conrelid,"
		" '{' || (SELECT group_concat(cid, ',') FROM pragma_index_info(i.name, 'main')) || '}' AS conkey"
		" FROM main." CACHE_RELATION_TABLE " AS r, pragma_index_list(r.relname, 'main') AS i"
		" WHERE i.origin = 'u'", NULL},
	{"pg_enum", NCOLS(pg_enum_cols), pg_enum_cols,
		"SELECT NULL AS oid, NULL AS enumtypid, NULL AS enumsortorder, NULL AS enumlabel WHERE 0", NULL},
	{"pg_indexes", NCOLS(pg_indexes_cols), pg_indexes_cols,
		"SELECT NULL AS schemaname, NULL AS tablename, NULL AS indexname, NULL AS tablespace,"
		" NULL AS indexdef WHERE 0", NULL},
	{"pg_settings", NCOLS(pg_settings_cols), pg_settings_cols, NULL, build_pg_settings},
};

CacheRelation *
SystemRelationLookup(const char *name)
{
	for (int i = 0; i < NCOLS(system_relations); i++)
	{
		const SystemRelation *s = &system_relations[i];

		if (strcmp(s->name, name) != 0)
			continue;
		CacheRelation *rel = palloc0(sizeof(CacheRelation));

		rel->name = s->name;
		rel->ncolumns = s->ncolumns;
		rel->columns = palloc(sizeof(ResultColumn) * (size_t) s->ncolumns);
		memcpy(rel->columns, s->columns, sizeof(ResultColumn) * (size_t) s->ncolumns);
		rel->sql = s->sql ? s->sql : s->build_sql();
		return rel;
	}
	return NULL;
}
