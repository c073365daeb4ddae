/*
 * pg_cast.h: the casts between RockLake's types as pg_cast lists them (pg_cast.c).
 */
#ifndef RL_PG_CAST_H
#define RL_PG_CAST_H

#include "utils/adt/typio.h"

/* pg_cast as a SQLite query */
char	   *BuiltinCastSql(void);

#endif
