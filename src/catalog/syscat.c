/*
 * syscat.c: the pg_catalog relations, computed from the catalog cache.
 *
 * Clients discover tables through PostgreSQL's system catalogs: DuckDB's postgres
 * extension loads pg_namespace, pg_class, pg_attribute, pg_type, pg_constraint,
 * pg_enum and pg_indexes at ATTACH, and psql's describe commands read those and
 * a dozen more.
 * RockLake keeps no such tables: each one is a SQLite subquery over the cache,
 * rl_relation and SQLite's table_info / index_list pragmas, that the analyser puts
 * in FROM where the client named the catalog, so it always shows the
 * transaction's snapshot. Columns carry PostgreSQL's names and types; only the
 * columns clients read are there, and a relation for what RockLake does not have
 * (policies, triggers, publications, inheritance, extended statistics, sequences,
 * conversions, operators, event triggers, foreign servers, subscriptions) has
 * them and no rows; pg_proc lists the builtin functions (pg_proc.c), pg_extension
 * plpgsql. Columns named _rl_* are not the client's to see: the functions
 * that read the catalog look them up (pg_get_constraintdef, pg_get_indexdef,
 * obj_description; funcs.c).
 *
 * Object identifiers are stable: a relation's OID is FirstNormalObjectId + its
 * relid; the index behind a key (PRIMARY KEY or UNIQUE) is INDEX_OID_BASE and its
 * constraint CONSTRAINT_OID_BASE, + relid * 256 + the index's position; types
 * keep PostgreSQL's OIDs. A relation is in the schema its cache name says (public,
 * or the rl_namespace row whose nspid is its name's prefix: namespace.h), whose OID
 * is that nspid; a relation is owned by the role its rl_class_acl row names (the
 * database's owner without one), with its relacl there, a schema by the role CREATE
 * or ALTER SCHEMA gave it, with its nspacl in rl_namespace_acl; relpages is 0 (doc/design.md, section 7). The cache
 * keeps a key as a SQLite UNIQUE constraint; a PRIMARY KEY's first column is
 * declared DESC there (parse_utility.c), which is how it is told from UNIQUE.
 * pg_settings lists the session's settings as SHOW ALL does, pg_database the
 * registry of databases in the postgres database's cache.
 * pg_attribute's query runs in a virtual table (pg_attribute.c), which reads one
 * relation's columns when the query asks for one attrelid.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/acl.h"
#include "catalog/cache.h"
#include "catalog/catalog_cache.h"
#include "catalog/namespace.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_cast.h"
#include "catalog/pg_auth_members.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_stat.h"
#include "catalog/syscat.h"
#include "catalog/syscat_internal.h"
#include "common/rl_buffer.h"
#include "nodes/primnodes.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

#define FirstGenbkiObjectId		10000	/* PostgreSQL's built-in types are below */
#define CONSTRAINT_OID_BASE		0x40000000
#define HEAP_AM_OID				2
#define BTREE_AM_OID			403
#define DEFAULTTABLESPACE_OID	1663
#define DEFAULT_COLLATION_OID	100
#define C_COLLATION_OID			950
#define PLPGSQL_EXTENSION_OID	13559
#define PLPGSQL_LANGUAGE_OID	13563

#define STR(x) #x
#define XSTR(x) STR(x)

/* the schema of a relation by its cache name (an SQL expression): its name, its OID */
#define NSPNAME(rel) "coalesce((SELECT n.nspname FROM main." CACHE_NAMESPACE_TABLE " AS n" \
	" WHERE n.nspid = rl_nspid(" rel ")), 'public')"
#define NSPOID(rel) "coalesce(nullif(rl_nspid(" rel "), 0), " XSTR(PG_PUBLIC_NAMESPACE) ")"
/* the relation's own name in the cache's form, without its schema's id */
#define UNQUALIFIED(rel) "CASE rl_nspid(" rel ") WHEN 0 THEN " rel " ELSE substr(" rel ", instr(" rel ", '^.') + 2) END"
/*
 * whether an unqualified name finds the relation (pg_table_is_visible): its schema is
 * in the search path and no schema before it has a relation of that name (each a
 * probe of rl_relation's unique relname)
 */
#define VISIBLE(rel) "(rl_search_rank(" NSPNAME(rel) ") >= 0 AND NOT EXISTS (SELECT 1 FROM" \
	" (SELECT 0 AS nspid, 'public' AS nspname UNION ALL SELECT nspid, nspname FROM main." CACHE_NAMESPACE_TABLE ") AS s" \
	" WHERE rl_search_rank(s.nspname) BETWEEN 0 AND rl_search_rank(" NSPNAME(rel) ") - 1 AND EXISTS (SELECT 1" \
	" FROM main." CACHE_RELATION_TABLE " AS o WHERE o.relname = CASE s.nspid WHEN 0 THEN '' ELSE s.nspid || '^.' END" \
	" || " UNQUALIFIED(rel) ")))"

static const ResultColumn pg_namespace_cols[] = {
	COL("oid", OIDOID), COL("nspname", NAMEOID), COL("nspowner", OIDOID), COL("nspacl", ACLITEMARRAYOID),
};

static const ResultColumn pg_class_cols[] = {
	COL("oid", OIDOID), COL("relname", NAMEOID), COL("relnamespace", OIDOID), COL("reltype", OIDOID),
	COL("relowner", OIDOID), COL("relam", OIDOID), COL("reltablespace", OIDOID),
	COL("relpages", INT4OID), COL("reltuples", FLOAT4OID), COL("relhasindex", BOOLOID),
	COL("relpersistence", CHAROID), COL("relkind", CHAROID), COL("relnatts", INT2OID),
	COL("relchecks", INT2OID), COL("relhasrules", BOOLOID), COL("relhastriggers", BOOLOID),
	COL("relrowsecurity", BOOLOID), COL("relforcerowsecurity", BOOLOID), COL("relispartition", BOOLOID),
	COL("reltoastrelid", OIDOID), COL("reloftype", OIDOID), COL("relreplident", CHAROID),
	COL("reloptions", TEXTARRAYOID), COL("relpartbound", PGNODETREEOID), COL("relacl", ACLITEMARRAYOID),
	COL("relispopulated", BOOLOID), COL("relfrozenxid", OIDOID), COL("relminmxid", OIDOID),	/* xids as numbers */
};

static const ResultColumn pg_attribute_cols[] = {
	COL("attrelid", OIDOID), COL("attname", NAMEOID), COL("atttypid", OIDOID),
	COL("attnum", INT2OID), COL("attndims", INT4OID), COL("atttypmod", INT4OID),
	COL("attnotnull", BOOLOID), COL("atthasdef", BOOLOID), COL("attisdropped", BOOLOID),
	COL("attcollation", OIDOID), COL("attidentity", CHAROID), COL("attgenerated", CHAROID),
	COL("attstorage", CHAROID), COL("attcompression", CHAROID), COL("attstattarget", INT4OID),
	COL("attlen", INT2OID), COL("attacl", ACLITEMARRAYOID), COL("attalign", CHAROID),
	COL("attislocal", BOOLOID), COL("attinhcount", INT4OID), COL("atthasmissing", BOOLOID),
	COL("attmissingval", TEXTOID), COL("attoptions", TEXTARRAYOID), COL("attfdwoptions", TEXTARRAYOID),
};

static const ResultColumn pg_type_cols[] = {
	COL("oid", OIDOID), COL("typname", NAMEOID), COL("typnamespace", OIDOID), COL("typowner", OIDOID),
	COL("typlen", INT2OID), COL("typtype", CHAROID), COL("typrelid", OIDOID),
	COL("typelem", OIDOID), COL("typarray", OIDOID), COL("typcollation", OIDOID), COL("typstorage", CHAROID),
	COL("typdelim", CHAROID), COL("typbasetype", OIDOID), COL("typtypmod", INT4OID), COL("typnotnull", BOOLOID),
	COL("typdefault", TEXTOID), COL("typacl", ACLITEMARRAYOID), COL("typisdefined", BOOLOID),
	COL("typalign", CHAROID),
};

static const ResultColumn pg_constraint_cols[] = {
	COL("oid", OIDOID), COL("conname", NAMEOID), COL("connamespace", OIDOID),
	COL("contype", CHAROID), COL("condeferrable", BOOLOID), COL("condeferred", BOOLOID),
	COL("convalidated", BOOLOID), COL("conrelid", OIDOID), COL("contypid", OIDOID),
	COL("conindid", OIDOID), COL("conparentid", OIDOID), COL("confrelid", OIDOID),
	COL("conkey", INT2ARRAYOID), COL("confkey", INT2ARRAYOID),
};

