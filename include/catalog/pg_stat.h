/*
 * pg_stat.h: the statistics views of pg_catalog (pg_stat.c): pg_stat_activity,
 * pg_stat_database and pg_stat_user_tables, and the relation the size functions
 * look their answers up in.
 */
#ifndef RL_PG_STAT_H
#define RL_PG_STAT_H

#include "catalog/cache.h"

/* A statistics view by its name, or NULL (SystemRelationLookup asks here last). */
CacheRelation *PgStatRelationLookup(const char *name);
/*
 * relation_size(relid, table_size, indexes_size, total_size): the bytes each relation's table and
 * its keys' indexes take in the cache, which pg_relation_size and the like read
 * (FuncDesc.catalog); NULL if name is another.
 */
CacheRelation *PgStatFunctionRelation(const char *name);

#endif
