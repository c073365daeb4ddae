/*
 * dbcommands.h: CREATE DATABASE and DROP DATABASE.
 */
#ifndef RL_DBCOMMANDS_H
#define RL_DBCOMMANDS_H

#include <stdbool.h>

/* ERROR 42P04 if it exists; 25001 inside a transaction block. */
void		CreateDatabase(const char *name);
/* ERROR 3D000 if missing (NOTICE with missing_ok), 55006 for the current database. */
void		DropDatabase(const char *name, bool missing_ok);

#endif