static const ResultColumn pg_index_cols[] = {
	COL("indexrelid", OIDOID), COL("indrelid", OIDOID), COL("indnatts", INT2OID), COL("indnkeyatts", INT2OID),
	COL("indisunique", BOOLOID), COL("indnullsnotdistinct", BOOLOID), COL("indisprimary", BOOLOID),
	COL("indisexclusion", BOOLOID), COL("indimmediate", BOOLOID), COL("indisclustered", BOOLOID),
	COL("indisvalid", BOOLOID), COL("indcheckxmin", BOOLOID), COL("indisready", BOOLOID),
	COL("indislive", BOOLOID), COL("indisreplident", BOOLOID), COL("indkey", INT2VECTOROID),
	COL("indexprs", PGNODETREEOID), COL("indpred", PGNODETREEOID), COL("indclass", OIDVECTOROID),
	COL("indoption", INT2VECTOROID),
};

static const ResultColumn pg_opclass_cols[] = {
	COL("oid", OIDOID), COL("opcmethod", OIDOID), COL("opcname", NAMEOID), COL("opcnamespace", OIDOID),
	COL("opcowner", OIDOID), COL("opcfamily", OIDOID), COL("opcintype", OIDOID), COL("opcdefault", BOOLOID),
	COL("opckeytype", OIDOID),
};

static const ResultColumn pg_sequence_cols[] = {
	COL("seqrelid", OIDOID), COL("seqtypid", OIDOID), COL("seqstart", INT8OID), COL("seqincrement", INT8OID),
	COL("seqmax", INT8OID), COL("seqmin", INT8OID), COL("seqcache", INT8OID), COL("seqcycle", BOOLOID),
};

static const ResultColumn pg_sequences_cols[] = {
	COL("schemaname", NAMEOID), COL("sequencename", NAMEOID), COL("sequenceowner", NAMEOID),
	COL("data_type", REGTYPEOID), COL("start_value", INT8OID), COL("min_value", INT8OID),
	COL("max_value", INT8OID), COL("increment_by", INT8OID), COL("cycle", BOOLOID),
	COL("cache_size", INT8OID), COL("last_value", INT8OID),
};

