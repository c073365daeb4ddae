/*
 * syscat.h: the pg_catalog and information_schema relations (syscat.c) and the reg*
 * types' text forms.
 */
#ifndef RL_SYSCAT_H
#define RL_SYSCAT_H

#include "catalog/cache.h"

/*
 * The OID of the index behind a key (PRIMARY KEY or UNIQUE): INDEX_OID_BASE + the
 * table's relid * 256 + the index's position in SQLite's index_list.
 */
#define INDEX_OID_BASE			0x20000000

/* A pg_catalog relation (syscat.c); NULL if there is none of that name. */
CacheRelation *SystemRelationLookup(const char *name);
/* The relation a function that reads the catalog looks in (FuncDesc.catalog; syscat.c). */
CacheRelation *CatalogFunctionRelation(const char *name);
/* An information_schema relation (schemata, tables, columns; syscat.c), or NULL. */
CacheRelation *InformationSchemaLookup(const char *name);
/*
 * pg_attribute's rows as a SQLite query: every relation's and index's columns, or with
 * one_relation those of the one whose OID is bound to ?1 (pg_attribute.c runs them).
 */
char	   *SystemAttributeSql(bool one_relation);
/* A system catalog's OID, as PostgreSQL gives it (its rows' tableoid), or InvalidOid. */
Oid			SystemCatalogOid(const char *name);
/* The reg* types' text forms: typio_reg_hooks (syscat.c). */
char	   *SystemRegOutput(Oid type, Oid value);
Oid			SystemRegInput(Oid type, const char *name);
/* SystemRegInput's lookup without the error: InvalidOid when there is no such object */
Oid			SystemRegLookup(Oid type, const char *name);

#endif
