/*
 * syscat_internal.h: how the pg_catalog relations are described (syscat.c), for the
 * files that add lists of them (syscat_dump.c).
 */
#ifndef RL_SYSCAT_INTERNAL_H
#define RL_SYSCAT_INTERNAL_H

#include "nodes/primnodes.h"

typedef struct SystemRelation
{
	const char *name;
	int			ncolumns;
	const ResultColumn *columns;
	const char *sql;			/* NULL: built by build_sql, or no rows if that is NULL too */
	char	   *(*build_sql) (void);
} SystemRelation;

#define COL(name, type) {name, type, -1}
#define NCOLS(a) ((int) (sizeof(a) / sizeof((a)[0])))

/* The catalogs pg_dump reads that RockLake has no rows of (syscat_dump.c). */
extern const SystemRelation dump_relations[];
extern const int ndump_relations;

#endif