static const ResultColumn pg_extension_cols[] = {
	COL("oid", OIDOID), COL("extname", NAMEOID), COL("extowner", OIDOID), COL("extnamespace", OIDOID),
	COL("extrelocatable", BOOLOID), COL("extversion", TEXTOID), COL("extconfig", OIDARRAYOID),
	COL("extcondition", TEXTARRAYOID),
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

static const ResultColumn pg_am_cols[] = {
	COL("oid", OIDOID), COL("amname", NAMEOID), COL("amhandler", REGPROCOID), COL("amtype", CHAROID),
};

static const ResultColumn pg_attrdef_cols[] = {
	COL("oid", OIDOID), COL("adrelid", OIDOID), COL("adnum", INT2OID), COL("adbin", PGNODETREEOID),
};

static const ResultColumn pg_collation_cols[] = {
	COL("oid", OIDOID), COL("collname", NAMEOID), COL("collnamespace", OIDOID), COL("collowner", OIDOID),
	COL("collprovider", CHAROID), COL("collisdeterministic", BOOLOID), COL("collencoding", INT4OID),
	COL("collcollate", TEXTOID), COL("collctype", TEXTOID), COL("colliculocale", TEXTOID),
	COL("collversion", TEXTOID),
};

static const ResultColumn pg_database_cols[] = {
	COL("oid", OIDOID), COL("datname", NAMEOID), COL("datdba", OIDOID), COL("encoding", INT4OID),
	COL("datlocprovider", CHAROID), COL("datistemplate", BOOLOID), COL("datallowconn", BOOLOID),
	COL("datconnlimit", INT4OID), COL("dattablespace", OIDOID), COL("datcollate", TEXTOID),
	COL("datctype", TEXTOID), COL("daticulocale", TEXTOID), COL("datacl", ACLITEMARRAYOID),
	COL("datcollversion", TEXTOID), COL("datfrozenxid", OIDOID), COL("datminmxid", OIDOID),	/* xids as numbers */
};

static const ResultColumn pg_tablespace_cols[] = {
	COL("oid", OIDOID), COL("spcname", NAMEOID), COL("spcowner", OIDOID), COL("spcacl", ACLITEMARRAYOID),
	COL("spcoptions", TEXTARRAYOID),
};

static const ResultColumn pg_roles_cols[] = {
	COL("rolname", NAMEOID), COL("rolsuper", BOOLOID), COL("rolinherit", BOOLOID),
	COL("rolcreaterole", BOOLOID), COL("rolcreatedb", BOOLOID), COL("rolcanlogin", BOOLOID),
	COL("rolreplication", BOOLOID), COL("rolconnlimit", INT4OID), COL("rolpassword", TEXTOID),
	COL("rolvaliduntil", TIMESTAMPTZOID), COL("rolbypassrls", BOOLOID), COL("rolconfig", TEXTARRAYOID),
	COL("oid", OIDOID),
};

static const ResultColumn pg_authid_cols[] = {
	COL("oid", OIDOID), COL("rolname", NAMEOID), COL("rolsuper", BOOLOID), COL("rolinherit", BOOLOID),
	COL("rolcreaterole", BOOLOID), COL("rolcreatedb", BOOLOID), COL("rolcanlogin", BOOLOID),
	COL("rolreplication", BOOLOID), COL("rolbypassrls", BOOLOID), COL("rolconnlimit", INT4OID),
	COL("rolpassword", TEXTOID), COL("rolvaliduntil", TIMESTAMPTZOID),
};

/* pg_user's and pg_shadow's */
static const ResultColumn pg_user_cols[] = {
	COL("usename", NAMEOID), COL("usesysid", OIDOID), COL("usecreatedb", BOOLOID), COL("usesuper", BOOLOID),
	COL("userepl", BOOLOID), COL("usebypassrls", BOOLOID), COL("passwd", TEXTOID),
	COL("valuntil", TIMESTAMPTZOID), COL("useconfig", TEXTARRAYOID),
};

static const ResultColumn pg_auth_members_cols[] = {
	COL("roleid", OIDOID), COL("member", OIDOID), COL("grantor", OIDOID), COL("admin_option", BOOLOID),
};

static const ResultColumn pg_description_cols[] = {
	COL("objoid", OIDOID), COL("classoid", OIDOID), COL("objsubid", INT4OID), COL("description", TEXTOID),
};

static const ResultColumn pg_shdescription_cols[] = {
	COL("objoid", OIDOID), COL("classoid", OIDOID), COL("description", TEXTOID),
};

static const ResultColumn pg_inherits_cols[] = {
	COL("inhrelid", OIDOID), COL("inhparent", OIDOID), COL("inhseqno", INT4OID),
	COL("inhdetachpending", BOOLOID),
};

static const ResultColumn pg_policy_cols[] = {
	COL("oid", OIDOID), COL("polname", NAMEOID), COL("polrelid", OIDOID), COL("polcmd", CHAROID),
	COL("polpermissive", BOOLOID), COL("polroles", OIDARRAYOID), COL("polqual", PGNODETREEOID),
	COL("polwithcheck", PGNODETREEOID),
};

static const ResultColumn pg_statistic_ext_cols[] = {
	COL("oid", OIDOID), COL("stxrelid", OIDOID), COL("stxname", NAMEOID), COL("stxnamespace", OIDOID),
	COL("stxowner", OIDOID), COL("stxstattarget", INT4OID), COL("stxkeys", INT2VECTOROID),
	COL("stxkind", CHARARRAYOID),
};

static const ResultColumn pg_publication_cols[] = {
	COL("oid", OIDOID), COL("pubname", NAMEOID), COL("pubowner", OIDOID), COL("puballtables", BOOLOID),
	COL("pubinsert", BOOLOID), COL("pubupdate", BOOLOID), COL("pubdelete", BOOLOID),
	COL("pubtruncate", BOOLOID), COL("pubviaroot", BOOLOID),
};

static const ResultColumn pg_publication_namespace_cols[] = {
	COL("oid", OIDOID), COL("pnpubid", OIDOID), COL("pnnspid", OIDOID),
};

static const ResultColumn pg_publication_rel_cols[] = {
	COL("oid", OIDOID), COL("prpubid", OIDOID), COL("prrelid", OIDOID), COL("prqual", PGNODETREEOID),
	COL("prattrs", INT2VECTOROID),
};

static const ResultColumn pg_trigger_cols[] = {
	COL("oid", OIDOID), COL("tgrelid", OIDOID), COL("tgparentid", OIDOID), COL("tgname", NAMEOID),
	COL("tgfoid", OIDOID), COL("tgtype", INT2OID), COL("tgenabled", CHAROID), COL("tgisinternal", BOOLOID),
};

static const ResultColumn pg_conversion_cols[] = {
	COL("oid", OIDOID), COL("conname", NAMEOID), COL("connamespace", OIDOID), COL("conowner", OIDOID),
	COL("conforencoding", INT4OID), COL("contoencoding", INT4OID), COL("conproc", REGPROCOID),
	COL("condefault", BOOLOID),
};

static const ResultColumn pg_operator_cols[] = {
	COL("oid", OIDOID), COL("oprname", NAMEOID), COL("oprnamespace", OIDOID), COL("oprowner", OIDOID),
	COL("oprkind", CHAROID), COL("oprcanmerge", BOOLOID), COL("oprcanhash", BOOLOID),
	COL("oprleft", OIDOID), COL("oprright", OIDOID), COL("oprresult", OIDOID), COL("oprcom", OIDOID),
	COL("oprnegate", OIDOID), COL("oprcode", REGPROCOID), COL("oprrest", REGPROCOID),
	COL("oprjoin", REGPROCOID),
};

static const ResultColumn pg_event_trigger_cols[] = {
	COL("oid", OIDOID), COL("evtname", NAMEOID), COL("evtevent", NAMEOID), COL("evtowner", OIDOID),
	COL("evtfoid", OIDOID), COL("evtenabled", CHAROID), COL("evttags", TEXTARRAYOID),
};

static const ResultColumn pg_foreign_data_wrapper_cols[] = {
	COL("oid", OIDOID), COL("fdwname", NAMEOID), COL("fdwowner", OIDOID), COL("fdwhandler", OIDOID),
	COL("fdwvalidator", OIDOID), COL("fdwacl", ACLITEMARRAYOID), COL("fdwoptions", TEXTARRAYOID),
};

static const ResultColumn pg_foreign_server_cols[] = {
	COL("oid", OIDOID), COL("srvname", NAMEOID), COL("srvowner", OIDOID), COL("srvfdw", OIDOID),
	COL("srvtype", TEXTOID), COL("srvversion", TEXTOID), COL("srvacl", ACLITEMARRAYOID),
	COL("srvoptions", TEXTARRAYOID),
};

static const ResultColumn pg_subscription_cols[] = {
	COL("oid", OIDOID), COL("subdbid", OIDOID), COL("subname", NAMEOID), COL("subowner", OIDOID),
	COL("subenabled", BOOLOID), COL("subbinary", BOOLOID), COL("substream", BOOLOID),
	COL("subtwophasestate", CHAROID), COL("subdisableonerr", BOOLOID), COL("subconninfo", TEXTOID),
	COL("subslotname", NAMEOID), COL("subsynccommit", TEXTOID), COL("subpublications", TEXTARRAYOID),
};

static const ResultColumn pg_proc_cols[] = {
	COL("oid", OIDOID), COL("proname", NAMEOID), COL("pronamespace", OIDOID), COL("proowner", OIDOID),
	COL("prolang", OIDOID), COL("prokind", CHAROID), COL("prosecdef", BOOLOID), COL("provolatile", CHAROID),
	COL("proparallel", CHAROID), COL("prosrc", TEXTOID), COL("proacl", ACLITEMARRAYOID),
	COL("pronargs", INT2OID), COL("prorettype", OIDOID), COL("proargtypes", OIDVECTOROID),
	COL("proretset", BOOLOID), COL("proisstrict", BOOLOID),
};

static const ResultColumn pg_language_cols[] = {
	COL("oid", OIDOID), COL("lanname", NAMEOID), COL("lanowner", OIDOID), COL("lanispl", BOOLOID),
	COL("lanpltrusted", BOOLOID), COL("lanplcallfoid", OIDOID), COL("laninline", OIDOID),
	COL("lanvalidator", OIDOID), COL("lanacl", ACLITEMARRAYOID),
};

static const ResultColumn pg_cast_cols[] = {
	COL("oid", OIDOID), COL("castsource", OIDOID), COL("casttarget", OIDOID), COL("castfunc", OIDOID),
	COL("castcontext", CHAROID), COL("castmethod", CHAROID),
};

static const ResultColumn pg_rewrite_cols[] = {
	COL("oid", OIDOID), COL("rulename", NAMEOID), COL("ev_class", OIDOID), COL("ev_type", CHAROID),
	COL("ev_enabled", CHAROID), COL("is_instead", BOOLOID),
};

/*
 * The keys of every relation: one row per SQLite UNIQUE constraint, named as
 * PostgreSQL names a key's constraint and index (table_pkey, table_col_key),
 * with its columns (quoted where PostgreSQL quotes) and its index definition.
 */
#define KEY_COLUMNS(expr) "(SELECT " expr " FROM pragma_index_info(k.idx, 'main') AS c)"
#define KEYS_SQL \
	"SELECT k.relid AS relid, k.relname AS relname, k.seq AS seq, k.idx AS idx, k.is_primary AS is_primary," \
	" k.keyname AS keyname, k.keycols AS keycols, k.conkey AS conkey, k.indkey AS indkey, k.nkeys AS nkeys," \
	" 'CREATE UNIQUE INDEX ' || rl_quote_ident(k.keyname) || ' ON ' || rl_quote_ident(" NSPNAME("k.relname") ")" \
	" || '.' || rl_quote_ident(rl_pg_name(k.relname))" \
	" || ' USING btree (' || k.keycols || ')' AS indexdef FROM (" \
	"SELECT k.relid AS relid, k.relname AS relname, k.seq AS seq, k.idx AS idx, k.is_primary AS is_primary," \
	" rl_pg_name(CASE WHEN k.is_primary THEN k.relname || '_pkey'" \
	" ELSE k.relname || " KEY_COLUMNS("group_concat('_' || c.name, '')") " || '_key' END) AS keyname," \
	" " KEY_COLUMNS("group_concat(rl_quote_ident(rl_pg_name(c.name)), ', ')") " AS keycols," \
	" '{' || " KEY_COLUMNS("group_concat(c.cid, ',')") " || '}' AS conkey," \
	" " KEY_COLUMNS("group_concat(c.cid, ' ')") " AS indkey," \
	" " KEY_COLUMNS("count(*)") " AS nkeys FROM (" \
	"SELECT r.relid AS relid, r.relname AS relname, i.seq AS seq, i.name AS idx," \
	" coalesce((SELECT x.\"desc\" FROM pragma_index_xinfo(i.name, 'main') AS x WHERE x.seqno = 0), 0)" \
	" AS is_primary FROM main." CACHE_RELATION_TABLE " AS r, pragma_index_list(r.relname, 'main') AS i" \
	" WHERE i.origin = 'u') AS k) AS k"

#define INDEX_OID(k) XSTR(INDEX_OID_BASE) " + " k ".relid * 256 + " k ".seq"
/* a relation's owner: its rl_class_acl row's, else the database's (made before owners were kept) */
#define RELOWNER(r) "coalesce((SELECT a.relowner FROM main." CACHE_CLASS_ACL_TABLE " AS a" \
	" WHERE a.relname = " r ".relname), rl_database_owner())"

static const char *const pg_class_sql =
	"SELECT " XSTR(FirstNormalObjectId) " + r.relid AS oid, rl_pg_name(r.relname) AS relname, "
	NSPOID("r.relname") " AS relnamespace, 0 AS reltype, " RELOWNER("r") " AS relowner, "
	XSTR(HEAP_AM_OID) " AS relam, 0 AS reltablespace, 0 AS relpages, -1.0 AS reltuples,"
	" EXISTS (SELECT 1 FROM pragma_index_list(r.relname, 'main') WHERE origin = 'u') AS relhasindex,"
	" 'p' AS relpersistence, 'r' AS relkind,"
	" (SELECT count(*) FROM pragma_table_info(r.relname, 'main') WHERE name <> '" CACHE_ROWID_COLUMN "')"
	" AS relnatts, 0 AS relchecks, 0 AS relhasrules, 0 AS relhastriggers, 0 AS relrowsecurity,"
	" 0 AS relforcerowsecurity, 0 AS relispartition, 0 AS reltoastrelid, 0 AS reloftype, 'd' AS relreplident,"
	" NULL AS reloptions, NULL AS relpartbound, (SELECT rl_acl_text(a.relacl) FROM main." CACHE_CLASS_ACL_TABLE
	" AS a WHERE a.relname = r.relname) AS relacl, 1 AS relispopulated, 0 AS relfrozenxid,"
	" 0 AS relminmxid, NULL AS _rl_indexdef,"
	" " VISIBLE("r.relname") " AS _rl_visible"
	" FROM main." CACHE_RELATION_TABLE " AS r"
	" UNION ALL SELECT " INDEX_OID("k") ", k.keyname, " NSPOID("k.relname") ", 0, "
	RELOWNER("k") ", " XSTR(BTREE_AM_OID) ", 0, 0, -1.0, 0, 'p', 'i', k.nkeys, 0, 0, 0, 0, 0, 0,"
	" 0, 0, 'n', NULL, NULL, NULL, 1, 0, 0, k.indexdef, rl_search_rank(" NSPNAME("k.relname") ") >= 0"
	" FROM (" KEYS_SQL ") AS k";

/* the default btree operator classes of the types a key's column can have (PostgreSQL's OIDs) */
#define PG_OPCLASS_SQL \
	"SELECT column1 AS oid, " XSTR(BTREE_AM_OID) " AS opcmethod, column2 AS opcname, " XSTR(PG_CATALOG_NAMESPACE) \
	" AS opcnamespace, " XSTR(BOOTSTRAP_SUPERUSERID) " AS opcowner, column3 AS opcfamily, column4 AS opcintype," \
	" 1 AS opcdefault, 0 AS opckeytype FROM (VALUES (10003, 'bool_ops', 424, 16), (10006, 'bytea_ops', 428, 17)," \
	" (10028, 'name_ops', 1994, 19), (3124, 'int8_ops', 1976, 20), (1979, 'int2_ops', 1976, 21)," \
	" (1978, 'int4_ops', 1976, 23), (3126, 'text_ops', 1994, 25), (1981, 'oid_ops', 1989, 26)," \
	" (10050, 'tid_ops', 2789, 27), (10012, 'float4_ops', 1970, 700), (3123, 'float8_ops', 1970, 701)," \
	" (10004, 'bpchar_ops', 426, 1042), (3122, 'date_ops', 434, 1082), (10038, 'time_ops', 1996, 1083)," \
	" (3128, 'timestamp_ops', 434, 1114), (3127, 'timestamptz_ops', 434, 1184), (10022, 'interval_ops', 1982, 1186)," \
	" (10041, 'timetz_ops', 2000, 1266), (3125, 'numeric_ops', 1988, 1700), (10065, 'uuid_ops', 2968, 2950)," \
	" (10088, 'jsonb_ops', 4033, 3802))"

/*
 * type_align -- PostgreSQL's typalign by width (uuid and name are bytes, aclitem's
 * twelve are ints, anyarray is 'd'); an array's is its element's if 'd', else 'i'
 */
static char
type_align(Oid oid)
{
	const TypeInfo *t = typio_lookup(oid);

	if (oid == ANYARRAYOID || oid == ACLITEMOID)
		return oid == ANYARRAYOID ? 'd' : 'i';
	if (t->category == TYPCATEGORY_ARRAY && t->elem && typio_lookup(t->elem))
		return type_align(t->elem) == 'd' ? 'd' : 'i';
	if (oid == UUIDOID || t->typlen == 1 || t->typlen == 64 || t->typlen == -2)
		return 'c';
	if (t->typlen == 2 || t->typlen == 6)
		return 's';
	return t->typlen == 8 || t->typlen == 12 || t->typlen == 16 ? 'd' : 'i';
}

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
						 " AS typnamespace, " XSTR(BOOTSTRAP_SUPERUSERID) " AS typowner, column3 AS typlen,"
						 " column4 AS typtype, 0 AS typrelid, column5 AS typelem, column6 AS typarray,"
						 " column7 AS typcollation, column8 AS typstorage, ',' AS typdelim, 0 AS typbasetype,"
						 " -1 AS typtypmod, 0 AS typnotnull, NULL AS typdefault, NULL AS typacl, 1 AS typisdefined,"
						 " column10 AS typalign, column9 AS _rl_format"
						 " FROM (VALUES ");
		for (Oid oid = 1, n = 0; oid < FirstGenbkiObjectId; oid++)
		{
			const TypeInfo *t = typio_lookup(oid);

			if (t == NULL)
				continue;
			/* strings but "char" are collatable (name with "C"); fixed-width types are stored plain */
			Oid			collation = oid == NAMEOID ? C_COLLATION_OID
				: t->category == TYPCATEGORY_STRING && oid != PGNODETREEOID && oid != CHAROID ? DEFAULT_COLLATION_OID : 0;
			char		storage = t->typlen > 0 ? 'p' : oid == NUMERICOID ? 'm' : 'x';
			char		align = type_align(oid);

			rlbuf_printf(&b, "%s(%u, '%s', %d, '%c', %u, %u, %u, '%c', '%s', '%c')", n++ ? ", " : "", oid, t->name,
						 t->typlen, t->category == TYPCATEGORY_PSEUDO ? 'p' : 'b', t->elem,
						 typio_array_type(oid), collation, storage,
						 t->category == TYPCATEGORY_ARRAY ? "ARRAY" : t->sql_name, align);
		}
		rlbuf_append_str(&b, ")");
		sql = MemoryContextStrdup(TopMemoryContext, rlbuf_cstr(&b));
		rlbuf_free(&b);
	}
	return sql;
}

