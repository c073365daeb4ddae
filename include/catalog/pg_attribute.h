/*
 * pg_attribute.h: pg_attribute as an SQLite virtual table that reads one relation's
 * columns when the query names its attrelid (pg_attribute.c).
 */
#ifndef RL_PG_ATTRIBUTE_H
#define RL_PG_ATTRIBUTE_H

#include <sqlite3.h>

/* the virtual table's name in the cache connection's main schema */
#define PG_ATTRIBUTE_VTAB "rl_pg_attribute"

/* registers the virtual table on the cache connection db; SQLITE_OK or SQLite's error */
int			PgAttributeRegister(sqlite3 *db);

#endif
