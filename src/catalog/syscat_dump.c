/*
 * syscat_dump.c: the catalogs pg_dump reads besides those clients read every day
 * (syscat.c), with PostgreSQL 15's columns and no rows.
 *
 * pg_dump 15 reads every catalog that can hold something it would dump: text
 * search objects, operator families, casts' ranges, transforms, default
 * privileges, initial privileges, large objects, security labels, partitioned
 * tables, foreign tables, operator classes' members, casts, per-database settings
 * and the dependencies between objects. RockLake's users make none of
 * these, and pg_dump never dumps the built-in ones PostgreSQL lists in them (it
 * skips pg_catalog's objects), so each is a relation with no rows. pg_depend is
 * empty too: a RockLake database has no views, sequences or extensions of its
 * own, so nothing in it depends on anything pg_dump must order it after (a key's
 * constraint comes after its table in pg_dump's own order). Their OIDs, which
 * their rows' tableoid and regclass give, are in syscat.c's list.
 */
#include "catalog/pg_authid.h"
#include "catalog/syscat_internal.h"
#include "utils/adt/typio.h"

static const ResultColumn pg_depend_cols[] = {
	COL("classid", OIDOID), COL("objid", OIDOID), COL("objsubid", INT4OID), COL("refclassid", OIDOID),
	COL("refobjid", OIDOID), COL("refobjsubid", INT4OID), COL("deptype", CHAROID),
};

static const ResultColumn pg_init_privs_cols[] = {
	COL("objoid", OIDOID), COL("classoid", OIDOID), COL("objsubid", INT4OID), COL("privtype", CHAROID),
	COL("initprivs", ACLITEMARRAYOID),
};

static const ResultColumn pg_opfamily_cols[] = {
	COL("oid", OIDOID), COL("opfmethod", OIDOID), COL("opfname", NAMEOID), COL("opfnamespace", OIDOID),
	COL("opfowner", OIDOID),
};

static const ResultColumn pg_ts_parser_cols[] = {
	COL("oid", OIDOID), COL("prsname", NAMEOID), COL("prsnamespace", OIDOID), COL("prsstart", REGPROCOID),
	COL("prstoken", REGPROCOID), COL("prsend", REGPROCOID), COL("prsheadline", REGPROCOID),
	COL("prslextype", REGPROCOID),
};

static const ResultColumn pg_ts_template_cols[] = {
	COL("oid", OIDOID), COL("tmplname", NAMEOID), COL("tmplnamespace", OIDOID), COL("tmplinit", REGPROCOID),
	COL("tmpllexize", REGPROCOID),
};

static const ResultColumn pg_ts_dict_cols[] = {
	COL("oid", OIDOID), COL("dictname", NAMEOID), COL("dictnamespace", OIDOID), COL("dictowner", OIDOID),
	COL("dicttemplate", OIDOID), COL("dictinitoption", TEXTOID),
};

static const ResultColumn pg_ts_config_cols[] = {
	COL("oid", OIDOID), COL("cfgname", NAMEOID), COL("cfgnamespace", OIDOID), COL("cfgowner", OIDOID),
	COL("cfgparser", OIDOID),
};

static const ResultColumn pg_default_acl_cols[] = {
	COL("oid", OIDOID), COL("defaclrole", OIDOID), COL("defaclnamespace", OIDOID),
	COL("defaclobjtype", CHAROID), COL("defaclacl", ACLITEMARRAYOID),
};

static const ResultColumn pg_transform_cols[] = {
	COL("oid", OIDOID), COL("trftype", OIDOID), COL("trflang", OIDOID), COL("trffromsql", REGPROCOID),
	COL("trftosql", REGPROCOID),
};

static const ResultColumn pg_range_cols[] = {
	COL("rngtypid", OIDOID), COL("rngsubtype", OIDOID), COL("rngmultitypid", OIDOID),
	COL("rngcollation", OIDOID), COL("rngsubopc", OIDOID), COL("rngcanonical", REGPROCOID),
	COL("rngsubdiff", REGPROCOID),
};

static const ResultColumn pg_partitioned_table_cols[] = {
	COL("partrelid", OIDOID), COL("partstrat", CHAROID), COL("partnatts", INT2OID), COL("partdefid", OIDOID),
	COL("partattrs", INT2VECTOROID), COL("partclass", OIDVECTOROID), COL("partcollation", OIDVECTOROID),
	COL("partexprs", PGNODETREEOID),
};

static const ResultColumn pg_largeobject_metadata_cols[] = {
	COL("oid", OIDOID), COL("lomowner", OIDOID), COL("lomacl", ACLITEMARRAYOID),
};

static const ResultColumn pg_seclabels_cols[] = {
	COL("objoid", OIDOID), COL("classoid", OIDOID), COL("objsubid", INT4OID), COL("objtype", TEXTOID),
	COL("objnamespace", OIDOID), COL("objname", TEXTOID), COL("provider", TEXTOID), COL("label", TEXTOID),
};

static const ResultColumn pg_foreign_table_cols[] = {
	COL("ftrelid", OIDOID), COL("ftserver", OIDOID), COL("ftoptions", TEXTARRAYOID),
};

static const ResultColumn pg_amop_cols[] = {
	COL("oid", OIDOID), COL("amopfamily", OIDOID), COL("amoplefttype", OIDOID), COL("amoprighttype", OIDOID),
	COL("amopstrategy", INT2OID), COL("amoppurpose", CHAROID), COL("amopopr", OIDOID),
	COL("amopmethod", OIDOID), COL("amopsortfamily", OIDOID),
};

static const ResultColumn pg_amproc_cols[] = {
	COL("oid", OIDOID), COL("amprocfamily", OIDOID), COL("amproclefttype", OIDOID),
	COL("amprocrighttype", OIDOID), COL("amprocnum", INT2OID), COL("amproc", REGPROCOID),
};

static const ResultColumn pg_shseclabel_cols[] = {
	COL("objoid", OIDOID), COL("classoid", OIDOID), COL("provider", TEXTOID), COL("label", TEXTOID),
};

static const ResultColumn pg_db_role_setting_cols[] = {
	COL("setdatabase", OIDOID), COL("setrole", OIDOID), COL("setconfig", TEXTARRAYOID),
};

static const ResultColumn pg_parameter_acl_cols[] = {
	COL("oid", OIDOID), COL("parname", TEXTOID), COL("paracl", ACLITEMARRAYOID),
};

#define NO_ROWS(name) {#name, NCOLS(name##_cols), name##_cols, NULL, NULL}

const SystemRelation dump_relations[] = {
	NO_ROWS(pg_depend),
	NO_ROWS(pg_init_privs),
	NO_ROWS(pg_opfamily),
	NO_ROWS(pg_ts_parser),
	NO_ROWS(pg_ts_template),
	NO_ROWS(pg_ts_dict),
	NO_ROWS(pg_ts_config),
	NO_ROWS(pg_default_acl),
	NO_ROWS(pg_transform),
	NO_ROWS(pg_range),
	NO_ROWS(pg_partitioned_table),
	NO_ROWS(pg_largeobject_metadata),
	NO_ROWS(pg_seclabels),
	NO_ROWS(pg_foreign_table),
	NO_ROWS(pg_amop),
	NO_ROWS(pg_amproc),
	NO_ROWS(pg_shseclabel),
	{"pg_db_role_setting", NCOLS(pg_db_role_setting_cols), pg_db_role_setting_cols, NULL, BuildPgDbRoleSettingSql},
	NO_ROWS(pg_parameter_acl),
};

const int	ndump_relations = NCOLS(dump_relations);