/*
 * SystemAttributeSql -- the columns of every relation, with their types'
 * collation and storage, and those of the indexes behind the keys; with
 * one_relation, only those of the relation or index whose OID is ?1 (what
 * pg_attribute's virtual table runs for attrelid = x: pg_attribute.c)
 *
 * CROSS JOIN fixes SQLite's join order: relations, then their columns, then the
 * type. Left to choose, it put pg_type's rows outside, and every one of them ran
 * pragma_table_info (which compiles a PRAGMA) for every relation again: twenty
 * times the work for a DuckLake catalog's columns. The OID's relid is a search of
 * rl_relation's key in both branches, so the pragmas run for that relation only.
 */
char *
SystemAttributeSql(bool one_relation)
{
	return psprintf("SELECT " XSTR(FirstNormalObjectId) " + r.relid AS attrelid, rl_pg_name(a.name) AS attname,"
					" t.oid AS atttypid, a.cid AS attnum, 0 AS attndims, rl_type_typmod(a.type) AS atttypmod,"
					" a.\"notnull\" AS attnotnull, a.dflt_value IS NOT NULL AS atthasdef, 0 AS attisdropped,"
					" t.typcollation AS attcollation, '' AS attidentity, '' AS attgenerated,"
					" t.typstorage AS attstorage, '' AS attcompression, -1 AS attstattarget, t.typlen AS attlen,"
					" NULL AS attacl, t.typalign AS attalign, 1 AS attislocal, 0 AS attinhcount,"
					" 0 AS atthasmissing, NULL AS attmissingval, NULL AS attoptions, NULL AS attfdwoptions"
					" FROM main." CACHE_RELATION_TABLE " AS r CROSS JOIN pragma_table_info(r.relname, 'main') AS a"
					" CROSS JOIN (%s) AS t ON t.oid = rl_type_oid(a.type)"
					" WHERE a.name <> '" CACHE_ROWID_COLUMN "'%s"
					" UNION ALL SELECT " INDEX_OID("k") ", rl_pg_name(c.name), t.oid, c.seqno + 1, 0, rl_type_typmod(a.type), 0, 0,"
					" 0, t.typcollation, '', '', t.typstorage, '', -1, t.typlen, NULL, t.typalign, 1, 0, 0, NULL, NULL,"
					" NULL FROM (" KEYS_SQL ") AS k"
					" CROSS JOIN pragma_index_info(k.idx, 'main') AS c CROSS JOIN pragma_table_info(k.relname, 'main') AS a"
					" CROSS JOIN (%s) AS t ON t.oid = rl_type_oid(a.type) WHERE a.cid = c.cid%s",
					build_pg_type(), one_relation ? " AND r.relid = ?1 - " XSTR(FirstNormalObjectId) : "",
					build_pg_type(), one_relation ? " AND k.relid = (?1 - " XSTR(INDEX_OID_BASE) ") >> 8"
					" AND k.seq = (?1 - " XSTR(INDEX_OID_BASE) ") & 255" : "");
}

static void
add_setting_row(const GucInfo *info, void *arg)
{
	RlBuf	   *b = arg;
	const char *values[] = {info->name, info->setting_in_unit, info->unit, info->short_desc, info->context,
	info->vartype, info->source, info->boot_val_in_unit, info->reset_val_in_unit};

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

/*
 * build_pg_database -- the registry in the postgres database's cache, read on
 * its own connection (each database has its own cache file)
 */
static char *
build_pg_database(void)
{
	char		path[4096];
	sqlite3    *db = NULL;
	sqlite3_stmt *stmt = NULL;
	RlBuf		b;

	rlbuf_init_in(&b, CurrentMemoryContext);
	catalog_cache_path(path, sizeof(path), DataDir, CACHE_POSTGRES_DATID);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK)
	{
		sqlite3_busy_timeout(db, CACHE_BUSY_TIMEOUT_MS);
		sqlite3_prepare_v2(db, "SELECT d.datid, d.datname, coalesce(a.datdba, " XSTR(BOOTSTRAP_SUPERUSERID) "),"
						   " a.datacl FROM " CACHE_DATABASE_TABLE " AS d LEFT JOIN " CACHE_DATABASE_ACL_TABLE
						   " AS a USING (datname)", -1, &stmt, NULL);
	}
	while (stmt != NULL && sqlite3_step(stmt) == SQLITE_ROW)
	{
		char	   *row = sqlite3_mprintf("%s(%lld, %Q, %lld, %Q)", b.len ? ", " : "", sqlite3_column_int64(stmt, 0),
										  (const char *) sqlite3_column_text(stmt, 1), sqlite3_column_int64(stmt, 2),
										  acl_text((const char *) sqlite3_column_text(stmt, 3)));

		rlbuf_append_str(&b, row);
		sqlite3_free(row);
	}
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	char	   *sql = psprintf("SELECT d.column1 AS oid, d.column2 AS datname, d.column3"
							   " AS datdba, " XSTR(PG_UTF8_ENCODING) " AS encoding, 'c' AS datlocprovider,"
							   " d.column2 = 'template1' AS datistemplate, 1 AS datallowconn, -1 AS datconnlimit, "
							   XSTR(DEFAULTTABLESPACE_OID) " AS dattablespace, 'C.UTF-8' AS datcollate,"
							   " 'C.UTF-8' AS datctype, NULL AS daticulocale, d.column4 AS datacl, NULL AS datcollversion,"
							   " 0 AS datfrozenxid, 0 AS datminmxid,"
							   " CASE d.column2 WHEN 'postgres' THEN 'default administrative connection database'"
							   " WHEN 'template1' THEN 'default template for new databases' END AS _rl_description"
							   " FROM (%s) AS d", b.len ? psprintf("VALUES %s", rlbuf_cstr(&b))
							   : "SELECT NULL AS column1, NULL AS column2, NULL AS column3, NULL AS column4 WHERE 0");

	rlbuf_free(&b);
	return sql;
}

/* build_pg_shdescription -- the descriptions PostgreSQL's initdb gives its databases */
static char *
build_pg_shdescription(void)
{
	return psprintf("SELECT oid AS objoid, 1262 AS classoid, _rl_description AS description,"
					" 'pg_database' AS _rl_classname FROM (%s) WHERE _rl_description IS NOT NULL",
					build_pg_database());
}

/* build_pg_description -- the public schema's, plpgsql's, the languages' and the builtin functions' */
static char *
build_pg_description(void)
{
	return psprintf("SELECT " XSTR(PG_PUBLIC_NAMESPACE) " AS objoid, 2615 AS classoid, 0 AS objsubid,"
					" 'standard public schema' AS description, 'pg_namespace' AS _rl_classname"
					" UNION ALL SELECT oid, 3079, 0, _rl_description, 'pg_extension' FROM (%s)"
					" UNION ALL SELECT oid, 2612, 0, _rl_description, 'pg_language' FROM (%s)"
					" UNION ALL SELECT oid, 1255, 0, description, 'pg_proc' FROM (%s)",
					SystemRelationLookup("pg_extension")->sql, SystemRelationLookup("pg_language")->sql,
					BuiltinProcDescriptionSql());
}

static const SystemRelation system_relations[] = {
	{"pg_namespace", NCOLS(pg_namespace_cols), pg_namespace_cols,
		"SELECT n.column1 AS oid, n.column2 AS nspname, n.column3 AS nspowner, coalesce((SELECT"
		" rl_acl_text(a.nspacl) FROM main." CACHE_NAMESPACE_ACL_TABLE " AS a WHERE a.nspid = n.column1), n.column4)"
		" AS nspacl FROM (VALUES ("
		XSTR(PG_CATALOG_NAMESPACE) ", 'pg_catalog', " XSTR(BOOTSTRAP_SUPERUSERID) ", NULL), ("
		XSTR(PG_PUBLIC_NAMESPACE) ", 'public', " XSTR(ROLE_PG_DATABASE_OWNER)
		", '{pg_database_owner=UC/pg_database_owner,=U/pg_database_owner}'), ("
		XSTR(INFORMATION_SCHEMA_NAMESPACE) ", 'information_schema', " XSTR(BOOTSTRAP_SUPERUSERID) ", NULL)"
		" UNION ALL SELECT nspid, nspname, nspowner, NULL FROM main." CACHE_NAMESPACE_TABLE ") AS n",
	NULL},
	{"pg_class", NCOLS(pg_class_cols), pg_class_cols, pg_class_sql, NULL},
	{"pg_attribute", NCOLS(pg_attribute_cols), pg_attribute_cols, "SELECT * FROM main." PG_ATTRIBUTE_VTAB, NULL},
	{"pg_type", NCOLS(pg_type_cols), pg_type_cols, NULL, build_pg_type},
	{"pg_constraint", NCOLS(pg_constraint_cols), pg_constraint_cols,
		"SELECT " XSTR(CONSTRAINT_OID_BASE) " + k.relid * 256 + k.seq AS oid, k.keyname AS conname, "
		NSPOID("k.relname") " AS connamespace, CASE WHEN k.is_primary THEN 'p' ELSE 'u' END AS contype,"
		" 0 AS condeferrable, 0 AS condeferred, 1 AS convalidated, " XSTR(FirstNormalObjectId) " + k.relid"
		" AS conrelid, 0 AS contypid, " INDEX_OID("k") " AS conindid, 0 AS conparentid, 0 AS confrelid,"
		" k.conkey AS conkey, NULL AS confkey,"
		" CASE WHEN k.is_primary THEN 'PRIMARY KEY (' ELSE 'UNIQUE (' END || k.keycols || ')' AS _rl_condef"
		" FROM (" KEYS_SQL ") AS k", NULL},
	{"pg_index", NCOLS(pg_index_cols), pg_index_cols,
		"SELECT " INDEX_OID("k") " AS indexrelid, " XSTR(FirstNormalObjectId) " + k.relid AS indrelid,"
		" k.nkeys AS indnatts, k.nkeys AS indnkeyatts, 1 AS indisunique, 0 AS indnullsnotdistinct,"
		" k.is_primary AS indisprimary, 0 AS indisexclusion, 1 AS indimmediate, 0 AS indisclustered,"
		" 1 AS indisvalid, 0 AS indcheckxmin, 1 AS indisready, 1 AS indislive, 0 AS indisreplident,"
		" k.indkey AS indkey, NULL AS indexprs, NULL AS indpred,"
		" (SELECT group_concat(oid, ' ') FROM (SELECT o.oid AS oid FROM pragma_index_info(k.idx, 'main') AS c"
		" JOIN pragma_table_info(k.relname, 'main') AS a ON a.cid = c.cid JOIN (" PG_OPCLASS_SQL ") AS o"
		" ON o.opcintype = CASE rl_type_oid(a.type) WHEN " XSTR(VARCHAROID) " THEN " XSTR(TEXTOID)
		" ELSE rl_type_oid(a.type) END ORDER BY c.seqno)) AS indclass,"
		" " KEY_COLUMNS("group_concat(0, ' ')") " AS indoption FROM (" KEYS_SQL ") AS k", NULL},
	{"pg_enum", NCOLS(pg_enum_cols), pg_enum_cols, NULL, NULL},
	{"pg_indexes", NCOLS(pg_indexes_cols), pg_indexes_cols,
		"SELECT " NSPNAME("k.relname") " AS schemaname, rl_pg_name(k.relname) AS tablename, k.keyname AS indexname, NULL AS tablespace,"
		" k.indexdef AS indexdef FROM (" KEYS_SQL ") AS k", NULL},
	{"pg_settings", NCOLS(pg_settings_cols), pg_settings_cols, NULL, build_pg_settings},
	{"pg_am", NCOLS(pg_am_cols), pg_am_cols,
		"SELECT column1 AS oid, column2 AS amname, column3 AS amhandler, column4 AS amtype FROM (VALUES ("
		XSTR(HEAP_AM_OID) ", 'heap', 3, 't'), (" XSTR(BTREE_AM_OID) ", 'btree', 330, 'i'))", NULL},
	{"pg_attrdef", NCOLS(pg_attrdef_cols), pg_attrdef_cols,
		"SELECT NULL AS oid, " XSTR(FirstNormalObjectId) " + r.relid AS adrelid, a.cid AS adnum,"
		" rl_default_expr(a.dflt_value, a.type) AS adbin"
		" FROM main." CACHE_RELATION_TABLE " AS r, pragma_table_info(r.relname, 'main') AS a"
		" WHERE a.dflt_value IS NOT NULL", NULL},
	{"pg_collation", NCOLS(pg_collation_cols), pg_collation_cols,
		"SELECT column1 AS oid, column2 AS collname, " XSTR(PG_CATALOG_NAMESPACE) " AS collnamespace,"
		" " XSTR(BOOTSTRAP_SUPERUSERID) " AS collowner, column3 AS collprovider, 1 AS collisdeterministic,"
		" -1 AS collencoding, column4 AS collcollate, column4 AS collctype, NULL AS colliculocale,"
		" NULL AS collversion FROM (VALUES (" XSTR(DEFAULT_COLLATION_OID) ", 'default', 'd', NULL),"
		" (" XSTR(C_COLLATION_OID) ", 'C', 'c', 'C'))", NULL},
	{"pg_database", NCOLS(pg_database_cols), pg_database_cols, NULL, build_pg_database},
	{"pg_tablespace", NCOLS(pg_tablespace_cols), pg_tablespace_cols,
		"SELECT column1 AS oid, column2 AS spcname, " XSTR(BOOTSTRAP_SUPERUSERID) " AS spcowner,"
		" NULL AS spcacl, NULL AS spcoptions FROM (VALUES ("
		XSTR(DEFAULTTABLESPACE_OID) ", 'pg_default'), (1664, 'pg_global'))", NULL},
	{"pg_roles", NCOLS(pg_roles_cols), pg_roles_cols, NULL, BuildPgRolesSql},
	{"pg_authid", NCOLS(pg_authid_cols), pg_authid_cols, NULL, BuildPgAuthidSql},
	{"pg_user", NCOLS(pg_user_cols), pg_user_cols, NULL, BuildPgUserSql},
	{"pg_shadow", NCOLS(pg_user_cols), pg_user_cols, NULL, BuildPgShadowSql},
	{"pg_auth_members", NCOLS(pg_auth_members_cols), pg_auth_members_cols, NULL, BuildPgAuthMembersSql},
	{"pg_description", NCOLS(pg_description_cols), pg_description_cols, NULL, build_pg_description},
	{"pg_shdescription", NCOLS(pg_shdescription_cols), pg_shdescription_cols, NULL, build_pg_shdescription},
	{"pg_inherits", NCOLS(pg_inherits_cols), pg_inherits_cols, NULL, NULL},
	{"pg_policy", NCOLS(pg_policy_cols), pg_policy_cols, NULL, NULL},
	{"pg_statistic_ext", NCOLS(pg_statistic_ext_cols), pg_statistic_ext_cols, NULL, NULL},
	{"pg_publication", NCOLS(pg_publication_cols), pg_publication_cols, NULL, NULL},
	{"pg_publication_namespace", NCOLS(pg_publication_namespace_cols), pg_publication_namespace_cols, NULL, NULL},
	{"pg_publication_rel", NCOLS(pg_publication_rel_cols), pg_publication_rel_cols, NULL, NULL},
	{"pg_trigger", NCOLS(pg_trigger_cols), pg_trigger_cols, NULL, NULL},
	/* what psql's \dc \do \dy \dew \des \dRs list: none made by users, and these
	 * commands show only those */
	{"pg_conversion", NCOLS(pg_conversion_cols), pg_conversion_cols, NULL, NULL},
	{"pg_operator", NCOLS(pg_operator_cols), pg_operator_cols, NULL, NULL},
	{"pg_event_trigger", NCOLS(pg_event_trigger_cols), pg_event_trigger_cols, NULL, NULL},
	{"pg_foreign_data_wrapper", NCOLS(pg_foreign_data_wrapper_cols), pg_foreign_data_wrapper_cols, NULL, NULL},
	{"pg_foreign_server", NCOLS(pg_foreign_server_cols), pg_foreign_server_cols, NULL, NULL},
	{"pg_subscription", NCOLS(pg_subscription_cols), pg_subscription_cols, NULL, NULL},
	{"pg_rewrite", NCOLS(pg_rewrite_cols), pg_rewrite_cols, NULL, NULL},
	{"pg_proc", NCOLS(pg_proc_cols), pg_proc_cols, NULL, BuiltinProcSql},
	{"pg_cast", NCOLS(pg_cast_cols), pg_cast_cols, NULL, BuiltinCastSql},
	{"pg_opclass", NCOLS(pg_opclass_cols), pg_opclass_cols, PG_OPCLASS_SQL, NULL},
	{"pg_sequence", NCOLS(pg_sequence_cols), pg_sequence_cols, NULL, NULL},
	{"pg_sequences", NCOLS(pg_sequences_cols), pg_sequences_cols, NULL, NULL},
	/* PostgreSQL 15 has plpgsql in every database */
	{"pg_extension", NCOLS(pg_extension_cols), pg_extension_cols,
		"SELECT " XSTR(PLPGSQL_EXTENSION_OID) " AS oid, 'plpgsql' AS extname, " XSTR(BOOTSTRAP_SUPERUSERID)
		" AS extowner, " XSTR(PG_CATALOG_NAMESPACE) " AS extnamespace, 0 AS extrelocatable, '1.0' AS extversion,"
		" NULL AS extconfig, NULL AS extcondition, 'PL/pgSQL procedural language' AS _rl_description", NULL},
	{"pg_language", NCOLS(pg_language_cols), pg_language_cols,
		"SELECT column1 AS oid, column2 AS lanname, " XSTR(BOOTSTRAP_SUPERUSERID) " AS lanowner,"
		" column3 AS lanispl, column4 AS lanpltrusted, column5 AS lanplcallfoid, column6 AS laninline,"
		" column7 AS lanvalidator, NULL AS lanacl, column8 AS _rl_description"
		" FROM (VALUES (12, 'internal', 0, 0, 0, 0, 2246, 'built-in functions'),"
		" (13, 'c', 0, 0, 0, 0, 2247, 'dynamically-loaded C functions'),"
		" (14, 'sql', 0, 1, 0, 0, 2248, 'SQL-language functions'),"
		" (" XSTR(PLPGSQL_LANGUAGE_OID) ", 'plpgsql', 1, 1, 13560, 13561, 13562, 'PL/pgSQL procedural language'))", NULL},
};

/* ---------- information_schema ---------- */

static const ResultColumn schemata_cols[] = {
	COL("catalog_name", NAMEOID), COL("schema_name", NAMEOID), COL("schema_owner", NAMEOID),
	COL("default_character_set_catalog", NAMEOID), COL("default_character_set_schema", NAMEOID),
	COL("default_character_set_name", NAMEOID), COL("sql_path", VARCHAROID),
};

static const ResultColumn tables_cols[] = {
	COL("table_catalog", NAMEOID), COL("table_schema", NAMEOID), COL("table_name", NAMEOID),
	COL("table_type", VARCHAROID), COL("self_referencing_column_name", NAMEOID),
	COL("reference_generation", VARCHAROID), COL("user_defined_type_catalog", NAMEOID),
	COL("user_defined_type_schema", NAMEOID), COL("user_defined_type_name", NAMEOID),
	COL("is_insertable_into", VARCHAROID), COL("is_typed", VARCHAROID), COL("commit_action", VARCHAROID),
};

static const ResultColumn columns_cols[] = {
	COL("table_catalog", NAMEOID), COL("table_schema", NAMEOID), COL("table_name", NAMEOID),
	COL("column_name", NAMEOID), COL("ordinal_position", INT4OID), COL("column_default", VARCHAROID),
	COL("is_nullable", VARCHAROID), COL("data_type", VARCHAROID), COL("character_maximum_length", INT4OID),
	COL("character_octet_length", INT4OID), COL("numeric_precision", INT4OID),
	COL("numeric_precision_radix", INT4OID), COL("numeric_scale", INT4OID),
	COL("datetime_precision", INT4OID), COL("udt_catalog", NAMEOID), COL("udt_schema", NAMEOID),
	COL("udt_name", NAMEOID), COL("is_identity", VARCHAROID), COL("is_generated", VARCHAROID),
	COL("is_updatable", VARCHAROID),
};

/* build_schemata -- the schemas, in the current database, owned as pg_namespace says */
static char *
build_schemata(void)
{
	char	   *sql = sqlite3_mprintf("SELECT %Q AS catalog_name, n.nspname AS schema_name,"
									  " (SELECT r.rolname FROM (%s) AS r WHERE r.oid = n.nspowner) AS schema_owner,"
									  " NULL AS default_character_set_catalog, NULL AS default_character_set_schema,"
									  " NULL AS default_character_set_name, NULL AS sql_path FROM (%s) AS n",
									  MyDatabaseName, BuildPgRolesSql(), SystemRelationLookup("pg_namespace")->sql);
	char	   *result = pstrdup(sql);

	sqlite3_free(sql);
	return result;
}

/* build_tables -- the relations the client created, each a base table */
static char *
build_tables(void)
{
	char	   *sql = sqlite3_mprintf("SELECT %Q AS table_catalog, " NSPNAME("r.relname") " AS table_schema,"
									  " rl_pg_name(r.relname) AS table_name,"
									  " 'BASE TABLE' AS table_type, NULL AS self_referencing_column_name,"
									  " NULL AS reference_generation, NULL AS user_defined_type_catalog,"
									  " NULL AS user_defined_type_schema, NULL AS user_defined_type_name,"
									  " 'YES' AS is_insertable_into, 'NO' AS is_typed, NULL AS commit_action"
									  " FROM main." CACHE_RELATION_TABLE " AS r", MyDatabaseName);
	char	   *result = pstrdup(sql);

	sqlite3_free(sql);
	return result;
}

/* build_columns -- their columns, with the SQL standard's view of each type */
static char *
build_columns(void)
{
	char	   *sql = sqlite3_mprintf(
		"SELECT %Q AS table_catalog, " NSPNAME("r.relname") " AS table_schema, rl_pg_name(r.relname) AS table_name,"
		" rl_pg_name(a.name) AS column_name,"
		" a.cid AS ordinal_position, rl_default_expr(a.dflt_value, a.type) AS column_default,"
		" CASE WHEN a.\"notnull\" THEN 'NO' ELSE 'YES' END AS is_nullable, t._rl_format AS data_type,"
		" CASE WHEN t.oid IN (%u, %u) AND rl_type_typmod(a.type) >= 4 THEN rl_type_typmod(a.type) - 4 END AS character_maximum_length,"
		" CASE WHEN t.typcollation = %u THEN CASE WHEN rl_type_typmod(a.type) >= 4 THEN (rl_type_typmod(a.type) - 4) * 4 ELSE 1073741824 END"
		" END AS character_octet_length,"
		" CASE t.oid WHEN %u THEN 16 WHEN %u THEN 32 WHEN %u THEN 64 WHEN %u THEN 24 WHEN %u THEN 53"
		" WHEN %u THEN CASE WHEN rl_type_typmod(a.type) >= 4 THEN (rl_type_typmod(a.type) - 4) >> 16 END END AS numeric_precision,"
		" CASE WHEN t.oid IN (%u, %u, %u, %u, %u) THEN 2 WHEN t.oid = %u THEN 10 END AS numeric_precision_radix,"
		" CASE WHEN t.oid IN (%u, %u, %u) THEN 0 WHEN t.oid = %u AND rl_type_typmod(a.type) >= 4 THEN (rl_type_typmod(a.type) - 4) & 65535"
		" END AS numeric_scale,"
		" CASE WHEN t.oid = %u THEN 0 WHEN t.oid IN (%u, %u, %u, %u) THEN 6 END AS datetime_precision,"
		" %Q AS udt_catalog, 'pg_catalog' AS udt_schema, t.typname AS udt_name, 'NO' AS is_identity,"
		" 'NEVER' AS is_generated, 'YES' AS is_updatable"
		" FROM main." CACHE_RELATION_TABLE " AS r CROSS JOIN pragma_table_info(r.relname, 'main') AS a"
		" CROSS JOIN (%s) AS t ON t.oid = rl_type_oid(a.type)"
		" WHERE a.name <> '" CACHE_ROWID_COLUMN "'",
		MyDatabaseName, VARCHAROID, BPCHAROID, DEFAULT_COLLATION_OID,
		INT2OID, INT4OID, INT8OID, FLOAT4OID, FLOAT8OID, NUMERICOID,
		INT2OID, INT4OID, INT8OID, FLOAT4OID, FLOAT8OID, NUMERICOID,
		INT2OID, INT4OID, INT8OID, NUMERICOID,
		DATEOID, TIMEOID, TIMESTAMPOID, TIMESTAMPTZOID, INTERVALOID,
		MyDatabaseName, build_pg_type());
	char	   *result = pstrdup(sql);

	sqlite3_free(sql);
	return result;
}

static const SystemRelation information_schema_relations[] = {
	{"schemata", NCOLS(schemata_cols), schemata_cols, NULL, build_schemata},
	{"tables", NCOLS(tables_cols), tables_cols, NULL, build_tables},
	{"columns", NCOLS(columns_cols), columns_cols, NULL, build_columns},
};

/* ---------- what functions look up and clients do not see ---------- */

static const ResultColumn index_definition_cols[] = {
	COL("indexrelid", OIDOID), COL("colno", INT4OID), COL("definition", TEXTOID),
};

/* pg_get_indexdef(index, column, pretty): 0 the whole definition, else that column's */
static const SystemRelation function_relations[] = {
	{"index_definition", NCOLS(index_definition_cols), index_definition_cols,
		"SELECT " INDEX_OID("k") " AS indexrelid, 0 AS colno, k.indexdef AS definition FROM (" KEYS_SQL ") AS k"
		" UNION ALL SELECT " INDEX_OID("k") ", c.seqno + 1, rl_quote_ident(rl_pg_name(c.name)) FROM (" KEYS_SQL ") AS k,"
		" pragma_index_info(k.idx, 'main') AS c", NULL},
};

/* no_rows_sql -- a relation with its columns and no rows */
static char *
no_rows_sql(const SystemRelation *s)
{
	RlBuf		b;

	rlbuf_init_in(&b, CurrentMemoryContext);
	rlbuf_append_str(&b, "SELECT ");
	for (int i = 0; i < s->ncolumns; i++)
		rlbuf_printf(&b, "%sNULL AS \"%s\"", i ? ", " : "", s->columns[i].name);
	rlbuf_append_str(&b, " WHERE 0");
	char	   *sql = pstrdup(rlbuf_cstr(&b));

	rlbuf_free(&b);
	return sql;
}

/* relation_lookup -- the relation of that name in one of the lists above, or NULL */
static CacheRelation *
relation_lookup(const SystemRelation *relations, int n, const char *name)
{
	for (int i = 0; i < n; i++)
	{
		const SystemRelation *s = &relations[i];

		if (strcmp(s->name, name) != 0)
			continue;
		CacheRelation *rel = palloc0(sizeof(CacheRelation));

		rel->name = s->name;
		rel->ncolumns = s->ncolumns;
		rel->columns = palloc(sizeof(ResultColumn) * (size_t) s->ncolumns);
		memcpy(rel->columns, s->columns, sizeof(ResultColumn) * (size_t) s->ncolumns);
		rel->sql = s->sql ? s->sql : s->build_sql ? s->build_sql() : no_rows_sql(s);
		return rel;
	}
	return NULL;
}

CacheRelation *
SystemRelationLookup(const char *name)
{
	CacheRelation *rel = relation_lookup(system_relations, NCOLS(system_relations), name);

	if (rel == NULL)
		rel = PgStatRelationLookup(name);
	return rel ? rel : relation_lookup(dump_relations, ndump_relations, name);
}

CacheRelation *
CatalogFunctionRelation(const char *name)
{
	CacheRelation *rel = relation_lookup(function_relations, NCOLS(function_relations), name);

	if (rel == NULL)
		rel = PgStatFunctionRelation(name);
	return rel ? rel : SystemRelationLookup(name);
}

CacheRelation *
InformationSchemaLookup(const char *name)
{
	return relation_lookup(information_schema_relations, NCOLS(information_schema_relations), name);
}

/* ---------- the reg* types' names (typio_reg_hooks) ---------- */

/*
 * The OIDs PostgreSQL gives its catalogs, which regclass input and output know:
 * clients write 'pg_catalog.pg_class'::regclass to filter pg_description by classoid.
 */
static const struct
{
	const char *name;
	Oid			oid;
}			catalog_oids[] = {
	{"pg_tablespace", 1213}, {"pg_type", 1247}, {"pg_attribute", 1249}, {"pg_proc", 1255},
	{"pg_class", 1259}, {"pg_authid", 1260}, {"pg_auth_members", 1261}, {"pg_database", 1262},
	{"pg_sequence", 2224}, {"pg_shdescription", 2396}, {"pg_am", 2601}, {"pg_attrdef", 2604},
	{"pg_constraint", 2606}, {"pg_description", 2609}, {"pg_index", 2610}, {"pg_inherits", 2611},
	{"pg_language", 2612}, {"pg_namespace", 2615}, {"pg_opclass", 2616}, {"pg_rewrite", 2618},
	{"pg_trigger", 2620}, {"pg_extension", 3079}, {"pg_policy", 3256}, {"pg_statistic_ext", 3381},
	{"pg_collation", 3456}, {"pg_enum", 3501}, {"pg_publication", 6104}, {"pg_foreign_server", 1417},
	{"pg_foreign_data_wrapper", 2328}, {"pg_conversion", 2607}, {"pg_operator", 2617},
	{"pg_event_trigger", 3466}, {"pg_subscription", 6100}, {"pg_publication_rel", 6106},
	{"pg_publication_namespace", 6237}, {"pg_depend", 2608}, {"pg_init_privs", 3394},
	{"pg_opfamily", 2753}, {"pg_ts_parser", 3601}, {"pg_ts_template", 3764}, {"pg_ts_dict", 3600},
	{"pg_ts_config", 3602}, {"pg_default_acl", 826}, {"pg_transform", 3576}, {"pg_range", 3541},
	{"pg_partitioned_table", 3350}, {"pg_largeobject_metadata", 2995}, {"pg_foreign_table", 3118},
	{"pg_amop", 2602}, {"pg_amproc", 2603}, {"pg_cast", 2605}, {"pg_shseclabel", 3592},
	{"pg_db_role_setting", 2964}, {"pg_parameter_acl", 6243},
};

Oid
SystemCatalogOid(const char *name)
{
	for (int i = 0; i < NCOLS(catalog_oids); i++)
		if (strcmp(catalog_oids[i].name, name) == 0)
			return catalog_oids[i].oid;
	return InvalidOid;
}

char *
SystemRegOutput(Oid type, Oid value)
{
	Value		oid = typio_int(OIDOID, value);

	for (int i = 0; type == REGCLASSOID && i < NCOLS(catalog_oids); i++)
		if (catalog_oids[i].oid == value)
			return pstrdup(catalog_oids[i].name);
	if (type == REGPROCOID || type == REGPROCEDUREOID)
	{
		const BuiltinProc *p = BuiltinProcByOid(value);

		return p ? pstrdup(type == REGPROCOID ? p->regproc : p->regprocedure) : NULL;
	}
	if (type == REGTYPEOID)
		return typio_lookup(value) ? pstrdup(typio_format_type(value)) : NULL;
	if (type == REGCLASSOID)	/* qualified when not visible, as PostgreSQL's */
		return CacheLookupText(psprintf("SELECT CASE WHEN c._rl_visible THEN '' ELSE rl_quote_ident(n.nspname) || '.' END"
										" || rl_quote_ident(c.relname) FROM (%s) AS c JOIN (%s) AS n"
										" ON n.oid = c.relnamespace WHERE c.oid = ?1",
										SystemRelationLookup("pg_class")->sql, SystemRelationLookup("pg_namespace")->sql),
							   &oid);
	return CacheLookupText(psprintf("SELECT rl_quote_ident(nspname) FROM (%s) WHERE oid = ?1",
									SystemRelationLookup("pg_namespace")->sql), &oid);
}

/*
 * split_qualified -- a possibly qualified name as PostgreSQL's reg* input reads it:
 * parts split at dots, a part in double quotes kept as written ("" a quote), any
 * other folded to lower case; the last part, and in *schema the one before (NULL if
 * none). NULL for what is not a name (an unterminated quote, an empty part, more
 * than three parts).
 */
static char *
split_qualified(const char *in, char **schema)
{
	char	   *parts[3] = {NULL, NULL, NULL};
	int			n = 0;
	const char *p = in;

	for (;;)
	{
		RlBuf		part;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		rlbuf_init_in(&part, CurrentMemoryContext);
		if (*p == '"')
		{
			for (p++;; p++)
			{
				if (*p == '\0')
					return NULL;
				if (*p == '"' && p[1] != '"')
					break;
				p += *p == '"';
				rlbuf_append(&part, p, 1);
			}
			p++;
		}
		else
			for (; *p && *p != '.' && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r'; p++)
			{
				char		c = *p >= 'A' && *p <= 'Z' ? (char) (*p + 'a' - 'A') : *p;

				rlbuf_append(&part, &c, 1);
			}
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (part.len == 0 || n == 3 || (*p != '.' && *p != '\0'))
			return NULL;
		parts[n++] = pstrdup(rlbuf_cstr(&part));
		rlbuf_free(&part);
		if (*p++ == '\0')
			break;
	}
	*schema = n > 1 ? parts[n - 2] : NULL;
	return parts[n - 1];
}

/*
 * proc_lookup -- the builtin function a regproc (a name) or regprocedure (a name and
 * argument types: "abs(integer)") names; *ambiguous when PostgreSQL has several
 * functions of that name (regproc)
 */
static Oid
proc_lookup(Oid type, const char *name, bool *ambiguous)
{
	char	   *schema = NULL;
	const char *open = strchr(name, '(');
	char	   *bare;
	RlBuf		args;

	*ambiguous = false;
	if (type == REGPROCEDUREOID && open == NULL)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				errmsg("expected a left parenthesis"));
	bare = split_qualified(type == REGPROCEDUREOID ? pnstrdup(name, (size_t) (open - name)) : name, &schema);
	if (bare == NULL)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_NAME),
				errmsg("invalid name syntax"));
	if (schema != NULL && strcmp(schema, "pg_catalog") != 0)
		return InvalidOid;
	rlbuf_init_in(&args, CurrentMemoryContext);
	if (type == REGPROCEDUREOID)
	{
		/* the argument types as regprocedure prints them: (integer,text) */
		const char *close = strrchr(open, ')');

		if (close == NULL || close[strspn(close + 1, " ") + 1] != '\0')
			ereport(ERROR,
					errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					errmsg("expected a right parenthesis"));
		rlbuf_append_str(&args, "(");
		for (const char *p = open + 1; p < close;)
		{
			size_t		n = strcspn(p, ",)");
			char	   *t = pnstrdup(p + strspn(p, " "), n - strspn(p, " "));

			for (char *end = t + strlen(t); end > t && end[-1] == ' ';)
				*--end = '\0';
			if (*t == '\0' && p == open + 1 && p + n == close)
				break;			/* () */
			size_t		tlen = strlen(t);
			bool		array = tlen > 2 && strcmp(t + tlen - 2, "[]") == 0;

			if (array)
				t[tlen - 2] = '\0';

			Oid			oid = typio_type_by_name(t);

			if (array && oid != InvalidOid)
				oid = typio_array_type(oid);

			if (oid == InvalidOid)
				ereport(ERROR,
						errcode(ERRCODE_UNDEFINED_OBJECT),
						errmsg("type \"%s\" does not exist", t));
			rlbuf_printf(&args, "%s%s", p == open + 1 ? "" : ",", typio_format_type(oid));
			p += n + (p[n] == ',');
		}
		rlbuf_append_str(&args, ")");
	}
	for (int i = 0; i < BuiltinProcCount(); i++)
	{
		const BuiltinProc *p = BuiltinProcAt(i);
		const char *sig = strchr(p->regprocedure, '(');

		if (strcmp(p->name, bare) != 0 || (type == REGPROCEDUREOID && strcmp(sig, rlbuf_cstr(&args)) != 0))
			continue;
		*ambiguous = type == REGPROCOID && strchr(p->regproc, '.') != NULL;
		rlbuf_free(&args);
		return *ambiguous ? InvalidOid : p->oid;
	}
	rlbuf_free(&args);
	return InvalidOid;
}

Oid
SystemRegLookup(Oid type, const char *name)
{
	bool		ambiguous;

	if (type == REGPROCOID || type == REGPROCEDUREOID)
		return proc_lookup(type, name, &ambiguous);

	char	   *schema = NULL;
	const char *bare = type == REGTYPEOID ? name : split_qualified(name, &schema);

	if (bare == NULL)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_NAME),
				errmsg("invalid name syntax"));
	if (schema != NULL && type != REGCLASSOID)
		return InvalidOid;

	Oid			nsp = schema ? NamespaceOid(schema) : InvalidOid;

	if (schema != NULL && nsp == InvalidOid)
		return InvalidOid;

	for (int i = 0; type == REGCLASSOID && (schema == NULL || strcmp(schema, "pg_catalog") == 0) &&
		 i < NCOLS(catalog_oids); i++)
		if (strcmp(catalog_oids[i].name, bare) == 0)
			return catalog_oids[i].oid;

	Value		key = typio_string(TEXTOID, bare, strlen(bare));
	/* a relation by name: found in the search path, or in the schema named */
	char	   *found = type == REGTYPEOID
		? (typio_type_by_sql_name(name, NULL) != InvalidOid ? psprintf("%u", typio_type_by_sql_name(name, NULL)) : NULL)
		: CacheLookupText(type == REGCLASSOID
						  ? psprintf(schema ? "SELECT oid FROM (%s) WHERE relname = ?1 AND relnamespace = %u"
									 : "SELECT oid FROM (%s) WHERE relname = ?1 AND _rl_visible",
									 SystemRelationLookup("pg_class")->sql, nsp)
						  : psprintf("SELECT oid FROM (%s) WHERE nspname = ?1",
									 SystemRelationLookup("pg_namespace")->sql),
						  &key);

	return found ? (Oid) strtoul(found, NULL, 10) : InvalidOid;
}

Oid
SystemRegInput(Oid type, const char *name)
{
	bool		ambiguous = false;
	char	   *schema = NULL;
	Oid			found = type == REGPROCOID || type == REGPROCEDUREOID ? proc_lookup(type, name, &ambiguous)
		: SystemRegLookup(type, name);

	if (ambiguous)
		ereport(ERROR,
				errcode(ERRCODE_AMBIGUOUS_FUNCTION),
				errmsg("more than one function named \"%s\"", name));
	if (found == InvalidOid && (type == REGPROCOID || type == REGPROCEDUREOID))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("function \"%s\" does not exist", name));

	if (found == InvalidOid && type == REGCLASSOID && split_qualified(name, &schema) && schema &&
		NamespaceOid(schema) == InvalidOid)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_SCHEMA_NAME),
				errmsg("schema \"%s\" does not exist", schema));
	char		shown[TYPIO_SQL_NAME_MAX] = "";

	if (found == InvalidOid && type == REGTYPEOID && typio_type_by_sql_name(name, shown) == InvalidOid && shown[0])
		name = shown;			/* as read: unquoted, folded to lower case */
	if (found == InvalidOid)
		ereport(ERROR,
				errcode(type == REGCLASSOID ? ERRCODE_UNDEFINED_TABLE
						: type == REGTYPEOID ? ERRCODE_UNDEFINED_OBJECT : ERRCODE_INVALID_SCHEMA_NAME),
				errmsg(type == REGCLASSOID ? "relation \"%s\" does not exist"
					   : type == REGTYPEOID ? "type \"%s\" does not exist" : "schema \"%s\" does not exist",
					   name));
	return found;
}
